"""Tiles drawn as tiles: halves with pips, doubles crosswise (R10), the line snaking."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

PIPS = " ⚀⚁⚂⚃⚄⚅"
"""A half's face by its pips: a die's face, and a blank half left blank."""

FACE = "#1b1b1b on #efe9d8"
"""A tile's body: dark pips on ivory, as in the browser."""
BACK = "on #2f5d46"
"""The table's felt, between and around the tiles."""
END = "bold #8f1d16 on #f2c9bf"
"""A half at an end of the line, where the next tile goes: tinted, so a blank one shows too."""
DIM = "#77736a on #c9c3b3"
"""A tile of the hand that does not fit, while it is your turn."""
TALL_ROW = 3
"""Text rows a row of standing tiles takes: a double stands across the middle one."""


@dataclass(frozen=True, slots=True)
class Laid:
    """One tile of the line as it lies: its faces from the line's left end, and whether it
    is a double, which lies crosswise."""

    left: int
    right: int

    @property
    def is_double(self) -> bool:
        return self.left == self.right


def half(pips: int, numerals: bool) -> str:
    return str(pips) if numerals else PIPS[pips]


def tall_width(laid: Laid) -> int:
    """Columns a tile takes in a tall row: a double crosswise is one half wide."""
    return 3 if laid.is_double else 5


def flat_width(laid: Laid) -> int:
    return 3


def _snake(widths: Sequence[int], room: int) -> list[list[int]]:
    """The tiles' indexes, row by row, each row as long as fits in ``room`` columns (a
    space between tiles); one row at least, a tile too wide for the room alone on its own."""
    rows: list[list[int]] = [[]]
    used = 0
    for index, width in enumerate(widths):
        needed = width if not rows[-1] else used + 1 + width
        if rows[-1] and needed > room:
            rows.append([index])
            used = width
        else:
            rows[-1].append(index)
            used = needed
    return rows


def snake_rows(faces: Sequence[tuple[int, int]], room: int, *, tall: bool) -> int:
    """How many rows of tiles the line takes in ``room`` columns."""
    tiles = [Laid(low, high) for low, high in faces]
    widths = [tall_width(t) if tall else flat_width(t) for t in tiles]
    return len(_snake(widths, room)) if tiles else 0


def line_rows(
    faces: Sequence[tuple[int, int]], room: int, *, tall: bool, numerals: bool = False
) -> list[Text]:
    """The line laid out in ``room`` columns: left to right, then back from the right edge
    on the row below and so on (a snake), so both ends stay in sight. A tall row is three
    text rows high (a double stands across the middle one); a flat row is one, and a
    double shows its divider along the line (``6─6``)."""
    tiles = [Laid(low, high) for low, high in faces]
    widths = [tall_width(t) if tall else flat_width(t) for t in tiles]
    rows: list[Text] = []
    if not tiles:
        return rows
    for number, indexes in enumerate(_snake(widths, room)):
        backwards = number % 2 == 1
        order = list(reversed(indexes)) if backwards else indexes
        lines = [Text(), Text(), Text()] if tall else [Text()]
        for position, index in enumerate(order):
            if position:
                for text in lines:
                    text.append(" ", style=BACK)
            _draw(lines, tiles[index], index, len(tiles), backwards, numerals)
        used = lines[0].cell_len
        for text in lines:
            pad = " " * max(room - used, 0)
            if backwards:  # the snake comes back from the right edge
                text.pad_left(len(pad))
                text.stylize(BACK, 0, len(pad))
            else:
                text.append(pad, style=BACK)
        rows.extend(lines)
    return rows


def _draw(
    lines: list[Text], tile: Laid, index: int, count: int, backwards: bool, numerals: bool
) -> None:
    first, second = (tile.right, tile.left) if backwards else (tile.left, tile.right)
    # the outer half of each end tile is where the next tile goes
    right_end = index == count - 1
    first_style = END if (index == 0 and not backwards) or (backwards and right_end) else FACE
    second_style = END if (right_end and not backwards) or (backwards and index == 0) else FACE
    if len(lines) == 1:
        lines[0].append(half(first, True), style=first_style)
        lines[0].append("─" if tile.is_double else "│", style=FACE)
        lines[0].append(half(second, True), style=second_style)
        return
    top, middle, bottom = lines
    if tile.is_double:
        style = first_style if first_style != FACE else second_style
        top.append(f" {half(first, numerals)} ", style=style)
        middle.append("───", style=FACE)
        bottom.append(f" {half(first, numerals)} ", style=style)
        return
    top.append("     ", style=BACK)
    bottom.append("     ", style=BACK)
    middle.append(" ", style=FACE)
    middle.append(half(first, numerals), style=first_style)
    middle.append("│", style=FACE)
    middle.append(half(second, numerals), style=second_style)
    middle.append(" ", style=FACE)


def hand_tile(tile: tuple[int, int], numerals: bool, *, dim: bool = False) -> Text:
    """A tile of the hand, lying flat: `` ⚅│⚃ `` (`` 6│4 `` in numerals)."""
    low, high = tile
    return Text(f" {half(low, numerals)}│{half(high, numerals)} ", style=DIM if dim else FACE)
