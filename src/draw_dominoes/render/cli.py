"""Draw a line of play as an SVG diagram, with its port markers and R12 description."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..actions import IllegalActionError, Place, parse_action
from ..i18n import LANGUAGES, language_from_environment, translate
from ..line import Line


class DiagramError(ValueError):
    """A placement list that does not build a line; the message is ready to show."""


def line_from_placements(texts: Sequence[str], lang: str = "en") -> Line:
    """The line built from placements in action notation: ``[1|4]``, ``[1|1]@0``, ``[4|4]@1``.

    After the opening, a bare tile goes to the one end it fits; a tile that fits both ends
    (or none) is refused with a message saying so.
    """
    line = Line()
    for text in texts:
        try:
            action = parse_action(text)
        except ValueError:
            raise DiagramError(translate("render.cli_not_placement", lang, text=text)) from None
        if not isinstance(action, Place):
            raise DiagramError(translate("render.cli_not_placement", lang, text=text))
        tile, end = action.tile, action.end
        if line.is_empty:
            if end is not None:
                raise DiagramError(translate("render.cli_open_first", lang, text=text))
        elif tile in line:
            raise DiagramError(translate("render.cli_twice", lang, tile=tile))
        elif end is None:
            fitting = [e.index for e in line.ends if e.value in (tile.low, tile.high)]
            if not fitting:
                values = " / ".join(str(e.value) for e in line.ends)
                raise DiagramError(translate("render.cli_no_fit", lang, tile=tile, values=values))
            if len(fitting) > 1:
                raise DiagramError(translate("render.cli_ambiguous", lang, tile=tile))
            end = fitting[0]
        elif line.ends[end].value not in (tile.low, tile.high):
            value = line.ends[end].value
            raise DiagramError(
                translate("render.cli_wrong_end", lang, tile=tile, end=end, value=value)
            )
        try:
            line = line.place(tile, end)
        except IllegalActionError as exc:
            raise DiagramError(
                translate("render.cli_illegal", lang, text=text, reason=exc)
            ) from None
    return line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "placements",
        nargs="*",
        metavar="PLACEMENT",
        help="the opening tile, then placements such as [1|1]@0 or [4|4]@1; "
        "a bare tile such as [3|4] goes to the one end it fits",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the description (default: from LANGUAGE/LANG, else en)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the SVG to FILE instead of printing it"
    )
    parser.add_argument(
        "--width", type=int, default=800, help="the widest the drawing may be (default: 800)"
    )
    parser.add_argument(
        "--no-markers", action="store_true", help="leave out the markers on the free ports"
    )


def run(args: argparse.Namespace) -> int:
    from .svg import line_svg

    lang: str = args.lang or language_from_environment()
    try:
        line = line_from_placements(args.placements, lang)
        text = line_svg(line, lang, width=args.width, markers=not args.no_markers)
    except ValueError as exc:
        print(f"draw-dominoes diagram: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(text + "\n")
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    except OSError as exc:
        print(f"draw-dominoes diagram: {exc}", file=sys.stderr)
        return 1
    return 0
