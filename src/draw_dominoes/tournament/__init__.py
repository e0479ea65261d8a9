"""Tournaments between bots: duplicate-format games, parallel runners, statistics and reports."""

from .runner import Fixture, Tournament, play_game, run_tournament
from .stats import Report, bradley_terry, summarize, wilson

__all__ = [
    "Fixture",
    "Report",
    "Tournament",
    "bradley_terry",
    "play_game",
    "run_tournament",
    "summarize",
    "wilson",
]
