"""Ratings of people in rated matches: Glicko-2 on the Glicko scale (1500 for a newcomer)."""

from .glicko2 import MAX_DEVIATION, TAU, Rating, expected_score, update

__all__ = ["MAX_DEVIATION", "TAU", "Rating", "expected_score", "update"]
