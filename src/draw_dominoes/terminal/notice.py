"""A screen of its own over the board (the round's end, the match's end, the hand-over):
text, and the keys that close it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["Notice"]


class Notice(ModalScreen[str]):
    """Text and the keys that close it, each dismissing with its name; the arrow and page
    keys scroll a body taller than the terminal."""

    def __init__(self, title: str, body: Sequence[Text | str], keys: dict[str, str], footer: str):
        super().__init__(classes="notice")
        self.title_text = title
        self.body = body
        self.keys = keys
        self.footer = footer

    def compose(self) -> ComposeResult:
        with Vertical(id="notice-box"):
            yield Static(Text(self.title_text, style="bold"), id="notice-title")
            with VerticalScroll(id="notice-body"):
                for part in self.body:
                    yield Static(part, markup=False)
            yield Static(Text(self.footer, style="bold cyan"), id="notice-keys", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        answer = self.keys.get(event.key)
        if answer is not None:
            self.dismiss(answer)
            return
        body = self.query_one("#notice-body", VerticalScroll)
        scroll = {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "pagedown": body.scroll_page_down,
            "pageup": body.scroll_page_up,
            "home": body.scroll_home,
            "end": body.scroll_end,
        }.get(event.key)
        if scroll is not None:  # a small terminal: the rest of the body is below
            scroll(animate=False)

    def on_resize(self, event: events.Resize) -> None:
        """The body scrolls, so the keys below it stay on a small screen."""
        self.query_one("#notice-body").styles.max_height = max(3, event.size.height - 9)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if "enter" in self.keys:
            self.dismiss(self.keys["enter"])
