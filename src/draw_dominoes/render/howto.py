"""The "How to play" page: the rules in plain words, with the worked line examples drawn live."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Final

from ..i18n import LANGUAGES, translate
from ..line import Line
from ..tiles import Tile
from .svg import line_svg

__all__ = ["FIGURES", "FIGURE_WIDTH", "Figure", "howto_html"]

FIGURE_WIDTH: Final = 560


@dataclass(frozen=True, slots=True)
class Figure:
    """One worked line example of the rule texts: its placements and its caption's key."""

    key: str
    placements: tuple[tuple[Tile, int | None], ...]

    @property
    def line(self) -> Line:
        return Line.from_placements(list(self.placements))

    def caption(self, lang: str) -> str:
        return translate(f"render.howto_fig_{self.key.replace('-', '_')}", lang)


def _figure(key: str, *placements: tuple[str, int | None]) -> Figure:
    return Figure(key, tuple((Tile.parse(tile), end) for tile, end in placements))


FIGURES: Final[tuple[Figure, ...]] = (
    _figure("open-1-4", ("[1|4]", None)),
    _figure("one-one", ("[1|4]", None), ("[1|1]", 0)),
    _figure("four-four", ("[1|4]", None), ("[1|1]", 0), ("[4|4]", 1)),
    _figure("three-four", ("[1|4]", None), ("[1|1]", 0), ("[4|4]", 1), ("[3|4]", 1)),
    _figure("six-six", ("[3|6]", None), ("[6|6]", 1)),
    _figure("open-0-0", ("[0|0]", None)),
    _figure("open-2-2", ("[2|2]", None)),
)
"""The line examples of the rule texts, in the order the page shows them."""

# The page: sections of paragraphs, lists and the figures, by catalogue key (render.howto_*).
_Block = tuple[str, tuple[str, ...]]
_SECTIONS: Final[tuple[tuple[str, str, tuple[_Block, ...]], ...]] = (
    ("deal", "h_deal", (("p", ("deal_set", "deal_hands", "deal_lead")),)),
    (
        "turn",
        "h_turn",
        (
            ("p", ("turn_intro",)),
            ("ul", ("turn_place", "turn_draw", "turn_pass")),
            ("p", ("turn_leader",)),
        ),
    ),
    (
        "line",
        "h_line",
        (
            ("p", ("line_ends", "line_doubles", "line_markers")),
            ("figures", tuple(f.key for f in FIGURES)),
            ("details", ("line_described", "line_alternatives", "line_ports")),
        ),
    ),
    ("end", "h_end", (("p", ("end_when", "end_count")),)),
    ("score", "h_score", (("ul", ("score_domino", "score_blocked")), ("p", ("score_exact",)))),
    ("match", "h_match", (("p", ("match_lead", "match_target")),)),
)


def _text(name: str, lang: str) -> str:
    return escape(translate(f"render.howto_{name}", lang), quote=False)


def figure_html(figure: Figure, lang: str) -> str:
    """One figure: the line drawn with markers on its free ports, the R12 description as its
    text alternative (inside the SVG), and a caption in plain words."""
    drawing = line_svg(figure.line, lang, width=FIGURE_WIDTH, element_id=f"howto-{figure.key}")
    caption = escape(figure.caption(lang), quote=False)
    return (
        f'<figure class="howto-figure" id="figure-{figure.key}">\n{drawing}\n'
        f"<figcaption>{caption}</figcaption>\n</figure>"
    )


def howto_html(lang: str) -> str:
    """The page as an HTML fragment (an ``<article>``), in "en" or "de"."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    by_key = {f.key: f for f in FIGURES}
    out = [
        f'<article class="howto" lang="{lang}">',
        f"<h1>{_text('title', lang)}</h1>",
        f'<p class="lead">{_text("intro", lang)}</p>',
    ]
    for anchor, heading, blocks in _SECTIONS:
        out.append(f'<section id="howto-{anchor}">')
        out.append(f"<h2>{_text(heading, lang)}</h2>")
        for kind, names in blocks:
            if kind == "p":
                out.extend(f"<p>{_text(name, lang)}</p>" for name in names)
            elif kind == "details":  # for screen-reader users; folded away for the others
                summary, *paragraphs = names
                out.append(f'<details class="howto-note"><summary>{_text(summary, lang)}</summary>')
                out.extend(f"<p>{_text(name, lang)}</p>" for name in paragraphs)
                out.append("</details>")
            elif kind == "ul":
                items = "".join(f"<li>{_text(name, lang)}</li>" for name in names)
                out.append(f"<ul>{items}</ul>")
            else:
                out.append('<div class="howto-figures">')
                out.extend(figure_html(by_key[name], lang) for name in names)
                out.append("</div>")
        out.append("</section>")
    out.append("</article>")
    return "\n".join(out)
