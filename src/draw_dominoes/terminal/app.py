"""Play a match of Draw in the terminal against bots or friends (hot seat)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import LANGUAGES
from ..rules import RULES

HUMAN = "human"


def _seat_choices() -> list[str]:
    from .. import bots

    return [HUMAN, *bots.LEVELS, *(b for b in bots.OFFERED if b not in bots.LEVELS)]


def _level_help() -> str:
    from .. import bots

    return ", ".join(
        level if level == bot else f"{level} = {bot}" for level, bot in bots.LEVELS.items()
    )


KEYS = """keys at your turn:
  1, 2, ...    place the tile with that number (add l or r to choose the end)
  [1|4]        place that tile (also 1-4, [1|4]@0)
  d            draw a tile        p   pass (only when nothing else is allowed)
  ?            the line in words  !   a hint (with --hints)
  h            help               q   save and quit (also at "which end?")"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = KEYS
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--seat",
        action="append",
        metavar="PLAYER",
        choices=_seat_choices(),
        help=f"add a seat: {', '.join(_seat_choices())} (2 to 4 seats; default: human greedy;"
        f" levels: {_level_help()})",
    )
    parser.add_argument(
        "--name", action="append", default=[], metavar="NAME", help="names for the seats, in order"
    )
    parser.add_argument("--seed", type=int, default=None, help="a seed for a reproducible match")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="language (default: from LANG)"
    )
    parser.add_argument(
        "--plain", action="store_true", help="no colour, no cursor movement (screen readers, logs)"
    )
    parser.add_argument(
        "--hints",
        action="store_true",
        help="allow hints: ! shows the best move and what it is worth (off by default)",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="continue the last unfinished match (or the save FILE)",
    )


def run(args: argparse.Namespace) -> int:
    from ..cli import invocation
    from ..i18n import language_from_environment, translate
    from ..match import Match
    from .saves import (
        SaveError,
        Seat,
        latest_unfinished,
        new_save_path,
        read_save,
        saves_directory,
    )
    from .screen import Screen
    from .session import Session

    lang: str = args.lang or language_from_environment()
    screen = Screen(plain=args.plain)

    def fail(key: str, **values: object) -> int:
        print(translate(f"terminal.{key}", lang, command=invocation(), **values), file=sys.stderr)
        return 2

    if args.resume is not None:
        if args.seat or args.seed is not None or args.name or args.hints:
            return fail("error_resume_options")
        try:
            if args.resume:
                saved = read_save(Path(args.resume))
            else:
                found = latest_unfinished(saves_directory())
                if found is None:
                    return fail("error_nothing_to_resume", directory=saves_directory())
                saved = found
        except SaveError as exc:
            message = translate("terminal.error_bad_save", lang, problem=exc, command=invocation())
            print(message, file=sys.stderr)
            return 1
        if saved.match.is_over:
            return fail("error_match_over", path=saved.path)
        lang = args.lang or saved.lang
        if any(seat.is_human for seat in saved.seats) and not sys.stdin.isatty():
            return fail("error_no_terminal")
        session = Session(saved.match, saved.seats, lang, screen, saved.path, saved.hints)
        screen.say(translate("terminal.resuming", lang, path=saved.path))
        return session.play(resumed=True)

    from .. import bots

    # A level is played by its bot, and saved as the bot's name; one bot alone means you
    # against it.
    chosen = args.seat or [HUMAN, "greedy"]
    if len(chosen) == 1 and chosen[0] != HUMAN:
        chosen = [HUMAN, *chosen]
    players = [p if p == HUMAN else bots.resolve(p) for p in chosen]
    if not RULES.allows(len(players)):
        return fail("error_seat_count", count=len(players))
    if len(args.name) > len(players):
        return fail("error_name_count", names=len(args.name), seats=len(players))
    names: list[str | None] = [*args.name, *[None] * (len(players) - len(args.name))]
    seats = tuple(Seat(player, name) for player, name in zip(players, names))
    if any(seat.is_human for seat in seats) and not sys.stdin.isatty():
        return fail("error_no_terminal")
    match = Match.new(len(seats), seed=args.seed)
    path = new_save_path(saves_directory())
    session = Session(match, seats, lang, screen, path, args.hints)
    if args.seed is None:  # the seed deals every round: not shown before the match is over (R21)
        screen.say(translate("terminal.welcome", lang, target=match.target, path=path))
    else:  # the player chose it and knows it
        welcome = "terminal.welcome_seeded"
        screen.say(translate(welcome, lang, seed=match.seed, target=match.target, path=path))
    session.save()  # a failure is told, and the match is played in memory all the same
    return session.play()
