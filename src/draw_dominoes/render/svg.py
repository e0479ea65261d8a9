"""SVG drawings of real domino tiles: the line of play snaking to fit a width, and single tiles.

Everything is built as text from the standard library, with absolute coordinates (no
transforms, no shared ``<defs>`` ids), so the output is deterministic, can be inlined many
times in one page, and can be checked by parsing it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Final

from ..i18n import describe_line, translate
from ..line import Line
from ..tiles import Tile

__all__ = [
    "DEFAULT_TILE_SIZE",
    "SVG_NS",
    "fitting_tile_size",
    "line_svg",
    "tile_svg",
    "write_line_svg",
]

SVG_NS: Final = "http://www.w3.org/2000/svg"
DEFAULT_TILE_SIZE: Final = 32
"""The short side of a tile in the line, in SVG units; a tile is twice as long."""

# Colours: ivory faces with black pips, a blue back, green port markers (amber when highlighted).
FACE: Final = "#fbf8ee"
INK: Final = "#1d1d1b"
DIVIDER: Final = "#6b6b66"
SHADOW: Final = "#000000"
BACK: Final = "#24527a"
BACK_TRIM: Final = "#e9e2cf"
MARKER_STROKE: Final = "#2f855a"
MARKER_FILL: Final = "#e6f4ea"
HIGHLIGHT_STROKE: Final = "#c05621"
HIGHLIGHT_FILL: Final = "#fff1c2"

# Pip positions in one half, on a 3x3 grid (units of the grid step, x along the tile's
# long axis). These are the standard layouts; six is two rows of three along the long axis.
_PIP_GRID: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    0: (),
    1: ((0, 0),),
    2: ((1, -1), (-1, 1)),
    3: ((1, -1), (0, 0), (-1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
}

# Directions along the line, as (dx, dy): east, south, west (the snake never goes north).
_EAST: Final = (1, 0)
_SOUTH: Final = (0, 1)
_WEST: Final = (-1, 0)

_PORT_KEYS: Final = {"high end": "high", "low end": "low", "line A": "a", "line B": "b"}


@functools.lru_cache(maxsize=8192)
def _num(value: float) -> str:
    """A coordinate as short, stable text: at most two decimals, no trailing zeros.

    Cached: coordinates sit on a grid of the tile size, so the same few values recur."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(slots=True)  # not frozen: frozen dataclasses are slow to build, and these are
class _Rect:  # made by the dozen for every picture and never changed
    x: float
    y: float
    w: float
    h: float


@dataclass(slots=True)  # not frozen, like _Rect
class _LaidTile:
    """One tile of the line in the drawing: where it lies and which half faces end 0."""

    tile: Tile
    first: int  # the value on the half toward end 0
    second: int  # the value on the half toward end 1
    placed: int  # its position in the placement order
    cx: float
    cy: float
    direction: tuple[int, int]  # the line's direction through this tile

    @property
    def long_axis(self) -> tuple[int, int]:
        """The tile's long axis: along the line, or across it for a double (R10)."""
        dx, dy = self.direction
        return (-dy, dx) if self.tile.is_double else (dx, dy)


@dataclass(frozen=True, slots=True)
class _Marker:
    end: int | None  # None: the opening marker of an empty line
    value: int | None
    tile: Tile | None
    port: str | None
    rect: _Rect


def _sequence(line: Line) -> list[tuple[Tile, int, int, int]]:
    """The tiles from end 0 to end 1 as the line lays them out (``Line.laid_out``):
    ``(tile, value toward end 0, toward end 1, placement order)``."""
    order = {tile: placed for placed, tile in enumerate(line.tiles)}
    return [(tile, first, second, order[tile]) for tile, first, second in line.laid_out]


class _Snake:
    """Lays the tiles out in rows that alternate direction, turning down at the sides.

    A turn is one tile laid downwards (never a double), followed by the next tile when that
    is a double (lying crosswise), so a double is never the corner and rows never overlap.
    Two doubles are never neighbours, which is what makes this always possible.
    """

    def __init__(self, size: float, content_width: float, start_x: float) -> None:
        self.size = size
        self.min_x = 1.5 * size  # room for a turn on the left
        self.max_x = content_width - 1.5 * size  # and on the right
        self.x = start_x
        self.y = 0.0
        self.direction = _EAST
        self.laid: list[_LaidTile] = []
        self.starts: list[tuple[float, float]] = []

    def length(self, tile: Tile) -> float:
        return self.size if tile.is_double else 2 * self.size

    def fits(self, tile: Tile) -> bool:
        far = self.x + self.direction[0] * self.length(tile)
        return far <= self.max_x + 1e-9 if self.direction == _EAST else far >= self.min_x - 1e-9

    def lay(self, item: tuple[Tile, int, int, int]) -> None:
        tile, first, second, order = item
        half = self.length(tile) / 2
        dx, dy = self.direction
        self.starts.append((self.x, self.y))
        cx, cy = self.x + dx * half, self.y + dy * half
        self.laid.append(_LaidTile(tile, first, second, order, cx, cy, self.direction))
        self.x, self.y = self.x + 2 * dx * half, self.y + 2 * dy * half

    def take_back(self) -> None:
        self.laid.pop()
        self.x, self.y = self.starts.pop()

    def turn(self, direction: tuple[int, int]) -> None:
        """Take the new direction; the next tile's first half then sits beside the last end."""
        half = self.size / 2
        (ax, ay), (bx, by) = self.direction, direction
        self.x += ax * half - bx * half
        self.y += ay * half - by * half
        self.direction = direction

    def run(self, items: list[tuple[Tile, int, int, int]]) -> None:
        index = 0
        while index < len(items):
            tile = items[index][0]
            if self.fits(tile):
                self.lay(items[index])
                index += 1
                continue
            if tile.is_double:
                # The corner must not be a double: the previous tile turns the corner instead.
                self.take_back()
                index -= 1
            across = self.direction
            self.turn(_SOUTH)
            self.lay(items[index])
            index += 1
            if index < len(items) and items[index][0].is_double:
                self.lay(items[index])
                index += 1
            self.turn(_WEST if across == _EAST else _EAST)


def _rotate(cx: float, cy: float, axis: tuple[int, int], u: float, v: float) -> tuple[float, float]:
    """The point at ``u`` along the tile's long axis and ``v`` across it, from its centre."""
    ax, ay = axis
    return cx + ax * u - ay * v, cy + ay * u + ax * v


_Spot = tuple[float, float, tuple[int, int], int, int, float]
"""Where a face is drawn and what it shows: its centre, its long axis, the values of its
first and second half (along the axis) and the tile size."""


@functools.lru_cache(maxsize=65536)
def _face(spot: _Spot, *, shadow: bool) -> tuple[str, ...]:
    """The elements of one tile face: body, divider, and the pips of each half.

    Cached: tiles sit on a grid, so the same face at the same place recurs in every later
    picture of a growing line (and in other lines), and formatting it is most of the work.
    """
    cx, cy, axis, first, second, size = spot
    long_w = axis[0] != 0
    w, h = (2 * size, size) if long_w else (size, 2 * size)
    x, y = cx - w / 2, cy - h / 2
    radius = size * 0.12
    stroke = max(size * 0.035, 0.6)
    parts: list[str] = []
    if shadow:
        off = size * 0.06
        parts.append(
            f'<rect x="{_num(x + off)}" y="{_num(y + off)}" width="{_num(w)}" height="{_num(h)}"'
            f' rx="{_num(radius)}" fill="{SHADOW}" fill-opacity="0.18"/>'
        )
    parts.append(
        f'<rect class="face" x="{_num(x + stroke / 2)}" y="{_num(y + stroke / 2)}"'
        f' width="{_num(w - stroke)}" height="{_num(h - stroke)}" rx="{_num(radius)}"'
        f' fill="{FACE}" stroke="{INK}" stroke-width="{_num(stroke)}"/>'
    )
    x1, y1 = _rotate(cx, cy, axis, 0, -size * 0.36)
    x2, y2 = _rotate(cx, cy, axis, 0, size * 0.36)
    parts.append(
        f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}"'
        f' stroke="{DIVIDER}" stroke-width="{_num(stroke)}"/>'
    )
    step = size * 0.26
    pip = size * 0.085
    for sign, value in ((-1, first), (1, second)):
        circles = []
        for gu, gv in _PIP_GRID[value]:
            px, py = _rotate(cx, cy, axis, sign * size / 2 + gu * step, gv * step)
            circles.append(f'<circle cx="{_num(px)}" cy="{_num(py)}" r="{_num(pip)}"/>')
        parts.append(f'<g class="half" data-value="{value}" fill="{INK}">{"".join(circles)}</g>')
    return tuple(parts)


@functools.lru_cache(maxsize=65536)
def _laid_tile_svg(tile: Tile, placed: int, spot: _Spot) -> str:
    """One tile of a line as its ``<g>`` element; cached like the faces it holds."""
    classes = "tile double" if tile.is_double else "tile"
    face = _face(spot, shadow=True)
    return "\n".join(
        (f'<g class="{classes}" data-tile="{tile}" data-placed="{placed}">', *face, "</g>")
    )


def _back(x: float, y: float, w: float, h: float, size: float) -> list[str]:
    """A face-down tile: plain back with a trim line and a centre stud, no pips."""
    radius = size * 0.12
    stroke = max(size * 0.035, 0.6)
    inset = size * 0.14
    return [
        f'<rect class="back" x="{_num(x + stroke / 2)}" y="{_num(y + stroke / 2)}"'
        f' width="{_num(w - stroke)}" height="{_num(h - stroke)}" rx="{_num(radius)}"'
        f' fill="{BACK}" stroke="{INK}" stroke-width="{_num(stroke)}"/>',
        f'<rect x="{_num(x + inset)}" y="{_num(y + inset)}" width="{_num(w - 2 * inset)}"'
        f' height="{_num(h - 2 * inset)}" rx="{_num(radius * 0.6)}" fill="none"'
        f' stroke="{BACK_TRIM}" stroke-opacity="0.55" stroke-width="{_num(stroke)}"/>',
        f'<circle cx="{_num(x + w / 2)}" cy="{_num(y + h / 2)}" r="{_num(size * 0.09)}"'
        f' fill="{BACK_TRIM}" fill-opacity="0.8"/>',
    ]


def _tile_rect(laid: _LaidTile, size: float) -> _Rect:
    w, h = (2 * size, size) if laid.long_axis[0] != 0 else (size, 2 * size)
    return _Rect(laid.cx - w / 2, laid.cy - h / 2, w, h)


def _check_highlights(highlight_ends: Sequence[int | None]) -> set[int | None]:
    ends = set(highlight_ends)
    wrong = [e for e in ends if e not in (0, 1, None)]
    if wrong:
        raise ValueError(f"highlight_ends are line ends 0, 1 or None (the opening), not {wrong}")
    return ends


@dataclass(slots=True)
class _Layout:
    """Where every tile and marker of a line goes, at one tile size and width."""

    size: float
    laid: list[_LaidTile]
    markers: list[_Marker]
    shift_x: float
    shift_y: float
    width: float
    height: float


def _layout(line: Line, width: int, markers: bool, tile_size: float) -> _Layout:
    if tile_size < 4:
        raise ValueError(f"tile_size must be at least 4, not {tile_size}")
    margin = 4.0
    content_width = width - 2 * margin
    size = float(min(tile_size, content_width // 8))  # at least a few tiles to a row
    if size < 4:
        raise ValueError(f"width {width} is too narrow to draw a line; use at least 48")
    gap = size * 0.25
    marker_room = size + gap if markers else 0.0

    snake = _Snake(size, content_width, marker_room)
    snake.run(_sequence(line))
    laid = snake.laid

    found: list[_Marker] = []
    if markers:
        if not laid:
            found.append(_Marker(None, None, None, None, _Rect(0, -size / 2, 2 * size, size)))
        else:
            first, last = laid[0], laid[-1]
            start_x, start_y = snake.starts[0]
            for end, (x, y), (dx, dy) in (
                (0, (start_x, start_y), (-first.direction[0], -first.direction[1])),
                (1, (snake.x, snake.y), last.direction),
            ):
                cx, cy = x + dx * (gap + size / 2), y + dy * (gap + size / 2)
                free = line.ends[end]
                rect = _Rect(cx - size / 2, cy - size / 2, size, size)
                found.append(_Marker(end, free.value, free.tile, free.port.value, rect))

    rects = [_tile_rect(t, size) for t in laid] + [m.rect for m in found]
    shadow = size * 0.06
    min_x = min((r.x for r in rects), default=0.0)
    min_y = min((r.y for r in rects), default=0.0)
    max_x = max((r.x + r.w for r in rects), default=0.0) + shadow
    max_y = max((r.y + r.h for r in rects), default=0.0) + shadow
    return _Layout(
        size,
        laid,
        found,
        margin - min_x,
        margin - min_y,
        max_x - min_x + 2 * margin,
        max_y - min_y + 2 * margin,
    )


def fitting_tile_size(
    line: Line, width: int, height: float, sizes: Sequence[int], *, markers: bool = True
) -> int:
    """The largest of ``sizes`` at which the line, ``width`` wide, is at most ``height``
    tall (the smallest if none is): a short line is drawn large, a long one smaller."""
    ordered = sorted(sizes, reverse=True)
    for size in ordered:
        if _layout(line, width, markers, size).height <= height:
            return size
    return ordered[-1]


def line_svg(
    line: Line,
    lang: str = "en",
    *,
    width: int = 800,
    markers: bool = True,
    highlight_ends: Sequence[int | None] = (),
    element_id: str | None = None,
    tile_size: int = DEFAULT_TILE_SIZE,
    role: str = "img",
) -> str:
    """The line as a complete ``<svg>`` element, at most ``width`` units wide.

    The line runs from end 0 (top left) to end 1, turning down at the sides as often as
    needed. ``<title>`` and ``<desc>`` hold the R12 description in ``lang``. With
    ``markers``, each free port (R11) gets a ``class="port-marker"`` element with
    ``data-end`` 0 or 1 and the value it accepts; an empty line gets one ``data-end="open"``
    marker. Ends listed in ``highlight_ends`` (``None`` for the opening) are highlighted.
    ``role`` is ``img`` for a picture, ``group`` where the page makes the markers buttons
    (an image may not hold controls).
    """
    description = describe_line(line, lang)  # also rejects an unknown language
    highlights = _check_highlights(highlight_ends)
    if role not in ("img", "group"):
        raise ValueError(f"role is img or group, not {role!r}")
    layout = _layout(line, width, markers, tile_size)
    size, shift_x, shift_y = layout.size, layout.shift_x, layout.shift_y

    attrs = [
        f'xmlns="{SVG_NS}"',
        'class="domino-line"',
        f'role="{role}"',
        f'lang="{escape(lang)}"',
        f'viewBox="0 0 {_num(layout.width)} {_num(layout.height)}"',
        f'width="{_num(layout.width)}"',
        f'height="{_num(layout.height)}"',
        f'data-tiles="{len(line)}"',
    ]
    title_attr = desc_attr = ""
    if element_id is not None:
        ident = escape(element_id)
        attrs.insert(1, f'id="{ident}"')
        attrs.append(f'aria-labelledby="{ident}-title" aria-describedby="{ident}-desc"')
        title_attr, desc_attr = f' id="{ident}-title"', f' id="{ident}-desc"'
    text = escape(description, quote=False)
    out = [
        f"<svg {' '.join(attrs)}>",
        f"<title{title_attr}>{text}</title>",
        f"<desc{desc_attr}>{text}</desc>",
    ]
    for item in layout.laid:
        spot = (
            item.cx + shift_x,
            item.cy + shift_y,
            item.long_axis,
            item.first,
            item.second,
            size,
        )
        out.append(_laid_tile_svg(item.tile, item.placed, spot))
    for marker in layout.markers:
        out.append(_marker_svg(marker, shift_x, shift_y, size, marker.end in highlights))
    out.append("</svg>")
    return "\n".join(out)


def _marker_svg(marker: _Marker, shift_x: float, shift_y: float, size: float, lit: bool) -> str:
    r = marker.rect
    x, y = r.x + shift_x, r.y + shift_y
    stroke, fill = (HIGHLIGHT_STROKE, HIGHLIGHT_FILL) if lit else (MARKER_STROKE, MARKER_FILL)
    width = size * (0.09 if lit else 0.05)
    classes = "port-marker highlight" if lit else "port-marker"
    if marker.end is None:
        data = 'data-end="open"'
    else:
        port = _PORT_KEYS[marker.port or ""]
        data = (
            f'data-end="{marker.end}" data-value="{marker.value}" '
            f'data-tile="{marker.tile}" data-port="{port}"'
        )
    parts = [
        f'<g class="{classes}" {data}>',
        f'<rect x="{_num(x + width / 2)}" y="{_num(y + width / 2)}" width="{_num(r.w - width)}"'
        f' height="{_num(r.h - width)}" rx="{_num(size * 0.15)}" fill="{fill}"'
        f' stroke="{stroke}" stroke-width="{_num(width)}"'
        f' stroke-dasharray="{_num(size * 0.12)} {_num(size * 0.08)}"/>',
    ]
    if marker.value is not None:
        parts.append(
            f'<text x="{_num(x + r.w / 2)}" y="{_num(y + r.h / 2)}" text-anchor="middle"'
            f' dominant-baseline="central" font-family="sans-serif"'
            f' font-size="{_num(size * 0.5)}" font-weight="bold" fill="{stroke}">'
            f"{marker.value}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def tile_svg(tile: Tile | None, *, size: int = 40, vertical: bool = False, lang: str = "en") -> str:
    """One tile as a complete ``<svg>`` element: its face, low half first (left or top),
    or a face-down back when ``tile`` is None (an opponent's hidden tile, R21)."""
    if size < 4:
        raise ValueError(f"size must be at least 4, not {size}")
    w, h = (size, 2 * size) if vertical else (2 * size, size)
    if tile is None:
        title = escape(translate("render.face_down", lang), quote=False)
        body: Sequence[str] = _back(0, 0, w, h, size)
        data = 'class="domino-tile face-down"'
    else:
        title = str(tile)
        axis = (0, 1) if vertical else (1, 0)
        body = _face((w / 2, h / 2, axis, tile.low, tile.high, size), shadow=False)
        data = f'class="domino-tile" data-tile="{tile}"'
    return "\n".join(
        [
            f'<svg xmlns="{SVG_NS}" {data} role="img" viewBox="0 0 {w} {h}"'
            f' width="{w}" height="{h}">',
            f"<title>{title}</title>",
            *body,
            "</svg>",
        ]
    )


def write_line_svg(
    line: Line,
    path: str | Path,
    lang: str = "en",
    *,
    width: int = 800,
    markers: bool = True,
    highlight_ends: Sequence[int | None] = (),
) -> Path:
    """Write the line's SVG (as ``line_svg`` draws it) to ``path`` as a UTF-8 file."""
    text = line_svg(line, lang, width=width, markers=markers, highlight_ends=highlight_ends)
    target = Path(path)
    target.write_text(text + "\n", encoding="utf-8")
    return target
