"""The table as a pure state machine: ``step`` for intents, ``due`` for deadlines."""

from __future__ import annotations

import dataclasses
from typing import Any

from ... import bots, record
from ...actions import Action, IllegalActionError
from ...match import Match
from ...rules import RULES
from ..names import BadName, check_name
from ..stores.base import DropActions, SaveAction, SaveMatch, SaveSeat, Write
from . import intents as i
from . import leaving
from .effects import AskBot, AskHint, Effect, Publish, Store, Transition, WakeAt
from .errors import UserError
from .state import MOVE_SECONDS, TableSeat, TableState, Timing, bot_label

__all__ = [
    "EPSILON",
    "check_bots_fill",
    "check_seed",
    "display_name",
    "due",
    "new_table",
    "offered_bot",
    "step",
]

EPSILON = 1e-3
"""A timer may fire a hair early: a deadline this close counts as reached."""

_UNSEEN = ("present", "spectators", "left_at", "turn_since", "version", "next_seed")
"""Fields no state message shows: a change of only these publishes nothing."""


def display_name(name: object) -> str:
    """A person's name as it is stored and shown; refused with ``bad_name`` and the reason."""
    try:
        return check_name(name)
    except BadName as refusal:
        raise UserError("bad_name", reason=refusal.reason) from None


def offered_bot(level: object) -> str | None:
    """The offered bot a client asked for, by its name or by its level (``bots.LEVELS``)."""
    if not isinstance(level, str):
        return None
    bot = bots.LEVELS.get(level, level)
    return bot if bot in bots.OFFERED else None


def check_seed(seed: object) -> int:
    if type(seed) is int and 0 <= seed < 2**62:
        return seed
    raise UserError("bad_request")


def step(
    state: TableState, intent: i.Intent, seat: int | None, now: float, *, fresh: int
) -> Transition:
    """The table after ``intent`` from ``seat`` (``None``: a spectator or the server) at
    ``now``, with what the runtime must do. A refusal raises ``UserError`` and changes
    nothing. ``fresh`` is a new random seed, used only if a match is dealt (R21)."""
    announce = False
    played: str | None = None
    hint: AskHint | None = None
    match intent:
        case i.Act(action):
            new = _act(state, _seated(seat), action, now)
            played, announce = str(action), True
        case i.BotMove(number, seq, action, takebacks):
            if takebacks != state.takebacks:  # asked before a take-back: void
                return _finish(state, state, False, None, None)
            new = _bot_move(state, _seated(seat), number, seq, action, now)
            played, announce = (str(action), True) if new is not state else (None, False)
        case i.Start():
            _host_in_lobby(state, _seated(seat))
            if any(s.kind == "open" for s in state.seats):
                raise UserError("seats_open")
            new, announce = _deal(state, now, fresh), True
        case i.Continue():
            new = _continue(state, _seated(seat))
        case i.Rematch(seed):
            new = _rematch(state, _seated(seat), seed)
        case i.SetVisibility(public):
            _host_in_lobby(state, _seated(seat))
            new = dataclasses.replace(state, public=public)
        case i.AllowHints(allowed):
            _host_in_lobby(state, _seated(seat))
            new = dataclasses.replace(state, hints=allowed)
        case i.AskHint():
            hint = _ask_hint(state, _seated(seat))
            new = state
        case i.ConfigureSeat(target, level):
            new = _configure(state, _seated(seat), target, level)
        case i.Chat(phrase):
            new = _chat(state, _seated(seat), phrase, now)
        case i.Resign():
            new = leaving.resign(state, _seated(seat))
        case i.TakeBack():
            new = leaving.take_back(state, _seated(seat), now)
        case i.Rename(name):
            mine = state.seats[_seated(seat)]
            new = _with_seat(state, dataclasses.replace(mine, name=display_name(name)))
        case i.Join(name, wanted, token_hash, address):
            new = _join(state, name, wanted, token_hash, address)
        case i.Arrive():
            new = _arrive(state, seat)
        case i.Leave():
            new = _leave(state, seat, now)
        case i.Hello() | i.Ping():
            new = state  # a connection's own business: the runtime answers it
        case _:
            raise UserError("unknown_type")
    new, dealt = _settle(new, now, fresh)
    return _finish(state, new, announce or dealt, played, hint)


def due(state: TableState, now: float, *, fresh: int) -> Transition:
    """The table once its deadlines up to ``now`` have passed: the round's end is over,
    the medium bot plays for a person away on their turn, a gone host hands over."""
    new = state
    if new.pause_until is not None and now >= new.pause_until - EPSILON:
        new = dataclasses.replace(new, pause_until=None, turn_since=now)
    away = new.away_due()
    if away is not None and now >= away - EPSILON:
        assert new.match is not None  # gone too long on their turn: rated, it resigns (W5)
        gone = new.match.current_player
        if new.rated:
            new = leaving.resign(new, gone)
        else:
            new = dataclasses.replace(new, away=new.away | {gone})
    clock = new.clock_due()
    if clock is not None and now >= clock - EPSILON:
        assert new.match is not None  # time is up: the medium bot makes this move
        new = dataclasses.replace(new, timed_out=new.match.current_player)
    handover = new.host_due()
    if handover is not None and now >= handover - EPSILON:
        order = [(new.host + k) % new.players for k in range(1, new.players)]
        heirs = [s for s in order if s in new.present and new.seats[s].kind == "human"]
        if heirs:
            new = dataclasses.replace(new, host=heirs[0])
    new, dealt = _settle(new, now, fresh)
    return _finish(state, new, dealt, None, None)


# ---------------------------------------------------------------- the intents


def _seated(seat: int | None) -> int:
    if seat is None:
        raise UserError("not_seated")
    return seat


def _host_in_lobby(state: TableState, seat: int) -> None:
    if seat != state.host:
        raise UserError("host_only")
    if state.status != "lobby":
        raise UserError("already_started")


def _check_turn(state: TableState, seat: int) -> Match:
    match = state.match
    if match is None or not state.playing:
        raise UserError("not_playing")
    if match.current_player != seat:
        raise UserError("not_your_turn")
    if seat in state.resigned_in(len(state.matches) - 1):
        raise UserError("already_resigned")  # the bot plays the seat now (W1)
    if state.pause_until is not None:
        raise UserError("round_end", seconds=round(state.timing.round_pause))
    return match


def _act(state: TableState, seat: int, action: Action, now: float) -> TableState:
    match = _check_turn(state, seat)
    refusal = match.check(action)  # the engine's own words for the refusal
    if refusal is not None:
        raise UserError("illegal", reason=refusal)
    return _play(state, seat, match, action, now)


def _bot_move(
    state: TableState, seat: int, number: int, seq: int, action: Action, now: float
) -> TableState:
    """A bot's answer counts only for the position it was asked at; a late one is dropped."""
    if number != len(state.matches) - 1 or seq != state.seq or state.bot_to_move() != seat:
        return state
    match = state.match
    assert match is not None
    if action not in match.legal_actions():
        raise UserError("illegal", reason=IllegalActionError(f"{action}", "illegal"))
    if seat == state.timed_out:  # counted, so that the player is told
        state = dataclasses.replace(state, clock_moves=_counted(state.clock_moves, seat))
    elif seat in state.away:
        state = dataclasses.replace(state, away_moves=_counted(state.away_moves, seat))
    return _play(state, seat, match, action, now)


CHAT_KEPT, CHAT_GAP, CHAT_PER_MINUTE = 6, 3.0, 6
"""The phrases a table keeps; a seat says at most one every CHAT_GAP seconds and
CHAT_PER_MINUTE in a minute."""


def _chat(state: TableState, seat: int, phrase: str, now: float) -> TableState:
    mine = [at for s, _, at in state.chat if s == seat]
    if (mine and now - mine[-1] < CHAT_GAP) or sum(now - at < 60 for at in mine) >= CHAT_PER_MINUTE:
        raise UserError("chat_too_fast")
    return dataclasses.replace(state, chat=(*state.chat, (seat, phrase, now))[-CHAT_KEPT:])


def _counted(counts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(n + 1 if s == seat else n for s, n in enumerate(counts))


def _play(state: TableState, seat: int, match: Match, action: Action, now: float) -> TableState:
    """R8: the engine plays it on a copy; the state before it stays as it was."""
    finished = len(match.rounds)
    played = match.clone()
    played.apply(action)
    seen = list(state.seen)
    seen[seat] = max(seen[seat], finished)  # who moves has moved on
    pause_until = None
    if len(played.rounds) > finished and not played.is_over:
        if state.timing.round_pause <= 0:
            seen = [len(played.rounds)] * state.players
        elif any(seen[s] < len(played.rounds) for s in state.present):
            pause_until = now + state.timing.round_pause
    return dataclasses.replace(
        state,
        matches=(*state.matches[:-1], played),
        seq=state.seq + 1,
        seen=tuple(seen),
        pause_until=pause_until,
        turn_since=now,
        timed_out=None,
    )


def _deal(state: TableState, now: float, fresh: int) -> TableState:
    """A new match from its own seed (never derived from an earlier match's, R21)."""
    seed = fresh if state.next_seed is None else state.next_seed
    match = Match.new(state.players, seed=seed)
    return dataclasses.replace(
        state,
        matches=(*state.matches, match),
        seq=0,
        seen=(0,) * state.players,
        pause_until=None,
        rematch_votes=frozenset(),
        next_seed=fresh,
        turn_since=now,
        timed_out=None,
        clock_moves=(0,) * state.players,
        away_moves=(0,) * state.players,
    )


def _continue(state: TableState, seat: int) -> TableState:
    match = state.match
    if match is None or not state.playing or state.seen[seat] >= len(match.rounds):
        raise UserError("nothing_to_continue")
    seen = list(state.seen)
    seen[seat] = len(match.rounds)
    return dataclasses.replace(state, seen=tuple(seen))


def _rematch(state: TableState, seat: int, seed: object) -> TableState:
    if state.status != "over":
        raise UserError("not_over")
    changes: dict[str, Any] = {"rematch_votes": state.rematch_votes | {seat}}
    if seed is not None:
        changes["next_seed"] = check_seed(seed)
    return dataclasses.replace(state, **changes)


def _ask_hint(state: TableState, seat: int) -> AskHint:
    if not state.hints:
        raise UserError("hints_off")
    match = state.match
    if match is None or not state.playing:
        raise UserError("not_playing")
    if match.current_player != seat or state.plays_itself(seat):
        raise UserError("not_your_turn")
    if state.pause_until is not None:
        raise UserError("round_end", seconds=round(state.timing.round_pause))
    return AskHint(seat, len(state.matches) - 1, state.seq)


def _configure(state: TableState, seat: int, target: object, level: object) -> TableState:
    """Before the start, the host makes an open seat a bot, or a bot seat open again."""
    _host_in_lobby(state, seat)
    if type(target) is not int or not 0 <= target < state.players:
        raise UserError("bad_seat")
    chosen = state.seats[target]
    if target == state.host or chosen.kind == "human":
        raise UserError("seat_taken")
    if level is None:
        return _with_seat(state, TableSeat(target, "open"))
    bot = offered_bot(level)
    if bot is None:
        raise UserError("bad_level", level=str(level)[:20])
    return _with_seat(state, TableSeat(target, "bot", bot_label(target, bot), bot))


def _join(
    state: TableState, name: object, wanted: object, token_hash: str, address: str | None
) -> TableState:
    display = display_name(name)
    open_seats = [s for s in state.seats if s.kind == "open"]
    if wanted is not None:
        open_seats = [s for s in open_seats if s.seat == wanted]
    if not open_seats:
        raise UserError("no_open_seat")
    number = open_seats[0].seat
    addresses = list(state.addresses)
    addresses[number] = address
    taken = TableSeat(number, "human", display, None, token_hash)
    return dataclasses.replace(_with_seat(state, taken), addresses=tuple(addresses))


def _arrive(state: TableState, seat: int | None) -> TableState:
    if seat is None:
        return dataclasses.replace(state, spectators=state.spectators + 1)
    left_at = list(state.left_at)
    left_at[seat] = None
    return dataclasses.replace(
        state,
        present=state.present | {seat},
        left_at=tuple(left_at),
        away=state.away - {seat},  # back: the bot stops playing for them
    )


def _leave(state: TableState, seat: int | None, now: float) -> TableState:
    if seat is None:
        return dataclasses.replace(state, spectators=max(0, state.spectators - 1))
    left_at = list(state.left_at)
    left_at[seat] = now
    return dataclasses.replace(state, present=state.present - {seat}, left_at=tuple(left_at))


def _with_seat(state: TableState, seat: TableSeat) -> TableState:
    seats = list(state.seats)
    seats[seat.seat] = seat
    return dataclasses.replace(state, seats=tuple(seats))


# ---------------------------------------------------------------- after every change


def _settle(state: TableState, now: float, fresh: int) -> tuple[TableState, bool]:
    """What follows by itself: the round's end is over once nobody here waits for it, and
    a rematch starts once everyone here has agreed. True if a match was dealt."""
    if state.pause_until is not None and not state.waiting_at_round_end():
        state = dataclasses.replace(state, pause_until=None, turn_since=now)
    if (
        state.status == "over"
        and state.rematch_votes
        and set(state.rematch_needed()) <= state.rematch_votes
    ):
        return _deal(state, now, fresh), True
    return state, False


def _finish(
    old: TableState,
    new: TableState,
    announce: bool,
    played: str | None,
    hint: AskHint | None,
) -> Transition:
    """The effects follow from the change, so none can be forgotten: what differs is
    stored, then published once; then bots, hints and the next deadline."""
    effects: list[Effect] = []
    if new is not old:
        writes = _writes(old, new, played)
        table = new.table_write()
        if writes or old.table_write() != table:
            new = dataclasses.replace(new, version=old.version + 1)
            effects.append(Store((*writes, table)))
        if announce or _shown_differs(old, new):
            effects.append(Publish(announce))
    if hint is not None:
        effects.append(hint)
    seat = new.bot_to_move()
    if seat is not None:
        effects.append(AskBot(seat, new.level_of(seat), len(new.matches) - 1, new.seq))
    effects.append(WakeAt(new.deadline()))
    return Transition(new, tuple(effects))


def _shown_differs(old: TableState, new: TableState) -> bool:
    return any(
        getattr(old, f.name) != getattr(new, f.name)
        for f in dataclasses.fields(TableState)
        if f.name not in _UNSEEN
    )


def _writes(old: TableState, new: TableState, played: str | None) -> list[Write]:
    """The rows a change adds or alters, besides the table's own."""
    writes: list[Write] = [SaveSeat(b.row()) for a, b in zip(old.seats, new.seats) if a != b]
    number = len(new.matches) - 1
    if new.takebacks > old.takebacks and len(new.matches) == len(old.matches):
        writes.append(DropActions(number, new.seq))
    if played is not None:
        match = new.matches[number]
        writes.append(SaveAction(number, old.seq, played))
        if match.is_over:  # the finished record in one piece, for anyone reading it
            writes.append(SaveMatch(number, new.seed_of(number), record.dumps(match)))
    for dealt in range(len(old.matches), len(new.matches)):
        writes.append(SaveMatch(dealt, new.seed_of(dealt), record.dumps(new.matches[dealt])))
    return writes


def new_table(
    table_id: str,
    players: object,
    host_name: object,
    bot_levels: object,
    *,
    first_seed: int,
    token_hash: str,
    address: str | None,
    public: object,
    hints: object,
    now: float,
    timing: Timing,
    rated: object = False,
    move_seconds: object = 0,
) -> TableState:
    """A new table; its creator holds seat 0 and hosts. ``bot_levels`` maps seats
    (``"1"``...) to bot levels; the other seats are open for people invited by link."""
    if not RULES.allows(players):
        raise UserError("bad_players")
    assert isinstance(players, int)
    if public is None:
        public = False
    if not isinstance(public, bool):
        raise UserError("bad_visibility")
    if hints is None:
        hints = False
    if not isinstance(hints, bool):
        raise UserError("bad_hints")
    if rated is None:
        rated = False
    if not isinstance(rated, bool):
        raise UserError("bad_rated")
    if move_seconds is None:
        move_seconds = 0
    if type(move_seconds) is not int or move_seconds not in MOVE_SECONDS:
        raise UserError("bad_clock")
    name = display_name(host_name)
    if bot_levels is None:
        bot_levels = {}
    if not isinstance(bot_levels, dict):
        raise UserError("bad_request")
    if set(bot_levels) - {str(n) for n in range(1, players)}:
        raise UserError("bad_seat")
    seats = [TableSeat(0, "human", name, None, token_hash)]
    for number in range(1, players):
        level = bot_levels.get(str(number))
        if level is None:
            seats.append(TableSeat(number, "open"))
        elif (bot := offered_bot(level)) is not None:
            seats.append(TableSeat(number, "bot", bot_label(number, bot), bot))
        else:
            raise UserError("bad_level", level=str(level)[:20])
    return TableState(
        id=table_id,
        players=players,
        first_seed=first_seed,
        created=now,
        seats=tuple(seats),
        public=public,
        hints=hints,
        rated=rated,
        move_seconds=move_seconds,
        next_seed=first_seed,
        turn_since=now,
        addresses=(address,) + (None,) * (players - 1),
        timing=timing,
    )


def check_bots_fill(players: object, bot_levels: object) -> None:
    """A table that is to start at once needs a bot on every seat but the creator's."""
    bots_given = len(bot_levels) if isinstance(bot_levels, dict) else 0
    if type(players) is int and bots_given >= max(1, players - 1):
        return
    raise UserError("seats_open")
