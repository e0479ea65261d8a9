"""The web table: typed intents, its state as data, and a pure step/due state machine."""

from .effects import AskBot, AskHint, Effect, Publish, Store, Transition, WakeAt
from .errors import UserError
from .intents import Intent, parse
from .state import AWAY_LEVEL, HOST_SEAT, Seat, TableState, Timing, action_count, bot_label
from .step import check_bots_fill, check_seed, display_name, due, new_table, offered_bot, step

__all__ = [
    "AWAY_LEVEL",
    "HOST_SEAT",
    "AskBot",
    "AskHint",
    "Effect",
    "Intent",
    "Publish",
    "Seat",
    "Store",
    "TableState",
    "Timing",
    "Transition",
    "UserError",
    "WakeAt",
    "action_count",
    "bot_label",
    "check_bots_fill",
    "check_seed",
    "display_name",
    "due",
    "new_table",
    "offered_bot",
    "parse",
    "step",
]
