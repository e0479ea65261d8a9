"""Analysis: every legal action valued from a seat's view, reviews of games, the luck of the deal.

Like the bots it sees views only (R21): a hint or a review never uses an opponent's
tiles or the boneyard order, even of a finished round. Only ``deal_worth``, which weighs
finished rounds' deals, starts from every hand, and its bots still play from views.
"""

from .analyse import ANALYSIS_BOT, Entry, Hint, analyse, hint_of, same_game
from .luck import DEFAULT_PLAYOUTS, LUCK_BOT, DealWorth, RoundWorth, deal_worth
from .review import (
    ACCURACY_PER_POINT,
    KINDS,
    THRESHOLDS,
    Decision,
    Review,
    cache_path,
    classify,
    deal_worth_cached,
    hint_as_reviewed,
    move_accuracy,
    review,
    review_cached,
    review_seed,
)

__all__ = [
    "ACCURACY_PER_POINT",
    "ANALYSIS_BOT",
    "DEFAULT_PLAYOUTS",
    "KINDS",
    "LUCK_BOT",
    "THRESHOLDS",
    "DealWorth",
    "Decision",
    "Entry",
    "Hint",
    "Review",
    "RoundWorth",
    "analyse",
    "cache_path",
    "classify",
    "deal_worth",
    "deal_worth_cached",
    "hint_as_reviewed",
    "hint_of",
    "move_accuracy",
    "review",
    "review_cached",
    "review_seed",
    "same_game",
]
