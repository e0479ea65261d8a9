"""How much the expert's inference sharpens its picture of the opponent's hand.

For every position of seeded two-player rounds between two ``--opponent`` bots, 256
determinizations are drawn from the view of the seat to move; the figure is the share
of the opponent's true tiles that a determinization gives it, unweighted (as ``ismcts``
samples) and weighted by ``Inference`` (as ``expert`` samples).

Then how well the expert's model of a choice fits each opponent, from the same kind of
rounds with every seat played by that bot at its defaults: how often a placement took
the heaviest of two or more tiles that fitted (the model expects nearly always; a
uniform choice takes it at the rate printed beside), how often a seat drew after the
opening while a tile fitted (the model expects 0.5%), and the ``heavy`` under which the
placements seen were likeliest (the expert's default is 1).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from draw_dominoes import Round, bots
from draw_dominoes.actions import Draw, Place
from draw_dominoes.bots.expert import Inference
from draw_dominoes.round import ViewSampler


def overlap(opponent: str, rounds: int, pool: int = 256) -> tuple[float, float, int]:
    rng = random.Random(5)
    plain, weighted = [], []
    options = {"iterations": 300} if opponent == "ismcts" else {}
    for seed in range(rounds):
        game = Round.new(2, seed=seed)
        players = [bots.create(opponent, seed * 2 + s, **options) for s in range(2)]
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            true = game.hand_mask(1 - seat)
            if len(game.actions) > 4 and true:
                sampler = ViewSampler(view)
                worlds = [sampler.sample(rng) for _ in range(pool)]
                weight = Inference(view).weight
                weights = [weight(w) for w in worlds]
                size = true.bit_count()
                shares = [(w.hand_mask(1 - seat) & true).bit_count() / size for w in worlds]
                plain.append(statistics.mean(shares))
                weighted.append(sum(s * w for s, w in zip(shares, weights)) / sum(weights))
            legal = view.legal_actions
            game.apply(legal[0] if len(legal) == 1 else players[seat].choose(view))
    return statistics.mean(plain), statistics.mean(weighted), len(plain)


def likeliest_heavy(placements: list[tuple[list[int], int]]) -> float:
    """The ``heavy`` (0 to 3 in steps of 0.05) under which these placements (the pips of
    every tile that fitted, the pips of the one placed) were likeliest, each tile's odds
    as ``Inference`` gives them (with its 5% of uniform choice), normalised over the tiles."""

    def log_likelihood(heavy: float) -> float:
        total = 0.0
        for options, chosen in placements:
            top = max(options)
            odds = [0.95 * math.exp(-heavy * (top - pips)) + 0.05 for pips in options]
            total += math.log((0.95 * math.exp(-heavy * (top - chosen)) + 0.05) / sum(odds))
        return total

    return max((step / 20 for step in range(61)), key=log_likelihood)


def choices(
    opponent: str, players: int, rounds: int
) -> tuple[float, float, float, int, int, float]:
    """The share of placements among two or more fitting tiles that took the heaviest, a
    uniform choice's share, the share of turns with a fitting tile that drew instead, how
    many of each there were, and the likeliest ``heavy``."""
    heaviest, uniform, placements, drew, could = 0, 0.0, 0, 0, 0
    seen: list[tuple[list[int], int]] = []
    for seed in range(rounds):
        game = Round.new(players, seed=1000 + seed)
        seats = [bots.create(opponent, seed * players + s) for s in range(players)]
        while not game.is_over:
            seat = game.current_player
            legal = game.legal_actions()
            action = seats[seat].choose(game.view(seat))
            tiles = {a.tile for a in legal if isinstance(a, Place)}
            if tiles and not game.is_opening and any(isinstance(a, Draw) for a in legal):
                could += 1
                drew += isinstance(action, Draw)
            if len(tiles) >= 2 and isinstance(action, Place) and not game.is_opening:
                placements += 1
                most = max(t.pips for t in tiles)
                heaviest += action.tile.pips == most
                uniform += sum(1 for t in tiles if t.pips == most) / len(tiles)
                seen.append(([t.pips for t in tiles], action.tile.pips))
            game.apply(action)
    return (
        heaviest / placements,
        uniform / placements,
        drew / max(could, 1),
        placements,
        could,
        likeliest_heavy(seen),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opponent", action="append", default=None, help="bot (repeatable)")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    for opponent in args.opponent or ["ismcts", "heuristic", "random"]:
        plain, weighted, positions = overlap(opponent, args.rounds)
        print(
            f"{opponent:>10} opponents: the true hand's share in a determinization, "
            f"unweighted {plain:.1%}, weighted {weighted:.1%} ({positions} positions)"
        )
    for opponent, players in [
        *((o, 2) for o in args.opponent or ["ismcts", "heuristic"]),
        ("ismcts", 3),
    ]:
        top, uniform, drew, placements, could, heavy = choices(opponent, players, args.rounds)
        print(
            f"{opponent:>10}, {players} players: took the heaviest fitting tile {top:.1%} of "
            f"{placements} times (uniform {uniform:.1%}); drew with a tile that fitted "
            f"{drew:.1%} of {could} times; likeliest heavy {heavy:.2f}"
        )


if __name__ == "__main__":
    main()
