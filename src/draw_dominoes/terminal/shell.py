"""How this program is run from a shell, as the terminal's messages and errors name it."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

__all__ = ["invocation"]


def invocation() -> str:
    """How to run this program from a shell: ``draw-dominoes`` when that name on PATH is this
    installation's script, else the script's absolute path, else ``python -m draw_dominoes``,
    so a command the terminal suggests runs as written."""
    here = Path(sys.executable).parent / "draw-dominoes"
    found = shutil.which("draw-dominoes")
    if found is not None and _same_file(found, here):
        return "draw-dominoes"
    if here.is_file() and os.access(here, os.X_OK):
        return shlex.quote(str(here))
    return f"{shlex.quote(sys.executable)} -m draw_dominoes"


def _same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
