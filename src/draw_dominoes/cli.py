"""The ``draw-dominoes`` command line: one subcommand per interface, each in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each subcommand lives in a module with ``add_arguments(parser)`` and ``run(args) -> int``.
# Only the module of the command being run is imported: a fast start, and one part of
# the program cannot stop the others from running.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("draw_dominoes.terminal.app", "play a match in the terminal"),
    "replay": ("draw_dominoes.terminal.replay", "step through a saved game"),
    "serve": ("draw_dominoes.web.cli", "run the web app"),
    "backup": ("draw_dominoes.web.backup", "copy the web app's database, safe while it runs"),
    "tournament": ("draw_dominoes.tournament.cli", "play bots against each other and rate them"),
    "diagram": ("draw_dominoes.render.cli", "draw a line of tiles as an SVG"),
    "demo": ("draw_dominoes.demo", "watch random players play a seeded match"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the full arguments of ``command`` (the others are listed only)."""
    parser = argparse.ArgumentParser(
        prog="draw-dominoes", description="Draw, the domino game for two to four players."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, summary) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=summary, description=summary)
        if name == command:
            importlib.import_module(module).add_arguments(command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    result: int = importlib.import_module(COMMANDS[args.command][0]).run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
