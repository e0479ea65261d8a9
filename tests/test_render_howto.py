"""The "How to play" page: both languages, every worked line example drawn with its R12 text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from draw_dominoes import Line, Tile
from draw_dominoes.i18n import describe_line
from draw_dominoes.render.howto import FIGURES, howto_html

SVG = "{http://www.w3.org/2000/svg}"
NS = {"svg": SVG[1:-1]}
LOCALES = Path(__file__).parent.parent / "src" / "draw_dominoes" / "i18n" / "locales"
RULES = Path(__file__).parent.parent / "docs" / "rules"
T = Tile.parse


def page(lang: str) -> ET.Element:
    """The fragment parsed as XML: it is well-formed, so any XML parser can read it."""
    return ET.fromstring(howto_html(lang))


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def test_figures_are_the_worked_examples_of_the_rule_texts() -> None:
    lines = {f.key: f.line for f in FIGURES}
    assert lines["open-1-4"] == Line().place(T("[1|4]"), None)
    assert lines["one-one"] == lines["open-1-4"].place(T("[1|1]"), 0)  # [1|1] at the 1
    assert lines["four-four"] == lines["one-one"].place(T("[4|4]"), 1)  # [4|4] at the 4
    assert lines["three-four"] == lines["four-four"].place(T("[3|4]"), 1)  # after [4|4]
    assert lines["six-six"] == Line().place(T("[3|6]"), None).place(T("[6|6]"), 1)
    assert lines["open-0-0"] == Line().place(T("[0|0]"), None)
    assert lines["open-2-2"] == Line().place(T("[2|2]"), None)
    assert len(FIGURES) == 7


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_figure_is_a_live_drawing_with_the_r12_text_alternative(lang: str) -> None:
    root = page(lang)
    figures = root.findall(".//figure")
    assert len(figures) == len(FIGURES)
    rule_text = (RULES / f"draw-rules.{lang}.txt").read_text(encoding="utf-8")
    for figure, example in zip(figures, FIGURES):
        svg = figure.find(f"{SVG}svg")
        assert svg is not None and svg.get("role") == "img"
        title, desc = svg.find("svg:title", NS), svg.find("svg:desc", NS)
        assert title is not None and desc is not None
        assert title.text == desc.text == describe_line(example.line, lang)
        assert desc.text is not None and desc.text in rule_text  # one of the fourteen (R12)
        assert svg.get("aria-describedby") == desc.get("id")
        tiles = [g for g in svg.findall("svg:g", NS) if "tile" in g.get("class", "").split()]
        assert len(tiles) == len(example.line)
        markers = [g for g in svg.findall("svg:g", NS) if "port-marker" in g.get("class", "")]
        assert [(m.get("data-end"), m.get("data-value")) for m in markers] == [
            (str(e.index), str(e.value)) for e in example.line.ends
        ]
        caption = figure.find("figcaption")
        assert caption is not None and caption.text and caption.text == example.caption(lang)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_page_structure(lang: str) -> None:
    root = page(lang)
    assert root.tag == "article" and root.get("lang") == lang
    assert len(root.findall("h1")) == 1
    assert len(root.findall("section")) == 6
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))  # unique, so the page can hold every figure at once


def test_page_speaks_the_rules() -> None:
    english, german = text_of(page("en")), text_of(page("de"))
    for needle in ("28 tiles", "seven tiles", "six each", "last two tiles are never drawn",
                   "keep your turn", "crosswise", "A blank matches only a blank",
                   "8 + 10 − 3 = 15", "3, 3 and 10, nobody scores", "100 points", "61",
                   "no dividing by five", "clockwise from the previous round's leader",
                   "high end", "line A"):  # fmt: skip
        assert needle in english, needle
    for needle in ("28 Steinen", "sieben Steine", "jeder sechs", "nie gezogen",
                   "Du bleibst am Zug", "liegen quer", "Eine leere Hälfte passt nur",
                   "8 + 10 − 3 = 15", "erhält niemand Punkte", "100 Punkte", "61",
                   "ohne Teilen durch fünf", "Uhrzeigersinn", "Ende mit größerer Augenzahl",
                   "Linienseite A"):  # fmt: skip
        assert needle in german, needle


def test_page_needs_nothing_from_outside() -> None:
    for lang in ("en", "de"):
        text = howto_html(lang)
        assert "<script" not in text and "<link" not in text and "<img" not in text
        assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        howto_html("fr")


def test_the_render_catalogues_have_the_same_messages_in_both_languages() -> None:
    english = json.loads((LOCALES / "en" / "render.json").read_text(encoding="utf-8"))
    german = json.loads((LOCALES / "de" / "render.json").read_text(encoding="utf-8"))
    assert english.keys() == german.keys()
    assert all(key.startswith("render.") for key in english)
    assert all(english[key] != german[key] for key in english)
