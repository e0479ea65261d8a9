"""Bot speed: ISMCTS iterations per second at the start of a round, and each bot's time a move."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from draw_dominoes import Round, ViewSampler, bots


def ismcts_rate(players: int, seconds: float, opponents: str, seed: int = 0) -> tuple[int, float]:
    """Iterations a second of a time-limited ISMCTS on fresh deals, from the leader's view."""
    bot = bots.create("ismcts", seed, time_per_move=seconds / 5, opponents=opponents)
    iterations = 0
    start = time.perf_counter()
    for deal in range(5):
        view = Round.new(players, seed=seed + deal, leader=0).view(0)
        bot.choose(view)
        iterations += bot.last_iterations  # type: ignore[attr-defined]
    return iterations, time.perf_counter() - start


def sampler_rate(players: int, seconds: float, seed: int = 0) -> float:
    """Determinizations a second from one prepared view: what a search draws each iteration."""
    view = Round.new(players, seed=seed, leader=0).view(0)
    sample = ViewSampler(view).sample
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            sample(rng)
        count += 100
    return count / elapsed


def move_times(name: str, players: int, moves: int, seed: int = 0) -> list[float]:
    """Seconds a move of bot ``name`` at its default settings, over opening positions."""
    times = []
    for deal in range(moves):
        bot = bots.create(name, seed + deal)
        view = Round.new(players, seed=seed + deal, leader=0).view(0)
        start = time.perf_counter()
        bot.choose(view)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--moves", type=int, default=10, help="opening moves timed per bot")
    args = parser.parse_args()
    for players in (2, 3, 4):
        rate = sampler_rate(players, args.seconds / 2)
        print(f"{players} players: {rate:9,.0f} determinizations/s from one view")
        for opponents in ("search", "model"):
            iterations, elapsed = ismcts_rate(players, args.seconds, opponents)
            print(
                f"{players} players: {iterations / elapsed:9,.0f} ISMCTS iterations/s "
                f"at the opening, opponents={opponents}"
            )
    for name in ("heuristic", "pimc", "ismcts"):
        for players in (2, 4):
            times = move_times(name, players, args.moves)
            print(
                f"{name:>9}, {players} players, default settings: "
                f"median {1000 * statistics.median(times):7.2f} ms, "
                f"max {1000 * max(times):7.2f} ms a move (opening)"
            )


if __name__ == "__main__":
    main()
