"""Step through a saved game: every deal and move of a match or round, in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a save of draw-dominoes play, or a game record"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="language (default: from LANG)"
    )
    parser.add_argument(
        "--plain", action="store_true", help="no colour, no cursor movement (screen readers, logs)"
    )
    parser.add_argument(
        "--all", action="store_true", help="print everything at once instead of step by step"
    )


def run(args: argparse.Namespace) -> int:
    from .. import record
    from ..i18n import language_from_environment, translate
    from ..match import Match
    from .saves import SaveError, read_game
    from .screen import Screen
    from .viewer import Viewer

    lang: str = args.lang or language_from_environment()
    path = Path(args.file)
    try:
        game, seats, saved_lang, _ = read_game(path)
    except (SaveError, record.RecordError) as exc:
        print(translate("terminal.error_bad_record", lang, problem=exc), file=sys.stderr)
        return 1
    lang = args.lang or saved_lang or lang
    step = not args.all and sys.stdin.isatty()
    viewer = Viewer(seats, lang, Screen(plain=args.plain), step=step)
    if isinstance(game, Match):
        viewer.show_match(game, path)
    else:
        from ..round import Round

        assert isinstance(game, Round)
        viewer.show_round(game, path)
    return 0
