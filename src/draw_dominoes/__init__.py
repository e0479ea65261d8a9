"""draw-dominoes: the rules engine for Draw, the individual domino game for two to four players."""

from .actions import (
    DRAW,
    PASS,
    Action,
    Draw,
    IllegalActionError,
    InvalidActionError,
    Pass,
    Place,
    parse_action,
)
from .game import Game, Player, play, take_turn
from .line import Connection, End, Line, Port
from .match import Match
from .record import RecordError
from .round import Round, ViewSampler, check_players, hand_size_for, sample_from_view
from .rules import RULES, Rules
from .tiles import ALL_TILES, VALUE_MASKS, InvalidTileError, Tile
from .view import Outcome, PlayerView, Termination, target_for

__version__ = "0.1.0"

__all__ = [
    "ALL_TILES",
    "DRAW",
    "PASS",
    "RULES",
    "VALUE_MASKS",
    "Action",
    "Connection",
    "Draw",
    "End",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidTileError",
    "Line",
    "Match",
    "Outcome",
    "Pass",
    "Place",
    "Player",
    "PlayerView",
    "Port",
    "RecordError",
    "Round",
    "Rules",
    "Termination",
    "Tile",
    "ViewSampler",
    "check_players",
    "hand_size_for",
    "parse_action",
    "play",
    "sample_from_view",
    "take_turn",
    "target_for",
]
