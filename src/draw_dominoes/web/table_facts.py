"""Facts of a table the state message carries besides the game: the clock and the chat."""

from __future__ import annotations

from typing import Any

from .table import TableState

__all__ = ["CHAT_SHOWN", "chat_entries", "clock_entry"]

CHAT_SHOWN = 30.0
"""Seconds a quick-chat phrase is sent along with the table (the client shows it less)."""


def clock_entry(table: TableState, now: float) -> dict[str, Any] | None:
    """The clock of the person to move (a table with a clock): the seat, the seconds left,
    and the seat whose time has just run out (the medium bot moves for it)."""
    if not table.move_seconds:
        return None
    due = table.clock_due()
    match = table.match
    seat = match.current_player if match is not None and not match.is_over else None
    left = None if due is None else round(max(0.0, due - now), 1)
    return {
        "seat": seat,
        "seconds_left": left,
        "timed_out": table.timed_out,
        "bot_moves": list(table.clock_moves),
    }


def chat_entries(table: TableState, now: float) -> list[dict[str, Any]]:
    """The phrases said in the last ``CHAT_SHOWN`` seconds, oldest first."""
    return [
        {"seat": seat, "phrase": phrase, "age": round(max(0.0, now - at), 1)}
        for seat, phrase, at in table.chat
        if now - at < CHAT_SHOWN
    ]
