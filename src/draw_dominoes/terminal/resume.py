"""The resume chooser: which unfinished match to continue, newest first."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .saves import Saved, SaveError
from .words import Words

__all__ = ["ResumeChooser", "describe_save"]


class ResumeChooser(App[Saved | None]):
    """Choose which unfinished match to continue, newest first."""

    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #resume-title { text-style: bold; height: auto; margin-bottom: 1; }
    #resume-keys { height: auto; margin-top: 1; color: $accent; text-style: bold; }
    #resume-left-out { height: auto; max-height: 6; margin-top: 1; color: $warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape,ctrl+c", "leave", show=False, priority=True)
    ]

    def __init__(self, saved: list[Saved], lang: str, left_out: Sequence[SaveError] = ()) -> None:
        super().__init__()
        self.saved = saved
        self.words = Words(lang)
        self.lang = lang
        self.left_out = list(left_out)
        """Files in the saves folder that are not good saves: named, and left as they are."""

    def compose(self) -> ComposeResult:
        words = self.words
        yield Static(words("resume_title"), id="resume-title", markup=False)
        yield OptionList(
            *(Option(describe_save(saved, words), id=str(n)) for n, saved in enumerate(self.saved)),
            id="saves",
        )
        if self.left_out:
            lines = [words("saves_left_out", problem=problem) for problem in self.left_out]
            yield Static("\n".join(lines), id="resume-left-out", markup=False)
        yield Static(words("resume_keys"), id="resume-keys", markup=False)

    def on_mount(self) -> None:
        self.query_one("#saves", OptionList).focus()

    def action_leave(self) -> None:
        self.exit(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.exit(self.saved[int(event.option.id)])


def describe_save(saved: Saved, words: Words) -> str:
    """One line for a list of saves: when, who, which round, the scores."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(saved.path.stat().st_mtime))
    names = [words.seat_name(seat, number) for number, seat in enumerate(saved.seats)]
    scores = words.scores([name.replace(" ", "\u00a0") for name in names], saved.match.scores)
    return words("resume_entry", when=when, round=len(saved.match.rounds) + 1, scores=scores)
