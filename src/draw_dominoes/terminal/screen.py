"""Output with rich: colour and a cleared screen for people, or ``--plain`` text for screen
readers and logs (no colour, no cursor movement)."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.text import Text

__all__ = ["Part", "Screen"]

Part = str | tuple[str, str]
"""Plain text, or ``(text, rich style)``; styles are dropped in plain mode."""

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scrollback


class Screen:
    """Where the game writes and reads; ``plain`` means no colour and no control codes."""

    def __init__(self, plain: bool, file: TextIO | None = None) -> None:
        self.plain = plain
        self.file = sys.stdout if file is None else file
        self.console = Console(
            file=self.file,
            no_color=plain,
            force_terminal=False if plain else None,
            color_system=None if plain else "auto",
            highlight=False,
            markup=False,
            emoji=False,
            soft_wrap=plain,  # plain text is never broken into lines: the terminal wraps it
        )

    def say(self, *parts: Part) -> None:
        """One paragraph, wrapped to the terminal's width."""
        text = Text()
        for part in parts:
            if isinstance(part, str):
                text.append(part)
            else:
                text.append(part[0], style=None if self.plain else part[1])
        self.console.print(text)

    def blank(self) -> None:
        self.console.print()

    def heading(self, title: str) -> None:
        if self.plain or not self.console.is_terminal:
            self.console.print(f"== {title} ==")
        else:
            self.console.rule(Text(title, style="bold"))

    def clear(self) -> bool:
        """Wipe the screen and scrollback (not in plain mode); whether it was wiped."""
        if self.plain or not self.console.is_terminal:
            return False
        self.file.write(CLEAR)
        self.file.flush()
        return True

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line; EOFError when input has ended."""
        self.say((prompt, "bold cyan"))
        self.file.write("> ")
        self.file.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")
