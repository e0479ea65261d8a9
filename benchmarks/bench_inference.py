"""How much the expert's inference sharpens its picture of the opponent's hand.

For every position of seeded two-player rounds between two ``--opponent`` bots, 256
determinizations are drawn from the view of the seat to move; the figure is the share
of the opponent's true tiles that a determinization gives it, unweighted (as ``ismcts``
samples) and weighted by ``Inference`` (as ``expert`` samples).
"""

from __future__ import annotations

import argparse
import random
import statistics

from draw_dominoes import Round, bots
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


if __name__ == "__main__":
    main()
