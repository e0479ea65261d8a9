"""Shared pieces of the search bots: option checks, greedy playouts and match-aware rewards."""

from __future__ import annotations

import random
from typing import Final

from ..actions import DRAW, PASS, Action, Place
from ..round import Round
from ..tiles import ALL_TILES
from ..view import Outcome

__all__ = [
    "GREEDY_KEY",
    "play_out",
    "positive_float",
    "positive_int",
    "rewards",
]

# A placement's rank for the greedy playout: heaviest tile, then the higher tile, then end 0,
# exactly the ``greedy`` bot's order; draw and pass rank below every placement.
GREEDY_KEY: Final[dict[Action, int]] = {
    Place(tile, end): tile.pips * 1000 + tile.index * 2 + (0 if end == 1 else 1)
    for tile in ALL_TILES
    for end in (0, 1, None)
}
GREEDY_KEY[DRAW] = -1
GREEDY_KEY[PASS] = -1


def positive_int(name: str, value: object) -> int:
    if type(value) is not int or value < 1:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")
    return value


def positive_float(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
    return float(value)


def play_out(game: Round, rng: random.Random, epsilon: float = 0.0) -> Outcome:
    """Play ``game`` to its end with the greedy policy (a random action with prob. ``epsilon``)."""
    legal = game.legal_actions
    apply = game.apply
    key = GREEDY_KEY.__getitem__
    uniform = rng.random
    actions = legal()
    while actions:
        if len(actions) == 1:
            apply(actions[0])
        elif epsilon and uniform() < epsilon:
            apply(actions[int(uniform() * len(actions))])
        else:
            apply(max(actions, key=key))
        actions = legal()
    outcome = game.outcome
    assert outcome is not None
    return outcome


def rewards(outcome: Outcome, scores: tuple[int, ...], target: int) -> list[float]:
    """Each seat's reward in [-1, 1] for a finished round, seen from the match.

    Winning the match with this round is worth 1 and losing it -1; otherwise the
    credited seat gets between 0.3 and 1 by the points it scored (more points, more
    reward, saturating at 50) and every other seat the negative. A tie for lowest in
    a blocked round (R17) is worth 0 to everyone.
    """
    n = len(scores)
    winner = outcome.winner
    if winner is None:
        return [0.0] * n
    points = outcome.points
    value = 1.0 if scores[winner] + points >= target else 0.3 + 0.7 * min(points, 50) / 50
    out = [-value] * n
    out[winner] = value
    return out
