"""The web table: typed intents, its state as data, and a pure step/due state machine."""

from .effects import AskBot, AskHint, Effect, Publish, Store, Transition, WakeAt
from .errors import UserError
from .intents import Intent, parse
from .state import TableSeat, TableState, Timing
from .step import check_bots_fill, check_seed, due, new_table, step

__all__ = [
    "AskBot",
    "AskHint",
    "Effect",
    "Intent",
    "Publish",
    "Store",
    "TableSeat",
    "TableState",
    "Timing",
    "Transition",
    "UserError",
    "WakeAt",
    "check_bots_fill",
    "check_seed",
    "due",
    "new_table",
    "parse",
    "step",
]
