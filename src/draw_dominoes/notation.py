"""The compact notation of position texts: tiles as two digits, moves as short tokens."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import DRAW, PASS, Action, Draw, Place
from .line import Line
from .tiles import InvalidTileError, Tile

__all__ = [
    "NONE",
    "Move",
    "PositionError",
    "integer",
    "integers",
    "line_text",
    "move_text",
    "moves_text",
    "parse_moves",
    "parse_tiles",
    "tiles_text",
]

NONE = "-"
"""An empty list or an absent value."""

Move = tuple[Action, Tile | None]
"""An action and, for a draw whose tile is known, the tile drawn."""


class PositionError(ValueError):
    """A position text that cannot be read or does not hold together; the message names
    the part (``hands``, ``moves``, …) and what is wrong with it."""

    def __init__(self, part: str, problem: str) -> None:
        super().__init__(f"position text, {part}: {problem}")
        self.part = part


def tiles_text(tiles: Iterable[Tile]) -> str:
    """``[1|4] [0|6]`` as ``1406``; none as ``-``."""
    return "".join(f"{t.low}{t.high}" for t in tiles) or NONE


def parse_tiles(text: str, part: str) -> tuple[Tile, ...]:
    """Read ``tiles_text``; ``part`` names the field in errors."""
    if text == NONE:
        return ()
    if len(text) % 2 or not text.isdigit():
        raise PositionError(part, f"{text!r} is not tiles written as pairs of digits")
    try:
        return tuple(Tile(int(text[i]), int(text[i + 1])) for i in range(0, len(text), 2))
    except InvalidTileError as error:
        raise PositionError(part, str(error)) from None


def line_text(line: Line) -> str:
    """The line's values as they lie from end 0 to end 1: ``1-1,1-4,4-4``; empty, ``-``."""
    return ",".join(f"{a}-{b}" for a, b in line.faces) or NONE


def integer(text: str, part: str, low: int = 0, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (inclusive), or a ``PositionError``."""
    if not text.isdigit() or (high is not None and not low <= int(text) <= high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise PositionError(part, f"{text!r} is not a whole number {span}")
    return int(text)


def integers(text: str, part: str, count: int) -> tuple[int, ...]:
    """``count`` comma-separated whole numbers."""
    values = tuple(integer(item, part) for item in text.split(","))
    if len(values) != count:
        raise PositionError(part, f"{text!r} has {len(values)} numbers, not {count}")
    return values


def move_text(action: Action, drawn: Tile | None = None) -> str:
    """``14`` an opening, ``44@1`` a placement at end 1, ``d25`` a draw of [2|5] (``d``
    when the tile is not told), ``p`` a pass."""
    if isinstance(action, Place):
        tile = f"{action.tile.low}{action.tile.high}"
        return tile if action.end is None else f"{tile}@{action.end}"
    if isinstance(action, Draw):
        return "d" if drawn is None else f"d{drawn.low}{drawn.high}"
    return "p"


def moves_text(moves: Sequence[Move]) -> str:
    return ",".join(move_text(action, tile) for action, tile in moves) or NONE


def parse_moves(text: str) -> list[Move]:
    """Read ``moves_text``."""
    if text == NONE:
        return []
    moves: list[Move] = []
    for number, token in enumerate(text.split(","), 1):
        part = f"moves (move {number}, {token!r})"
        if token == "p":
            moves.append((PASS, None))
        elif token == "d":
            moves.append((DRAW, None))
        elif token.startswith("d"):
            (tile,) = parse_tiles(token[1:], part) or (None,)
            if tile is None or len(token) != 3:
                raise PositionError(part, "a draw is d or d and one tile")
            moves.append((DRAW, tile))
        else:
            tile_text, at, end = token.partition("@")
            tiles = parse_tiles(tile_text, part)
            if len(tiles) != 1 or (at and end not in ("0", "1")):
                raise PositionError(part, "not a move: 14, 14@0, 14@1, d, d25 or p")
            moves.append((Place(tiles[0], int(end) if at else None), None))
    return moves
