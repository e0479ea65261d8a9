"""The review of a finished match inside the board: worked out in a thread, then shown."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..match import Match
from .notice import Notice
from .review import Reviewed, ReviewSettings, progress_text, review_game, review_text
from .screen import Part
from .words import Words

__all__ = ["MISTAKES_SHOWN", "ReviewNotice"]

MISTAKES_SHOWN = 5
"""The costliest choices listed a person, as ``draw-dominoes review`` lists by default."""


class _Left(Exception):
    """The review screen was left while its review was still being worked out."""


class ReviewNotice(Notice):
    """The match's end's review: a progress line while the decisions are analysed and the
    deals played out again (in a thread, kept where ``draw-dominoes review`` keeps them),
    then the accuracy, the luck of the deal and the costliest choices. Dismissed with
    ``back`` (to the match's end) or ``leave``; leaving early stops the work."""

    def __init__(
        self,
        match: Match,
        path: Path,
        seats: Sequence[int],
        names: Sequence[str],
        words: Words,
        settings: ReviewSettings,
    ) -> None:
        keys = {"b": "back", "escape": "back", "enter": "leave", "q": "leave"}
        first = progress_text("review", 0, 0, words)
        super().__init__(words("review_title"), [first], keys, words("review_screen_keys"))
        self.match = match
        self.path = path
        self.seats = tuple(seats)
        self.names = tuple(names)
        self.words = words
        self.settings = settings
        self.left = threading.Event()
        self.reviewed: Reviewed | None = None

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, group="review", exit_on_error=True)

    def on_unmount(self) -> None:
        self.left.set()

    def _work(self) -> None:
        def progress(stage: str, done: int, total: int) -> None:
            if self.left.is_set():
                raise _Left
            self.app.call_from_thread(self._progressed, stage, done, total)

        try:
            reviewed = review_game(self.match, self.path, self.seats, self.settings, progress)
        except _Left:
            return
        if not self.left.is_set():
            self.app.call_from_thread(self._show, reviewed)

    def _progressed(self, stage: str, done: int, total: int) -> None:
        if self.reviewed is None and not self.left.is_set():
            self.body_part(0).update(progress_text(stage, done, total, self.words))

    def body_part(self, index: int) -> Static:
        return list(self.query_one("#notice-body", VerticalScroll).query(Static))[index]

    def _show(self, reviewed: Reviewed) -> None:
        """The review in place of the progress line, from its top."""
        if self.left.is_set():
            return
        self.reviewed = reviewed
        you = self.seats[0] if len(self.seats) == 1 else None
        text = review_text(reviewed, self.names, self.words, MISTAKES_SHOWN, you)
        body = self.query_one("#notice-body", VerticalScroll)
        body.remove_children()
        body.mount_all(_paragraph(part) for part in text)
        body.scroll_home(animate=False)


def _paragraph(part: Part) -> Static:
    """One paragraph of the review; an indented one (a costliest choice) keeps its indent
    on every line it wraps to."""
    words, style = (part, "") if isinstance(part, str) else part
    indent = len(words) - len(words.lstrip(" "))
    paragraph = Static(Text(words[indent:], style=style), markup=False)
    paragraph.styles.padding = (0, 0, 0, indent)
    return paragraph
