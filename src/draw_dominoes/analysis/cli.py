"""``draw-dominoes analyse "<position>"``: a position's legal actions, valued by the search."""

from __future__ import annotations

import argparse
import json

from ..i18n import LANGUAGES, language_from_environment, name_action
from ..notation import PositionError
from ..round import Round
from ..view import PlayerView
from .analyse import analyse

__all__ = ["add_arguments", "read_position", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        help="a round's position text (round.to_text(): the seat to move is analysed) "
        "or a seat's view text (view.to_text())",
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="search iterations (default: 4 × a move's)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the entries as JSON")
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help="language of the names")


def read_position(text: str) -> PlayerView:
    """The view to analyse: a view text as it is, a round text as its mover's view (R21:
    the analysis sees what that seat may see, never the other hands)."""
    fields = text.split()
    if len(fields) == 9:
        round_ = Round.from_text(text)
        return round_.view(round_.current_player)
    return PlayerView.from_text(text)


def run(args: argparse.Namespace) -> int:
    try:
        view = read_position(args.position)
    except PositionError as error:
        print(f"draw-dominoes analyse: {error}")
        return 2
    if args.iterations is not None and args.iterations < 1:
        print("draw-dominoes analyse: --iterations is a whole number of at least 1")
        return 2
    try:
        entries = analyse(view, iterations=args.iterations, seed=args.seed)
    except ValueError as error:
        print(f"draw-dominoes analyse: {error}")
        return 2
    if args.json:
        print(json.dumps({"view": view.to_text(), "entries": [e.to_dict() for e in entries]}))
        return 0
    lang = args.lang or language_from_environment()
    hand = " ".join(map(str, view.hand)) or "-"
    print(f"seat {view.player} to move · line {view.line} · hand {hand}")
    print(f"{'action':<9} {'points':>7} {'value':>8} {'visits':>7}")
    for entry in entries:
        points = "forced" if entry.forced else _number(entry.points, "+.2f")
        value = "" if entry.forced else _number(entry.value, "+.4f")
        named = name_action(entry.action, view.line, lang)
        print(f"{entry.action!s:<9} {points:>7} {value:>8} {entry.visits:>7}  {named}")
    return 0


def _number(number: float | None, spec: str) -> str:
    return "-" if number is None else format(number, spec)
