"""The two-ended line of play (R9–R11) and what its description names (R12)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .actions import IllegalActionError
from .tiles import Tile

__all__ = ["Connection", "End", "Line", "Port"]


class Port(enum.Enum):
    """A tile's side where it joins the line or stays free (R11)."""

    HIGH_END = "high end"
    LOW_END = "low end"
    LINE_A = "line A"
    LINE_B = "line B"

    @property
    def order(self) -> int:
        """R12 sorts ports on one tile: high end before low end, line A before line B."""
        return 0 if self in (Port.HIGH_END, Port.LINE_A) else 1


@dataclass(frozen=True, slots=True)
class End:
    """One of the line's two free ends: its number (R9), value, and the free port (R11)."""

    index: int
    value: int
    tile: Tile
    port: Port


@dataclass(frozen=True, slots=True)
class Connection:
    """A placed tile joined to its parent: ``[parent] (parent port) – [child] (child port)``."""

    parent: Tile
    parent_port: Port
    child: Tile
    child_port: Port


class Line:
    """The line of play: immutable; ``place`` returns a new line.

    Only two ends ever exist; doubles lie crosswise and never branch (R10).
    """

    __slots__ = ("_connections", "_ends", "_ends_placed", "_tiles")

    _tiles: tuple[Tile, ...]
    _ends: tuple[End, ...]
    _connections: tuple[Connection, ...]
    _ends_placed: tuple[int | None, ...]

    def __init__(self) -> None:
        self._tiles = ()
        self._ends = ()
        self._connections = ()
        self._ends_placed = ()

    @classmethod
    def from_placements(cls, placements: list[tuple[Tile, int | None]]) -> Line:
        """The line built by placing each ``(tile, end)`` in turn."""
        line = cls()
        for tile, end in placements:
            line = line.place(tile, end)
        return line

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles in the order they were placed."""
        return self._tiles

    @property
    def placements(self) -> tuple[tuple[Tile, int | None], ...]:
        """Each placed tile with the end it went to (``None`` for the opening)."""
        return tuple(zip(self._tiles, self._ends_placed))

    @property
    def ends(self) -> tuple[End, ...]:
        """The two free ends (end 0, end 1); empty before the opening."""
        return self._ends

    @property
    def end_values(self) -> tuple[int, ...]:
        """The values the two ends accept; empty before the opening."""
        return tuple(end.value for end in self._ends)

    @property
    def connections(self) -> tuple[Connection, ...]:
        """One connection per tile after the opening, in placement order."""
        return self._connections

    @property
    def is_empty(self) -> bool:
        return not self._tiles

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, tile: object) -> bool:
        return tile in self._tiles

    def accepts(self, tile: Tile, end: int | None) -> bool:
        """Whether ``place(tile, end)`` would succeed."""
        try:
            self._check(tile, end)
        except IllegalActionError:
            return False
        return True

    def _check(self, tile: Tile, end: int | None) -> None:
        if not isinstance(tile, Tile):
            raise IllegalActionError(f"not a tile: {tile!r}", "not_a_tile", thing=repr(tile))
        if tile in self._tiles:
            raise IllegalActionError(f"{tile} is already in the line", "in_line", tile=str(tile))
        if not self._ends:
            if end is not None:
                raise IllegalActionError(
                    f"the line is empty: {tile} must open it (end None)",
                    "must_open",
                    tile=str(tile),
                )
            return
        if end not in (0, 1):
            raise IllegalActionError(
                f"the line has ends 0 and 1, not {end!r}", "no_such_end", end=repr(end)
            )
        value = self._ends[end].value
        if value not in (tile.low, tile.high):
            raise IllegalActionError(
                f"{tile} does not match end {end}, which shows {value}",
                "no_match",
                tile=str(tile),
                end=end,
                value=value,
            )

    def place(self, tile: Tile, end: int | None) -> Line:
        """The line with ``tile`` placed at ``end`` (R9–R10); IllegalActionError if it won't fit."""
        self._check(tile, end)
        new = Line()
        new._tiles = self._tiles + (tile,)
        new._ends_placed = self._ends_placed + (end,)
        if end is None:
            if tile.is_double:
                ends = (End(0, tile.low, tile, Port.LINE_A), End(1, tile.high, tile, Port.LINE_B))
            else:
                ends = (
                    End(0, tile.low, tile, Port.LOW_END),
                    End(1, tile.high, tile, Port.HIGH_END),
                )
            new._ends = ends
            new._connections = ()
            return new
        old = self._ends[end]
        if tile.is_double:
            attached, free = Port.LINE_A, Port.LINE_B
        elif old.value == tile.high:
            attached, free = Port.HIGH_END, Port.LOW_END
        else:
            attached, free = Port.LOW_END, Port.HIGH_END
        fresh = End(end, tile.other(old.value), tile, free)
        new._ends = (fresh, self._ends[1]) if end == 0 else (self._ends[0], fresh)
        new._connections = self._connections + (Connection(old.tile, old.port, tile, attached),)
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Line):
            return NotImplemented
        return self._tiles == other._tiles and self._ends_placed == other._ends_placed

    def __hash__(self) -> int:
        return hash((self._tiles, self._ends_placed))

    @property
    def laid_out(self) -> tuple[tuple[Tile, int, int], ...]:
        """The tiles as they lie from end 0 to end 1, each with its two values in that
        direction, halves turned to face their neighbours: the one layout every picture
        of the line draws."""
        row: list[tuple[Tile, int, int]] = []
        for tile, end in zip(self._tiles, self._ends_placed):
            if end is None:
                row.append((tile, tile.low, tile.high))
            elif end == 0:
                value = row[0][1]
                row.insert(0, (tile, tile.other(value), value))
            else:
                value = row[-1][2]
                row.append((tile, value, tile.other(value)))
        return tuple(row)

    @property
    def faces(self) -> tuple[tuple[int, int], ...]:
        """Each tile's two values as they lie from end 0 to end 1 (``laid_out`` without
        the tiles): ``((1, 1), (1, 4), (4, 4), (4, 3))``."""
        return tuple((first, second) for _, first, second in self.laid_out)

    def __str__(self) -> str:
        """The values as they lie from end 0 to end 1, e.g. ``1-1 1-4 4-4 4-3``.

        Halves are turned to face their neighbours, so this is not tile notation (R1).
        """
        if not self._ends:
            return "(empty line)"
        return " ".join(f"{a}-{b}" for a, b in self.faces)

    def __repr__(self) -> str:
        return f"<Line {self}>"
