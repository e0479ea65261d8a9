"""The browser client's modules, without a browser: each small, every import found, none
left over, and all of them packaged."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
STATIC = ROOT / "src" / "draw_dominoes" / "web" / "static"
MODULES = sorted(STATIC.rglob("*.js"))
MAX_LINES = 600

IMPORT = re.compile(
    r"""^\s*import\s*(?:\{(?P<names>[^}]*)\}\s*from\s*)?["'](?P<path>[^"']+)["']""", re.M
)
EXPORT = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)", re.M
)
EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\}", re.M)


def imports(module: Path) -> list[tuple[Path, list[str]]]:
    """Each relative import of ``module``: the file it names and the names it takes."""
    found = []
    for match in IMPORT.finditer(module.read_text(encoding="utf-8")):
        path = match["path"]
        assert path.startswith("."), f"{module.name} imports {path!r}: no bare or absolute imports"
        names = [part.split(" as ")[0].strip() for part in (match["names"] or "").split(",")]
        found.append(((module.parent / path).resolve(), [name for name in names if name]))
    return found


def exports(module: Path) -> set[str]:
    text = module.read_text(encoding="utf-8")
    names = {match["name"] for match in EXPORT.finditer(text)}
    for match in EXPORT_LIST.finditer(text):
        names |= {part.split(" as ")[-1].strip() for part in match["names"].split(",")}
    return names


def test_the_client_is_split_into_modules() -> None:
    assert (STATIC / "app.js").exists(), "the pages load /static/app.js"
    assert len(MODULES) > 5


@pytest.mark.parametrize("module", MODULES, ids=lambda m: str(m.relative_to(STATIC)))
def test_no_module_is_over_600_lines(module: Path) -> None:
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module.name} has {lines} lines"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: str(m.relative_to(STATIC)))
def test_every_import_names_a_file_and_what_it_exports(module: Path) -> None:
    for target, names in imports(module):
        assert target.is_file(), f"{module.name} imports {target}, which does not exist"
        missing = set(names) - exports(target)
        assert not missing, (
            f"{module.name} imports {sorted(missing)} that {target.name} does not export"
        )


def test_every_module_is_reached_from_app_js() -> None:
    """A module nothing imports is dead code the browser never loads."""
    reached: set[Path] = set()
    todo = [(STATIC / "app.js").resolve()]
    while todo:
        module = todo.pop()
        if module in reached:
            continue
        reached.add(module)
        todo.extend(target for target, _ in imports(module))
    assert {module.resolve() for module in MODULES} == reached


def test_every_static_file_is_packaged() -> None:
    """pyproject's package-data globs take every file under web/static, subfolders too."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["draw_dominoes"]
    package = ROOT / "src" / "draw_dominoes"
    for path in STATIC.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            relative = path.relative_to(package).as_posix()
            assert any(fnmatch.fnmatchcase(relative, glob) for glob in globs), relative
