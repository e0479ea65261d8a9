"""What both ways of playing at the terminal share (the line-based session and the board):
the match, its seats and language, its save, and the bots that play its seats."""

from __future__ import annotations

from pathlib import Path

from ..match import Match
from .players import SeededBot
from .saves import SavedSeat, write_save
from .words import Words

__all__ = ["Sitting"]


class Sitting:
    """A match at this terminal and how it is saved: a save that fails is told once, the
    match goes on in memory, and every later action tries again."""

    match: Match
    seats: tuple[SavedSeat, ...]
    lang: str
    words: Words
    save_path: Path
    hints: bool
    names: list[str]
    humans: list[int]
    bot_seats: dict[int, SeededBot]
    save_problem: OSError | None

    def sit(
        self, match: Match, seats: tuple[SavedSeat, ...], lang: str, save_path: Path, hints: bool
    ) -> None:
        """Take the seats (an initializer apart from ``__init__``, for a Textual app too)."""
        self.match = match
        self.seats = seats
        self.lang = lang
        self.words = Words(lang)
        self.save_path = save_path
        self.hints = hints
        self.names = [self.words.seat_name(seat, number) for number, seat in enumerate(seats)]
        self.humans = [number for number, seat in enumerate(seats) if seat.is_human]
        self.bot_seats = {
            number: SeededBot(seat.player, match)
            for number, seat in enumerate(seats)
            if not seat.is_human
        }
        self.save_problem = None  # why the last save failed, until one works

    def tell(self, text: str, style: str) -> None:
        """Say ``text`` the way this interface says things."""
        raise NotImplementedError

    def save(self, tell: bool = True) -> bool:
        """Write the save; whether the match is now saved. ``tell=False`` when the caller
        says what became of it."""
        try:
            write_save(self.save_path, self.seats, self.lang, self.match, self.hints)
        except OSError as exc:
            if self.save_problem is None and tell:
                self.tell(self.words("save_failed", path=self.save_path, problem=exc), "bold red")
            self.save_problem = exc
            return False
        if self.save_problem is not None:
            self.save_problem = None
            if tell:
                self.tell(self.words("save_recovered", path=self.save_path), "")
        return True
