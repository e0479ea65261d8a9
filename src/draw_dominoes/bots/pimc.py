"""PIMC: Perfect Information Monte Carlo, each legal action played out in many sampled worlds."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..round import ViewSampler
from ..view import PlayerView
from .registry import turn_actions
from .search import BudgetOptions, SearchBot, play_out, rewards

__all__ = ["DEFAULT_WORLDS", "PIMCBot", "PimcOptions"]

DEFAULT_WORLDS = 40
"""Sampled worlds a move by default (a few milliseconds)."""


@dataclass(frozen=True)
class PimcOptions(BudgetOptions):
    """The ``pimc`` bot's options: only its budget (``DEFAULT_WORLDS`` worlds by default)."""


class PIMCBot(SearchBot[PimcOptions]):
    """Samples worlds from its view, plays every legal action out greedily in each, keeps the best.

    Every action is tried in the same worlds, so their comparison is not blurred by
    different luck. Options (``PimcOptions``): ``iterations`` (worlds a move, default 40)
    and/or ``time_per_move`` in seconds (the first limit reached stops sampling);
    ``max_seconds`` caps the default in time. ``clock`` (a keyword) tells the time.
    """

    name = "pimc"
    options_type = PimcOptions

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        rng, me = self.rng, view.player
        assert me is not None  # a bot chooses for its seat (check_turn)
        totals = [0.0] * len(legal)
        iterations, seconds = self.options.budget(DEFAULT_WORLDS)
        deadline = None if seconds is None else self.clock() + seconds
        worlds = 0
        sample = ViewSampler(view).sample
        while iterations is None or worlds < iterations:
            if deadline is not None and worlds and self.clock() >= deadline:
                break
            world = sample(rng)
            for i, action in enumerate(legal):
                round_ = world.clone()
                round_.apply(action)
                outcome = round_.outcome or play_out(round_, rng)
                totals[i] += rewards(outcome, view.scores, view.target)[me]
            worlds += 1
        self.last_iterations = worlds
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]
