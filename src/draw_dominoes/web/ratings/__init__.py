"""Ratings of people in rated matches: Glicko-2 on the Glicko scale, each match rated by pairs."""

from .glicko2 import MAX_DEVIATION, TAU, Rating, expected_score, update
from .levels import LEVEL_RATINGS
from .pairs import PROVISIONAL_DEVIATION, display, pair_scores, provisional, rate_match

__all__ = [
    "LEVEL_RATINGS",
    "MAX_DEVIATION",
    "PROVISIONAL_DEVIATION",
    "TAU",
    "Rating",
    "display",
    "expected_score",
    "pair_scores",
    "provisional",
    "rate_match",
    "update",
]
