"""PIMC: Perfect Information Monte Carlo, each legal action played out in many sampled worlds."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..actions import Action
from ..round import ViewSampler
from ..view import PlayerView
from . import _rng, check_options, register, turn_actions
from .search import play_out, positive_float, positive_int, rewards

__all__ = ["DEFAULT_WORLDS", "PIMCBot"]

DEFAULT_WORLDS = 40
"""Sampled worlds a move by default (a few milliseconds)."""


class PIMCBot:
    """Samples worlds from its view, plays every legal action out greedily in each, keeps the best.

    Every action is tried in the same worlds, so their comparison is not blurred by
    different luck. Options: ``iterations`` (worlds a move, default 40) and/or
    ``time_per_move`` in seconds (the first limit reached stops sampling); ``max_seconds``
    caps the default in time. ``clock`` (a keyword) tells the time.
    """

    name = "pimc"

    def __init__(
        self,
        seed: int | random.Random = 0,
        *,
        clock: Callable[[], float] = time.perf_counter,
        **options: Any,
    ) -> None:
        check_options(self.name, options, {"iterations", "time_per_move", "max_seconds"})
        iterations = options.get("iterations")
        time_per_move = options.get("time_per_move")
        if iterations is not None:
            positive_int("iterations", iterations)
        if time_per_move is not None:
            time_per_move = positive_float("time_per_move", time_per_move)
        if iterations is None and time_per_move is None:
            iterations = DEFAULT_WORLDS
        if options.get("max_seconds") is not None:
            cap = positive_float("max_seconds", options["max_seconds"])
            time_per_move = cap if time_per_move is None else min(time_per_move, cap)
        self.iterations: int | None = iterations
        self.time_per_move: float | None = time_per_move
        self.rng = _rng(seed)
        self.clock = clock
        self.last_iterations = 0

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        rng, me = self.rng, view.player
        assert me is not None  # a bot chooses for its seat (check_turn)
        totals = [0.0] * len(legal)
        deadline = None if self.time_per_move is None else self.clock() + self.time_per_move
        worlds = 0
        sample = ViewSampler(view).sample
        while self.iterations is None or worlds < self.iterations:
            if deadline is not None and worlds and self.clock() >= deadline:
                break
            world = sample(rng)
            for i, action in enumerate(legal):
                game = world.clone()
                game.apply(action)
                outcome = game.outcome or play_out(game, rng)
                totals[i] += rewards(outcome, view.scores, view.target)[me]
            worlds += 1
        self.last_iterations = worlds
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]


register("pimc", PIMCBot, timed=True)
