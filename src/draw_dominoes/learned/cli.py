"""``draw-dominoes train``: train the learned bot's network by self-play, from a seed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..rules import RULES
from .train import TrainingSettings, train

__all__ = ["add_arguments", "run"]


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of table sizes: {text!r}") from None
    if not sizes or not all(RULES.allows(n) for n in sizes):
        raise argparse.ArgumentTypeError(f"table sizes are {RULES.player_counts}, not {text!r}")
    return sizes


def _hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of layer sizes: {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"layer sizes are positive: {text!r}")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = TrainingSettings()
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write")
    parser.add_argument(
        "--minutes", type=float, default=None, help="train this long (or give --steps)"
    )
    parser.add_argument("--steps", type=int, default=None, help="sets of rounds to play")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="(default: %(default)s)")
    parser.add_argument(
        "--players",
        type=_sizes,
        default=defaults.players,
        help="table sizes taken in turn, e.g. 2,3,2,4 (default: every size)",
    )
    parser.add_argument(
        "--hidden", type=_hidden, default=defaults.hidden, help="hidden layers (default: 256,256)"
    )
    parser.add_argument(
        "--rounds", type=int, default=defaults.rounds, help="rounds at once (%(default)s)"
    )
    parser.add_argument(
        "--every", type=float, default=10.0, help="minutes between checkpoints (%(default)s)"
    )
    parser.add_argument("--log", type=Path, default=None, help="JSON lines of the checkpoints")


def run(args: argparse.Namespace) -> int:
    if args.minutes is None and args.steps is None:
        print("draw-dominoes train: say how long: --minutes or --steps", file=sys.stderr)
        return 2
    settings = TrainingSettings(
        players=args.players, hidden=args.hidden, rounds=args.rounds, seed=args.seed
    )

    def report(line: dict[str, Any]) -> None:
        print(
            f"{line['minutes']} min: {line['steps']} steps, {line['decisions']:,} decisions,"
            f" loss {line['loss']:.4f} -> {line['file']}",
            flush=True,
        )

    train(
        settings,
        args.out,
        seconds=None if args.minutes is None else args.minutes * 60,
        steps=args.steps,
        every=args.every * 60,
        log=args.log,
        report=report,
    )
    return 0
