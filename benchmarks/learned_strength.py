"""The learned bot's strength by training time: each checkpoint against other bots.

Every checkpoint a training run logged (``draw-dominoes train --log``) plays two-player
single rounds in the duplicate format (every deal in both seat orders, seeded) through
the tournament runner against each ``--against`` bot; the points a round it scores more
than the other bot (with the 95% interval over the deals) and both bots' time a move go
to ``--json`` as one line each, and the curves to ``--chart``. With ``--follow`` it
waits for checkpoints as the training writes them, so both run side by side.

    .venv/bin/python benchmarks/learned_strength.py --log run.jsonl --follow \\
        --against heuristic:300,ismcts:100 --json curve.jsonl --chart docs/learned-curve.svg
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bot_points import points

LEARNED = "net"
"""The checkpoint's seat name (a variant of the ``learned`` bot with its weights)."""


def strength(weights: str, against: str, deals: int, seed: int, out: Path) -> dict[str, Any]:
    """The network in ``weights`` against ``against`` over ``deals`` deals."""
    variants = {LEARNED: ("learned", {"weights": weights})}
    return points(LEARNED, against, deals, variants, seed, out, workers=1)


def checkpoints(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def chart(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = sorted((r for r in rows if r["opponent"] == opponent), key=lambda r: r["minutes"])
        x = [r["minutes"] for r in mine]
        y = [r["points_per_round"] for r in mine]
        low = [r["points_per_round"] - r["ci95_low"] for r in mine]
        high = [r["ci95_high"] - r["points_per_round"] for r in mine]
        axes.errorbar(x, y, yerr=[low, high], marker="o", capsize=3, label=f"against {opponent}")
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("training time (minutes, one core)")
    axes.set_ylabel("points a round more than the opponent")
    axes.set_title("The learned bot by training time (two players, single rounds)")
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", type=Path, required=True, help="the training run's log")
    parser.add_argument(
        "--against", default="heuristic:300,ismcts:100", help="BOT:DEALS,... (default: %(default)s)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--follow", action="store_true", help="wait for the training's end")
    parser.add_argument("--json", type=Path, required=True, help="results, one line a run")
    parser.add_argument("--chart", type=Path, default=None)
    parser.add_argument("--work", type=Path, default=Path("learned-strength"))
    args = parser.parse_args()
    against = [
        (name, int(deals)) for name, _, deals in (p.partition(":") for p in args.against.split(","))
    ]
    done = {(r["file"], r["opponent"]) for r in checkpoints(args.json)}
    args.work.mkdir(parents=True, exist_ok=True)
    while True:
        logged = checkpoints(args.log)
        for line in logged:
            for name, deals in against:
                if (line["file"], name) in done:
                    continue
                stem = Path(line["file"]).stem
                result = strength(
                    line["file"], name, deals, args.seed, args.work / f"{stem}-{name}.jsonl"
                )
                row = {"minutes": line["minutes"], "file": line["file"], **result}
                with args.json.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
                done.add((line["file"], name))
                print(json.dumps(row), flush=True)
        finished = any(line.get("final") for line in logged)
        if not args.follow or finished:
            break
        time.sleep(30)
    if args.chart is not None:
        chart(checkpoints(args.json), args.chart)


if __name__ == "__main__":
    main()
