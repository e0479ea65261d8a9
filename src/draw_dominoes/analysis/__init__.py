"""Analysis: the value of every legal action from a seat's view, and reviews of finished games.

Like the bots it sees views only (R21): a hint or a review never uses an opponent's
tiles or the boneyard order, even of a finished round.
"""

from .analyse import ANALYSIS_BOT, Entry, Hint, analyse, hint_of, same_game
from .review import (
    ACCURACY_PER_POINT,
    KINDS,
    THRESHOLDS,
    Decision,
    Review,
    cache_path,
    classify,
    hint_as_reviewed,
    move_accuracy,
    review,
    review_cached,
    review_seed,
)

__all__ = [
    "ACCURACY_PER_POINT",
    "ANALYSIS_BOT",
    "KINDS",
    "THRESHOLDS",
    "Decision",
    "Entry",
    "Hint",
    "Review",
    "analyse",
    "cache_path",
    "classify",
    "hint_as_reviewed",
    "hint_of",
    "move_accuracy",
    "review",
    "review_cached",
    "review_seed",
    "same_game",
]
