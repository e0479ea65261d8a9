"""What the environments render: the table as text, or as an RGB image for videos."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..view import PlayerView

__all__ = ["image", "text"]

_CELL: Final = 18
"""Pixels of one half of a tile; a tile is two cells side by side, with a gap after it."""
_GAP: Final = 4
_PER_ROW: Final = 10
"""Tiles a row before the line wraps (the image keeps one width for every step)."""
_LINE_ROWS: Final = 3
"""Rows of the line: 28 tiles at most, 10 a row."""
_WIDTH: Final = _PER_ROW * (2 * _CELL + _GAP) + _GAP
_FELT: Final = (22, 94, 58)
_FACE: Final = (244, 240, 228)
_BACK: Final = (70, 70, 90)
_PIP: Final = (20, 20, 20)
_LIT: Final = (250, 200, 60)
_SPOTS: Final = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)),
}
"""Pips on a 3 × 3 grid per value, as on a real tile."""


def text(view: PlayerView, own: bool) -> str:
    """The table in words: the line, the boneyard, hand sizes and scores; the viewer's own
    hand only when ``own`` (a PettingZoo render shows public facts only, R21)."""
    status = "over" if view.is_over else f"player_{view.current_player} to act"
    hand = f"hand: {' '.join(map(str, view.hand))}  " if own else ""
    return (
        f"line: {view.line or '(empty)'}\n{hand}boneyard: {view.boneyard_size}  "
        f"hands: {list(view.hand_sizes)}  scores: {list(view.scores)}  {status}"
    )


def _tile(canvas: npt.NDArray[np.uint8], top: int, left: int, face: tuple[int, int] | None) -> None:
    """Draw one tile lying flat at (top, left) with its values ``face`` from left to
    right; ``None`` draws its back (a hidden tile)."""
    width = 2 * _CELL
    canvas[top : top + _CELL, left : left + width] = _FACE if face is not None else _BACK
    if face is None:
        return
    canvas[top : top + _CELL, left + _CELL - 1 : left + _CELL + 1] = _PIP  # the middle bar
    step = _CELL // 4
    for half, value in enumerate(face):
        for row, column in _SPOTS[value]:
            y = top + step * (row + 1) - 1
            x = left + half * _CELL + step * (column + 1) - 1
            canvas[y : y + 3, x : x + 3] = _PIP


def image(view: PlayerView, own: bool) -> npt.NDArray[np.uint8]:
    """The table as an RGB image (height × width × 3, uint8) of one fixed size: the line in
    rows of ten tiles, the free ends marked, then a row per seat (the viewer's own tiles
    face up when ``own``, every other hand face down, as many backs as it holds)."""
    seats = view.players
    rows = _LINE_ROWS + seats
    height = rows * (_CELL + _GAP) + _GAP
    canvas = np.empty((height, _WIDTH, 3), dtype=np.uint8)
    canvas[:] = _FELT
    pitch = 2 * _CELL + _GAP
    tiles = view.line.faces
    for index, face in enumerate(tiles[: _PER_ROW * _LINE_ROWS]):
        row, column = divmod(index, _PER_ROW)
        _tile(canvas, _GAP + row * (_CELL + _GAP), _GAP + column * pitch, face)
    if tiles:  # a bright edge on the two free ends
        for index, side in ((0, 0), (len(tiles) - 1, 2 * _CELL - 2)):
            row, column = divmod(min(index, _PER_ROW * _LINE_ROWS - 1), _PER_ROW)
            top, left = _GAP + row * (_CELL + _GAP), _GAP + column * pitch + side
            canvas[top : top + _CELL, left : left + 2] = _LIT
    for seat in range(seats):
        top = _GAP + (_LINE_ROWS + seat) * (_CELL + _GAP)
        shown: list[tuple[int, int] | None] = (
            [(t.low, t.high) for t in view.hand]
            if own and seat == view.player
            else [None] * view.hand_sizes[seat]
        )
        for column, held in enumerate(shown[:_PER_ROW]):
            _tile(canvas, top, _GAP + column * pitch, held)
        if seat == view.current_player and not view.is_over:
            canvas[top : top + _CELL, 0:2] = _LIT
    return canvas
