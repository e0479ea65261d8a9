"""Self-play against a league of frozen snapshots: batched on the vector env, or game by game.

A linear softmax policy learns by REINFORCE (numpy only) against opponents drawn, episode
by episode, from a league of its own frozen snapshots (a new one every ``--snapshot``
episodes), the learner's seat drawn at random each episode. ``--mode vector`` runs the
league on the native vector env: each snapshot is a ``batched`` policy answering every
game waiting on it at once, and the ``opponent_hook`` picks the snapshot for each game's
episode. ``--mode single`` runs the same league through single ``DrawDominoes-v0`` envs,
each snapshot called once per game. ``--mode both`` runs both for the same number of
steps and prints their speed side by side.

    python examples/self_play_league.py --mode both --steps 100000 --envs 512
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import draw_dominoes.envs
from draw_dominoes.envs import batched
from draw_dominoes.envs.encoding import NUM_ACTIONS, OBSERVATION_HIGH, OBSERVATION_SIZE

Array = npt.NDArray[np.float64]
REWARD_SCALE = 1 / 20
"""Points a round divided by about their standard deviation."""


def features(observations: npt.NDArray[np.float32]) -> Array:
    """Observations (N × 124) scaled to [0, 1], with a constant column for the bias."""
    scaled = observations / OBSERVATION_HIGH
    return np.hstack([scaled, np.ones((len(scaled), 1))]).astype(np.float64)


class Snapshot:
    """A frozen copy of the learner: its greedy choice, for many games or for one."""

    def __init__(self, weights: Array, name: str) -> None:
        self.weights = weights.copy()
        self.name = name
        self.batched = batched(self.choose_many, name=name)

    def choose_many(
        self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]
    ) -> Any:
        logits = features(observations) @ self.weights.T
        return np.argmax(np.where(masks.astype(bool), logits, -np.inf), axis=1)

    def __call__(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        return int(self.choose_many(observation[None], mask[None])[0])


class Learner:
    """Logits = W x; REINFORCE with a running-mean baseline and Adam.

    The reward comes at a round's end only, so each step's features and log-probability
    gradient are kept (for every game at once, one array a step) and a game's sum of
    them is taken, weighed by its advantage, when the game ends."""

    def __init__(self, rng: np.random.Generator, games: int, learning_rate: float = 0.02) -> None:
        self.weights = rng.normal(0.0, 0.01, size=(NUM_ACTIONS, OBSERVATION_SIZE + 1))
        self.learning_rate = learning_rate
        self.baseline = 0.0
        self.gradient = np.zeros_like(self.weights)
        self.kept: list[tuple[Array, Array]] = []
        """Each step's features (games × 125) and score gradients (games × 58)."""
        self.first = np.zeros(games, dtype=np.intp)
        """Where each game's episode starts in ``kept``."""
        self.dropped = 0
        self.alone: dict[int, list[tuple[Array, Array]]] = {}
        """The steps of each game played alone (``act_one``)."""
        self.episodes = 0
        self._m = np.zeros_like(self.weights)
        self._v = np.zeros_like(self.weights)
        self._t = 0

    def act(self, x: Array, masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> Any:
        """One sampled id a row from the masked softmax, its gradient kept for each game."""
        logits = np.where(masks, x @ self.weights.T, -np.inf)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities = weights / weights.sum(axis=1, keepdims=True)
        cumulative = probabilities.cumsum(axis=1)
        actions = np.minimum((cumulative < rng.random((len(x), 1))).sum(axis=1), NUM_ACTIONS - 1)
        probabilities[np.arange(len(x)), actions] -= 1.0
        self.kept.append((x, -probabilities))
        return actions

    def act_one(
        self, game: int, x: Array, mask: npt.NDArray[np.bool_], rng: np.random.Generator
    ) -> int:
        """``act`` for one game, as a single env is played: its steps kept apart."""
        logits = np.where(mask, self.weights @ x, -np.inf)
        weights = np.exp(logits - logits.max())
        probabilities = weights / weights.sum()
        action = min(int((probabilities.cumsum() < rng.random()).sum()), NUM_ACTIONS - 1)
        probabilities[action] -= 1.0
        self.alone.setdefault(game, []).append((x, -probabilities))
        return action

    def finish_one(self, game: int, total: float) -> None:
        """``finish`` for one game played alone."""
        steps = self.alone.pop(game, [])
        x = np.stack([step[0] for step in steps])
        scores = np.stack([step[1] for step in steps])
        self._add(scores.T @ x, total)

    def finish(self, games: npt.NDArray[np.intp], totals: npt.NDArray[np.float64]) -> None:
        """The games that just ended: add their policy gradients; an Adam step every 16."""
        now = self.dropped + len(self.kept)
        for game, total in zip(games, totals, strict=True):
            steps = self.kept[self.first[game] - self.dropped :]
            x = np.stack([step[0][game] for step in steps])
            scores = np.stack([step[1][game] for step in steps])
            self._add(scores.T @ x, float(total))
            self.first[game] = now
        oldest = int(self.first.min())
        if oldest > self.dropped:  # steps no running episode needs any more
            del self.kept[: oldest - self.dropped]
            self.dropped = oldest

    def _add(self, score: Array, total: float) -> None:
        """One episode's policy gradient, weighed by its advantage."""
        self.gradient += (total - self.baseline) * score
        self.baseline += 0.02 * (total - self.baseline)
        self.episodes += 1
        if self.episodes % 16 == 0:
            self._step()

    def _step(self) -> None:
        self._t += 1
        g = self.gradient / 16
        self._m = 0.9 * self._m + 0.1 * g
        self._v = 0.999 * self._v + 0.001 * g**2
        m_hat, v_hat = self._m / (1 - 0.9**self._t), self._v / (1 - 0.999**self._t)
        self.weights += self.learning_rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        self.gradient[:] = 0.0


class League:
    """The learner's frozen snapshots; the hook draws one for each episode's seats."""

    def __init__(
        self, learner: Learner, rng: np.random.Generator, every: int, batched: bool
    ) -> None:
        self.learner, self.rng, self.every, self.batched = learner, rng, every, batched
        self.snapshots = [Snapshot(learner.weights, "snapshot-0")]

    def hook(self, episode: int, learner_seat: int, seats: tuple[int, ...]) -> list[Any]:
        if self.learner.episodes >= self.every * len(self.snapshots):
            self.snapshots.append(Snapshot(self.learner.weights, f"snapshot-{len(self.snapshots)}"))
        snapshot = self.snapshots[int(self.rng.integers(len(self.snapshots)))]
        return [snapshot.batched if self.batched else snapshot for _ in seats]


def run_vector(steps: int, envs: int, seed: int, every: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    learner = Learner(rng, envs)
    league = League(learner, np.random.default_rng(seed + 1), every, batched=True)
    vec = gymnasium.make_vec(
        draw_dominoes.envs.GYM_ID,
        num_envs=envs,
        opponents=[league.snapshots[0].batched],
        opponent_hook=league.hook,
        seat="random",
        reward_scale=REWARD_SCALE,
    )
    obs, info = vec.reset(seed=seed)
    started, done = time.perf_counter(), 0
    while done < steps:
        actions = learner.act(features(obs), info["action_mask"].astype(bool), rng)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        learner.finish(ended, rewards[ended].astype(np.float64))
        done += envs
    seconds = time.perf_counter() - started
    return {"steps": done, "seconds": seconds, "episodes": learner.episodes,
            "snapshots": len(league.snapshots)}  # fmt: skip


def run_single(steps: int, envs: int, seed: int, every: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    learner = Learner(rng, envs)
    league = League(learner, np.random.default_rng(seed + 1), every, batched=False)
    games = [
        gymnasium.make(
            draw_dominoes.envs.GYM_ID,
            opponents=[league.snapshots[0]],
            opponent_hook=league.hook,
            seat="random",
            reward_scale=REWARD_SCALE,
        )
        for _ in range(envs)
    ]
    state = [env.reset(seed=seed + game) for game, env in enumerate(games)]
    started, done = time.perf_counter(), 0
    while done < steps:
        for game, env in enumerate(games):
            obs, info = state[game]
            x, mask = features(obs[None])[0], info["action_mask"].astype(bool)
            action = learner.act_one(game, x, mask, rng)
            obs, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                learner.finish_one(game, float(reward))
                obs, info = env.reset()
            state[game] = (obs, info)
            done += 1
    seconds = time.perf_counter() - started
    return {"steps": done, "seconds": seconds, "episodes": learner.episodes,
            "snapshots": len(league.snapshots)}  # fmt: skip


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("vector", "single", "both"), default="both")
    parser.add_argument("--steps", type=int, default=100_000, help="learner steps")
    parser.add_argument("--envs", type=int, default=512, help="games played at once")
    parser.add_argument("--snapshot", type=int, default=400, help="episodes between snapshots")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    results = {}
    runs = {"vector": run_vector, "single": run_single}
    for mode in ("vector", "single") if args.mode == "both" else (args.mode,):
        result = runs[mode](args.steps, args.envs, args.seed, args.snapshot)
        rate = result["steps"] / result["seconds"]
        print(
            f"{mode:>6}: {result['steps']:,} steps in {result['seconds']:.1f} s, {rate:,.0f} a"
            f" second; {result['episodes']:,} episodes, {result['snapshots']} snapshots"
        )
        results[mode] = result
    if len(results) == 2:
        ratio = (results["vector"]["steps"] / results["vector"]["seconds"]) / (
            results["single"]["steps"] / results["single"]["seconds"]
        )
        print(f"the vector league runs {ratio:.1f}× as many steps a second as single envs")
    return results


if __name__ == "__main__":
    main()
