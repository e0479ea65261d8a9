"""The three actions (place, draw, pass), their text notation and the illegal-action error."""

from __future__ import annotations

import re
from typing import Final, Self, cast

from .tiles import ALL_TILES, Interned, InvalidTileError, Tile

__all__ = [
    "ACTION_IDS",
    "DRAW",
    "PASS",
    "Action",
    "Draw",
    "IllegalActionError",
    "InvalidActionError",
    "Pass",
    "Place",
    "action_for_id",
    "parse_action",
]


class IllegalActionError(ValueError):
    """An action the rules do not allow here (R8); the state is left unchanged.

    ``str()`` is the reason in English; ``code`` names the reason and ``details`` holds
    its particulars (tiles and actions as text, numbers), so that an interface can give
    the same reason in the player's language.
    """

    def __init__(self, message: str, code: str = "illegal", **details: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.details = details


class InvalidActionError(ValueError):
    """Text that is no action's notation (``draw``, ``pass``, ``[1|4]``, ``[1|4]@0``):
    bad writing, as against a well-written action the rules refuse (``IllegalActionError``)."""


class Place(Interned):
    """Place ``tile`` at line end ``end`` (0 = left, 1 = right, ``None`` = the opening).

    Interned like ``Tile``: ``Place(t, 0) is Place(t, 0)``; ``index`` numbers the
    84 placements (``3 * tile.index`` + 0, 1, or 2 for the opening), and ``id`` is the
    action id (``2 * tile.index + end``; the opening shares its tile's end-0 id). Text:
    ``[1|4]`` for an opening, ``[1|1]@0`` / ``[4|4]@1`` at end 0 / end 1.
    """

    __slots__ = ("_text", "end", "id", "index", "tile")

    tile: Tile
    end: int | None
    index: int
    id: int
    _text: str

    def __new__(cls, tile: Tile | str, end: int | None) -> Place:
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        if not isinstance(tile, Tile):
            raise ValueError(f"not a tile: {tile!r}")
        if end is None:
            return _PLACES[tile.index * 3 + 2]
        if type(end) is not int or end not in (0, 1):
            raise ValueError(f"a line end is 0, 1 or None (the opening), not {end!r}")
        return _PLACES[tile.index * 3 + end]

    @classmethod
    def _make(cls, tile: Tile, end: int | None) -> Place:
        place = object.__new__(cls)
        object.__setattr__(place, "tile", tile)
        object.__setattr__(place, "end", end)
        object.__setattr__(place, "index", tile.index * 3 + (2 if end is None else end))
        object.__setattr__(place, "id", tile.index * 2 + (end or 0))
        object.__setattr__(place, "_text", str(tile) if end is None else f"{tile}@{end}")
        return place

    def __reduce__(self) -> tuple[type[Place], tuple[Tile, int | None]]:
        return (Place, (self.tile, self.end))

    # Equality and hashing are by identity (the default): every Place is interned.

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Place({self.tile!r}, {self.end!r})"


_PLACES: Final[tuple[Place, ...]] = tuple(
    Place._make(tile, end) for tile in ALL_TILES for end in (0, 1, None)
)


class _Singleton(Interned):
    """A stateless action: every instance is the same object."""

    __slots__ = ()
    _text = ""

    def __new__(cls) -> Self:
        instance = _SINGLETONS.get(cls)
        if instance is None:
            instance = _SINGLETONS[cls] = object.__new__(cls)
        return cast(Self, instance)

    def __reduce__(self) -> tuple[type[_Singleton], tuple[()]]:
        return (type(self), ())

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


_SINGLETONS: dict[type[_Singleton], _Singleton] = {}


class Draw(_Singleton):
    """Take the boneyard's first tile; the turn continues (R5, R6). Text: ``draw``."""

    __slots__ = ()
    _text = "draw"
    id: Final = 56


class Pass(_Singleton):
    """Pass the turn; only when nothing can be placed or drawn (R5). Text: ``pass``."""

    __slots__ = ()
    _text = "pass"
    id: Final = 57


DRAW: Final = Draw()
PASS: Final = Pass()

Action = Place | Draw | Pass

ACTION_IDS: Final = 58
"""Action ids 0 … 57: ``2 * tile.index + end`` for a placement (the opening with a tile
uses its end-0 id), 56 ``draw``, 57 ``pass``: a fixed integer action space for search
and learning, ``action.id`` one way and ``action_for_id`` the other."""

_BY_ID: Final[tuple[Action, ...]] = (
    *(Place(tile, end) for tile in ALL_TILES for end in (0, 1)),
    DRAW,
    PASS,
)
_OPENING_BY_ID: Final[tuple[Action | None, ...]] = (
    *(item for tile in ALL_TILES for item in (Place(tile, None), None)),
    DRAW,
    PASS,
)


def action_for_id(action_id: int, opening: bool) -> Action:
    """The action with id ``action_id``; ``opening``: the line is empty, so an even id is
    the opening with that tile. An odd id on an empty line names no action
    (``IllegalActionError``); an id outside 0 … 57 is a ``ValueError``."""
    if type(action_id) is not int or not 0 <= action_id < ACTION_IDS:
        raise ValueError(
            f"an action id is an integer from 0 to {ACTION_IDS - 1}, not {action_id!r}"
        )
    if not opening:
        return _BY_ID[action_id]
    found = _OPENING_BY_ID[action_id]
    if found is None:
        tile = ALL_TILES[action_id // 2]
        raise IllegalActionError(
            f"action {action_id} places {tile} at end 1, but the line is empty: "
            f"the opening with {tile} is action {action_id - 1}",
            "opening_id",
            action=action_id,
            tile=str(tile),
            opening=action_id - 1,
        )
    return found


_PLACE_RE: Final = re.compile(r"\s*(\[[^\]]*\])\s*(?:@\s*([^\s]*))?\s*")


def parse_action(text: str) -> Action:
    """Read an action's text: ``draw``, ``pass``, ``[1|4]`` (opening), ``[1|4]@0``, ``[1|4]@1``."""
    if not isinstance(text, str):
        raise InvalidActionError(f"not an action: {text!r}")
    word = text.strip().lower()
    if word == "draw":
        return DRAW
    if word == "pass":
        return PASS
    match = _PLACE_RE.fullmatch(text)
    if match is None:
        raise InvalidActionError(
            f"not an action: {text!r} (expected 'draw', 'pass', '[1|4]', '[1|4]@0' or '[1|4]@1')"
        )
    try:
        tile = Tile.parse(match.group(1))
    except InvalidTileError as error:
        raise InvalidActionError(f"not an action: {text!r} ({error})") from None
    end_text = match.group(2)
    if end_text is None:
        return Place(tile, None)
    if end_text not in ("0", "1"):
        raise InvalidActionError(f"not an action: {text!r} (the end after '@' is 0 or 1)")
    return Place(tile, int(end_text))
