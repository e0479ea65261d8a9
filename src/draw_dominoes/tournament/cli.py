"""Play a seeded duplicate-format tournament between bots and report ratings with error bars."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import sys
from pathlib import Path
from typing import Any

from .. import bots
from ..rules import RULES

__all__ = ["DEFAULT_MATCHES", "add_arguments", "parse_option", "parse_variant", "run", "tables_for"]

DEFAULT_MATCHES = 100
"""Games a table when ``--matches`` is not given (and not reporting a file)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots, levels or --bot names, one a seat (names may repeat: "
        "ismcts,greedy,greedy); with more names than --players, every table of distinct "
        "bots is played (default: the --bot names, else greedy,random)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=BOT[:KEY=VALUE,...]",
        help="a named variant of a bot or level, e.g. fast=ismcts:iterations=300 and "
        "slow=ismcts:iterations=4800, so that two settings of one bot can meet (repeatable)",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=RULES.player_counts,
        default=2,
        help="seats at every table (default: %(default)s)",
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=None,
        help="games a table, 100 unless given (rounded up to whole duplicate sets: every "
        "seat permutation plays each deal); with --report-only, every game in --out unless given",
    )
    parser.add_argument(
        "--unit",
        choices=("match", "round"),
        default="match",
        help="play whole matches to the target (default) or single rounds",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="deals every game: the same seed, the same deals (default: %(default)s)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot option, e.g. ismcts.iterations=400 or pimc.time_per_move=0.01 (repeatable)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("tournament.jsonl"),
        help="results file (JSON lines); a stopped run resumes from it",
    )
    parser.add_argument(
        "--backend",
        choices=("processes", "serial", "ray"),
        default="processes",
        help="where the games run: local processes, this process, or Ray (default: %(default)s)",
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="parallel processes (default: every core)"
    )
    parser.add_argument(
        "--address",
        default=None,
        help="Ray cluster address for --backend ray (default: a local instance)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the report as JSON here")
    parser.add_argument("--chart", type=Path, default=None, help="write a PNG or SVG chart here")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="play nothing: report the games already in --out (e.g. of a stopped run)",
    )


def parse_option(text: str) -> tuple[str, str, str]:
    """``ismcts.iterations=400`` -> ("ismcts", "iterations", "400"): the value as text, to be
    read by the bot's options (``bots.typed_options``) once the bot is known."""
    name_key, sep, raw = text.partition("=")
    name, dot, key = name_key.partition(".")
    if not sep or not dot or not name or not key:
        raise ValueError(f"not a bot option: {text!r} (expected BOT.KEY=VALUE)")
    return name.strip(), key.strip(), raw.strip()


def parse_variant(text: str) -> tuple[str, str, dict[str, Any]]:
    """``fast=ismcts:iterations=300,epsilon=0.2`` -> ("fast", "ismcts", {"iterations": 300,
    "epsilon": 0.2}): the spec after ``NAME=`` read by ``bots.split_spec`` and its options
    typed and checked by the bot's options (``bots.typed_options``)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name or "," in name or "." in name or not spec.partition(":")[0].strip():
        raise ValueError(f"not a bot variant: {text!r} (expected NAME=BOT[:KEY=VALUE,...])")
    base, settings = bots.split_spec(spec)
    return name, base, bots.typed_options(base, settings)


def tables_for(names: list[str], players: int) -> list[tuple[str, ...]]:
    """One table when there is a name a seat; otherwise every table of ``players`` distinct bots."""
    if len(names) == players:
        return [tuple(names)]
    distinct = list(dict.fromkeys(names))
    if len(names) < players or len(distinct) != len(names):
        raise ValueError(
            f"give exactly {players} bots (one a seat) or more than {players} distinct bots "
            f"(every combination is played), not {', '.join(names)}"
        )
    return list(itertools.combinations(distinct, players))


def run(args: argparse.Namespace) -> int:
    from .report import format_table, write_chart, write_json
    from .runner import (
        ResultsFileError,
        Tournament,
        load_results,
        run_tournament,
        seat_permutations,
    )
    from .stats import summarize

    try:
        variants: dict[str, str] = {}
        options: dict[str, dict[str, Any]] = {}
        for text in args.bot:
            name, base, settings = parse_variant(text)
            if name in variants:
                raise ValueError(f"--bot {name} is given twice")
            if name in bots.NAMES or name in bots.LEVELS:
                raise ValueError(f"--bot {name}: a variant needs a name of its own, not a bot's")
            variants[name] = bots.resolve(base)
            options[name] = settings
        listed = args.bots if args.bots is not None else ",".join(variants) or "greedy,random"
        names = [n.strip() for n in listed.split(",") if n.strip()]
        tables = tables_for(names, args.players)
        for name in names:  # a level plays its bot, under the level's name
            if name in bots.LEVELS and name not in bots.NAMES:
                variants[name] = bots.resolve(name)
        for text in args.option:
            name, key, value = parse_option(text)
            options.setdefault(name, {})[key] = value
        options = {n: bots.typed_options(variants.get(n, n), o) for n, o in options.items()}
        matches = DEFAULT_MATCHES if args.matches is None else args.matches
        if matches < 1:
            raise ValueError(f"--matches must be at least 1, not {matches}")
        if args.workers is not None and args.workers < 1:
            raise ValueError(f"--workers must be at least 1, not {args.workers}")
        sets = max(len(seat_permutations(t)) for t in tables)
        deals = math.ceil(matches / sets)
        tournament = Tournament(
            players=args.players,
            tables=tuple(tables),
            deals=deals,
            seed=args.seed,
            unit=args.unit,
            options=options,
            variants=variants,
        )
        if args.report_only:
            if not args.out.exists():
                raise ValueError(f"there is no results file {args.out} to report on")
            finished = load_results(args.out, tournament)
            if args.matches is None:
                # Report what the file holds: as many deals as its furthest game reached.
                if not finished:
                    raise ValueError(f"{args.out} holds no finished games yet")
                try:
                    deals = max(int(r["deal"]) + 1 for r in finished.values())
                except (KeyError, TypeError, ValueError):
                    raise ValueError(f"{args.out}: a finished game has no deal number") from None
                tournament = dataclasses.replace(tournament, deals=deals)
        print(
            f"{len(tables)} table(s) of {args.players}, {deals} deals each in every seat order: "
            f"{sum(deals * len(seat_permutations(t)) for t in tables)} {args.unit} games "
            f"-> {args.out}",
            file=sys.stderr,
        )
        if args.report_only:
            records = [finished[g.key] for g in tournament.games() if g.key in finished]
        else:
            records = run_tournament(
                tournament,
                args.out,
                backend=args.backend,
                workers=args.workers,
                address=args.address,
                progress=not args.no_progress,
            )
    except (ValueError, ResultsFileError) as exc:
        print(f"draw-dominoes tournament: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            f"\nstopped; finished games are kept in {args.out}: run again to resume",
            file=sys.stderr,
        )
        return 130
    report = summarize(records, args.players, args.unit)
    print(format_table(report))
    if args.json is not None:
        write_json(report, args.json)
    if args.chart is not None:
        write_chart(report, args.chart)
    return 0
