"""Train MaskablePPO (sb3-contrib) on DrawDominoes-v0 on the CPU, then measure it against bots.

A baseline anyone can reproduce with the usual tools: Stable-Baselines3's ``make_vec_env``
over the registered environment, sb3-contrib's ``MaskablePPO`` reading the legal-action
mask from ``env.action_masks()``, two-player rounds against the ``random`` bot with the
default zero-sum reward (the learner's points less the opponent's). After training, the
policy (deterministic, masked) plays seeded rounds against ``random`` and ``greedy``, and
the script prints the average reward with a 95% interval for each.

    pip install "draw-dominoes[train]"
    python examples/train_maskable_ppo.py --timesteps 100000
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import gymnasium
import numpy as np

import draw_dominoes.envs


def evaluate(model: Any, opponent: str, rounds: int, seed: int) -> tuple[float, float]:
    """The policy's mean reward a round against ``opponent`` and its 95% half-width."""
    env = gymnasium.make(draw_dominoes.envs.GYM_ID, opponents=[opponent], seat=None)
    totals = []
    for number in range(rounds):
        obs, info = env.reset(seed=seed + number)
        total, done = 0.0, False
        while not done:
            action, _ = model.predict(
                obs, action_masks=info["action_mask"].astype(bool), deterministic=True
            )
            obs, reward, terminated, truncated, info = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        totals.append(total)
    values = np.array(totals)
    return float(values.mean()), 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--timesteps", type=int, default=100_000, help="training steps")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--eval-rounds", type=int, default=500, help="rounds against each bot")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)  # one core: the figures compare on any machine

    env = make_vec_env(
        draw_dominoes.envs.GYM_ID,
        n_envs=args.envs,
        seed=args.seed,
        env_kwargs={"opponents": ["random"], "seat": None},
    )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=256,
        batch_size=512,
        gamma=1.0,
        learning_rate=3e-4,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.timesteps)
    minutes = (time.perf_counter() - start) / 60
    cpu_minutes = (time.process_time() - cpu) / 60
    print(f"trained {args.timesteps:,} steps in {minutes:.1f} min ({cpu_minutes:.1f} CPU min)")
    results: dict[str, float] = {"minutes": minutes, "cpu_minutes": cpu_minutes}
    for opponent in ("random", "greedy"):
        mean, half = evaluate(model, opponent, args.eval_rounds, seed=10_000 * (args.seed + 1))
        results[opponent] = mean
        rounds = args.eval_rounds
        print(
            f"against {opponent}: {mean:+.2f} points a round (95% CI ±{half:.2f}, {rounds} rounds)"
        )
    return results


if __name__ == "__main__":
    main()
