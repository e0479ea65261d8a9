"""Engine speed: random complete rounds per second, and clone()+legal_actions() per second."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from draw_dominoes import Round


def random_rounds(players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play uniformly random rounds for about ``seconds``; return (rounds, actions, elapsed)."""
    rng = random.Random(seed)
    uniform = rng.random  # options[int(uniform() * len(options))]: a uniform choice
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
                options = legal()
            actions += len(game.actions)
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


def report(label: str, rates: list[float], unit: str) -> None:
    print(
        f"{label}: best {max(rates):9,.0f} {unit}, median {statistics.median(rates):9,.0f}"
        f"  ({len(rates)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (best and median)")
    args = parser.parse_args()
    print("one core, plain CPython; a shared machine is noisy, so the best run is the figure")
    for players in (2, 3, 4):
        rates, lengths = [], []
        for run in range(args.runs):
            rounds, actions, elapsed = random_rounds(players, args.seconds, seed=run)
            rates.append(rounds / elapsed)
            lengths.append(actions / rounds)
        report(
            f"{players} players, random rounds",
            rates,
            f"rounds/s ({statistics.mean(lengths):.1f} actions each)",
        )
    for players in (2, 3, 4):
        rates = []
        for run in range(args.runs):
            calls, elapsed = clone_and_legal(players, args.seconds, seed=run)
            rates.append(calls / elapsed)
        report(f"{players} players, clone()+legal_actions()", rates, "calls/s")


if __name__ == "__main__":
    main()
