"""The ``draw-dominoes`` command line: one subcommand per interface, each in its own module."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

# Each subcommand lives in a module with ``add_arguments(parser)`` and ``run(args) -> int``.
# Only the module of the command being run is imported: a fast start, and one part of
# the program cannot stop the others from running.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("draw_dominoes.terminal.app", "play a match in the terminal"),
    "replay": ("draw_dominoes.terminal.replay", "step through a saved game"),
    "review": (
        "draw_dominoes.terminal.review",
        "every decision of a saved or finished match, valued by the bots",
    ),
    "analyse": (
        "draw_dominoes.analysis.cli",
        "every legal action of a position (its text), valued by the expert's search",
    ),
    "stats": (
        "draw_dominoes.terminal.stats",
        "your wins and losses against the bots, by level and number of players",
    ),
    "serve": ("draw_dominoes.web.cli", "run the web app"),
    "backup": ("draw_dominoes.web.backup", "copy the web app's database, safe while it runs"),
    "migrate": ("draw_dominoes.web.migrate", "copy the web app's tables from SQLite to PostgreSQL"),
    "tournament": ("draw_dominoes.tournament.cli", "play bots against each other and rate them"),
    "train": ("draw_dominoes.learned.cli", "train the learned bot's network by self-play"),
    "diagram": ("draw_dominoes.render.cli", "draw a line of tiles as an SVG"),
    "demo": ("draw_dominoes.demo", "watch random players play a seeded match"),
}

# The extra each command needs, and the modules of that extra: a command whose extra is not
# installed says in one line what to install, instead of failing with a traceback.
EXTRAS: dict[str, str] = {
    "play": "terminal",
    "replay": "terminal",
    "review": "terminal",
    "stats": "terminal",
    "serve": "web",
    "tournament": "tournament",
    "train": "rl",
}
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "terminal": ("rich", "textual"),
    "web": ("fastapi", "starlette", "uvicorn", "websockets", "prometheus_client", "httptools"),
    "tournament": ("ray", "matplotlib", "tqdm"),
    "rl": ("numpy",),
}


def _missing(modules: Sequence[str]) -> str | None:
    """The first of ``modules`` that cannot be imported, if any."""
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):
            return name
    return None


def _needs_extra(command: str) -> int:
    extra = EXTRAS[command]
    print(
        f"draw-dominoes {command} needs the {extra} extra: pip install 'draw-dominoes[{extra}]'",
        file=sys.stderr,
    )
    return 2


def _of_extra(command: str, error: ModuleNotFoundError) -> bool:
    """Whether ``error`` is a module of the extra ``command`` needs going missing."""
    extra = EXTRAS.get(command)
    top = (error.name or "").partition(".")[0]
    return extra is not None and top in EXTRA_MODULES[extra]


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
    if command in EXTRAS and _missing(EXTRA_MODULES[EXTRAS[command]]) is not None:
        return _needs_extra(command)
    try:
        parser = build_parser(command if command in COMMANDS else None)
        args = parser.parse_args(args_list)
        if args.command is None:
            parser.print_help()
            return 2
        result: int = importlib.import_module(COMMANDS[args.command][0]).run(args)
    except ModuleNotFoundError as error:
        if command is None or not _of_extra(command, error):
            raise
        return _needs_extra(command)
    return result


if __name__ == "__main__":
    sys.exit(main())
