"""The hub: tables in memory, the lobby commands and the action pipeline (validate, store, send)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from .. import bots, record
from ..actions import Action, IllegalActionError, parse_action
from ..i18n import LANGUAGES
from ..match import Match
from ..rules import RULES
from ..view import PlayerView
from . import advice, present
from .names import BadName, check_name
from .scheduler import BotScheduler
from .store import Store, TableRow, hash_token
from .tables import (
    Connection,
    Seat,
    Table,
    UserError,
    action_count,
    bot_label,
    fresh_seed,
)

__all__ = ["Hub", "display_name"]

log = logging.getLogger(__name__)

BACKGROUND: set[asyncio.Task[None]] = set()
"""Follow-up work started from plain callbacks (kept so that it is not collected)."""


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


class Hub:
    """All tables of one server: the only place where moves are validated, stored and sent.

    Tables live in memory while they are used and are loaded from the store on demand; a
    table nobody has used for ``idle_seconds`` leaves memory (everything it holds is stored).
    """

    def __init__(
        self,
        store: Store,
        *,
        scheduler: BotScheduler | None = None,
        bot_delay: float = 0.8,
        allow_seeds: bool = False,
        retry_delay: float = 1.0,
        max_retry_delay: float = 60.0,
        max_spectators: int = 200,
        max_bot_tables: int = 3,
        idle_seconds: float = 300.0,
        presence_delay: float = 0.1,
        round_pause: float = 30.0,
        away_seconds: float = 60.0,
        host_grace: float = 10.0,
        analysis_iterations: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.scheduler = scheduler or BotScheduler()
        self.bot_delay = bot_delay
        self.allow_seeds = allow_seeds
        """Testing only: clients may choose the seed of a table's first match (and rematches)."""
        self.retry_delay, self.max_retry_delay = retry_delay, max_retry_delay
        self.max_spectators = max_spectators
        self.max_bot_tables = max_bot_tables
        """Running tables per client address where every opponent is a bot."""
        self.idle_seconds = idle_seconds
        self.presence_delay = presence_delay
        self.round_pause = round_pause
        """How long a round's end is shown at most before the next round starts (0: not)."""
        self.away_seconds = away_seconds
        """How long a person may be away on their turn before the medium bot plays for them."""
        self.host_grace = host_grace
        """How long a host may be gone from the lobby before the next person hosts."""
        self.analysis_iterations = analysis_iterations
        """Iterations of a hint's or a reviewed decision's analysis (``None``: its default)."""
        self.reviews = advice.Reviews(store, self.scheduler, analysis_iterations)
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.unavailable: dict[str, str] = {}
        """Stored tables that could not be rebuilt, with the reason; their rows stay untouched."""
        self.actions = 0
        """Actions accepted since the start (for the metrics)."""

    # ------------------------------------------------------------ memory

    def get(self, table_id: str) -> Table:
        """The table, from memory or loaded from the store."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._load(table_id)
        table.touched = self.clock()
        return table

    def _load(self, table_id: str) -> Table:
        if table_id in self.unavailable:
            raise UserError("unavailable")
        row = self.store.load_table(table_id)
        if row is None:
            raise UserError("unknown_table")
        try:
            table = self._rebuild(row)
        except Exception as exc:  # a damaged row: whatever replaying it raised
            self.unavailable[row.id] = f"{type(exc).__name__}: {exc}"
            log.exception("table %s cannot be loaded; it is left as stored", row.id)
            raise UserError("unavailable") from None
        self._adopt(table)
        for seat in table.seats:  # nobody is connected yet
            if seat.kind == "human":
                table.left_at[seat.seat] = table.turn_since
        match = table.match
        if match is not None:  # a round's end is not shown again after a restart
            table.seen = [len(match.rounds)] * table.players
        self._schedule_bots(table)
        self._watch_away(table)
        return table

    def _adopt(self, table: Table) -> None:
        """A table enters memory: it follows this hub's settings."""
        table.pause_seconds, table.away_seconds = self.round_pause, self.away_seconds
        table.touched = table.turn_since = self.clock()
        self.tables[table.id] = table

    @staticmethod
    def _rebuild(row: TableRow) -> Table:
        if not RULES.allows(row.players):
            raise ValueError(f"bad player count {row.players!r}")
        if [s.seat for s in row.seats] != list(range(row.players)):
            raise ValueError("the seats do not match the player count")
        table = Table(
            id=row.id,
            players=row.players,
            first_seed=row.base_seed,
            created=row.created,
            seats=[Seat(s.seat, s.kind, s.name, s.level, s.token_hash) for s in row.seats],
            public=bool(row.public),
            hints=bool(row.hints),
        )
        host = row.host
        if type(host) is int and 0 <= host < row.players and table.seats[host].kind == "human":
            table.host = host
        for expected, match_row in enumerate(row.matches):
            if match_row.number != expected:
                raise ValueError(f"match {expected} is missing")
            game = record.loads(match_row.record)
            if not isinstance(game, Match):
                raise record.RecordError("a stored record is not a match")
            if game.players != row.players:
                raise record.RecordError("a stored record has another player count")
            done = action_count(game)
            for seq, text in match_row.actions:
                if seq < done:
                    continue  # already in the record
                if seq != done:
                    raise record.RecordError(f"match {expected}: action {done} is missing")
                game.apply(parse_action(text))
                done += 1
            table.matches.append(game)
        if table.match is not None:
            table.seq = action_count(table.match)
        return table

    def evict_idle(self) -> int:
        """Let tables nobody uses leave memory; they load again when next asked for."""
        cutoff = self.clock() - self.idle_seconds
        idle = [
            table
            for table in self.tables.values()
            if table.touched < cutoff
            and not table.connections
            and table.bot_task is None
            and not table.lock.locked()
        ]
        for table in idle:
            for timer in table.timers.values():
                timer.cancel()  # loading the table again sets them anew
            table.timers.clear()
            del self.tables[table.id]
        return len(idle)

    # ------------------------------------------------------------ tables and seats

    def _seed_from(self, seed: object) -> int:
        """A fresh seed, or (only on a server started to allow it, for tests) the client's."""
        if seed is None:
            return fresh_seed()
        if not self.allow_seeds:
            raise UserError("seeds_disabled")
        if type(seed) is int and 0 <= seed < 2**62:
            return seed
        raise UserError("bad_request")

    def create_table(
        self,
        players: object,
        host_name: object,
        bot_levels: object,
        seed: object = None,
        owner: str | None = None,
        public: object = False,
        hints: object = False,
    ) -> tuple[Table, str]:
        """A new table; the creator holds seat 0. ``bot_levels`` maps seats to bot levels;
        a ``public`` table is listed on the start page while it waits for players, and
        at a table with ``hints`` the seat to move may ask for one."""
        if not RULES.allows(players):
            raise UserError("bad_players")
        if public is None:
            public = False
        if not isinstance(public, bool):
            raise UserError("bad_visibility")
        if hints is None:
            hints = False
        if not isinstance(hints, bool):
            raise UserError("bad_hints")
        name = display_name(host_name)
        if bot_levels is None:
            bot_levels = {}
        if not isinstance(bot_levels, dict):
            raise UserError("bad_request")
        extra = set(bot_levels) - {str(n) for n in range(1, players)}
        if extra:
            raise UserError("bad_seat")
        seats = [Seat(0, "human", name)]
        for number in range(1, players):
            level = bot_levels.get(str(number))
            if level is None:
                seats.append(Seat(number, "open"))
            elif (bot := offered_bot(level)) is not None:
                seats.append(Seat(number, "bot", bot_label(number, bot), bot))
            else:
                raise UserError("bad_level", level=str(level)[:20])
        first_seed = self._seed_from(seed)
        token = secrets.token_urlsafe(18)
        seats[0].token_hash = hash_token(token)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or self.store.has_table(table_id):
            table_id = secrets.token_urlsafe(6)
        table = Table(table_id, players, first_seed, time.time(), seats, owner=owner)
        table.public, table.hints = public, hints
        self.store.create_table(
            table.id, players, first_seed, table.created, [s.row() for s in seats], public, hints
        )
        self._adopt(table)
        return table, token

    def check_bots_fill(self, players: object, bot_levels: object) -> None:
        """A table that is to start at once needs a bot on every seat but the creator's."""
        bots_given = len(bot_levels) if isinstance(bot_levels, dict) else 0
        if type(players) is int and bots_given >= max(1, players - 1):
            return
        raise UserError("seats_open")

    def public_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public tables waiting for players while someone is there, newest first."""
        now = time.time()
        waiting = [
            table
            for table in self.tables.values()
            if table.public
            and table.status == "lobby"
            and table.present_people()
            and any(s.kind == "open" for s in table.seats)
        ]
        waiting.sort(key=lambda table: table.created, reverse=True)
        return [
            {
                "id": table.id,
                "players": table.players,
                "free": sum(1 for s in table.seats if s.kind == "open"),
                "host": table.seats[table.host].name,
                "names": [s.name for s in table.seats if s.kind != "open"],
                "age": max(0, round(now - table.created)),
            }
            for table in waiting[:limit]
        ]

    async def join(
        self, table_id: str, name: object, seat_number: object = None
    ) -> tuple[int, str]:
        """Take an open seat (the first, or the one asked for) under a display name."""
        table = self.get(table_id)
        display = display_name(name)
        async with table.lock:
            open_seats = [s for s in table.seats if s.kind == "open"]
            if seat_number is not None:
                open_seats = [s for s in open_seats if s.seat == seat_number]
            if not open_seats:
                raise UserError("no_open_seat")
            seat = open_seats[0]
            token = secrets.token_urlsafe(18)
            taken = dataclasses.replace(
                seat, kind="human", name=display, token_hash=hash_token(token)
            )
            self._save_seat(table, taken)
        self.publish(table)
        return seat.seat, token

    def _save_seat(self, table: Table, seat: Seat) -> None:
        """Store a changed seat, then make it current: a failed write changes nothing."""
        self.store.save_seat(table.id, seat.row())
        table.seats[seat.seat] = seat
        table.changed()

    # ------------------------------------------------------------ connections

    def connect(self, table: Table, conn: Connection) -> None:
        """A new connection gets the state; the others only hear, soon, who is here now."""
        if conn.seat is None and table.spectators() >= self.max_spectators:
            raise UserError("too_many_spectators", limit=self.max_spectators)
        table.connections.add(conn)
        table.touched = self.clock()
        if conn.seat is not None:
            table.left_at.pop(conn.seat, None)
            if conn.seat in table.away:  # back: the bot stops playing for them
                table.away.discard(conn.seat)
                table.changed()
                self.publish(table)
        conn.deliver(self._state_text(table, conn, announce=False), "state")
        conn.deliver(present.presence_text(table), "presence")
        self._presence_soon(table)
        self._watch_host(table)

    def disconnect(self, table: Table, conn: Connection) -> None:
        if conn not in table.connections:
            return
        table.connections.discard(conn)
        table.touched = self.clock()
        self._presence_soon(table)
        seat = conn.seat
        if seat is None or seat in table.present_people():
            return
        table.left_at[seat] = self.clock()
        self._watch_away(table)
        self._watch_host(table)
        self._check_pause(table)  # one who left no longer holds up the next round
        if table.status == "over" and table.rematch_votes:
            self._spawn(self._rematch_if_agreed(table))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        BACKGROUND.add(task)
        task.add_done_callback(BACKGROUND.discard)

    def _timer(self, table: Table, name: str, delay: float, check: Callable[[], None]) -> None:
        """Run ``check`` in ``delay`` seconds, replacing an earlier timer of that name."""
        old = table.timers.pop(name, None)
        if old is not None:
            old.cancel()

        def fire() -> None:
            table.timers.pop(name, None)
            check()

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a table read outside the server (a tool): nothing to time
            return
        table.timers[name] = loop.call_later(max(0.0, delay), fire)

    def _state_text(self, table: Table, conn: Connection, *, announce: bool) -> str:
        return present.encoded_state(table, conn, announce=announce, now=self.clock())

    def _presence_soon(self, table: Table) -> None:
        """Coalesce comings and goings: one small message for a burst of them."""
        if table.presence_due:
            return
        table.presence_due = True
        asyncio.get_running_loop().call_later(self.presence_delay, self._send_presence, table)

    def _send_presence(self, table: Table) -> None:
        table.presence_due = False
        text = present.presence_text(table)
        for conn in list(table.connections):
            conn.deliver(text, "presence")

    # ------------------------------------------------------------ intents

    async def handle(self, table: Table, conn: Connection, message: dict[str, Any]) -> None:
        """One client intent; UserError if it is refused (and then nothing has changed)."""
        kind = message.get("type")
        table.touched = self.clock()
        if kind == "hello":
            lang = message.get("lang")
            if lang in LANGUAGES:
                conn.lang = lang
            if "width" in message:
                conn.width = present.snap_width(message.get("width"))
            if "height" in message:
                conn.height = present.snap_height(message.get("height"))
            conn.deliver(self._state_text(table, conn, announce=False), "state")
            return
        if kind == "ping":
            conn.deliver(present.encode({"type": "pong"}))
            return
        if kind == "action":
            await self.act(table, conn.seat, message.get("action"))
            return
        if conn.seat is None:
            raise UserError("not_seated")
        if kind == "start":
            await self.start(table, conn.seat)
        elif kind == "continue":
            await self.continue_after_round(table, conn.seat)
        elif kind == "rematch":
            await self.rematch(table, conn.seat, message.get("seed"))
        elif kind == "visibility":
            await self.set_visibility(table, conn.seat, message.get("public"))
        elif kind == "hints":
            await self.set_hints(table, conn.seat, message.get("allowed"))
        elif kind == "hint":
            self.hint(table, conn, conn.seat)
        elif kind == "seat":
            await self.configure_seat(table, conn.seat, message)
        elif kind == "rename":
            await self.rename(table, conn.seat, message.get("name"))
        else:
            raise UserError("unknown_type")

    async def act(self, table: Table, seat: int | None, text: object) -> None:
        if seat is None:
            raise UserError("not_seated")
        if not isinstance(text, str) or len(text) > 16:
            raise UserError("bad_action")
        try:
            action = parse_action(text)
        except ValueError:
            raise UserError("bad_action") from None
        async with table.lock:
            self._apply(table, seat, action)
        self._moved_on(table)

    def _moved_on(self, table: Table) -> None:
        """After a move or a deal: everyone sees it, then bots or the away-watch go on."""
        self.publish(table, announce=True)
        self._schedule_bots(table)
        self._watch_away(table)

    def _apply(self, table: Table, seat: int, action: Action) -> None:
        """Check, store, then play (R8: a refusal changes nothing, and nothing is announced
        before it is on disk). Only the action is written, not the whole record."""
        match = table.match
        if match is None or match.is_over:
            raise UserError("not_playing")
        if match.current_player != seat:
            raise UserError("not_your_turn")
        if table.pause_until is not None:
            raise UserError("round_end", seconds=round(table.pause_seconds))
        if action not in match.legal_actions():
            try:
                match.clone().apply(action)  # the engine's own words for the refusal
            except IllegalActionError as exc:
                raise UserError("illegal", reason=exc) from None
            raise AssertionError(f"{action} was refused and then accepted")
        self.store.append_action(table.id, len(table.matches) - 1, table.seq, str(action))
        finished = len(match.rounds)
        table.seen[seat] = max(table.seen[seat], finished)  # who moves has moved on
        match.apply(action)
        table.seq += 1
        table.turn_since = self.clock()
        table.changed()
        self.actions += 1
        if len(match.rounds) > finished and not match.is_over:
            self._round_ended(table)
        if match.is_over:  # the finished record in one piece, for anyone reading the file
            number = len(table.matches) - 1
            try:
                self.store.save_match(table.id, number, table.seed_of(number), record.dumps(match))
            except sqlite3.Error:  # the stored actions already rebuild it: the move stands
                log.exception("table %s: the finished record could not be written", table.id)

    def _round_ended(self, table: Table) -> None:
        """Show the round's end: nobody moves until every person here has continued, or
        ``round_pause`` seconds have passed."""
        if self.round_pause <= 0:
            assert table.match is not None
            table.seen = [len(table.match.rounds)] * table.players
            return
        if not table.waiting_at_round_end():
            return
        table.pause_until = self.clock() + self.round_pause
        self._timer(table, "pause", self.round_pause, lambda: self._check_pause(table))

    def _check_pause(self, table: Table) -> None:
        """End the round's-end pause once nobody waits for it or its time is up."""
        if table.pause_until is None:
            return
        left = table.pause_until - self.clock()
        if table.waiting_at_round_end() and left > 1e-3:
            if "pause" not in table.timers:  # a timer may fire a hair early: wait the rest
                self._timer(table, "pause", left, lambda: self._check_pause(table))
            return
        table.pause_until = None
        timer = table.timers.pop("pause", None)
        if timer is not None:
            timer.cancel()
        table.turn_since = self.clock()
        table.changed()
        self.publish(table)
        self._schedule_bots(table)
        self._watch_away(table)

    async def continue_after_round(self, table: Table, seat: int) -> None:
        """This person has seen the round's end."""
        async with table.lock:
            match = table.match
            if match is None or match.is_over or table.seen[seat] >= len(match.rounds):
                raise UserError("nothing_to_continue")
            table.seen[seat] = len(match.rounds)
            table.changed()
        if table.pause_until is not None and not table.waiting_at_round_end():
            self._check_pause(table)
        else:
            self.publish(table)

    async def set_visibility(self, table: Table, seat: int, public: object) -> None:
        """The host lists the table on the start page, or takes it off."""
        if not isinstance(public, bool):
            raise UserError("bad_visibility")
        async with table.lock:
            if seat != table.host:
                raise UserError("host_only")
            if table.status != "lobby":
                raise UserError("already_started")
            self.store.save_table(table.id, public=public, host=table.host)
            table.public = public
            table.changed()
        self.publish(table)

    async def set_hints(self, table: Table, seat: int, allowed: object) -> None:
        """The host allows hints at the table, or not; everyone sees which."""
        if not isinstance(allowed, bool):
            raise UserError("bad_hints")
        async with table.lock:
            if seat != table.host:
                raise UserError("host_only")
            if table.status != "lobby":
                raise UserError("already_started")
            self.store.save_hints(table.id, allowed)
            table.hints = allowed
            table.changed()
        self.publish(table)

    # ------------------------------------------------------------ hints

    def hint(self, table: Table, conn: Connection, seat: int) -> None:
        """The seat to move asks what the analysis would play. The answer, worked out in
        the bot pool from this seat's own view (R21), goes to this connection alone."""
        if not table.hints:
            raise UserError("hints_off")
        match = table.match
        if match is None or match.is_over:
            raise UserError("not_playing")
        if match.current_player != seat or table.plays_itself(seat):
            raise UserError("not_your_turn")
        if table.pause_until is not None:
            raise UserError("round_end", seconds=round(table.pause_seconds))
        number, seq = len(table.matches) - 1, table.seq
        view = match.view(seat)
        known = table.hinted.get(seat)
        if known is not None and known[:2] == (number, seq):  # asked again: the same answer
            text = present.encode(advice.hint_message(known[2], view.line, conn.lang, seq))
            asyncio.get_running_loop().call_soon(conn.deliver, text)  # after the "ok"
            return
        if seat in table.hinting:
            raise UserError("hint_busy")
        table.hinting.add(seat)
        self._spawn(self._work_out_hint(table, conn, seat, number, seq, view))

    async def _work_out_hint(
        self, table: Table, conn: Connection, seat: int, number: int, seq: int, view: PlayerView
    ) -> None:
        try:
            seed = bots.decision_seed(table.seed_of(number), seq, seat)
            entries = await self.scheduler.run(
                table.id, advice.hint_entries, view, self.analysis_iterations, seed
            )
        except Exception:  # the analysis failed: say so to the one who asked
            log.exception("table %s: a hint could not be worked out", table.id)
            error = UserError("hint_failed")
            conn.deliver(
                present.encode(
                    {"type": "error", "code": error.code, "message": error.message(conn.lang)}
                )
            )
            return
        finally:
            table.hinting.discard(seat)
        table.hinted[seat] = (number, seq, entries)
        if len(table.matches) - 1 == number and table.seq == seq and conn in table.connections:
            conn.deliver(present.encode(advice.hint_message(entries, view.line, conn.lang, seq)))

    # ------------------------------------------------------------ people who are gone

    def _watch_away(self, table: Table) -> None:
        """If the person to move is gone, the medium bot plays for them after a while."""
        match = table.match
        if match is None or match.is_over or table.pause_until is not None:
            return
        seat = match.current_player
        if table.seats[seat].kind != "human" or table.plays_itself(seat):
            return
        if seat in table.present_people():
            return
        left = table.left_at.get(seat, table.turn_since)  # or never came after joining
        due = max(left, table.turn_since) + self.away_seconds
        self._timer(table, "away", due - self.clock(), lambda: self._check_away(table))

    def _check_away(self, table: Table) -> None:
        match = table.match
        if match is None or match.is_over or table.pause_until is not None:
            return
        seat = match.current_player
        if table.plays_itself(seat) or table.seats[seat].kind != "human":
            return
        if seat in table.present_people():
            return
        left = table.left_at.get(seat, table.turn_since)
        if self.clock() < max(left, table.turn_since) + self.away_seconds - 1e-3:
            self._watch_away(table)
            return
        table.away.add(seat)
        table.changed()
        self.publish(table)
        self._schedule_bots(table)

    def _watch_host(self, table: Table) -> None:
        """A host gone from the lobby hands it, after a grace, to the next person here."""
        if table.status != "lobby" or table.host in table.present_people():
            return
        if not table.present_people():
            return
        left = table.left_at.get(table.host, table.turn_since)
        due = left + self.host_grace - self.clock()
        self._timer(table, "host", due, lambda: self._hand_over(table))

    def _hand_over(self, table: Table) -> None:
        present_people = table.present_people()
        if table.status != "lobby" or table.host in present_people:
            return
        left = table.left_at.get(table.host, table.turn_since)
        if self.clock() < left + self.host_grace - 1e-3:
            self._watch_host(table)
            return
        order = [(table.host + k) % table.players for k in range(1, table.players)]
        heirs = [s for s in order if s in present_people and table.seats[s].kind == "human"]
        if not heirs:
            return
        self.store.save_table(table.id, public=table.public, host=heirs[0])
        table.host = heirs[0]
        table.changed()
        self.publish(table)

    async def start(self, table: Table, seat: int) -> None:
        async with table.lock:
            if seat != table.host:
                raise UserError("host_only")
            if table.status != "lobby":
                raise UserError("already_started")
            if any(s.kind == "open" for s in table.seats):
                raise UserError("seats_open")
            self._check_bot_tables(table)
            self._new_match(table, table.first_seed)
        self._moved_on(table)

    async def rematch(self, table: Table, seat: int, seed: object = None) -> None:
        """Ask for, or accept, a rematch; it starts once every person here has said yes."""
        async with table.lock:
            if table.status != "over":
                raise UserError("not_over")
            chosen = self._seed_from(seed) if seed is not None else None
            table.rematch_votes.add(seat)  # asking twice changes nothing
            if chosen is not None:
                table.rematch_seed = chosen
            table.changed()
        await self._rematch_if_agreed(table)

    async def _rematch_if_agreed(self, table: Table) -> None:
        async with table.lock:
            agreed = table.status == "over" and set(table.rematch_needed()) <= (table.rematch_votes)
            if agreed:
                seed = table.rematch_seed
                self._check_bot_tables(table)
                self._new_match(table, seed if isinstance(seed, int) else fresh_seed())
        if agreed:
            self._moved_on(table)
        else:
            self.publish(table)

    def _check_bot_tables(self, table: Table) -> None:
        """One client may keep only a few matches against bots alone running at once."""
        if table.owner is None or not table.bots_only_opponents():
            return
        running = sum(
            1
            for other in self.tables.values()
            if other is not table
            and other.owner == table.owner
            and other.status == "playing"
            and other.bots_only_opponents()
        )
        if running >= self.max_bot_tables:
            raise UserError("too_many_bot_tables", limit=self.max_bot_tables)

    def _new_match(self, table: Table, seed: int) -> None:
        """Deal a new match from its own seed (never derived from an earlier match's, R21)."""
        number = len(table.matches)
        match = Match.new(table.players, seed=seed)
        self.store.save_match(table.id, number, seed, record.dumps(match))
        table.matches.append(match)
        table.seq = 0
        table.seen = [0] * table.players
        table.pause_until = None
        table.rematch_votes.clear()
        table.rematch_seed = None
        table.turn_since = self.clock()
        table.changed()

    async def configure_seat(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """Before the start, the host makes an open seat a bot, or a bot seat open again."""
        target = message.get("seat")
        level = message.get("level")
        async with table.lock:
            if seat != table.host:
                raise UserError("host_only")
            if table.status != "lobby":
                raise UserError("already_started")
            if type(target) is not int or not 0 <= target < table.players:
                raise UserError("bad_seat")
            if target == table.host:
                raise UserError("seat_taken")
            chosen = table.seats[target]
            if chosen.kind == "human":
                raise UserError("seat_taken")
            if level is None:
                changed = dataclasses.replace(chosen, kind="open", name="", level=None)
            elif (bot := offered_bot(level)) is not None:
                name = bot_label(target, bot)
                changed = dataclasses.replace(chosen, kind="bot", name=name, level=bot)
            else:
                raise UserError("bad_level", level=str(level)[:20])
            self._save_seat(table, changed)
        self.publish(table)

    async def rename(self, table: Table, seat: int, name: object) -> None:
        display = display_name(name)
        async with table.lock:
            self._save_seat(table, dataclasses.replace(table.seats[seat], name=display))
        self.publish(table)

    # ------------------------------------------------------------ bots

    def _schedule_bots(self, table: Table) -> None:
        match = table.match
        if match is None or match.is_over or table.bot_task is not None:
            return
        if table.pause_until is not None or not table.plays_itself(match.current_player):
            return
        task = asyncio.get_running_loop().create_task(self._run_bots(table))
        table.bot_task = task

    async def _run_bots(self, table: Table) -> None:
        """Play bot turns until a person is to move; search bots think in worker processes.

        A failing turn (a bot error, a refused database write) is logged, reported to the
        table's clients and tried again after a growing pause: the table never freezes.
        """
        failures = 0
        try:
            while True:
                try:
                    if not await self._bot_turn(table):
                        return
                    failures = 0
                except Exception:  # anything a bot or the database raised: retry below
                    failures += 1
                    log.exception("table %s: bot turn failed (attempt %d)", table.id, failures)
                    self._report_error(table, "bot_failed")
                    await asyncio.sleep(
                        min(self.max_retry_delay, self.retry_delay * 2 ** (failures - 1))
                    )
        finally:
            table.bot_task = None

    async def _bot_turn(self, table: Table) -> bool:
        """One bot move if a bot is to move; False when it is nobody's or a person's turn."""
        match = table.match
        if match is None or match.is_over:
            return False
        seat = match.current_player
        if table.pause_until is not None or not table.plays_itself(seat):
            return False
        round_start = bool(match.rounds) and not match.current_round.history
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay * (2 if round_start else 1))
        if table.pause_until is not None or not table.plays_itself(seat):
            return True  # the person came back while the bot waited: look again
        seq = table.seq
        view = match.view(seat)
        seed = bots.decision_seed(table.seed_of(len(table.matches) - 1), seq, seat)
        action = await self.scheduler.decide(table.id, table.level_of(seat), seed, view)
        async with table.lock:
            if table.match is not match or table.seq != seq or not table.plays_itself(seat):
                return True
            self._apply(table, seat, action)
        table.touched = self.clock()
        self.publish(table, announce=True)
        self._watch_away(table)
        return True

    def _report_error(self, table: Table, code: str) -> None:
        """Tell everyone at the table that something went wrong on the server."""
        error = UserError(code)
        for conn in list(table.connections):
            message = {"type": "error", "code": code, "message": error.message(conn.lang)}
            conn.deliver(present.encode(message))

    # ------------------------------------------------------------ what clients see

    def publish(self, table: Table, *, announce: bool = False) -> None:
        """Queue every connection its own state (each seat only its view, R21). Nothing here
        waits: each connection's outbox sends at the pace its client reads."""
        for conn in list(table.connections):
            conn.deliver(self._state_text(table, conn, announce=announce), "state")

    # ------------------------------------------------------------ finished matches

    def finished_match(self, table_id: str, number: int) -> tuple[Table, Match]:
        """A match that is over (records of running matches would show hidden tiles)."""
        table = self.get(table_id)
        if not 0 <= number < len(table.matches):
            raise UserError("unknown_match")
        match = table.matches[number]
        if not match.is_over:
            raise UserError("match_running")
        return table, match

    def start_review(self, table_id: str, number: int) -> bool:
        """Start reviewing a finished match (every seat) unless it is stored or under way;
        True if this call started it."""
        table, match = self.finished_match(table_id, number)
        return self.reviews.start(table.id, number, match)

    def review_status(self, table_id: str, number: int, lang: str) -> dict[str, Any]:
        """A finished match's review: ``none`` (not asked for), ``running`` with how many
        decisions are done, ``failed``, or ``done`` with the review in ``lang``."""
        table, match = self.finished_match(table_id, number)
        stored = self.reviews.stored(table.id, number)
        if stored is not None:
            names = list(present.seat_names(table, lang))
            kinds = [s.kind for s in table.seats]
            answer = advice.review_answer(match, stored, names, kinds, lang)
            return {"status": "done", "review": answer}
        progress = self.reviews.progress(table.id, number)
        if progress is not None:
            return {"status": "running", "done": progress[0], "total": progress[1]}
        if (table.id, number) in self.reviews.failed:
            return {"status": "failed"}
        return {"status": "none"}

    def replay_step(
        self,
        table_id: str,
        number: int,
        step: int,
        lang: str,
        width: int,
        height: int | None = None,
        deal: bool = False,
    ) -> dict[str, Any]:
        table, match = self.finished_match(table_id, number)
        names = list(present.seat_names(table, lang))
        return present.replay_step(match, names, step, lang, width, height, deal)
