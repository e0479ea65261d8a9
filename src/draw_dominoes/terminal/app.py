"""Play a match of Draw in the terminal against bots or friends (hot seat)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import LANGUAGES
from ..rules import RULES

if TYPE_CHECKING:
    from ..match import Match
    from .saves import Saved, SavedSeat, Unfinished

HUMAN = "human"


def _seat_choices() -> list[str]:
    from .. import bots

    return [HUMAN, *bots.LEVELS, *(b for b in bots.OFFERED if b not in bots.LEVELS)]


def _level_help() -> str:
    from .. import bots

    return ", ".join(
        level if level == bot else f"{level} = {bot}" for level, bot in bots.LEVELS.items()
    )


KEYS = """keys at your turn, on the board:
  <- ->, or a number  choose a tile (two digits quickly for 10 and up; or click it)
  Enter               place it; at both ends, <- or -> picks the end (Esc: another tile)
  d  draw     p  pass (only when nothing else is allowed)     ?  the line in words
  !  a hint (with --hints)     u  take back (every other seat a bot)     q  save and quit
with --plain, type: a tile's number (add l or r for the end) or [1|4]; d, p, ?, !, h, q"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = KEYS
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--seat",
        action="append",
        metavar="PLAYER",
        choices=_seat_choices(),
        help=f"add a seat: {', '.join(_seat_choices())} (2 to 4 seats; default: the set-up"
        " screen, or with --plain human greedy;"
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
        "--plain",
        action="store_true",
        help="line by line instead of the full-screen board: no colour, no cursor movement"
        " (screen readers, logs)",
    )
    parser.add_argument(
        "--hints",
        action="store_true",
        help="allow hints: ! shows the best move and what it is worth (off by default)",
    )
    parser.add_argument(
        "--numerals",
        action="store_true",
        help="draw the halves of the tiles as numbers instead of dice faces (the board)",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="continue an unfinished match (a list, newest first, when there are several;"
        " bots alone only by FILE), or the save FILE",
    )


def run(args: argparse.Namespace) -> int:
    from ..i18n import language_from_environment, translate
    from ..match import Match
    from .saves import (
        SavedSeat,
        SaveError,
        new_save_path,
        read_save,
        saves_directory,
        shown_path,
        unfinished,
    )
    from .shell import invocation

    lang: str = args.lang or language_from_environment()
    # Full screen for people at a terminal; --plain (and bots alone) keep the line-based mode.
    full_screen = not args.plain and sys.stdin.isatty() and sys.stdout.isatty()

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
                listed = unfinished(saves_directory())  # people's matches only, newest first
                found = listed.saves
                for problem in listed.left_out:  # named, never in the way of the good ones
                    left_out = translate("terminal.saves_left_out", lang, problem=problem)
                    print(left_out, file=sys.stderr)
                if not found:
                    return fail("error_nothing_to_resume", directory=saves_directory())
                chosen_save = _choose_save(listed, args.lang or found[0].lang, full_screen)
                if chosen_save is None:
                    return 0
                saved = chosen_save
        except SaveError as exc:
            message = translate("terminal.error_bad_save", lang, problem=exc, command=invocation())
            print(message, file=sys.stderr)
            return 1
        if saved.match.is_over:
            return fail("error_match_over", path=saved.path)
        lang = args.lang or saved.lang
        if any(seat.is_human for seat in saved.seats) and not sys.stdin.isatty():
            return fail("error_no_terminal")
        resuming = translate("terminal.resuming", lang, path=shown_path(saved.path))
        return _play(saved.match, saved.seats, lang, saved.path, saved.hints, args, resuming)

    from .. import bots

    hints: bool = args.hints
    if args.seat:
        chosen = list(args.seat)
    elif full_screen:  # the set-up screen offers the levels, each with what it does
        from .setup import Setup

        choice = Setup(lang, hints).run()
        if choice is None:
            return 0
        chosen = [HUMAN, *[choice.level] * choice.opponents]
        hints = choice.hints
    else:
        chosen = [HUMAN, "greedy"]
    # A level is played by its bot, and saved as the bot's name; one bot alone means you
    # against it.
    if len(chosen) == 1 and chosen[0] != HUMAN:
        chosen = [HUMAN, *chosen]
    players = [p if p == HUMAN else bots.resolve(p) for p in chosen]
    if not RULES.allows(len(players)):
        return fail("error_seat_count", count=len(players))
    if len(args.name) > len(players):
        return fail("error_name_count", names=len(args.name), seats=len(players))
    names: list[str | None] = [*args.name, *[None] * (len(players) - len(args.name))]
    seats = tuple(SavedSeat(player, name) for player, name in zip(players, names))
    if any(seat.is_human for seat in seats) and not sys.stdin.isatty():
        return fail("error_no_terminal")
    match = Match.new(len(seats), seed=args.seed)
    path = new_save_path(saves_directory())
    if args.seed is None:  # the seed deals every round: not shown before the match is over (R21)
        welcome = translate("terminal.welcome", lang, target=match.target, path=shown_path(path))
    else:  # the player chose it and knows it
        key = "terminal.welcome_seeded"
        shown = shown_path(path)
        welcome = translate(key, lang, seed=match.seed, target=match.target, path=shown)
    return _play(match, seats, lang, path, hints, args, welcome, new=True)


def _play(
    match: Match,
    seats: tuple[SavedSeat, ...],
    lang: str,
    path: Path,
    hints: bool,
    args: argparse.Namespace,
    notice: str,
    new: bool = False,
) -> int:
    """The full-screen board for people at a terminal, else the line-based session."""
    from .screen import Screen
    from .session import Session

    if (
        not args.plain
        and sys.stdin.isatty()
        and sys.stdout.isatty()
        and any(seat.is_human for seat in seats)
    ):
        from .board import Board

        farewell = Board(
            match, seats, lang, path, hints, notice=notice, numerals=args.numerals
        ).run()
        for line in farewell.lines if farewell is not None else ():
            print(line)
        return 0
    screen = Screen(plain=args.plain)
    session = Session(match, seats, lang, screen, path, hints)
    screen.say(notice)
    if new:
        session.save()  # a failure is told, and the match is played in memory all the same
    return session.play(resumed=not new)


def _choose_save(listed: Unfinished, lang: str, full_screen: bool) -> Saved | None:
    """The save to continue: the only one, or the one chosen from a list, newest first."""
    found = listed.saves
    if len(found) == 1 or not sys.stdin.isatty():
        return found[0]
    if full_screen:
        from .resume import ResumeChooser

        return ResumeChooser(found, lang, listed.left_out).run()
    from .resume import describe_save
    from .words import Words

    words = Words(lang)
    print(words("resume_title"))
    for number, saved in enumerate(found, 1):
        print(f"  {number}. {describe_save(saved, words)}")
    while True:
        print(words("resume_prompt"))
        try:
            answer = input("> ").strip().lower()
        except EOFError:
            return None
        if answer in ("q", "quit"):
            return None
        if not answer:
            return found[0]
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1]
        print(words("resume_bad_choice", text=answer[:24], count=len(found)))
