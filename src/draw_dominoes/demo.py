"""Watch a seeded match between random players, printed move by move."""

from __future__ import annotations

import argparse
import os
import random
import sys

from . import Match
from .i18n import LANGUAGES, describe_line, explain_outcome, translate
from .rules import RULES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, choices=RULES.player_counts)
    parser.add_argument("--seed", type=int, default=None, help="replay the same match")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default: en)")


def _names(names: list[str], lang: str) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(names) == 1:
        return names[0]
    return translate("common.and", lang, first=", ".join(names[:-1]), last=names[-1])


def run(args: argparse.Namespace) -> int:
    try:
        return _play(args)
    except BrokenPipeError:  # piped into head: the reader has seen enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _play(args: argparse.Namespace) -> int:
    lang: str = args.lang
    match = Match.new(args.players, seed=args.seed)
    rng = random.Random(f"players of match {match.seed}")  # not the stream that deals
    names = [
        translate("common.demo_player", lang, number=seat + 1) for seat in range(match.players)
    ]
    print(
        translate(
            "common.demo_header", lang, players=match.players, target=match.target, seed=match.seed
        )
    )
    while not match.is_over:
        number = len(match.rounds) + 1
        game = match.current_round
        print()
        print(translate("common.demo_round", lang, number=number, name=names[game.leader]))
        while not game.is_over:
            seat = game.current_player
            action = rng.choice(game.legal_actions())
            match.apply(action)
            print(f"  {names[seat]}: {action}")
        outcome = game.outcome
        assert outcome is not None
        print(f"  {describe_line(game.line, lang)}")
        print(f"  {explain_outcome(outcome, names, lang)}")
        scores = ", ".join(f"{name}: {score}" for name, score in zip(names, match.scores))
        print(f"  {translate('common.demo_scores', lang, scores=scores)}")
    winners = _names([names[seat] for seat in match.winners], lang)
    key = "common.match_drawn" if match.is_draw else "common.match_won"
    print()
    print(translate(key, lang, names=winners, score=max(match.scores)))
    sys.stdout.flush()
    return 0
