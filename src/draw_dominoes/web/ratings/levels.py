"""The bot levels' fixed ratings on the Glicko scale, measured in matches between the levels.

A ladder of two-player matches to 100 between the levels (every adjacent pair and three
wider ones, 2,000 matches in the duplicate format, seed 1), with one rating a level
fitted to every pairwise result by maximum likelihood under the logistic model
P(i beats j) = 1 / (1 + 10^((Rj - Ri) / 400)), anchored with ``beginner`` at 1000. Each
deviation is the fit's standard error of that level's place relative to the others.
``docs/bots.md`` ("Ratings of the levels") gives the results; this reproduces them:

    .venv/bin/python benchmarks/bot_ladder.py --out-dir ladder --seed 1 --workers 2

Measured with two seats; rated matches of three and four seats use the same ratings.
"""

from __future__ import annotations

from .glicko2 import Rating

__all__ = ["LEVEL_RATINGS"]

LEVEL_RATINGS: dict[str, Rating] = {
    "beginner": Rating(1000.0, 41.0),
    "easy": Rating(1635.0, 20.0),
    "medium": Rating(1679.0, 19.0),
    "strong": Rating(2231.0, 25.0),
    "expert": Rating(2291.0, 27.0),
}
"""A level's rating, never changed by a match: a bot's seat in ``rate_match`` is fixed."""
