"""The server stays easy to change: small modules and functions, and the table's state
machine free of I/O (no asyncio, sockets or databases in ``web/table``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).parent.parent / "src" / "draw_dominoes" / "web"
MODULES = sorted(WEB.rglob("*.py"))
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


@pytest.mark.parametrize("module", MODULES, ids=lambda path: str(path.relative_to(WEB)))
def test_no_module_of_the_server_is_over_500_lines(module: Path) -> None:
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{module.name} has {lines} lines"


@pytest.mark.parametrize("module", MODULES, ids=lambda path: str(path.relative_to(WEB)))
def test_no_function_of_the_server_is_over_80_lines(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, f"{module.name}: {node.name} has {length}"


def test_the_table_state_machine_does_no_io() -> None:
    """``step`` and ``due`` are pure: the runtime alone touches sockets, timers and stores."""
    forbidden = {"asyncio", "sqlite3", "psycopg", "redis", "socket", "fastapi", "time", "random"}
    for module in sorted((WEB / "table").glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{module.name} imports {name}"
