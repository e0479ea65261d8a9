"""The legal-move table: which placements fit which ends (R5–R7, R9), made once for every user."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from .actions import DRAW, PASS, Action, Place
from .tiles import ALL_TILES, TILE_COUNT, UNDRAWN, VALUE_MASKS, VALUES, Tile

__all__ = [
    "AFTER",
    "BY_ENDS",
    "EMPTY",
    "LAST_DRAW",
    "OPENING_RUNS",
    "OPEN_END",
    "PLAYABLE",
    "RUN_MASKS",
    "ends_code",
    "ends_values",
    "legal_actions",
    "placement_ids",
    "subset_table",
]

T = TypeVar("T")
Item = TypeVar("Item")

EMPTY: Final = VALUES * VALUES
"""The ends code of the empty line. A line's two end values are one code,
``VALUES * end0 + end1`` (0 … 48), so the tables are indexed by one small integer."""

OPEN_END: Final = VALUES
"""An end *value* that stands for the empty line (for code that keeps the two ends
apart, such as the batched rules): every tile fits end 0 and none fits end 1."""

LAST_DRAW: Final = TILE_COUNT - UNDRAWN
"""Tiles are dealt and drawn from one stock of 28 slots; a draw is legal while fewer than
26 are used up (R2)."""


def ends_code(end0: int, end1: int) -> int:
    """The code of a line whose ends show ``end0`` and ``end1``."""
    return VALUES * end0 + end1


def ends_values(code: int) -> tuple[int, ...]:
    """The two end values of ``code``; empty for the empty line."""
    return () if code == EMPTY else divmod(code, VALUES)


def subset_table(
    tiles: Sequence[Tile], item: Callable[[Tile], Item], combine: Callable[[list[Item]], T]
) -> dict[int, T]:
    """Every subset of ``tiles`` (as a tile bitmask) -> ``combine`` of its items: a hand
    masked by the tiles that fit becomes its moves in one lookup, not a loop."""
    table: dict[int, T] = {}
    for subset in range(1 << len(tiles)):
        held = [t for i, t in enumerate(tiles) if subset >> i & 1]
        table[sum(t.bit for t in held)] = combine([item(t) for t in held])
    return table


def _showing(value: int) -> list[Tile]:
    return [t for t in ALL_TILES if value in (t.low, t.high)]


def _places(
    tiles: Sequence[Tile], end: int | None, extra: Sequence[Action] = ()
) -> dict[int, list[Action]]:
    return subset_table(tiles, lambda t: Place(t, end), lambda held: [*held, *extra])


_AT0: Final = tuple(_places(_showing(v), 0) for v in range(VALUES))
_AT1: Final = tuple(_places(_showing(v), 1) for v in range(VALUES))
_AT1_OR_DRAW: Final = tuple(_places(_showing(v), 1, [DRAW]) for v in range(VALUES))

BY_ENDS: Final = tuple(
    (
        _AT0[code // VALUES],
        VALUE_MASKS[code // VALUES],
        (_AT1[code % VALUES], _AT1_OR_DRAW[code % VALUES]),
        VALUE_MASKS[code % VALUES],
    )
    for code in range(EMPTY)
)
"""``BY_ENDS[code]``: the placements at end 0 keyed by ``hand & mask0``, and at end 1
(without and with a trailing draw) keyed by ``hand & mask1``."""

OPENING_RUNS: Final = tuple(
    _places(ALL_TILES[k : k + VALUES], None) for k in range(0, TILE_COUNT, VALUES)
)
"""An opening looks up each run of seven tiles of the hand (``hand & RUN_MASKS[k]``)."""
RUN_MASKS: Final = tuple(
    sum(t.bit for t in ALL_TILES[VALUES * k : VALUES * k + VALUES]) for k in range(4)
)

PLAYABLE: Final = tuple(
    VALUE_MASKS[c // VALUES] | VALUE_MASKS[c % VALUES] for c in range(EMPTY)
) + ((1 << TILE_COUNT) - 1,)
"""``PLAYABLE[code]``: the tiles that fit either end (every tile on the empty line)."""


def _after(place: Place) -> tuple[int, ...]:
    """For each ends code (and EMPTY), the code after ``place``, or -1 where it does not fit."""
    tile, end = place.tile, place.end
    out = []
    for code in range(EMPTY):
        ends = list(divmod(code, VALUES))
        if end is None or ends[end] not in (tile.low, tile.high):
            out.append(-1)
        else:
            ends[end] = tile.other(ends[end])
            out.append(ends_code(ends[0], ends[1]))
    out.append(ends_code(tile.low, tile.high) if end is None else -1)
    return tuple(out)


AFTER: Final = tuple(
    _after(p) for t in ALL_TILES for p in (Place(t, 0), Place(t, 1), Place(t, None))
)
"""``AFTER[place.index][code]``: the ends code after the placement, -1 where it does not fit."""


def legal_actions(hand: int, ends: int, drawn: int) -> list[Action]:
    """Exactly the legal actions (R5–R7) for ``hand`` at ``ends`` with ``drawn`` stock
    slots used: placements at end 0 (by tile), at end 1 (by tile), then draw or pass;
    an opening lists every hand tile."""
    if ends == EMPTY:
        o, m = OPENING_RUNS, RUN_MASKS
        actions: list[Action] = [
            *o[0][hand & m[0]],
            *o[1][hand & m[1]],
            *o[2][hand & m[2]],
            *o[3][hand & m[3]],
        ]
        if drawn < LAST_DRAW:
            actions.append(DRAW)
        return actions
    at0, mask0, at1, mask1 = BY_ENDS[ends]
    return at0[hand & mask0] + at1[drawn < LAST_DRAW][hand & mask1] or [PASS]


def placement_ids(value: int, end: int) -> dict[int, list[int]]:
    """For an end showing ``value``, each subset of the tiles that fit -> their action ids
    at ``end`` (``2 * tile.index + end``): the same table in ids, for encoders."""
    return subset_table(_showing(value), lambda t: 2 * t.index + end, list)
