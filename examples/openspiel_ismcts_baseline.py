"""OpenSpiel's own Python ISMCTS on python_draw_dominoes against random and greedy play.

A baseline measured with OpenSpiel's tools alone: ``open_spiel.python.algorithms.ismcts``
with random rollouts and a UCT constant suited to returns in points (30), two players,
the seats alternating from round to round, ``pyspiel.evaluate_bots`` playing each round.
Prints the mean return a round with a 95% interval against each opponent.

    python examples/openspiel_ismcts_baseline.py --rounds 500
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots import uniform_random

import draw_dominoes.envs.openspiel  # noqa: F401  (registers the game)
from draw_dominoes import bots
from draw_dominoes.envs import action_id


class GreedyBot(pyspiel.Bot):  # type: ignore[misc]
    """The project's ``greedy`` bot as an OpenSpiel bot: it sees its seat's view only."""

    def __init__(self, player: int) -> None:
        pyspiel.Bot.__init__(self)
        self.player = player
        self.bot = bots.create("greedy")

    def step(self, state: Any) -> int:
        return action_id(self.bot.choose(state.view(self.player)))

    def restart_at(self, state: Any) -> None:
        pass


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=500, help="rounds against each opponent")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a move")
    parser.add_argument("--uct-c", type=float, default=30.0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_draw_dominoes", {"players": 2})
    results: dict[str, tuple[float, float]] = {}
    for opponent in ("random", "greedy"):
        start = time.process_time()
        returns = []
        for number in range(args.rounds):
            seat = number % 2
            rng = np.random.RandomState(1000 + number)
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
            searcher = ismcts.ISMCTSBot(
                game, evaluator, args.uct_c, args.simulations, random_state=rng
            )
            other = (
                uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(2000 + number))
                if opponent == "random"
                else GreedyBot(1 - seat)
            )
            seated = [searcher, other] if seat == 0 else [other, searcher]
            returns.append(pyspiel.evaluate_bots(game.new_initial_state(), seated, number)[seat])
        mean = statistics.mean(returns)
        half = 1.96 * statistics.stdev(returns) / math.sqrt(len(returns))
        results[opponent] = (mean, half)
        minutes = (time.process_time() - start) / 60
        print(
            f"against {opponent}: {mean:+.2f} points a round (95% CI ±{half:.2f},"
            f" {args.rounds} rounds, {minutes:.1f} CPU min)"
        )
    return results


if __name__ == "__main__":
    main()
