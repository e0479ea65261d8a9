"""Research adapters' speed: environment steps per second (PettingZoo, Gymnasium, OpenSpiel)."""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def pettingzoo_steps(players: int, seconds: float) -> tuple[int, float]:
    """AEC steps with masked uniform actions, observing the agent to act each step."""
    from draw_dominoes.envs import draw_v0

    env = draw_v0.env(players=players)
    rng = np.random.default_rng(0)
    steps, episode = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - start


def gymnasium_steps(opponents: list[str], seconds: float) -> tuple[int, float]:
    """Learner steps (each includes the bots' replies) with masked uniform actions."""
    import gymnasium

    import draw_dominoes.envs

    env = gymnasium.make(draw_dominoes.envs.GYM_ID, opponents=opponents)
    rng = np.random.default_rng(0)
    steps, episode = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, info = env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
    return steps, time.perf_counter() - start


def openspiel_steps(players: int, seconds: float) -> tuple[int, float]:
    """apply_action calls (chance and decisions) on uniform random games."""
    import pyspiel

    import draw_dominoes.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_draw_dominoes", {"players": players})
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = parser.parse_args()
    rows = [
        ("PettingZoo AEC, 2 players", pettingzoo_steps(2, args.seconds)),
        ("PettingZoo AEC, 4 players", pettingzoo_steps(4, args.seconds)),
        ("Gymnasium vs random", gymnasium_steps(["random"], args.seconds)),
        ("Gymnasium vs 3 greedy", gymnasium_steps(["greedy"] * 3, args.seconds)),
        ("OpenSpiel, 2 players", openspiel_steps(2, args.seconds)),
        ("OpenSpiel, 4 players", openspiel_steps(4, args.seconds)),
    ]
    for name, (steps, elapsed) in rows:
        print(f"{name:28s} {steps / elapsed:>10,.0f} steps/s")


if __name__ == "__main__":
    main()
