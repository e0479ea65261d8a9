"""A web table's state read back: from its stored row, or from another process's commit."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from ... import record
from ...actions import parse_action
from ...match import Match
from ...rules import RULES
from ..stores.base import (
    DropActions,
    SaveAction,
    SaveMatch,
    SaveSeat,
    SaveTable,
    TableRow,
    Write,
)
from .intents import CHAT_PHRASES
from .state import HOST_SEAT, MOVE_SECONDS, TableSeat, TableState, Timing, rewound

__all__ = ["from_row", "replay"]


def _seats_of(row: TableRow) -> tuple[TableSeat, ...]:
    if not RULES.allows(row.players):
        raise ValueError(f"bad player count {row.players!r}")
    if [s.seat for s in row.seats] != list(range(row.players)):
        raise ValueError("the seats do not match the player count")
    return tuple(TableSeat.of(s) for s in row.seats)


def _matches_of(row: TableRow) -> tuple[Match, ...]:
    matches = []
    for expected, match_row in enumerate(row.matches):
        if match_row.number != expected:
            raise ValueError(f"match {expected} is missing")
        game = record.loads(match_row.record)
        if not isinstance(game, Match):
            raise record.RecordError("a stored record is not a match")
        if game.players != row.players:
            raise record.RecordError("a stored record has another player count")
        done = game.ply()
        for seq, text in match_row.actions:
            if seq < done:
                continue  # already in the record
            if seq != done:
                raise record.RecordError(f"match {expected}: action {done} is missing")
            game.apply(parse_action(text))
            done += 1
        matches.append(game)
    return tuple(matches)


def _chat_of(value: Any, players: int) -> tuple[tuple[int, str, float], ...]:
    """The stored phrases that are well formed (seat, phrase, time); the rest dropped."""
    kept = []
    for item in value if isinstance(value, list) else ():
        if isinstance(item, list) and len(item) == 3:
            seat, phrase, at = item
            timed = isinstance(at, int | float) and not isinstance(at, bool)
            if type(seat) is int and 0 <= seat < players and phrase in CHAT_PHRASES and timed:
                kept.append((seat, str(phrase), float(at)))
    return tuple(kept)


def _resignations_of(value: Any, seats: tuple[TableSeat, ...], matches: int) -> tuple[Any, ...]:
    """The stored resignations that are well formed (a match, a person's seat, a count)."""
    kept = []
    for item in value if isinstance(value, list) else ():
        if isinstance(item, list) and len(item) == 3 and all(type(v) is int for v in item):
            number, seat, seq = item
            if 0 <= number < matches and 0 <= seat < len(seats) and seq >= 0:
                kept.append((number, seat, seq))
    return tuple(kept)


def _number_list(value: Any, players: int, kind: type, default: Any) -> tuple[Any, ...]:
    if not isinstance(value, list) or len(value) != players:
        return (default,) * players
    return tuple(v if isinstance(v, kind) and not isinstance(v, bool) else default for v in value)


def _saved(
    text: str | None,
    seats: tuple[TableSeat, ...],
    matches: tuple[Match, ...],
    base_seed: int,
    address: str | None,
    now: float,
) -> dict[str, Any]:
    """The fields kept as the table's JSON; what is missing or malformed gets the value a
    table stored before its state was kept starts with."""
    try:
        saved = json.loads(text) if text else {}
    except ValueError:
        saved = {}
    if not isinstance(saved, dict):
        saved = {}
    players = len(seats)
    match = matches[-1] if matches else None
    seen_default = len(match.rounds) if match is not None else 0
    pause = saved.get("pause_until")
    clock, timed_out = saved.get("move_seconds"), saved.get("timed_out")
    turn_since = saved.get("turn_since")
    next_seed = saved.get("next_seed")
    if not isinstance(next_seed, int) or isinstance(next_seed, bool):
        next_seed = base_seed if not matches else None
    numbers = range(players)
    humans = {s.seat for s in seats if s.kind == "human"}
    addresses = _number_list(saved.get("addresses"), players, str, None)
    if address is not None and addresses[HOST_SEAT] is None:
        addresses = (address, *addresses[1:])
    return {
        "seen": _number_list(saved.get("seen"), players, int, seen_default),
        "pause_until": float(pause) if isinstance(pause, int | float) else None,
        "rematch_votes": frozenset(s for s in saved.get("rematch_votes", ()) if s in numbers),
        "next_seed": next_seed,
        "away": frozenset(s for s in saved.get("away", ()) if s in humans),
        "left_at": _number_list(saved.get("left_at"), players, float, None),
        "turn_since": float(turn_since) if isinstance(turn_since, int | float) else now,
        "addresses": addresses,
        "rated": saved.get("rated") is True,
        "move_seconds": clock if clock in MOVE_SECONDS else 0,
        "timed_out": timed_out if timed_out in humans else None,
        "clock_moves": _number_list(saved.get("clock_moves"), players, int, 0),
        "away_moves": _number_list(saved.get("away_moves"), players, int, 0),
        "chat": _chat_of(saved.get("chat"), players),
        "resignations": _resignations_of(saved.get("resignations"), seats, len(matches)),
        "takebacks": takebacks if type(takebacks := saved.get("takebacks")) is int else 0,
    }


def from_row(row: TableRow, timing: Timing, now: float) -> TableState:
    """The table as stored; raises (a ``ValueError`` or ``RecordError``) for a damaged row.

    A table stored before its state was kept starts afresh: nobody has seen a round's
    end, nobody is away, and the turn's clock starts now."""
    seats = _seats_of(row)
    matches = _matches_of(row)
    host = row.host
    if not (type(host) is int and 0 <= host < row.players and seats[host].kind == "human"):
        host = HOST_SEAT
    match = matches[-1] if matches else None
    return TableState(
        id=row.id,
        players=row.players,
        first_seed=row.base_seed,
        created=row.created,
        seats=seats,
        matches=matches,
        host=host,
        public=bool(row.public),
        hints=bool(row.hints),
        seq=match.ply() if match is not None else 0,
        version=row.version,
        timing=timing,
        **_saved(row.state, seats, matches, row.base_seed, row.address, now),
    )


def replay(state: TableState, writes: Sequence[Write], version: int) -> TableState:
    """The table after a commit that another process made: its writes, in order. A
    process that serves clients of a table it does not own follows the owner this way."""
    seats = list(state.seats)
    matches = list(state.matches)
    seq = state.seq
    changes: dict[str, Any] = {}
    for write in writes:
        if isinstance(write, SaveSeat):
            seats[write.seat.seat] = TableSeat.of(write.seat)
        elif isinstance(write, SaveMatch) and write.number == len(matches):
            game = record.loads(write.record)
            if not isinstance(game, Match):
                raise record.RecordError("a match's record is not a match")
            matches.append(game)
            seq = game.ply()
        elif isinstance(write, SaveAction):
            game = matches[write.number].clone()
            game.apply(parse_action(write.action))
            matches[write.number] = game
            seq = write.seq + 1
        elif isinstance(write, DropActions):
            matches[write.number] = rewound(matches[write.number], write.seq)
            seq = write.seq
        elif isinstance(write, SaveTable):
            changes.update(public=write.public, host=write.host, hints=write.hints)
            changes.update(
                _saved(write.state, tuple(seats), tuple(matches), state.first_seed, None, 0.0)
            )
    return dataclasses.replace(
        state,
        seats=tuple(seats),
        matches=tuple(matches),
        seq=seq,
        version=version,
        **changes,
    )
