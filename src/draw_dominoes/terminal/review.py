"""``draw-dominoes review FILE``: each decision of a saved or finished match, valued by the bots."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import LANGUAGES

if TYPE_CHECKING:
    from ..analysis import DealWorth, Review
    from ..match import Match
    from ..round import Round
    from ..view import PlayerView
    from .screen import Part, Screen
    from .words import Words


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How a review searches, the same for ``draw-dominoes review`` and the board's review:
    ``iterations`` a decision (``None``: the analysis's default), the ``seed``, the
    play-outs a round of the luck of the deal (``None``: its default) and the processes
    (``None``: every core)."""

    iterations: int | None = None
    seed: int = 0
    playouts: int | None = None
    workers: int | None = None


@dataclass(frozen=True, slots=True)
class Reviewed:
    """A review with what its text needs: the view at each decision (to name the moves)
    and the luck of the deal."""

    review: Review
    views: dict[tuple[int, int], PlayerView]
    luck: DealWorth


Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` is ``review`` (the decisions), then ``luck``
(the play-outs)."""


def review_game(
    game: Round | Match,
    path: Path,
    seats: Sequence[int],
    settings: ReviewSettings,
    progress: Progress | None = None,
) -> Reviewed:
    """The review of ``seats`` in ``game`` (saved at ``path``) and the luck of its deals,
    kept where ``draw-dominoes review`` keeps them (``_kept_at``), so that either finds
    what the other worked out."""
    from ..analysis import DEFAULT_PLAYOUTS, deal_worth_cached, review_cached
    from ..analysis.review import decisions_of

    kept = _kept_at(path)
    result = review_cached(
        game,
        kept,
        seats,
        iterations=settings.iterations,
        seed=settings.seed,
        workers=settings.workers,
        progress=None if progress is None else lambda done, total: progress("review", done, total),
    )
    luck = deal_worth_cached(
        game,
        kept,
        playouts=settings.playouts or DEFAULT_PLAYOUTS,
        seed=settings.seed,
        workers=settings.workers,
        progress=None if progress is None else lambda done, total: progress("luck", done, total),
    )
    views = {(p.round, p.move): p.view for p in decisions_of(game, seats)}
    return Reviewed(result, views, luck)


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
    parser.add_argument(
        "--playouts",
        type=int,
        default=None,
        metavar="N",
        help="games a round from the same deal, for the luck of the deal (default: enough for"
        " about ±5 points a round)",
    )


def run(args: argparse.Namespace) -> int:
    from .. import record
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
    if args.playouts is not None and args.playouts < 2:
        print(words("review_bad_playouts"), file=sys.stderr)
        return 2
    people = [n for n, seat in enumerate(seats) if seat.is_human]
    if args.seat:
        wanted = sorted(set(args.seat))
        bad = [n for n in wanted if not 1 <= n <= game.players]
        if bad:
            print(words("review_bad_seat", seat=bad[0], players=game.players), file=sys.stderr)
            return 2
        chosen = [n - 1 for n in wanted]
    else:
        chosen = people if is_save and people else list(range(game.players))
    names = [words.seat_name(seat, number) for number, seat in enumerate(seats)]
    # "you" in the text when the only person of a save is the one reviewed
    you = chosen[0] if is_save and people == chosen and len(chosen) == 1 else None
    settings = ReviewSettings(args.iterations, args.seed, args.playouts, args.workers)
    screen = Screen(plain=args.plain or args.json)
    progress = None if args.json or args.plain else _progress_bar(screen, words)
    try:
        reviewed = review_game(
            game, path, chosen, settings, None if progress is None else progress[1]
        )
    finally:
        if progress is not None:
            progress[0].stop()
    if args.json:
        data = reviewed.review.to_dict()
        data["names"] = names
        data["given_away"] = {
            str(seat): round(reviewed.review.given_away(seat), 2) for seat in chosen
        }
        data["luck"] = reviewed.luck.to_dict()
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    _show(reviewed, names, words, screen, args.mistakes, you)
    return 0


def _progress_bar(screen: Screen, words: Words) -> tuple[Any, Progress]:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.progress import Progress as Bar

    stages = {"review": words("review_progress"), "luck": words("review_luck_progress")}
    bar = Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=screen.console,
        transient=True,
    )
    task = bar.add_task(stages["review"], total=None)
    bar.start()

    def update(stage: str, done: int, total: int) -> None:
        bar.update(task, description=stages[stage], completed=done, total=total)

    return bar, update


def progress_text(stage: str, done: int, total: int, words: Words) -> str:
    """The progress of ``review_game`` in one line: what it does, how far it is."""
    what = words("review_progress" if stage == "review" else "review_luck_progress")
    return words("review_progress_count", what=what, done=done, total=total)


def signed(points: float) -> str:
    """Whole points with their sign, a true minus: +12, −102, 0."""
    whole = round(points)
    return "0" if whole == 0 else f"{whole:+d}".replace("-", "\u2212")


def seat_lines(result: Review, names: Sequence[str], words: Words) -> list[Part]:
    """Each reviewed seat's accuracy and classes in a sentence (the table, as plain text)."""
    from ..analysis import KINDS
    from ..i18n import translate

    lang = words.lang
    kinds = [k for k in KINDS if k != "forced"] + ["forced"]
    lines: list[Part] = []
    for seat in result.seats:
        counts = result.counts(seat)
        parts = ", ".join(f"{translate(f'common.kind_{k}', lang)} {counts[k]}" for k in kinds)
        accuracy = _accuracy(result, seat, words)
        lines.append(words("review_seat_plain", name=names[seat], accuracy=accuracy, counts=parts))
    return lines


def _accuracy(result: Review, seat: int, words: Words) -> str:
    from ..i18n import translate

    figure = result.accuracy(seat)
    return (
        "–" if figure is None else translate("common.percent", words.lang, number=f"{figure:.0f}")
    )


def luck_lines(
    reviewed: Reviewed, names: Sequence[str], words: Words, you: int | None = None
) -> list[Part]:
    """For each reviewed seat, how much of its margin was the deal and how much the play:
    what its deals were worth, what it scored against the others, what its choices gave
    away, and the rest. ``you``: the seat addressed as "you"."""
    from ..i18n import format_decimal

    review, luck = reviewed.review, reviewed.luck
    lines: list[Part] = []
    for seat in review.seats:
        worth, scored, lost = luck.worth(seat), luck.scored(seat), review.given_away(seat)
        figures = {
            "worth": signed(worth),
            "error": f"{luck.error(seat):.0f}",
            "scored": signed(scored),
            "lost": format_decimal(lost, words.lang),
        }
        if seat == you:
            lines.append((words("review_luck_you", **figures), "bold"))
        else:
            lines.append((words("review_luck_named", name=names[seat], **figures), "bold"))
        lines.append(words("review_luck_rest", rest=signed(scored - worth + lost)))
    return lines


def mistake_lines(reviewed: Reviewed, names: Sequence[str], words: Words, limit: int) -> list[Part]:
    """Each reviewed seat's costliest choices with the better one, a blank line before each
    seat's."""
    from ..i18n import format_decimal, name_action, translate

    lang = words.lang
    lines: list[Part] = []
    for seat in reviewed.review.seats:
        mistakes = reviewed.review.mistakes(seat, limit)
        lines.append("")
        if not mistakes:
            lines.append(words("review_no_mistakes", name=names[seat]))
            continue
        lines.append((words("review_mistakes", name=names[seat]), "bold"))
        for d in mistakes:
            view = reviewed.views[(d.round, d.move)]
            text = words(
                "review_mistake",
                round=d.round + 1,
                move=d.move + 1,
                kind=translate(f"common.kind_{d.kind}", lang),
                played=name_action(d.played, view.line, lang),
                better=name_action(d.best.action, view.line, lang),
                points=format_decimal(d.loss, lang),
            )
            lines.append("  " + text)
    return lines


def notes(reviewed: Reviewed, words: Words) -> list[Part]:
    """What the accuracy and the deal's worth mean."""
    return [
        words("review_accuracy_note"),
        words("review_luck_note", playouts=reviewed.luck.playouts),
    ]


def review_text(
    reviewed: Reviewed, names: Sequence[str], words: Words, limit: int, you: int | None = None
) -> list[Part]:
    """The whole review as paragraphs, the figures first (the board's review screen)."""
    return [
        *seat_lines(reviewed.review, names, words),
        "",
        *luck_lines(reviewed, names, words, you),
        *mistake_lines(reviewed, names, words, limit),
        "",
        *notes(reviewed, words),
    ]


def _show(
    reviewed: Reviewed,
    names: list[str],
    words: Words,
    screen: Screen,
    limit: int,
    you: int | None,
) -> None:
    from ..analysis import KINDS
    from ..i18n import translate

    result = reviewed.review
    screen.heading(words("review_heading"))
    if screen.plain:
        for line in seat_lines(result, names, words):
            screen.say(line)
    else:
        from rich.table import Table

        kinds = [k for k in KINDS if k != "forced"] + ["forced"]
        table = Table(show_edge=False)
        table.add_column(words("review_player"))
        table.add_column(words("review_accuracy"), justify="right")
        for kind in kinds:
            table.add_column(translate(f"common.kind_{kind}", words.lang), justify="right")
        for seat in result.seats:
            counts = result.counts(seat)
            accuracy = _accuracy(result, seat, words)
            table.add_row(names[seat], accuracy, *(str(counts[k]) for k in kinds))
        screen.console.print(table)
    accuracy_note, luck_note = notes(reviewed, words)
    screen.say(accuracy_note)
    screen.blank()
    for line in luck_lines(reviewed, names, words, you):
        screen.say(line)
    screen.say(luck_note)
    for line in mistake_lines(reviewed, names, words, limit):
        screen.say(line)


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
