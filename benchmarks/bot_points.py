"""Each bot and lever against ``random``, ``heuristic`` and ``ismcts``: points a round and
time a move, two players, single rounds in the duplicate format (the table in
docs/bots.md).

A bot is a registered name or a variant named by ``--bot NAME=BOT:KEY=VALUE,...`` (as the
tournament's); each pairing is one results file in ``--work``, so a stopped run resumes.

    .venv/bin/python benchmarks/bot_points.py --bots learned,expert,prior \\
        --bot prior=expert:prior=1.0 --against random:300,heuristic:300,ismcts:100 \\
        --json points.jsonl --workers 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from draw_dominoes.tournament import Tournament, run_tournament
from draw_dominoes.tournament.cli import parse_variant
from draw_dominoes.tournament.stats import summarize


def points(
    bot: str,
    against: str,
    deals: int,
    variants: dict[str, tuple[str, dict[str, Any]]],
    seed: int,
    out: Path,
    workers: int,
) -> dict[str, Any]:
    """``bot``'s points a round more than ``against`` (95% interval over the deals) and
    each one's time a move."""
    if bot == against:
        return {"bot": bot, "opponent": against, "points_per_round": 0.0}
    names = {bot, against}
    tournament = Tournament(
        players=2,
        tables=((bot, against),),
        deals=deals,
        seed=seed,
        unit="round",
        options={n: variants[n][1] for n in names if n in variants},
        variants={n: variants[n][0] for n in names if n in variants},
    )
    games = run_tournament(tournament, out, workers=workers, progress=False)
    report = summarize(games, 2, "round")
    margin = report.margins[bot][against]
    ms = {b.name: 1000 * b.seconds / max(1, b.decisions) for b in report.bots}
    return {
        "bot": bot,
        "opponent": against,
        "deals": int(margin["deals"]),
        "points_per_round": round(margin["points_per_round"], 2),
        "ci95_low": round(margin["ci95_low"], 2),
        "ci95_high": round(margin["ci95_high"], 2),
        "ms_bot": round(ms[bot], 2),
        "ms_opponent": round(ms[against], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", required=True, help="comma-separated bots and variants")
    parser.add_argument("--bot", action="append", default=[], help="NAME=BOT:KEY=VALUE,...")
    parser.add_argument("--against", default="random:300,heuristic:300,ismcts:100")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--work", type=Path, default=Path("bot-points"))
    args = parser.parse_args()
    variants: dict[str, tuple[str, dict[str, Any]]] = {}
    for text in args.bot:
        name, base, options = parse_variant(text)
        variants[name] = (base, options)
    bots = args.bots.split(",")
    against = [(n, int(d)) for n, _, d in (p.partition(":") for p in args.against.split(","))]
    args.work.mkdir(parents=True, exist_ok=True)
    for bot in bots:
        for name, deals in against:
            row = points(
                bot,
                name,
                deals,
                variants,
                args.seed,
                args.work / f"{bot}-{name}.jsonl",
                args.workers,
            )
            with args.json.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
