"""``draw-dominoes review FILE``: each decision of a saved or finished match, valued by the bots."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import LANGUAGES

if TYPE_CHECKING:
    from ..analysis import Review
    from ..view import PlayerView
    from .screen import Screen
    from .words import Words


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a save of draw-dominoes play, or a game record"
    )
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="N",
        help="review player N (1 is the first seat; repeatable; default: the people in a"
        " save, every seat of a record)",
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="language (default: the save's, or LANG)"
    )
    parser.add_argument(
        "--plain", action="store_true", help="plain text without tables or colour (screen readers)"
    )
    parser.add_argument("--json", action="store_true", help="the whole review as JSON, for scripts")
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        metavar="N",
        help="search iterations a decision (default: four times the expert bot's a move)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the analysis's seed (default: %(default)s)"
    )
    parser.add_argument(
        "--workers", type=int, default=None, metavar="N", help="processes (default: every core)"
    )
    parser.add_argument("--mistakes", type=int, default=5, help="mistakes listed a player")


def run(args: argparse.Namespace) -> int:
    from .. import record
    from ..analysis import review_cached
    from ..analysis.review import decisions_of
    from ..i18n import language_from_environment
    from .saves import SaveError, read_game
    from .screen import Screen
    from .words import Words

    lang: str = args.lang or language_from_environment()
    words = Words(lang)
    path = Path(args.file)
    try:
        game, seats, saved_lang, is_save = read_game(path)
    except (SaveError, record.RecordError) as exc:
        print(words("error_bad_record", problem=exc), file=sys.stderr)
        return 1
    lang = args.lang or saved_lang or lang
    words = Words(lang)
    if args.iterations is not None and args.iterations < 1:
        print(words("review_bad_iterations"), file=sys.stderr)
        return 2
    if args.seat:
        wanted = sorted(set(args.seat))
        bad = [n for n in wanted if not 1 <= n <= game.players]
        if bad:
            print(words("review_bad_seat", seat=bad[0], players=game.players), file=sys.stderr)
            return 2
        chosen = [n - 1 for n in wanted]
    else:
        people = [n for n, seat in enumerate(seats) if seat.is_human]
        chosen = people if is_save and people else list(range(game.players))
    names = [words.seat_name(seat, number) for number, seat in enumerate(seats)]
    screen = Screen(plain=args.plain or args.json)
    progress = None if args.json or args.plain else _progress_bar(screen, words)
    try:
        result = review_cached(
            game,
            _kept_at(path),
            chosen,
            iterations=args.iterations,
            seed=args.seed,
            workers=args.workers,
            progress=None if progress is None else progress[1],
        )
    finally:
        if progress is not None:
            progress[0].stop()
    views = {(p.round, p.move): p.view for p in decisions_of(game, chosen)}
    if args.json:
        data = result.to_dict()
        data["names"] = names
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    _show(result, views, names, words, screen, args.mistakes)
    return 0


def _progress_bar(screen: Screen, words: Words) -> tuple[Any, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn(words("review_progress")),
        BarColumn(),
        MofNCompleteColumn(),
        console=screen.console,
        transient=True,
    )
    task = bar.add_task("review", total=None)
    bar.start()

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


def _show(
    result: Review,
    views: dict[tuple[int, int], PlayerView],
    names: list[str],
    words: Words,
    screen: Screen,
    limit: int,
) -> None:
    from ..analysis import KINDS
    from ..i18n import format_decimal, name_action, translate

    lang = words.lang
    kinds = [k for k in KINDS if k != "forced"] + ["forced"]
    label = {k: translate(f"common.kind_{k}", lang) for k in KINDS}

    def accuracy_of(seat: int) -> str:
        figure = result.accuracy(seat)
        return "–" if figure is None else translate("common.percent", lang, number=f"{figure:.0f}")

    screen.heading(words("review_heading"))
    if screen.plain:
        for seat in result.seats:
            counts = result.counts(seat)
            parts = ", ".join(f"{label[k]} {counts[k]}" for k in kinds)
            screen.say(
                words(
                    "review_seat_plain", name=names[seat], accuracy=accuracy_of(seat), counts=parts
                )
            )
    else:
        from rich.table import Table

        table = Table(show_edge=False)
        table.add_column(words("review_player"))
        table.add_column(words("review_accuracy"), justify="right")
        for kind in kinds:
            table.add_column(label[kind], justify="right")
        for seat in result.seats:
            counts = result.counts(seat)
            table.add_row(names[seat], accuracy_of(seat), *(str(counts[k]) for k in kinds))
        screen.console.print(table)
    screen.say(words("review_accuracy_note"))
    for seat in result.seats:
        mistakes = result.mistakes(seat, limit)
        screen.blank()
        if not mistakes:
            screen.say(words("review_no_mistakes", name=names[seat]))
            continue
        screen.say((words("review_mistakes", name=names[seat]), "bold"))
        for d in mistakes:
            view = views[(d.round, d.move)]
            screen.say(
                "  ",
                words(
                    "review_mistake",
                    round=d.round + 1,
                    move=d.move + 1,
                    kind=label[d.kind],
                    played=name_action(d.played, view.line, lang),
                    better=name_action(d.best.action, view.line, lang),
                    points=format_decimal(d.loss, lang),
                ),
            )


def _kept_at(path: Path) -> Path:
    """Where the review of ``path`` is kept: beside it, but a save's among the reviews
    (the saves folder holds saves only)."""
    from ..analysis import cache_path
    from .saves import reviews_directory, saves_directory

    kept = cache_path(path)
    with contextlib.suppress(OSError):
        if path.resolve().parent == saves_directory().resolve():
            return reviews_directory() / kept.name
    return kept
