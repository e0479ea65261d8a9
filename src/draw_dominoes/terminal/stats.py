"""``draw-dominoes stats``: wins and losses against the bots, by level and number of players."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import LANGUAGES

__all__ = ["Record", "tally"]

MIXED = "mixed"
"""The level of a match against bots of more than one level."""


@dataclass(slots=True)
class Record:
    """One row: matches against one level at one table size."""

    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.drawn


@dataclass(slots=True)
class Tally:
    """Every finished match one person played against bots, and what was left out."""

    rows: dict[tuple[int, str], Record] = field(default_factory=dict)
    unfinished: int = 0
    hot_seat: int = 0  # matches of two or more people: nobody's record alone
    unreadable: list[str] = field(default_factory=list)


def level_of(bot: str) -> str:
    """The level a bot plays (``greedy`` → ``easy``), or the bot's own name if it has none."""
    from .. import bots

    for level, name in bots.LEVELS.items():
        if name == bot:
            return level
    return bot


def tally(directory: Path) -> Tally:
    """Read every save in ``directory``; a damaged one is named, never changed."""
    from .saves import SaveError, read_save, save_files

    result = Tally()
    for path in sorted(save_files(directory)):
        try:
            saved = read_save(path)
        except SaveError as exc:
            result.unreadable.append(str(exc))
            continue
        people = [number for number, seat in enumerate(saved.seats) if seat.is_human]
        if not people:
            continue  # bots alone: no player's record
        if len(people) > 1:
            result.hot_seat += 1
            continue
        match = saved.match
        if not match.is_over:
            result.unfinished += 1
            continue
        levels = {level_of(seat.player) for seat in saved.seats if not seat.is_human}
        key = (match.players, levels.pop() if len(levels) == 1 else MIXED)
        row = result.rows.setdefault(key, Record())
        if people[0] not in match.winners:
            row.lost += 1
        elif match.is_draw:
            row.drawn += 1
        else:
            row.won += 1
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="language (default: from LANG)"
    )
    parser.add_argument("--plain", action="store_true", help="plain text without a table")
    parser.add_argument("--json", action="store_true", help="the figures as JSON, for scripts")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from .. import bots
    from ..i18n import language_from_environment, translate
    from .saves import saves_directory
    from .shell import invocation

    lang: str = args.lang or language_from_environment()
    directory = saves_directory()
    result = tally(directory)
    order = {level: n for n, level in enumerate(bots.LEVELS)}
    keys = sorted(result.rows, key=lambda k: (k[0], order.get(k[1], len(order)), k[1]))

    def words(key: str, **values: object) -> str:
        return translate(f"terminal.{key}", lang, command=invocation(), **values)

    def level_name(level: str) -> str:
        try:
            return translate(f"common.level_{level}", lang)
        except KeyError:
            return words("stats_mixed") if level == MIXED else level

    if args.json:
        rows = [
            {
                "players": players,
                "level": level,
                "played": result.rows[players, level].played,
                "won": result.rows[players, level].won,
                "lost": result.rows[players, level].lost,
                "drawn": result.rows[players, level].drawn,
            }
            for players, level in keys
        ]
        document = {
            "directory": str(directory),
            "rows": rows,
            "unfinished": result.unfinished,
            "hot_seat": result.hot_seat,
            "unreadable": result.unreadable,
        }
        print(json.dumps(document, ensure_ascii=False, indent=1))
        return 0
    console = Console(highlight=False, no_color=args.plain, soft_wrap=args.plain)
    if not keys:
        console.print(words("stats_none", directory=directory), markup=False)
    elif args.plain:
        console.print(words("stats_title", directory=directory), markup=False)
        for players, level in keys:
            row = result.rows[players, level]
            text = words(
                "stats_row",
                players=players,
                level=level_name(level),
                played=row.played,
                won=row.won,
                lost=row.lost,
                drawn=row.drawn,
                share=_share(row, lang),
            )
            console.print(text, markup=False)
    else:
        table = Table(title=words("stats_title", directory=directory))
        for column in ("players", "level", "played", "won", "lost", "drawn", "share"):
            table.add_column(
                words(f"stats_{column}"), justify="left" if column == "level" else "right"
            )
        for players, level in keys:
            row = result.rows[players, level]
            table.add_row(
                str(players),
                level_name(level),
                str(row.played),
                str(row.won),
                str(row.lost),
                str(row.drawn),
                _share(row, lang),
            )
        console.print(table)
    if result.unfinished:
        console.print(words("stats_unfinished", count=result.unfinished), markup=False)
    if result.hot_seat:
        key = "stats_hot_seat_one" if result.hot_seat == 1 else "stats_hot_seat"
        console.print(words(key, count=result.hot_seat), markup=False)
    for problem in result.unreadable:
        print(words("saves_left_out", problem=problem), file=sys.stderr)
    return 0


def _share(row: Record, lang: str) -> str:
    """The share of matches won, with the language's decimal mark."""
    from ..i18n import format_decimal

    return f"{format_decimal(100 * row.won / row.played, lang)}%" if row.played else "–"
