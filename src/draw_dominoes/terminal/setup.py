"""The set-up screen: the opponents' level (with what each does), how many, and hints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .. import bots
from ..i18n import translate
from .words import Words

__all__ = ["Setup", "SetupChoice"]


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """A new match as chosen on the set-up screen."""

    opponents: int
    level: str
    hints: bool


class SetupOptions(Static):
    """The number of opponents and whether hints are on, as they are chosen."""

    opponents: reactive[int] = reactive(1)
    hints: reactive[bool] = reactive(False)

    def __init__(self, words: Words) -> None:
        super().__init__(id="setup-options", markup=False)
        self.words = words

    def render(self) -> str:
        words, count = self.words, self.opponents
        hints = words("setup_hints_on" if self.hints else "setup_hints_off")
        return words("setup_options", opponents=count, players=count + 1, hints=hints)


class Setup(App[SetupChoice | None]):
    """Choose the opponents' level (with what each does), how many, and whether hints are on."""

    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #setup-title { text-style: bold; height: auto; margin-bottom: 1; }
    #levels { height: auto; max-height: 12; }
    #setup-options { height: auto; margin-top: 1; }
    #setup-keys { height: auto; margin-top: 1; color: $accent; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,minus", "opponents(-1)", show=False),
        Binding("right,plus", "opponents(1)", show=False),
        *(Binding(str(count), f"opponents_set({count})", show=False) for count in (1, 2, 3)),
        Binding("h", "toggle_hints", show=False),
        # above the screen's own ctrl+c (copy), as the key that leaves
        Binding("q,escape,ctrl+c", "leave", show=False, priority=True),
    ]

    opponents: reactive[int] = reactive(1)
    hints: reactive[bool] = reactive(False)

    def __init__(self, lang: str, hints: bool = False) -> None:
        super().__init__()
        self.words = Words(lang)
        self.lang = lang
        self.set_reactive(Setup.hints, hints)

    def compose(self) -> ComposeResult:
        words = self.words
        yield Static(words("setup_title"), id="setup-title", markup=False)
        options = []
        for level in bots.LEVELS:
            name = translate(f"common.level_{level}", self.lang)
            about = translate(f"common.level_{level}_about", self.lang)
            text = Text(name.capitalize(), style="bold")
            text.append(f": {about}")
            options.append(Option(text, id=level))
        yield OptionList(*options, id="levels")
        yield SetupOptions(words).data_bind(Setup.opponents, Setup.hints)
        yield Static(words("setup_keys"), id="setup-keys", markup=False)

    def on_mount(self) -> None:
        levels = self.query_one("#levels", OptionList)
        levels.highlighted = list(bots.LEVELS).index("easy")
        levels.focus()

    def action_opponents(self, step: int) -> None:
        self.opponents = min(3, max(1, self.opponents + step))

    def action_opponents_set(self, count: int) -> None:
        self.opponents = count

    def action_toggle_hints(self) -> None:
        self.hints = not self.hints

    def action_leave(self) -> None:
        self.exit(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        level = event.option.id
        assert level is not None
        self.exit(SetupChoice(self.opponents, level, self.hints))
