"""Train a small policy on DrawDominoes-v0 with REINFORCE (numpy only); compare it to random play.

The policy is linear: one logit per action id from the scaled observation vector, with
illegal ids masked out. Each episode is one two-player round against the ``random`` bot,
rewarded with the learner's points minus the opponent's (``reward="relative"``). After
training, the learned policy (acting greedily) and a uniformly random policy play the same
seeded evaluation rounds; the script prints both average rewards.

    python examples/train_policy.py --episodes 4000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import numpy.typing as npt

import draw_dominoes.envs
from draw_dominoes.envs.encoding import NUM_ACTIONS, OBSERVATION_HIGH, OBSERVATION_SIZE

Array = npt.NDArray[np.float64]
Policy = Callable[[Array, npt.NDArray[np.bool_]], int]

REWARD_SCALE = 20.0


def features(obs: npt.NDArray[np.float32]) -> Array:
    """Observation scaled to [0, 1], plus a constant for the bias."""
    return np.append(obs / OBSERVATION_HIGH, 1.0).astype(np.float64)


def masked_softmax(logits: Array, mask: npt.NDArray[np.bool_]) -> Array:
    shifted = np.where(mask, logits - logits[mask].max(), -np.inf)
    weights = np.exp(shifted)
    return weights / weights.sum()


class LinearPolicy:
    """Logits = W x; trained by REINFORCE with a running-mean baseline and Adam."""

    def __init__(self, rng: np.random.Generator, learning_rate: float = 0.02) -> None:
        self.weights = rng.normal(0.0, 0.01, size=(NUM_ACTIONS, OBSERVATION_SIZE + 1))
        self.learning_rate = learning_rate
        self._m = np.zeros_like(self.weights)
        self._v = np.zeros_like(self.weights)
        self._t = 0

    def probabilities(self, x: Array, mask: npt.NDArray[np.bool_]) -> Array:
        return masked_softmax(self.weights @ x, mask)

    def update(self, gradient: Array) -> None:
        """One Adam step of gradient ascent."""
        self._t += 1
        self._m = 0.9 * self._m + 0.1 * gradient
        self._v = 0.999 * self._v + 0.001 * gradient**2
        m_hat = self._m / (1 - 0.9**self._t)
        v_hat = self._v / (1 - 0.999**self._t)
        self.weights += self.learning_rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def train(episodes: int, seed: int, opponent: str = "random") -> LinearPolicy:
    env = gymnasium.make(draw_dominoes.envs.GYM_ID, opponents=[opponent], reward="relative")
    rng = np.random.default_rng(seed)
    policy = LinearPolicy(rng)
    baseline, batch, gradient = 0.0, 16, np.zeros_like(policy.weights)
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[Array, npt.NDArray[np.bool_], int]] = []
        total, done = 0.0, False
        while not done:
            x, mask = features(obs), info["action_mask"].astype(bool)
            action = int(rng.choice(NUM_ACTIONS, p=policy.probabilities(x, mask)))
            steps.append((x, mask, action))
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward) / REWARD_SCALE
            done = terminated or truncated
        advantage = total - baseline
        baseline += 0.02 * (total - baseline)
        for x, mask, action in steps:
            grad_logits = -policy.probabilities(x, mask)
            grad_logits[action] += 1.0
            gradient += advantage * np.outer(grad_logits, x)
        if (episode + 1) % batch == 0:
            policy.update(gradient / batch)
            gradient[:] = 0.0
    return policy


def evaluate(policy: Policy, episodes: int, seed: int, opponent: str = "random") -> float:
    """Average reward (learner's points minus the opponent's) over seeded rounds."""
    env = gymnasium.make(draw_dominoes.envs.GYM_ID, opponents=[opponent], reward="relative")
    total = 0.0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            action = policy(features(obs), info["action_mask"].astype(bool))
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
    return total / episodes


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000, help="training rounds")
    parser.add_argument("--eval-episodes", type=int, default=1000, help="evaluation rounds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="random", help="bot name for the other seat")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    policy = train(args.episodes, args.seed, args.opponent)
    trained_for = time.perf_counter() - started
    eval_seed = 10**9 + args.seed
    learned = evaluate(
        lambda x, mask: int(np.argmax(np.where(mask, policy.weights @ x, -np.inf))),
        args.eval_episodes,
        eval_seed,
        args.opponent,
    )
    picker = np.random.default_rng(args.seed + 1)
    uniform = evaluate(
        lambda x, mask: int(picker.choice(np.flatnonzero(mask))),
        args.eval_episodes,
        eval_seed,
        args.opponent,
    )
    print(f"trained {args.episodes} rounds in {trained_for:.0f} s against {args.opponent}")
    print(f"average reward per round over {args.eval_episodes} rounds:")
    print(f"  learned policy {learned:+.2f}")
    print(f"  random policy  {uniform:+.2f}")
    return {"learned": learned, "random": uniform, "seconds": trained_for}


if __name__ == "__main__":
    main()
