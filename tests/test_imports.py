"""Imports run one way: no module imports, directly or round about, one that imports it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).parent.parent / "src"
PACKAGE = SRC / "draw_dominoes"


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by dotted name, and whether it is a package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports_of(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules ``name`` imports when it runs, wherever the import stands
    (at the top or inside a function), leaving out those only type checkers read."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for n in ast.walk(node)}
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in known else target)
    return (found & known) - {name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    known = modules()
    graph = {name: imports_of(name, *info, set(known)) for name, info in known.items()}
    assert circles(graph) == []


def test_the_core_imports_nothing_around_it() -> None:
    """``draw_dominoes/*.py`` is the pure core: it imports no subpackage (DESIGN.md)."""
    known = modules()
    core = {name for name, (path, _) in known.items() if path.parent == PACKAGE}
    core -= {"draw_dominoes.cli", "draw_dominoes.__main__", "draw_dominoes.demo"}
    for name in sorted(core):
        outside = imports_of(name, *known[name], set(known)) - core - {"draw_dominoes"}
        assert not outside, f"{name} imports {sorted(outside)}"


def test_every_module_imports_on_its_own() -> None:
    """Each module imported first, in a fresh interpreter: a circle that only bites in
    one import order shows up here."""
    names = sorted(name for name in modules() if not name.endswith("__main__"))  # runs
    script = (
        "import importlib, subprocess, sys\n"
        "failed = []\n"
        f"for name in {names!r}:\n"
        "    run = subprocess.run([sys.executable, '-c', f'import {name}'], capture_output=True)\n"
        "    if run.returncode: failed.append((name, run.stderr.decode()[-300:]))\n"
        "print(failed)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout
