"""A finished match of two to four seats rated by pairs: one Glicko-2 period a match."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .glicko2 import TAU, Rating, update

__all__ = ["PROVISIONAL_DEVIATION", "display", "pair_scores", "provisional", "rate_match"]

PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is shown as provisional ("1500?"), as lichess does."""


def pair_scores(
    scores: Sequence[int], resigned: Sequence[bool] = ()
) -> tuple[tuple[float, ...], ...]:
    """What each seat scored against each other seat: 1, 0.5 or 0 (itself: 0.5).

    Every two seats are one game, decided by the match's final scores (higher wins,
    equal is a draw): finishing second of four beats two players and loses to one. A
    seat that resigned finished last, whatever its score: it loses to every seat that
    did not, and two seats that resigned draw with each other.
    """
    n = len(scores)
    gave_up = _resigned(resigned, n)

    def score(i: int, j: int) -> float:
        if gave_up[i] or gave_up[j]:
            return 0.5 if gave_up[i] == gave_up[j] else float(gave_up[j])
        return 0.5 if scores[i] == scores[j] else float(scores[i] > scores[j])

    table = [tuple(score(i, j) for j in range(n)) for i in range(n)]
    return tuple(table)


def rate_match(
    seats: Sequence[Rating],
    scores: Sequence[int],
    fixed: Sequence[bool],
    resigned: Sequence[bool] = (),
    *,
    tau: float = TAU,
) -> tuple[Rating, ...]:
    """Every seat's rating after a finished match, in the seats' order.

    ``seats`` are the ratings before the match, ``scores`` the final match scores and
    ``fixed`` the seats whose rating never changes (bots: their levels' ratings from
    ``LEVEL_RATINGS``), which are returned as given. ``resigned`` (empty: nobody) marks
    seats that gave up. Each other seat gets one Glicko-2 update over its games against
    every other seat (see ``pair_scores``), each opponent as rated before the match, so
    that the order of the seats changes nothing. A match is one rating period, as lichess
    makes every game one: ratings move after every match, not once a month.
    """
    n = len(seats)
    if not 2 <= n <= 4:
        raise ValueError(f"a match has 2 to 4 seats, not {n}")
    if len(scores) != n or len(fixed) != n:
        raise ValueError(f"{n} seats need {n} scores and {n} fixed flags")
    games = pair_scores(scores, resigned)
    return tuple(
        seat
        if fixed[i]
        else update(seat, [(seats[j], games[i][j]) for j in range(n) if j != i], tau)
        for i, seat in enumerate(seats)
    )


def display(rating: Rating) -> int:
    """The rating as people see it: the nearest whole point, halves up as the browser's
    ``Math.round`` takes them (Python's ``round`` would take them to even)."""
    return math.floor(rating.rating + 0.5)


def provisional(rating: Rating) -> bool:
    """Whether the rating is still too uncertain to compare (shown with a "?")."""
    return rating.deviation > PROVISIONAL_DEVIATION


def _resigned(resigned: Sequence[bool], n: int) -> tuple[bool, ...]:
    if not resigned:
        return (False,) * n
    if len(resigned) != n:
        raise ValueError(f"{n} seats need {n} resigned flags, not {len(resigned)}")
    return tuple(bool(r) for r in resigned)
