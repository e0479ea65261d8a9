"""The line: two ends, ports, and the exact descriptions of the rule texts (R9–R12)."""

from __future__ import annotations

import pytest

from conftest import RULES
from draw_dominoes import IllegalActionError, Line, Port, Tile
from draw_dominoes.i18n import describe_line, port_label

# The seven worked line examples of the rule texts, in the order they appear there,
# as placements (tile, end); each has one description in English and one in German.
EXAMPLES: list[list[tuple[str, int | None]]] = [
    [("[1|4]", None)],
    [("[1|4]", None), ("[1|1]", 0)],
    [("[3|6]", None), ("[6|6]", 1)],
    [("[0|0]", None)],
    [("[1|4]", None), ("[1|1]", 0), ("[4|4]", 1)],
    [("[1|4]", None), ("[1|1]", 0), ("[4|4]", 1), ("[3|4]", 1)],
    [("[2|2]", None)],
]


def build(placements: list[tuple[str, int | None]]) -> Line:
    return Line.from_placements([(Tile.parse(t), end) for t, end in placements])


def descriptions(lang: str) -> list[str]:
    """Every line description printed in the rule text of ``lang``, in order."""
    start = {"en": "Tiles: ", "de": "Steine: "}[lang]
    text = (RULES / f"draw-rules.{lang}.txt").read_text(encoding="utf-8")
    return [line[line.index(start) :] for line in text.splitlines() if start in line]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_r12_all_fourteen_descriptions_of_the_rule_texts_character_for_character(
    lang: str,
) -> None:
    expected = descriptions(lang)
    assert len(expected) == len(EXAMPLES) == 7
    for placements, text in zip(EXAMPLES, expected, strict=True):
        assert describe_line(build(placements), lang) == text


def test_r12_example_texts() -> None:
    line = build(EXAMPLES[1])
    assert describe_line(line) == (
        "Tiles: [1|4], [1|1]. Connections: [1|4] (low end) – [1|1] (line A). "
        "Legal continuation ports: [1|1] (line B, 1); [1|4] (high end, 4)."
    )
    assert describe_line(build(EXAMPLES[3]), "de") == (
        "Steine: [0|0]. Verbindungen: keine. Freie Anlegestellen: "
        "[0|0] (Linienseite A, 0); [0|0] (Linienseite B, 0)."
    )


def test_r12_an_empty_line_says_none_everywhere() -> None:
    # Not covered by R12; the natural reading of its "none" rule.
    assert (
        describe_line(Line()) == "Tiles: none. Connections: none. Legal continuation ports: none."
    )
    assert (
        describe_line(Line(), "de")
        == "Steine: keine. Verbindungen: keine. Freie Anlegestellen: keine."
    )


def test_r12_unknown_language_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        describe_line(Line(), "fr")


def test_r9_opening_low_half_at_end_0_high_half_at_end_1() -> None:
    line = Line().place(Tile(4, 1), None)
    assert [(e.index, e.value) for e in line.ends] == [(0, 1), (1, 4)]
    assert [e.port for e in line.ends] == [Port.LOW_END, Port.HIGH_END]
    double = Line().place(Tile(2, 2), None)
    assert [e.value for e in double.ends] == [2, 2]


def test_r9_end_numbers_are_kept() -> None:
    line = build([("[1|4]", None), ("[1|3]", 0), ("[3|5]", 0), ("[4|6]", 1)])
    assert line.end_values == (5, 6)
    assert line.ends[0].tile == Tile(3, 5) and line.ends[1].tile == Tile(4, 6)
    assert str(line) == "5-3 3-1 1-4 4-6"


def test_r10_other_half_becomes_the_end_and_a_double_keeps_the_value() -> None:
    line = build([("[2|5]", None), ("[5|5]", 1)])
    assert line.end_values == (2, 5)
    line = line.place(Tile(5, 6), 1)
    assert line.end_values == (2, 6)


def test_r10_a_blank_matches_only_a_blank() -> None:
    line = build([("[0|3]", None)])
    assert line.accepts(Tile(0, 5), 0) and not line.accepts(Tile(1, 5), 0)
    with pytest.raises(IllegalActionError, match="does not match end 0, which shows 0"):
        line.place(Tile(1, 5), 0)
    assert line.place(Tile(0, 0), 0).end_values == (0, 3)


def test_r10_refusals_leave_the_line_unchanged() -> None:
    line = build(EXAMPLES[1])
    before = (line.tiles, line.ends, describe_line(line))
    for tile, end in [(Tile(2, 5), 0), (Tile(1, 4), 1), (Tile(1, 2), None), (Tile(1, 2), 2)]:
        with pytest.raises(IllegalActionError):
            line.place(tile, end)  # type: ignore[arg-type]
    assert (line.tiles, line.ends, describe_line(line)) == before
    with pytest.raises(IllegalActionError, match="must open it"):
        Line().place(Tile(1, 2), 0)


def test_r11_ports_of_doubles_and_non_doubles() -> None:
    line = build(EXAMPLES[5])
    assert [
        (str(c.parent), c.parent_port, str(c.child), c.child_port) for c in line.connections
    ] == [
        ("[1|4]", Port.LOW_END, "[1|1]", Port.LINE_A),
        ("[1|4]", Port.HIGH_END, "[4|4]", Port.LINE_A),
        ("[4|4]", Port.LINE_B, "[3|4]", Port.HIGH_END),
    ]
    opening_double = Line().place(Tile(6, 6), None)
    assert [e.port for e in opening_double.ends] == [Port.LINE_A, Port.LINE_B]
    assert port_label(Port.LINE_A, "de") == "Linienseite A"
    assert port_label(Port.HIGH_END, "de") == "Ende mit größerer Augenzahl"


def test_r10_doubles_never_branch_the_line_has_two_ends() -> None:
    line = build([("[3|3]", None), ("[3|4]", 0), ("[3|5]", 1)])
    assert len(line.ends) == 2 and line.end_values == (4, 5)
    assert not line.accepts(Tile(3, 6), 0) and not line.accepts(Tile(3, 6), 1)


def test_lines_are_values() -> None:
    a, b = build(EXAMPLES[4]), build(EXAMPLES[4])
    assert a == b and hash(a) == hash(b) and a != build(EXAMPLES[5])
    assert len(a) == 3 and Tile(4, 4) in a and not Line().tiles
    with pytest.raises(IllegalActionError, match="already in the line"):
        a.place(Tile(1, 1), 0)
