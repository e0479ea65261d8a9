"""Giving up and taking back at a web table: resigning (W1–W5) and the take-back (W7)."""

from __future__ import annotations

import dataclasses

from ...actions import Draw
from .errors import UserError
from .state import TableState, rewound

__all__ = ["resign", "take_back", "take_back_target"]


def resign(state: TableState, seat: int) -> TableState:
    """The person at ``seat`` gives the current match up (W1): the medium bot plays the
    seat from here to the match's end, for the others; the match's record is untouched
    and the resignation is kept beside it (W2). If nobody is left playing, the match is
    over at once (W3)."""
    if state.seats[seat].kind != "human" or not state.playing:
        raise UserError("not_playing")
    number = len(state.matches) - 1
    if seat in state.resigned_in(number):
        raise UserError("already_resigned")
    return dataclasses.replace(
        state,
        resignations=(*state.resignations, (number, seat, state.seq)),
        away=state.away - {seat},
        timed_out=None if state.timed_out == seat else state.timed_out,
    )


def take_back_target(state: TableState, seat: int) -> int:
    """The position a take-back by ``seat`` returns to: before the person's last move of
    this round, with every bot move after it (W7); ``UserError`` says why not."""
    match = state.match
    if match is None or not state.playing or seat in state.resigned_in(len(state.matches) - 1):
        raise UserError("not_playing")
    if state.rated:
        raise UserError("take_back_rated")
    if any(s.kind != "bot" for s in state.seats if s.seat != seat):
        raise UserError("take_back_people")
    if state.pause_until is not None:
        raise UserError("round_end", seconds=round(state.timing.round_pause))
    history = match.current_round.history
    mine = [index for index, (player, _) in enumerate(history) if player == seat]
    if not mine:
        raise UserError("nothing_to_take_back")
    if isinstance(history[mine[-1]][1], Draw):  # its tile was seen: the boneyard would be
        raise UserError("take_back_draw")
    return state.seq - len(history) + mine[-1]


def take_back(state: TableState, seat: int, now: float) -> TableState:
    """The match as it was before the person's last move; a bot's answer asked for
    before this is void (``takebacks`` counts up)."""
    target = take_back_target(state, seat)
    match = state.match
    assert match is not None
    return dataclasses.replace(
        state,
        matches=(*state.matches[:-1], rewound(match, target)),
        seq=target,
        takebacks=state.takebacks + 1,
        turn_since=now,
        timed_out=None,
        away=state.away - {seat},
    )
