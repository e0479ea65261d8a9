"""Reading what a player types: a tile (by number or as ``[1|4]``), an end, draw, pass, commands.

Every answer is either a legal action, a question back (which end?), a command, or a
one-line refusal that says why; nothing typed can raise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, Draw, Pass, Place
from ..line import Line
from ..tiles import Tile
from ..view import PlayerView
from .words import Words

__all__ = [
    "ChooseEnd",
    "Command",
    "Refusal",
    "at_end",
    "describe_line",
    "pass_refusal",
    "read_end",
    "read_move",
    "read_tile",
]

COMMANDS = {
    "?": "describe",
    "!": "hint",
    "q": "quit",
    "quit": "quit",
    "h": "help",
    "help": "help",
    "hilfe": "help",
}
DRAW_WORDS = ("d", "draw", "ziehen")
PASS_WORDS = ("p", "pass", "passen")
END_WORDS = {
    "l": 0,
    "left": 0,
    "links": 0,
    "0": 0,
    "r": 1,
    "right": 1,
    "rechts": 1,
    "1": 1,
}

_NUMBER = re.compile(r"^(\d{1,3})\s*([a-z]*)$")  # int() of thousands of digits would raise
_SHOWN = 24  # characters of unknown input echoed back in a refusal
_TILE = re.compile(r"^\[?\s*(\d)\s*[|\-/:]\s*(\d)\s*\]?\s*(?:@\s*([01])|([a-z]+))?$")


@dataclass(frozen=True, slots=True)
class Command:
    """Not a move: ``describe`` (the R12 line description), ``hint``, ``help`` or ``quit``."""

    name: str


@dataclass(frozen=True, slots=True)
class ChooseEnd:
    """The tile fits both ends: ask which one."""

    tile: Tile
    options: tuple[Place, ...]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Input that is not a legal move, with the reason in the player's language."""

    message: str


Reading = Action | Command | ChooseEnd | Refusal


def read_move(
    text: str, view: PlayerView, words: Words, hand: Sequence[Tile] | None = None
) -> Reading:
    """What ``text`` asks for on ``view``'s turn; only legal actions ever come back.

    ``hand`` is the hand in the order its numbers were shown (``view.hand`` by default):
    a number names the tile the player saw under it."""
    shown = view.hand if hand is None else hand
    typed = text.strip().lower()
    if not typed:
        return Refusal(words("refuse_empty"))
    if typed in COMMANDS:
        return Command(COMMANDS[typed])
    legal = view.legal_actions
    if typed in DRAW_WORDS:
        if Draw() in legal:
            return Draw()
        return Refusal(words("refuse_draw", left=view.boneyard_size))
    if typed in PASS_WORDS:
        if Pass() in legal:
            return Pass()
        return Refusal(pass_refusal(view, words))
    number = _NUMBER.match(typed)
    if number:
        index = int(number.group(1))
        if not 1 <= index <= len(shown):
            return Refusal(words("refuse_number", number=index, count=len(shown)))
        return _place(shown[index - 1], number.group(2), view, words)
    tile_match = _TILE.match(typed)
    if tile_match:
        low, high = int(tile_match.group(1)), int(tile_match.group(2))
        if max(low, high) > 6:
            return Refusal(words("refuse_unknown", text=_shorten(text.strip())))
        tile = Tile(low, high)
        if tile not in view.hand:
            return Refusal(words("refuse_not_held", tile=tile))
        end = tile_match.group(3) or tile_match.group(4) or ""
        return _place(tile, end, view, words)
    return Refusal(words("refuse_unknown", text=_shorten(text.strip())))


def read_tile(tile: Tile, view: PlayerView, words: Words, end: int | None = None) -> Reading:
    """Placing ``tile`` (chosen on a board, not typed): the action, "which end?" when it
    fits two ends that show different values, or why it cannot be placed."""
    if tile not in view.hand:
        return Refusal(words("refuse_not_held", tile=tile))
    options = tuple(a for a in view.legal_actions if isinstance(a, Place) and a.tile == tile)
    if end is None or not options or options[0].end is None:  # no end to choose, or none fits
        return _place(tile, "", view, words)
    return _at_end(tile, end, options, view, words)


def at_end(choice: ChooseEnd, end: int, view: PlayerView, words: Words) -> Place | Refusal:
    """The answer ``end`` (0 left, 1 right) to "which end?"."""
    reading = _at_end(choice.tile, end, choice.options, view, words)
    assert isinstance(reading, Place | Refusal)
    return reading


def _shorten(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _place(tile: Tile, end_text: str, view: PlayerView, words: Words) -> Reading:
    options = tuple(a for a in view.legal_actions if isinstance(a, Place) and a.tile == tile)
    if not options:
        values = view.line.end_values
        return Refusal(words("refuse_no_fit", tile=tile, left=values[0], right=values[1]))
    if options[0].end is None:  # the opening: any tile, no end to choose (R7, R9)
        return options[0]
    if end_text:
        end = END_WORDS.get(end_text)
        if end is None:
            return Refusal(words("refuse_end_word", text=_shorten(end_text)))
        return _at_end(tile, end, options, view, words)
    if len(options) == 1:
        return options[0]
    values = view.line.end_values
    if values[0] == values[1]:  # either end gives the same game: no question
        return options[0]
    return ChooseEnd(tile, options)


def _at_end(
    tile: Tile, end: int, options: tuple[Place, ...], view: PlayerView, words: Words
) -> Reading:
    for option in options:
        if option.end == end:
            return option
    value = view.line.end_values[end]
    return Refusal(words("refuse_no_fit_end", tile=tile, end=words.end_name(end), value=value))


def read_end(
    text: str, choice: ChooseEnd, view: PlayerView, words: Words
) -> Place | Command | Refusal:
    """The answer to "which end?": ``l``/``r`` (or left/right, links/rechts, 0/1), or a
    command (``q`` saves and quits here too, ``?`` describes the line, ``h`` helps)."""
    typed = text.strip().lower()
    if typed in COMMANDS:
        return Command(COMMANDS[typed])
    end = END_WORDS.get(typed)
    if end is None:
        return Refusal(words("refuse_end_word", text=_shorten(text.strip())))
    reading = _at_end(choice.tile, end, choice.options, view, words)
    assert isinstance(reading, Place | Refusal)
    return reading


def pass_refusal(view: PlayerView, words: Words) -> str:
    """Why passing is refused here, naming only what the player can do instead."""
    legal = view.legal_actions
    can_place = any(isinstance(action, Place) for action in legal)
    if can_place and Draw() in legal:
        return words("refuse_pass")
    return words("refuse_pass_place" if can_place else "refuse_pass_draw")


def describe_line(line: Line, words: Words) -> str:
    """The line as a player reads it (``?``): how long it is and what each end shows,
    on which tile. (R12's full text alternative, ports and all, is ``Line.describe``.)"""
    if line.is_empty:
        return words("line_read_empty")

    def on(tile: Tile) -> str:
        return words("line_double", tile=tile) if tile.is_double else str(tile)

    left, right = line.ends
    count = len(line)
    tiles = words("line_tiles_one") if count == 1 else words("line_tiles", count=count)
    return words(
        "line_ends",
        count=tiles,
        left=left.value,
        left_tile=on(left.tile),
        right=right.value,
        right_tile=on(right.tile),
    )
