"""Watch a seeded match between random players, printed move by move."""

from __future__ import annotations

import argparse
import random

from . import Match
from .i18n import LANGUAGES
from .rules import RULES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, choices=RULES.player_counts)
    parser.add_argument("--seed", type=int, default=None, help="replay the same match")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")


def run(args: argparse.Namespace) -> int:
    match = Match.new(args.players, seed=args.seed)
    rng = random.Random(f"players of match {match.seed}")  # not the stream that deals
    print(f"Match of {match.players} players to {match.target}, seed {match.seed}")
    while not match.is_over:
        number = len(match.rounds) + 1
        game = match.current_round
        print(f"\nRound {number}, led by player {game.leader}")
        while not game.is_over:
            seat = game.current_player
            action = rng.choice(game.legal_actions())
            match.apply(action)
            print(f"  player {seat}: {action}")
        outcome = game.outcome
        assert outcome is not None
        print(f"  {game.line.describe(args.lang)}")
        print(
            f"  {outcome.kind}: winner {outcome.winner}, {outcome.points} points;"
            f" hand totals {list(outcome.pip_totals)}; scores {list(match.scores)}"
        )
    print(f"\nWinners: {match.winners}{' (a draw)' if match.is_draw else ''}")
    return 0
