"""The ``draw-dominoes`` command line: one subcommand per interface, each in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

# Each subcommand lives in a module with ``add_arguments(parser)`` and ``run(args) -> int``;
# the module keeps heavy imports inside ``run`` so that ``--help`` stays fast.
COMMANDS: dict[str, str] = {
    "play": "draw_dominoes.terminal.app",
    "replay": "draw_dominoes.terminal.replay",
    "tournament": "draw_dominoes.tournament.cli",
    "serve": "draw_dominoes.web.cli",
    "diagram": "draw_dominoes.render.cli",
    "demo": "draw_dominoes.demo",
}


def _load(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None  # that part of the program is not built yet
        raise


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="draw-dominoes", description="Draw, the domino game for two to four players."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    for name, path in COMMANDS.items():
        module = _load(path)
        if module is None:
            continue
        doc = (module.__doc__ or name).strip().splitlines()[0]
        command = sub.add_parser(name, help=doc, description=doc)
        module.add_arguments(command)
        modules[name] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    result: int = modules[args.command].run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
