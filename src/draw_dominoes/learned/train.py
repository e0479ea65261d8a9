"""Training the learned bot by Deep Monte-Carlo self-play on the batched rules (numpy only).

Every seat of many rounds at once is played by the network being trained (the best
valued action, or with a small chance any legal one); when a round ends, every decision
in it is labelled with the points its seat got from the round (its credit less the
others' mean), and the network learns to predict that label for the (position, action)
row it chose, as DouZero does for DouDizhu. Everything is seeded: the same seed, the
same steps, the same weights (on the same machine and thread count).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..envs.batch import BatchRounds
from ..rules import RULES
from ..tiles import ALL_TILES
from .features import FEATURES, best_pairs, pair_features
from .network import Network

__all__ = ["Adam", "TrainingSettings", "play_rounds", "train"]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class TrainingSettings:
    players: tuple[int, ...] = tuple(RULES.player_counts)
    """Table sizes, taken in turn: one network for every size."""
    hidden: tuple[int, ...] = (256, 256)
    rounds: int = 256
    """Rounds played at once for each size."""
    epsilon: float = 0.05
    """The chance a decision is any legal action instead of the best valued one."""
    learning_rate: float = 3e-4
    batch: int = 1024
    updates: int = 16
    """Minibatch updates after each set of rounds."""
    buffer: int = 200_000
    """The latest decisions kept to learn from."""
    seed: int = 1


class Adam:
    """Adam (Kingma & Ba 2015) over a network's parameters, changed in place."""

    def __init__(self, parameters: Sequence[Floats], rate: float) -> None:
        self.parameters = list(parameters)
        self.rate = rate
        self.first = [np.zeros_like(p) for p in self.parameters]
        self.second = [np.zeros_like(p) for p in self.parameters]
        self.steps = 0

    def step(self, gradients: Sequence[Floats], beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.steps += 1
        correct1, correct2 = 1 - beta1**self.steps, 1 - beta2**self.steps
        for p, g, m, v in zip(self.parameters, gradients, self.first, self.second, strict=True):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= self.rate * (m / correct1) / (np.sqrt(v / correct2) + 1e-8)


def _firsts(rows: Ints) -> Ints:
    """Where each run of equal values starts in the sorted ``rows``."""
    starts: Ints = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    return starts


def play_rounds(
    network: Network, players: int, size: int, rng: np.random.Generator, epsilon: float
) -> tuple[Floats, Floats]:
    """``size`` rounds of self-play: the chosen rows of every decision and their labels."""
    env = BatchRounds(players, size)
    rows = np.arange(size, dtype=np.int64)
    orders = np.argsort(rng.random((size, len(ALL_TILES))), axis=1).astype(np.int64)
    env.deal(rows, orders, rng.integers(players, size=size).astype(np.int64))
    chosen: list[Floats] = []
    at_rows: list[Ints] = []
    by_seats: list[Ints] = []
    active = rows
    while active.size:
        seats = env.current[active].copy()
        pair_rows, ids, features = pair_features(env.observations(seats, active), env.legal(active))
        values = network.value(features)
        starts = _firsts(pair_rows)
        counts = np.diff(np.r_[starts, len(pair_rows)])
        best = best_pairs(pair_rows, values)
        explore = rng.random(len(starts)) < epsilon
        anyone = starts + (rng.random(len(starts)) * counts).astype(np.int64)
        pick = np.where(explore, anyone, best)
        chosen.append(features[pick])
        at_rows.append(active)
        by_seats.append(seats)
        _, ended = env.apply(active, ids[pick])
        active = active[~ended]
    labels = env.relative(np.concatenate(at_rows), np.concatenate(by_seats))
    return np.concatenate(chosen), labels.astype(np.float32)


def train(
    settings: TrainingSettings,
    out: Path,
    *,
    seconds: float | None = None,
    steps: int | None = None,
    every: float = 300.0,
    log: Path | None = None,
    report: Callable[[dict[str, Any]], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Network:
    """Train until ``seconds`` have passed or ``steps`` sets of rounds are played; save to
    ``out`` at the end and a checkpoint ``out``-``<minutes>``m every ``every`` seconds,
    each written to the ``log`` (JSON lines) and passed to ``report``."""
    if seconds is None and steps is None:
        raise ValueError("say how long to train: seconds or steps")
    rng = np.random.default_rng(settings.seed)
    network = Network.new(settings.hidden, rng)
    adam = Adam(network.parameters, settings.learning_rate)
    memory = np.zeros((settings.buffer, FEATURES), dtype=np.float32)
    targets = np.zeros(settings.buffer, dtype=np.float32)
    kept = written = 0
    start = clock()
    next_checkpoint = every
    step = 0
    decisions = 0
    losses: list[float] = []
    while True:
        elapsed = clock() - start
        if (seconds is not None and elapsed >= seconds) or (steps is not None and step >= steps):
            break
        players = settings.players[step % len(settings.players)]
        features, labels = play_rounds(network, players, settings.rounds, rng, settings.epsilon)
        at = (written + np.arange(len(labels))) % settings.buffer
        memory[at], targets[at] = features, labels
        written += len(labels)
        kept = min(settings.buffer, kept + len(labels))
        decisions += len(labels)
        for _ in range(settings.updates):
            sample = rng.integers(kept, size=settings.batch)
            loss, gradients = network.gradients(memory[sample], targets[sample])
            adam.step(gradients)
            losses.append(loss)
        step += 1
        if clock() - start >= next_checkpoint:
            minutes = round(next_checkpoint / 60, 1)
            checkpoint = out.with_name(f"{out.stem}-{minutes:g}m{out.suffix}")
            network.save(checkpoint)
            line: dict[str, Any] = {
                "minutes": minutes,
                "steps": step,
                "decisions": decisions,
                "loss": float(np.mean(losses[-200:])),
                "file": str(checkpoint),
            }
            _log(log, line)
            if report is not None:
                report(line)
            next_checkpoint += every
    network.save(out)
    final: dict[str, Any] = {
        "minutes": round((clock() - start) / 60, 1),
        "steps": step,
        "decisions": decisions,
        "loss": float(np.mean(losses[-200:])) if losses else 0.0,
        "file": str(out),
        "final": True,
    }
    _log(log, final)
    if report is not None:
        report(final)
    return network


def _log(log: Path | None, line: dict[str, Any]) -> None:
    if log is not None:
        with log.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")
