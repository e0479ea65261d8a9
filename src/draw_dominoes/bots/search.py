"""Shared pieces of the search bots: their time budget, greedy playouts and match-aware rewards."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Generic

from ..actions import DRAW, PASS, Action, Place
from ..round import Round
from ..tiles import ALL_TILES
from ..view import Outcome
from .options import Options, OptionsT, limits, options_of
from .registry import seeded

__all__ = [
    "GREEDY_KEY",
    "BudgetOptions",
    "SearchBot",
    "match_odds",
    "match_rewards",
    "play_out",
    "point_rewards",
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


@dataclass(frozen=True)
class BudgetOptions(Options):
    """How long a search bot thinks a move: the options every search bot takes."""

    iterations: int | None = field(default=None, metadata=limits(minimum=1))
    """Iterations (or worlds) a move; by default the bot's own number, unless only a
    time is given."""
    time_per_move: float | None = field(
        default=None, metadata=limits(above=0, noun="number of seconds")
    )
    """Seconds a move; with ``iterations``, the first limit reached stops the search."""
    max_seconds: float | None = field(
        default=None, metadata=limits(above=0, noun="number of seconds")
    )
    """A cap in seconds on the search, without replacing its iterations (people wait)."""

    def budget(self, default: int) -> tuple[int | None, float | None]:
        """The iterations and the seconds a move: ``default`` iterations unless only a time
        is given, and the smaller of ``time_per_move`` and ``max_seconds``."""
        iterations = self.iterations
        if iterations is None and self.time_per_move is None:
            iterations = default
        seconds = [s for s in (self.time_per_move, self.max_seconds) if s is not None]
        return iterations, min(seconds, default=None)


class SearchBot(Generic[OptionsT]):
    """What every search bot keeps: its options (of type ``options_type``, checked once), a
    clock (a keyword, not an option: the tests give a fake one), its own rng, and how many
    iterations its last search ran."""

    name: str
    options_type: type[OptionsT]

    def __init__(
        self,
        seed: int | random.Random = 0,
        *,
        clock: Callable[[], float] = time.perf_counter,
        options: OptionsT | None = None,
        **given: Any,
    ) -> None:
        self.options = options_of(self.name, self.options_type, given, options)
        self.clock = clock
        self.rng = seeded(seed)
        self.last_iterations = 0


def play_out(
    round_: Round,
    rng: random.Random,
    epsilon: float = 0.0,
    uniform: frozenset[int] = frozenset(),
) -> Outcome:
    """Play ``round_`` to its end with the greedy policy (a random action with prob. ``epsilon``);
    the seats in ``uniform`` choose uniformly at random: opponents taken for random players
    are played out as they play."""
    legal = round_.legal_actions
    apply = round_.apply
    key = GREEDY_KEY.__getitem__
    draw = rng.random
    actions = legal()
    while actions:
        if len(actions) == 1:
            apply(actions[0])
        elif (uniform and round_.current_player in uniform) or (epsilon and draw() < epsilon):
            apply(actions[int(draw() * len(actions))])
        else:
            apply(max(actions, key=key))
        actions = legal()
    outcome = round_.outcome
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
