"""Train Tianshou's DQN on DrawDominoes-v0 with the legal-action mask and scaled rewards.

    pip install "draw-dominoes[rl]" "tianshou>=2.0"
    python examples/train_tianshou_dqn.py --steps 50000

Rewards are points (a round's standard deviation is about 21), so the env scales them by
1/20 (``reward_scale``) before the network sees them: value methods tuned for rewards near
1 fall apart on ±100.
The mask goes in as ``obs.mask``, which Tianshou's Q-learning policies read, so no
illegal id is ever chosen.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import gymnasium
import numpy as np

REWARD_SCALE = 1 / 20
"""Points a round divided by about their standard deviation."""


class MaskedObservation(gymnasium.ObservationWrapper[dict[str, Any], np.int64, np.ndarray]):
    """The observation and its legal-action mask in one dict (``obs``, ``mask``), the
    form Tianshou's Q-learning policies read the mask from."""

    def __init__(self, env: gymnasium.Env[np.ndarray, np.int64]) -> None:
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Dict(
            {
                "obs": env.observation_space,
                "mask": gymnasium.spaces.MultiBinary(int(env.action_space.n)),  # type: ignore[attr-defined]
            }
        )
        self._mask = np.zeros(int(env.action_space.n), dtype=np.int8)  # type: ignore[attr-defined]

    def reset(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self._mask = info["action_mask"]
        return self.observation(observation), info

    def step(self, action: np.int64) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._mask = info["action_mask"]
        return self.observation(observation), reward, terminated, truncated, info

    def observation(self, observation: np.ndarray) -> dict[str, Any]:
        return {"obs": observation, "mask": self._mask.astype(bool)}


def make_env(seed: int, opponent: str = "random") -> gymnasium.Env[Any, Any]:
    import draw_dominoes.envs  # noqa: F401  (registers DrawDominoes-v0)

    env = gymnasium.make("DrawDominoes-v0", opponents=[opponent], reward_scale=REWARD_SCALE)
    env = MaskedObservation(env)
    env.reset(seed=seed)
    return env


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, then play ``--rounds`` seeded rounds against ``random`` and ``greedy``; the
    mean points a round against each."""
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000, help="environment steps")
    parser.add_argument("--rounds", type=int, default=500, help="rounds played to measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--envs", type=int, default=8, help="environments collecting at once")
    args = parser.parse_args(argv)

    random.seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global state
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    train_envs = DummyVectorEnv([lambda i=i: make_env(args.seed + i) for i in range(args.envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args.seed + 100)])
    probe = make_env(0)
    net = Net(
        state_shape=probe.observation_space["obs"].shape,
        action_shape=int(probe.action_space.n),
        hidden_sizes=[128, 128],
    )
    policy = DiscreteQLearningPolicy(
        model=net, action_space=probe.action_space, eps_training=0.1, eps_inference=0.0
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=1,
        target_update_freq=320,
    )
    buffer = VectorReplayBuffer(20_000, len(train_envs))
    train_collector = Collector(algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector(algorithm, test_envs)
    started = time.perf_counter()
    algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=max(1, args.steps // 10_000),
            epoch_num_steps=min(args.steps, 10_000),
            collection_step_num_env_steps=10 * args.envs,
            test_step_num_episodes=min(20, args.rounds),
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.125,
        )
    )
    minutes = (time.perf_counter() - started) / 60
    print(f"trained {args.steps:,} steps in {minutes:.1f} min")
    results = {}
    for opponent in ("random", "greedy"):
        env = make_env(args.seed + 1000, opponent)
        policy.eval()
        totals = []
        for episode in range(args.rounds):
            observation, _ = env.reset(seed=args.seed + 10_000 + episode)
            done, total = False, 0.0
            while not done:
                with torch.no_grad():
                    values = net(observation["obs"][None])[0][0].numpy()
                values = np.where(observation["mask"], values, -np.inf)
                observation, reward, terminated, truncated, _ = env.step(np.int64(values.argmax()))
                total += float(reward) / REWARD_SCALE
                done = terminated or truncated
            totals.append(total)
        mean = float(np.mean(totals))
        half = 1.96 * float(np.std(totals, ddof=1)) / len(totals) ** 0.5
        print(
            f"against {opponent}: {mean:+.2f} points a round"
            f" (95% CI ±{half:.2f}, {args.rounds} rounds)"
        )
        results[opponent] = mean
    return results


if __name__ == "__main__":
    main()
