"""Engine speed: random rounds per second (tuned, and as a user writes the loop against a
plain list-based simulator), and clone()+legal_actions() per second."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from draw_dominoes import Round

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from reference_simulator import Simulator


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


def plain_engine(players: int, rounds: int, seed: int = 0) -> float:
    """The loop a user writes, seeded deal included; rounds per second."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for s in range(rounds):
        r = Round.new(players, seed=s)
        while not r.is_over:
            a = r.legal_actions()
            r.apply(a[rng.randrange(len(a))])
    return rounds / (time.perf_counter() - start)


def plain_simulator(players: int, rounds: int, seed: int = 0) -> float:
    """The same loop around the list-based reference simulator of the tests."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for s in range(rounds):
        r = Simulator.new(players, seed=s)
        while not r.over:
            a = r.legal_moves()
            r.play(a[rng.randrange(len(a))])
    return rounds / (time.perf_counter() - start)


def plain_floor(players: int, rounds: int, seed: int = 0) -> float:
    """The same loop around a round that costs nothing: ``Random(seed)`` for the deal and
    one ``randrange`` per action, with the engine's own move counts. No round can be
    played faster than this by code of the loop's kind; it bounds every ratio."""
    counts = []
    for s in range(rounds):
        game, options = Round.new(players, seed=s), []
        pick = random.Random(s)
        while not game.is_over:
            legal = game.legal_actions()
            options.append(len(legal))
            game.apply(legal[pick.randrange(len(legal))])
        counts.append(options)
    rng = random.Random(seed)
    start = time.perf_counter()
    for s, options in enumerate(counts):
        random.Random(s)
        for n in options:
            rng.randrange(n)
    return rounds / (time.perf_counter() - start)


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
    parser.add_argument("--plain-rounds", type=int, default=3000, help="rounds per plain-loop run")
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
    print("the plain loop (Round.new(n, seed=s), legal_actions(), apply()) side by side:")
    for players in (2, 3, 4):
        engine, simulator, floor = [], [], []
        for run in range(args.runs):  # interleaved, so that load hits all three alike
            engine.append(plain_engine(players, args.plain_rounds, seed=run))
            simulator.append(plain_simulator(players, args.plain_rounds, seed=run))
            floor.append(plain_floor(players, args.plain_rounds, seed=run))
        best_engine, best_sim, best_floor = max(engine), max(simulator), max(floor)
        print(
            f"{players} players, plain loop: engine {best_engine:9,.0f} rounds/s, simulator"
            f" {best_sim:9,.0f} rounds/s: {best_engine / best_sim:.2f}x"
            f" (median {statistics.median(engine) / statistics.median(simulator):.2f}x);"
            f" a free round would be {best_floor / best_sim:.1f}x"
        )
    for players in (2, 3, 4):
        rates = []
        for run in range(args.runs):
            calls, elapsed = clone_and_legal(players, args.seconds, seed=run)
            rates.append(calls / elapsed)
        report(f"{players} players, clone()+legal_actions()", rates, "calls/s")


if __name__ == "__main__":
    main()
