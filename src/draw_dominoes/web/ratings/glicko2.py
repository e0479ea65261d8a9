"""Glicko-2 as in Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "EPSILON",
    "MAX_DEVIATION",
    "SCALE",
    "TAU",
    "Rating",
    "expected_score",
    "update",
]

SCALE = 173.7178
"""Glicko points a unit of the Glicko-2 scale (step 2: 400/ln 10 as the paper prints it)."""

TAU = 0.5
"""The system constant: how far the volatility may move in one period (the paper's example)."""

EPSILON = 0.000001
"""When the volatility iteration stops (step 5: the paper's tolerance)."""

MAX_DEVIATION = 350.0
"""An unrated player's deviation, and the most a rating's deviation ever grows to.

The paper leaves the deviation unbounded; capping it where a newcomer starts (as lichess
does) means nobody is ever less known than someone who never played.
"""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale: the paper's r, RD and σ, a newcomer's by default."""

    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    def __post_init__(self) -> None:
        # A bad value here would spread to everyone this player meets; refuse it early.
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating is a finite number, not {self.rating!r}")
        if not (math.isfinite(self.deviation) and self.deviation > 0):
            raise ValueError(f"a deviation is a positive number, not {self.deviation!r}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"a volatility is a positive number, not {self.volatility!r}")


def _g(phi: float) -> float:
    """Step 3's g(φ): an opponent known less surely counts for less."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    """Step 3's E(μ, μj, φj), written so that no exponent can overflow."""
    x = g_j * (mu - mu_j)
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (step 3's E)."""
    return _expected(
        (player.rating - 1500) / SCALE,
        (opponent.rating - 1500) / SCALE,
        _g(opponent.deviation / SCALE),
    )


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period: ``results`` are its games, each an
    opponent's rating at the period's start and the player's score (1, 0.5 or 0).

    Every game of a period counts as played at once, so the order of ``results`` does not
    matter. With no games only the deviation grows (step 6), never above ``MAX_DEVIATION``.
    """
    if not (math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau is a positive number, not {tau!r}")
    for _, score in results:
        if not 0 <= score <= 1:
            raise ValueError(f"a score is between 0 and 1, not {score!r}")
    # Step 2: onto the Glicko-2 scale.
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(SCALE * phi_star, MAX_DEVIATION), sigma)
    # Steps 3 and 4: the estimated variance v from the games alone, and the improvement Δ.
    information = 0.0
    surprise = 0.0
    for opponent, score in results:
        g_j = _g(opponent.deviation / SCALE)
        e_j = _expected(mu, (opponent.rating - 1500) / SCALE, g_j)
        information += g_j * g_j * e_j * (1 - e_j)
        surprise += g_j * (score - e_j)
    v = 1 / information
    delta = v * surprise
    # Step 5: the new volatility.
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    # Steps 6 and 7: the deviation grows by the volatility, then shrinks by the games.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * surprise
    # Step 8: back onto the Glicko scale.
    return Rating(
        SCALE * mu_new + 1500,
        min(SCALE * phi_new, MAX_DEVIATION),
        sigma_new,
    )


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: σ′ from the Illinois algorithm (regula falsi that halves a stuck end), which
    brackets the root of f and so cannot diverge as Newton's method can."""
    a = math.log(sigma * sigma)
    base = phi * phi + v

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - base - ex) / (2 * (base + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > base:
        big_b = math.log(delta * delta - base)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a = f(big_a)
    f_b = f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
