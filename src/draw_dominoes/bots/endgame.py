"""Exact endgames: once nothing can be drawn, a full round is solved by max-n search."""

from __future__ import annotations

from collections.abc import Callable

from ..round import Round
from ..view import Outcome
from .search import rewards

__all__ = ["Solver"]


class Solver:
    """Every seat's reward under perfect play of a full round whose boneyard is closed.

    With nothing left to draw, a round is a finite game of perfect information for the
    determinization at hand: each seat in turn takes the action that is best for itself
    (max-n; with two players that is minimax, the rewards being zero-sum). Positions are
    remembered across calls, since one search meets the same endgames in many
    determinizations. ``limit`` is the most tiles in all hands that are solved; above
    it ``value`` returns ``None`` and the caller plays the round out instead.
    ``reward_of`` scores a finished round (``rewards`` unless given). ``drawable``
    lets it solve rounds with that many tiles still to draw: a full round fixes the
    boneyard's order, so its draws are no chance.
    """

    __slots__ = ("drawable", "limit", "reward_of", "scores", "solved", "table", "target")

    def __init__(
        self,
        scores: tuple[int, ...],
        target: int,
        limit: int,
        drawable: int = 0,
        reward_of: Callable[[Outcome, tuple[int, ...], int], list[float]] = rewards,
    ) -> None:
        self.reward_of = reward_of
        self.scores = scores
        self.target = target
        self.limit = limit
        self.drawable = drawable
        self.table: dict[tuple[object, ...], list[float]] = {}
        self.solved = 0

    def value(self, round_: Round) -> list[float] | None:
        """The solved rewards of ``round_``, or ``None`` when it can still draw or is too big."""
        if round_.is_over or round_.drawable > self.drawable or sum(round_.hand_sizes) > self.limit:
            return None
        self.solved += 1
        return self._solve(round_)

    def _solve(self, round_: Round) -> list[float]:
        outcome = round_.outcome
        if outcome is not None:
            return self.reward_of(outcome, self.scores, self.target)
        seat = round_.current_player
        key = (
            tuple(round_.hand_mask(s) for s in range(round_.players)),
            round_.end_values,
            round_.boneyard_size,
            seat,
            round_.consecutive_passes,
        )
        known = self.table.get(key)
        if known is not None:
            return known
        best: list[float] | None = None
        for action in round_.legal_actions():
            child = round_.clone()
            child.apply(action)
            values = self._solve(child)
            if best is None or values[seat] > best[seat]:
                best = values
                if best[seat] >= 1.0:  # a won match cannot be bettered
                    break
        assert best is not None
        self.table[key] = best
        return best
