"""Engine speed: random complete rounds per second, and clone()+legal_actions() per second."""

from __future__ import annotations

import argparse
import random
import time

from draw_dominoes import Round


def random_rounds(players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play random rounds for about ``seconds``; return (rounds, actions, elapsed)."""
    rng = random.Random(seed)
    uniform = (
        rng.random
    )  # legal[int(uniform() * len(legal))] is a uniform choice, cheaper than rng.choice
    rounds = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            game = Round.new(players, rng=rng)
            legal = game.legal_actions
            apply = game.apply
            options = legal()
            while options:  # empty once the round is over
                apply(options[int(uniform() * len(options))])
                actions += 1
                options = legal()
            rounds += 1
        now = time.perf_counter()
        if now >= deadline:
            return rounds, actions, now - start


def clone_and_legal(players: int, seconds: float, seed: int = 0) -> tuple[int, float]:
    """clone() + legal_actions() on mid-round positions; return (calls, elapsed)."""
    rng = random.Random(seed)
    positions = []
    for _ in range(100):
        game = Round.new(players, rng=rng)
        for _ in range(rng.randrange(1, 12)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over:
            positions.append(game)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for game in positions:
            game.clone().legal_actions()
        calls += len(positions)
        now = time.perf_counter()
        if now >= deadline:
            return calls, now - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    for players in (2, 3, 4):
        rounds, actions, elapsed = random_rounds(players, args.seconds)
        print(
            f"{players} players: {rounds / elapsed:9,.0f} random rounds/s"
            f"  ({actions / rounds:.1f} actions a round, {actions / elapsed:,.0f} actions/s)"
        )
    for players in (2, 3, 4):
        calls, elapsed = clone_and_legal(players, args.seconds)
        print(f"{players} players: {calls / elapsed:9,.0f} clone()+legal_actions()/s")


if __name__ == "__main__":
    main()
