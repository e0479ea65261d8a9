"""Facts of a table the state message carries besides the game: the clock, the chat, the
match's result, resignations and the take-back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import translate
from .table import TableState, UserError
from .table.leaving import take_back_target

__all__ = ["CHAT_SHOWN", "chat_entries", "clock_entry", "leaving_entry", "result_entry"]

CHAT_SHOWN = 30.0
"""Seconds a quick-chat phrase is sent along with the table (the client shows it less)."""


def clock_entry(table: TableState, now: float) -> dict[str, Any] | None:
    """The clock of the person to move (a table with a clock): the seat, the seconds left,
    and the seat whose time has just run out (the medium bot moves for it)."""
    if not table.move_seconds:
        return None
    due = table.clock_due()
    match = table.match
    seat = match.current_player if match is not None and table.playing else None
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


def result_entry(table: TableState, names: Sequence[str], lang: str) -> dict[str, Any]:
    """The current match's result once it is over (by the rules, or given up, W3): the
    highest scores win (R20), but a seat that resigned cannot win (W4)."""
    number = len(table.matches) - 1
    match = table.matches[number]
    gave_up = table.resigned_in(number)
    scores = match.scores
    still_in = [s for s in range(table.players) if s not in gave_up] or list(range(table.players))
    top = max(scores[s] for s in still_in)
    winners = [s for s in still_in if scores[s] == top]
    key = "common.match_drawn" if len(winners) > 1 else "common.match_won"
    text = translate(key, lang, names=", ".join(names[w] for w in winners), score=top)
    if gave_up:
        resigned = ", ".join(names[s] for s in sorted(gave_up))
        text = translate("common.match_resigned", lang, names=resigned, result=text)
    return {
        "winners": winners,
        "is_draw": len(winners) > 1,
        "scores": list(scores),
        "resigned": sorted(gave_up),
        "given_up": not match.is_over,
        "text": text,
    }


def leaving_entry(table: TableState, seat: int | None) -> dict[str, Any]:
    """Who resigned this match, whether this seat may take a move back now (W7), and
    whether leaving on one's turn would count as resigning (a rated match, W5)."""
    number = len(table.matches) - 1
    resigned = sorted(table.resigned_in(number)) if table.matches else []
    take_back = False
    if seat is not None and table.playing:
        try:
            take_back_target(table, seat)
            take_back = True
        except UserError:
            pass
    return {
        "resigned": resigned,
        "take_back": take_back,
        "away_resigns": table.rated and table.playing,
    }
