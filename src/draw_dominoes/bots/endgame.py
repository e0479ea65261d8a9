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

    def value(self, game: Round) -> list[float] | None:
        """The solved rewards of ``game``, or ``None`` when it can still draw or is too big."""
        if game.is_over or game.drawable > self.drawable or sum(game.hand_sizes) > self.limit:
            return None
        self.solved += 1
        return self._solve(game)

    def _solve(self, game: Round) -> list[float]:
        outcome = game.outcome
        if outcome is not None:
            return self.reward_of(outcome, self.scores, self.target)
        seat = game.current_player
        key = (
            tuple(game.hand_mask(s) for s in range(game.players)),
            game.end_values,
            game.boneyard_size,
            seat,
            game.consecutive_passes,
        )
        known = self.table.get(key)
        if known is not None:
            return known
        best: list[float] | None = None
        for action in game.legal_actions():
            child = game.clone()
            child.apply(action)
            values = self._solve(child)
            if best is None or values[seat] > best[seat]:
                best = values
                if best[seat] >= 1.0:  # a won match cannot be bettered
                    break
        assert best is not None
        self.table[key] = best
        return best
