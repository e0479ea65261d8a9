"""The SVG renderer: descriptions (R12), port markers (R11), tile faces, doubles, wrapping."""

from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from draw_dominoes import ALL_TILES, Line, Round, Tile, bots
from draw_dominoes.game import play
from draw_dominoes.i18n import describe_line
from draw_dominoes.render.svg import line_svg, tile_svg, write_line_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
RULES = Path(__file__).parent.parent / "docs" / "rules"
GOLDEN = Path(__file__).parent / "data" / "golden"
T = Tile.parse

# The worked line examples of the rule texts, as placements (R9–R12).
EXAMPLES: dict[str, list[tuple[str, int | None]]] = {
    "open-1-4": [("[1|4]", None)],
    "one-one-at-1": [("[1|4]", None), ("[1|1]", 0)],
    "four-four-at-4": [("[1|4]", None), ("[1|1]", 0), ("[4|4]", 1)],
    "three-four-after-four-four": [("[1|4]", None), ("[1|1]", 0), ("[4|4]", 1), ("[3|4]", 1)],
    "six-six-on-three-six": [("[3|6]", None), ("[6|6]", 1)],
    "open-0-0": [("[0|0]", None)],
    "open-2-2": [("[2|2]", None)],
}


def example(name: str) -> Line:
    return Line.from_placements([(T(t), end) for t, end in EXAMPLES[name]])


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def overlaps(self, other: Box, eps: float = 0.02) -> bool:
        return (
            self.x < other.x + other.w - eps
            and other.x < self.x + self.w - eps
            and self.y < other.y + other.h - eps
            and other.y < self.y + self.h - eps
        )

    def contact(self, other: Box, eps: float = 0.02) -> float:
        """The length of border the two share (0 when apart or meeting only at a corner)."""
        x_overlap = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        y_overlap = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        if abs(x_overlap) < eps and y_overlap > eps:
            return round(y_overlap, 1)
        if abs(y_overlap) < eps and x_overlap > eps:
            return round(x_overlap, 1)
        return 0.0

    def touches(self, other: Box) -> bool:
        """Share a stretch of border without overlapping."""
        return self.contact(other) > 0


def outer_box(rect: ET.Element) -> Box:
    """A drawn rect's full extent, its stroke included (faces are inset by half the stroke)."""
    half = float(rect.get("stroke-width", "0")) / 2
    return Box(
        float(rect.get("x", "0")) - half,
        float(rect.get("y", "0")) - half,
        float(rect.get("width", "0")) + 2 * half,
        float(rect.get("height", "0")) + 2 * half,
    )


def tiles_of(svg: ET.Element) -> list[ET.Element]:
    return [g for g in svg.findall("svg:g", NS) if "tile" in g.get("class", "").split()]


def face_box(tile: ET.Element) -> Box:
    rect = tile.find("svg:rect[@class='face']", NS)
    assert rect is not None
    return outer_box(rect)


def markers_of(svg: ET.Element) -> list[ET.Element]:
    return [g for g in svg.findall("svg:g", NS) if "port-marker" in g.get("class", "").split()]


def marker_box(marker: ET.Element) -> Box:
    rect = marker.find("svg:rect", NS)
    assert rect is not None
    return outer_box(rect)


def view_box(svg: ET.Element) -> Box:
    x, y, w, h = (float(v) for v in svg.get("viewBox", "").split())
    return Box(x, y, w, h)


def halves(tile: ET.Element) -> list[tuple[int, list[tuple[float, float]]]]:
    out = []
    for half in tile.findall("svg:g[@class='half']", NS):
        pips = [(float(c.get("cx", "")), float(c.get("cy", ""))) for c in half]
        out.append((int(half.get("data-value", "")), pips))
    return out


def rule_descriptions(lang: str) -> set[str]:
    """The fourteen reference descriptions: seven per language, from the rule texts (R12)."""
    text = (RULES / f"draw-rules.{lang}.txt").read_text(encoding="utf-8")
    start = "Tiles: " if lang == "en" else "Steine: "
    return {line[line.index(start) :] for line in text.splitlines() if start in line}


def full_line(seed: int, opening_at: int) -> Line:
    """A line of all 28 tiles: a random closed walk through every tile (each value shows on
    eight half-tiles, so one exists), opened at tile ``opening_at`` and grown at both ends."""
    rng = random.Random(seed)
    stack, walk, used = [rng.randrange(7)], [], set()
    while stack:
        value = stack[-1]
        fitting = [t for t in ALL_TILES if t not in used and value in (t.low, t.high)]
        if fitting:
            tile = rng.choice(fitting)
            used.add(tile)
            stack.append(tile.other(value))
        else:
            walk.append(stack.pop())
    walk.reverse()
    chain = [Tile(walk[i], walk[i + 1]) for i in range(28)]
    line = Line().place(chain[opening_at], None)
    left_end = 0 if chain[opening_at].low == walk[opening_at] else 1
    left, right = chain[:opening_at][::-1], chain[opening_at + 1 :]
    while left or right:
        if right:
            line = line.place(right.pop(0), 1 - left_end)
        if left:
            line = line.place(left.pop(0), left_end)
    return line


def played_line(seed: int, players: int) -> Line:
    """The line at the end of a round played out by random bots."""
    round_ = Round.new(players, seed=seed)
    seats = [bots.create("random", seed=seed * 10 + s) for s in range(players)]
    for _ in play(round_, seats):
        pass
    return round_.view(0).line


# --- text alternative (R12) ----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_title_and_desc_are_the_fourteen_rule_descriptions_r12(lang: str) -> None:
    drawn = set()
    for name in EXAMPLES:
        line = example(name)
        svg = parse(line_svg(line, lang))
        title, desc = svg.find("svg:title", NS), svg.find("svg:desc", NS)
        assert title is not None and desc is not None
        assert title.text == desc.text == describe_line(line, lang)
        assert svg.get("role") == "img" and svg.get("lang") == lang
        assert svg[0] is title  # the first child names the image
        drawn.add(desc.text)
    assert len(drawn) == 7
    assert drawn == rule_descriptions(lang)


def test_description_text_is_escaped() -> None:
    # The en dash and German umlauts stay as text; markup characters never break the XML.
    line = example("three-four-after-four-four")
    text = line_svg(line, "de", element_id='fig"<1>')
    svg = parse(text)
    assert svg.get("id") == 'fig"<1>'
    assert svg.get("aria-labelledby") == 'fig"<1>-title'
    title = svg.find("svg:title", NS)
    assert title is not None and title.get("id") == 'fig"<1>-title'
    assert "größerer" in text and " – " in text


def test_element_id_links_title_and_desc() -> None:
    svg = parse(line_svg(example("open-1-4"), element_id="howto-1"))
    assert svg.get("id") == "howto-1"
    assert svg.get("aria-labelledby") == "howto-1-title"
    assert svg.get("aria-describedby") == "howto-1-desc"
    assert svg.find("svg:desc[@id='howto-1-desc']", NS) is not None
    # Without an id there are no ids at all, so many drawings can share a page.
    assert "id=" not in line_svg(example("open-1-4"))


# --- port markers (R11) --------------------------------------------------------------------


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_two_markers_on_the_free_ports_r11(name: str) -> None:
    line = example(name)
    svg = parse(line_svg(line))
    markers = markers_of(svg)
    assert [m.get("data-end") for m in markers] == ["0", "1"]
    tiles = {t.get("data-tile"): face_box(t) for t in tiles_of(svg)}
    for marker, end in zip(markers, line.ends):
        assert marker.get("data-value") == str(end.value)
        assert marker.get("data-tile") == str(end.tile)
        assert marker.get("data-port") == {"high end": "high", "low end": "low"}.get(
            end.port.value, end.port.value[-1].lower()
        )
        text = marker.find("svg:text", NS)
        assert text is not None and text.text == str(end.value)
        # The marker sits next to the tile whose port it marks, touching no tile.
        box = marker_box(marker)
        assert not any(box.overlaps(b) for b in tiles.values())
        nearest = min(
            tiles, key=lambda t: (tiles[t].cx - box.cx) ** 2 + (tiles[t].cy - box.cy) ** 2
        )
        assert nearest == str(end.tile)


def test_open_double_markers_are_line_a_at_end_0_and_line_b_at_end_1_r11() -> None:
    svg = parse(line_svg(example("open-2-2")))
    ports = [(m.get("data-end"), m.get("data-port"), m.get("data-value")) for m in markers_of(svg)]
    assert ports == [("0", "a", "2"), ("1", "b", "2")]
    marker0, marker1 = (marker_box(m) for m in markers_of(svg))
    assert marker0.cx < marker1.cx  # end 0 is the left end (R9)


def test_highlighted_ends_are_marked() -> None:
    line = example("three-four-after-four-four")
    for wanted in ([], [0], [1], [0, 1]):
        svg = parse(line_svg(line, highlight_ends=wanted))
        lit = [
            int(m.get("data-end", "")) for m in markers_of(svg) if "highlight" in m.get("class", "")
        ]
        assert lit == wanted
    plain = line_svg(line)
    assert plain != line_svg(line, highlight_ends=[1])


def test_empty_line_shows_one_opening_marker() -> None:
    svg = parse(line_svg(Line(), "de", highlight_ends=[None]))
    assert tiles_of(svg) == []
    markers = markers_of(svg)
    assert [m.get("data-end") for m in markers] == ["open"]
    assert "highlight" in markers[0].get("class", "")
    desc = svg.find("svg:desc", NS)
    assert desc is not None and desc.text == describe_line(Line(), "de")


def test_markers_can_be_left_out() -> None:
    svg = parse(line_svg(example("open-1-4"), markers=False))
    assert markers_of(svg) == [] and len(tiles_of(svg)) == 1


# --- tiles ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_tile_is_drawn_with_its_pips(name: str) -> None:
    line = example(name)
    svg = parse(line_svg(line))
    drawn = tiles_of(svg)
    assert len(drawn) == len(line) == int(svg.get("data-tiles", ""))
    assert sorted(t.get("data-tile", "") for t in drawn) == sorted(str(t) for t in line.tiles)
    for tile in drawn:
        values = sorted(v for v, _ in halves(tile))
        tile_values = Tile.parse(tile.get("data-tile", ""))
        assert values == [tile_values.low, tile_values.high]
        for value, pips in halves(tile):
            assert len(pips) == value  # a blank half has no pips


def test_pips_use_the_standard_layouts() -> None:
    svg = parse(tile_svg(T("[5|6]"), size=40))
    (five, five_pips), (six, six_pips) = halves(svg)  # low half on the left
    assert (five, six) == (5, 6)
    assert all(x < 40 for x, _ in five_pips) and all(x > 40 for x, _ in six_pips)
    # Five: the four corners and the centre.
    xs, ys = sorted({round(x) for x, _ in five_pips}), sorted({round(y) for _, y in five_pips})
    assert len(xs) == len(ys) == 3 and (xs[1], ys[1]) in {
        (round(x), round(y)) for x, y in five_pips
    }
    # Six: two rows of three, along the tile's long side.
    assert len({round(y) for _, y in six_pips}) == 2 and len({round(x) for x, _ in six_pips}) == 3


def test_doubles_lie_crosswise_r10() -> None:
    line = full_line(seed=5, opening_at=9)
    svg = parse(line_svg(line, width=640))
    drawn = tiles_of(svg)
    checked = 0
    for i, tile in enumerate(drawn):
        box = face_box(tile)
        neighbour = face_box(drawn[i + 1] if i + 1 < len(drawn) else drawn[i - 1])
        along_x = box.touches(neighbour) and (
            abs(box.x + box.w - neighbour.x) < 0.02 or abs(neighbour.x + neighbour.w - box.x) < 0.02
        )
        if "double" in tile.get("class", "").split():
            assert Tile.parse(tile.get("data-tile", "")).is_double
            # Its long side runs across the line, so the neighbour joins it at a long side.
            assert (box.h > box.w) == along_x
            checked += 1
    assert checked == 7


# --- layout: wrapping to fit ----------------------------------------------------------------


def check_layout(line: Line, width: int) -> None:
    """Everything inside the viewBox and the width; tiles touch their neighbours in line
    order, matching half to matching half, and nothing overlaps."""
    svg = parse(line_svg(line, width=width))
    frame = view_box(svg)
    assert frame.w <= width and float(svg.get("width", "")) == frame.w
    drawn = tiles_of(svg)
    expected = [tuple(int(v) for v in pair.split("-")) for pair in str(line).split()]
    assert len(drawn) == len(expected) == len(line)
    boxes = [face_box(t) for t in drawn]
    marks = [marker_box(m) for m in markers_of(svg)]
    for box in boxes + marks:
        assert frame.x <= box.x and box.x + box.w <= frame.x + frame.w
        assert frame.y <= box.y and box.y + box.h <= frame.y + frame.h
    everything = boxes + marks
    for i, a in enumerate(everything):
        for b in everything[i + 1 :]:
            assert not a.overlaps(b)
    for i, (tile, box) in enumerate(zip(drawn, boxes)):
        if i + 1 < len(boxes):
            assert box.touches(boxes[i + 1]), f"tile {i} and {i + 1} are apart"
        first, second = expected[i]
        assert Tile.parse(tile.get("data-tile", "")) == Tile(first, second)
        if first == second:
            continue
        # The halves face the right way: the half touching the next tile shows the value
        # toward end 1, the half touching the previous tile the value toward end 0.
        wide = box.w > box.h
        half_boxes = (
            [Box(box.x, box.y, box.w / 2, box.h), Box(box.cx, box.y, box.w / 2, box.h)]
            if wide
            else [Box(box.x, box.y, box.w, box.h / 2), Box(box.x, box.cy, box.w, box.h / 2)]
        )
        values_at: list[int] | None = None
        for neighbour, own in ((i + 1, second), (i - 1, first)):
            if not 0 <= neighbour < len(boxes):
                continue
            contact = [h.contact(boxes[neighbour]) for h in half_boxes]
            if contact[0] != contact[1]:  # a double beside a corner may touch both halves
                other = first if own == second else second
                values_at = [own, other] if contact[0] > contact[1] else [other, own]
                break
        assert values_at is not None, f"tile {i} joins no neighbour at one half"
        for value, pips in halves(tile):
            for x, y in pips:
                side = int(x > box.cx) if wide else int(y > box.cy)
                assert value == values_at[side], f"tile {i} shows {value} on the wrong half"


@pytest.mark.parametrize("width", [160, 300, 520, 800, 1400])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_full_28_tile_line_wraps_inside_the_width(seed: int, width: int) -> None:
    check_layout(full_line(seed, opening_at=seed * 7 % 28), width)


@pytest.mark.parametrize("seed", range(8))
def test_lines_of_random_rounds_wrap_inside_the_width(seed: int) -> None:
    line = played_line(seed, players=2 + seed % 3)
    check_layout(line, width=[240, 400, 800][seed % 3])


def test_a_long_line_turns_into_several_rows() -> None:
    line = full_line(1, 0)
    wide, narrow = parse(line_svg(line, width=2000)), parse(line_svg(line, width=400))
    rows = {round(face_box(t).cy) for t in tiles_of(narrow)}
    assert len(rows) > 4
    assert view_box(narrow).w <= 400 < view_box(wide).w


def test_a_short_line_is_only_as_wide_as_it_needs() -> None:
    svg = parse(line_svg(example("open-1-4"), width=800))
    assert view_box(svg).w < 200


# --- output stability ----------------------------------------------------------------------


def test_output_is_deterministic() -> None:
    line = played_line(3, 3)
    assert line_svg(line, "de", width=500) == line_svg(line, "de", width=500)


@pytest.mark.parametrize(
    ("name", "lang"), [("three-four-after-four-four", "en"), ("six-six-on-three-six", "de")]
)
def test_golden_figures(name: str, lang: str) -> None:
    """Exact output for two figures; UPDATE_GOLDEN=1 rewrites them after a deliberate change."""
    text = line_svg(example(name), lang, highlight_ends=[1]) + "\n"
    path = GOLDEN / f"{name}.{lang}.svg"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


def test_write_line_svg(tmp_path: Path) -> None:
    target = write_line_svg(example("open-0-0"), tmp_path / "line.svg", "de", width=300)
    svg = parse(target.read_text(encoding="utf-8"))
    desc = svg.find("svg:desc", NS)
    assert desc is not None and desc.text == describe_line(example("open-0-0"), "de")


# --- single tiles --------------------------------------------------------------------------


def test_tile_face_and_orientation() -> None:
    flat = parse(tile_svg(T("[4|1]"), size=30))
    assert (flat.get("width"), flat.get("height"), flat.get("data-tile")) == ("60", "30", "[1|4]")
    title = flat.find("svg:title", NS)
    assert title is not None and title.text == "[1|4]"
    upright = parse(tile_svg(T("[3|6]"), size=30, vertical=True))
    assert (upright.get("width"), upright.get("height")) == ("30", "60")
    (low, low_pips), (high, high_pips) = halves(upright)
    assert (low, high) == (3, 6)
    assert max(y for _, y in low_pips) < 30 < min(y for _, y in high_pips)  # low half on top


@pytest.mark.parametrize("lang", ["en", "de"])
def test_face_down_tile_shows_nothing_of_its_face(lang: str) -> None:
    back = tile_svg(None, size=24, lang=lang)
    svg = parse(back)
    assert "face-down" in svg.get("class", "")
    assert svg.findall(".//svg:g[@class='half']", NS) == [] and "data-tile" not in back
    title = svg.find("svg:title", NS)
    assert (
        title is not None and title.text == {"en": "face-down tile", "de": "verdeckter Stein"}[lang]
    )


# --- bad input -----------------------------------------------------------------------------


def test_bad_arguments_are_refused() -> None:
    line = example("open-1-4")
    with pytest.raises(ValueError, match="unknown language"):
        line_svg(line, "fr")
    with pytest.raises(ValueError, match="highlight_ends"):
        line_svg(line, highlight_ends=[2])
    with pytest.raises(ValueError, match="too narrow"):
        line_svg(line, width=30)
    with pytest.raises(ValueError, match="size"):
        tile_svg(T("[1|2]"), size=2)


def test_svg_has_no_external_references() -> None:
    text = line_svg(full_line(2, 5), "de")
    assert not re.search(r"href|url\(|@import|<script|<image", text)
