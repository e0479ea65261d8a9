"""Shared pieces of the search bots: option checks, greedy playouts and match-aware rewards."""

from __future__ import annotations

import random
from functools import cache
from typing import Final

from ..actions import DRAW, PASS, Action, Place
from ..round import Round
from ..tiles import ALL_TILES
from ..view import Outcome

__all__ = [
    "GREEDY_KEY",
    "match_odds",
    "match_rewards",
    "play_out",
    "play_out_mixed",
    "point_rewards",
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


def play_out_mixed(
    game: Round, rng: random.Random, epsilon: float, uniform: frozenset[int]
) -> Outcome:
    """``play_out``, except that the seats in ``uniform`` choose uniformly at random:
    opponents taken for random players are played out as they play."""
    legal = game.legal_actions
    apply = game.apply
    key = GREEDY_KEY.__getitem__
    uniform_draw = rng.random
    actions = legal()
    while actions:
        if len(actions) == 1:
            apply(actions[0])
        elif game.current_player in uniform or (epsilon and uniform_draw() < epsilon):
            apply(actions[int(uniform_draw() * len(actions))])
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


def point_rewards(outcome: Outcome, scores: tuple[int, ...], target: int) -> list[float]:
    """Each seat's reward in [-1, 1] for a finished round, by its points alone: the
    credited seat gets its points over 100 (at most 1), every other seat the negative
    shared among them, whatever the match; what a single round is worth."""
    n = len(scores)
    winner = outcome.winner
    if winner is None:
        return [0.0] * n
    value = min(outcome.points, 100) / 100
    out = [-value / (n - 1)] * n
    out[winner] = value
    return out


ROUND_POINTS: Final = (
    601,
    803,
    515,
    330,
    246,
    167,
    119,
    59,
    46,
    34,
    22,
    13,
    15,
    7,
    3,
    5,
    2,
    1,
    0,
    1,
)
"""How many of 3000 two-player rounds (``heuristic`` against itself) scored 0–4, 5–9, …
95–99 points for their winner: the spread of one round's points, for ``match_odds``."""


@cache
def match_odds(target: int) -> tuple[tuple[float, ...], ...]:
    """``odds[a][b]``: the chance that a seat with ``a`` points beats one with ``b`` in a
    two-player match to ``target``, if either is as likely to take each round and a
    round's points are spread as ``ROUND_POINTS`` (at each bucket's middle)."""
    total = sum(ROUND_POINTS)
    steps = [(5 * i + 2, count / total) for i, count in enumerate(ROUND_POINTS) if count]
    odds = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target, -1, -1):
        for b in range(target, -1, -1):
            if a >= target:
                odds[a][b] = 1.0
            elif b >= target:
                odds[a][b] = 0.0
            else:
                up = sum(p * odds[min(a + x, target)][b] for x, p in steps)
                down = sum(p * odds[a][min(b + x, target)] for x, p in steps)
                odds[a][b] = 0.5 * (up + down)
    return tuple(tuple(row) for row in odds)


def match_rewards(outcome: Outcome, scores: tuple[int, ...], target: int) -> list[float]:
    """Each seat's reward in [-1, 1]: with two players, how much the round moves the
    chance of winning the match (scaled so that the swing of a 50-point round is 1), so
    that the score and the target decide what a round is worth; otherwise ``rewards``."""
    if len(scores) != 2:
        return rewards(outcome, scores, target)
    winner = outcome.winner
    if winner is None:
        return [0.0, 0.0]
    odds = match_odds(target)
    a, b = (min(s, target) for s in scores)
    before = odds[a][b]
    scale = max(odds[min(a + 50, target)][b] - before, before - odds[a][min(b + 50, target)])
    gained = min(outcome.points, target)
    after = odds[min(a + gained, target)][b] if winner == 0 else odds[a][min(b + gained, target)]
    change = max(-1.0, min(1.0, (after - before) / scale)) if scale > 0 else 0.0
    return [change, -change]
