"""The runtime around the table state machine: it stores, publishes, times and asks bots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from ... import bots
from ...i18n import LANGUAGES
from ...match import Match
from .. import advice, present
from ..scheduler import BotScheduler
from ..settings import Settings
from ..stores.base import SaveAction, StaleWrite, Store, StoreUnavailable, hash_token
from ..table import (
    AskBot,
    AskHint,
    Publish,
    TableState,
    Timing,
    Transition,
    UserError,
    WakeAt,
    check_bots_fill,
    check_seed,
    due,
    new_table,
    step,
)
from ..table import intents as i
from ..table.state import from_row
from .live import Connection, LiveTable

__all__ = ["TableRuntime", "fresh_seed"]

log = logging.getLogger(__name__)

BACKGROUND: set[asyncio.Task[Any]] = set()
"""Follow-up work started from plain callbacks (kept so that it is not collected)."""


def fresh_seed() -> int:
    """An independent, unpredictable seed for one match: no record gives away another's."""
    return secrets.randbits(63)


def spawn(work: Coroutine[Any, Any, Any]) -> None:
    task = asyncio.get_running_loop().create_task(work)
    BACKGROUND.add(task)
    task.add_done_callback(BACKGROUND.discard)


class TableRuntime:
    """The tables this process serves. Every change goes through ``step``/``due``; the
    runtime stores the result first (a compare-and-set on the table's version), takes
    the new state only then, publishes it once, and starts bots and the next timer."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        scheduler: BotScheduler | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.settings = settings
        self.scheduler = scheduler or BotScheduler(settings.bot_workers)
        self.reviews = advice.Reviews(store, self.scheduler, settings.analysis_iterations)
        self.timing = Timing(settings.round_pause, settings.away_seconds, settings.host_grace)
        self.clock = clock
        self.process = settings.process or secrets.token_hex(6)
        """This process's name in leases (and on the bus)."""
        self.tables: dict[str, LiveTable] = {}
        self.unavailable: dict[str, str] = {}
        """Stored tables that could not be rebuilt, with the reason; their rows stay untouched."""
        self.actions = 0
        """Actions accepted since the start (for the metrics)."""
        self.stale_writes = 0
        """Commits refused because another process had moved the table on."""
        self.allow_seeds = settings.allow_seeds

    # ------------------------------------------------------------ memory

    def get(self, table_id: str) -> LiveTable:
        """The table, from memory or loaded from the store (and leased to this process)."""
        live = self.tables.get(table_id)
        if live is None:
            live = self._load(table_id)
        live.touched = time.monotonic()
        return live

    def _load(self, table_id: str) -> LiveTable:
        if table_id in self.unavailable:
            raise UserError("unavailable")
        try:
            row = self.store.load_table(table_id)
        except StoreUnavailable:
            raise UserError("unavailable") from None
        if row is None:
            raise UserError("unknown_table")
        try:
            state = from_row(row, self.timing, self.clock())
        except Exception as exc:  # a damaged row: whatever replaying it raised
            self.unavailable[row.id] = f"{type(exc).__name__}: {exc}"
            log.exception("table %s cannot be loaded; it is left as stored", row.id)
            raise UserError("unavailable") from None
        self._lease(table_id)
        live = LiveTable(state, touched=time.monotonic())
        self.tables[table_id] = live
        self._resume(live)
        return live

    def _lease(self, table_id: str) -> None:
        """Hold the table. A process without a bus is alone on its database: a lease it
        finds is a dead process's (this one before a restart), and it takes the table."""
        store, seconds = self.store, self.settings.lease_seconds
        try:
            taken = store.take_lease(table_id, self.process, seconds)
            if not taken and not self.settings.bus:
                holder = store.lease_owner(table_id)
                if holder is not None:
                    store.drop_lease(table_id, holder)
                taken = store.take_lease(table_id, self.process, seconds)
        except StoreUnavailable:
            raise UserError("unavailable") from None
        if not taken:
            raise UserError("unavailable")

    def _resume(self, live: LiveTable) -> None:
        """A table entering memory picks up its bots and its next deadline."""
        with contextlib.suppress(RuntimeError):  # outside a running loop: nothing to time
            asyncio.get_running_loop()
            self._schedule_bots(live)
            self._wake(live, live.state.deadline())

    def evict_idle(self) -> int:
        """Let tables nobody uses leave memory; they load again when next asked for."""
        cutoff = time.monotonic() - self.settings.idle_seconds
        idle = [
            live
            for live in self.tables.values()
            if live.touched < cutoff
            and not live.connections
            and live.bot_task is None
            and not live.lock.locked()
        ]
        for live in idle:
            self._drop(live)
        return len(idle)

    def _drop(self, live: LiveTable) -> None:
        """The table leaves this process: timers and bots stop, the lease is let go."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer, live.wake_at = None, None
        if live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        if self.tables.get(live.id) is live:
            del self.tables[live.id]
        with contextlib.suppress(StoreUnavailable):
            self.store.drop_lease(live.id, self.process)

    def renew_leases(self) -> None:
        """Keep this process's tables; one whose lease was lost is dropped at once."""
        held = self.store.renew_leases(self.process, self.settings.lease_seconds)
        for live in [t for t in self.tables.values() if t.id not in held]:
            log.warning("table %s: its lease was lost; another process serves it", live.id)
            self._lost(live)

    def _lost(self, live: LiveTable) -> None:
        """Another process serves the table now: our clients reconnect (to any process)."""
        self._drop(live)
        for conn in list(live.connections):
            conn.close()

    # ------------------------------------------------------------ tables and seats

    def _seed_from(self, seed: object) -> int:
        """A fresh seed, or (only on a server started to allow it, for tests) the client's."""
        if seed is None:
            return fresh_seed()
        if not self.allow_seeds:
            raise UserError("seeds_disabled")
        return check_seed(seed)

    def create_table(
        self,
        players: object,
        host_name: object,
        bot_levels: object,
        seed: object = None,
        address: str | None = None,
        public: object = False,
        hints: object = False,
        *,
        start: bool = False,
    ) -> tuple[LiveTable, str]:
        """A new table, stored and leased to this process; the creator holds seat 0.
        One to ``start`` at once is refused before anything is stored if its bots do not
        fill it or its creator has all the matches against bots they may run."""
        if start:
            check_bots_fill(players, bot_levels)
            if address is not None:
                self._check_room(address)
        token = secrets.token_urlsafe(18)
        first_seed = self._seed_from(seed)
        while True:
            state = new_table(
                secrets.token_urlsafe(6),
                players,
                host_name,
                bot_levels,
                first_seed=first_seed,
                token_hash=hash_token(token),
                address=address,
                public=public,
                hints=hints,
                now=self.clock(),
                timing=self.timing,
            )
            try:
                self.store.create_table(state.row())
                break
            except StaleWrite:  # the id exists: draw another
                continue
            except StoreUnavailable:
                raise UserError("unavailable") from None
        self._lease(state.id)
        live = LiveTable(state, touched=time.monotonic())
        self.tables[state.id] = live
        return live, token

    async def join(
        self, table_id: str, name: object, seat: object = None, address: str | None = None
    ) -> tuple[int, str]:
        """Take an open seat (the first, or the one asked for) under a display name."""
        live = self.get(table_id)
        token = secrets.token_urlsafe(18)
        digest = hash_token(token)
        await self.apply(live, i.Join(name, seat, digest, address), None)
        taken = next(s.seat for s in live.state.seats if s.token_hash == digest)
        return taken, token

    async def start(self, live: LiveTable, seat: int) -> None:
        """The host deals the first match."""
        await self.apply(live, i.Start(), seat)

    def public_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public tables waiting for players while someone is there, newest first; read
        from the database, so every process lists the same."""
        now = time.time()
        try:
            rows = self.store.lobby(limit)
        except StoreUnavailable:
            raise UserError("unavailable") from None
        return [
            {
                "id": row.id,
                "players": row.players,
                "free": sum(1 for s in row.seats if s.kind == "open"),
                "host": row.seats[row.host].name,
                "names": [s.name for s in row.seats if s.kind != "open"],
                "age": max(0, round(now - row.created)),
            }
            for row in rows
        ]

    # ------------------------------------------------------------ the one way to change a table

    async def apply(
        self,
        live: LiveTable,
        intent: i.Intent,
        seat: int | None,
        conn: Connection | None = None,
    ) -> None:
        """Step the table; ``UserError`` if the intent is refused (nothing changed then)."""
        async with live.lock:
            transition = step(live.state, intent, seat, self.clock(), fresh=fresh_seed())
            self._check_bot_tables(live.state, transition.state)
            self._commit(live, transition)
        self._follow(live, transition, conn)

    async def _due(self, live: LiveTable) -> None:
        """A deadline passed: step the table by the clock."""
        try:
            async with live.lock:
                if self.tables.get(live.id) is not live:
                    return
                transition = due(live.state, self.clock(), fresh=fresh_seed())
                self._commit(live, transition)
        except UserError as error:  # the store failed: look again shortly
            log.warning("table %s: a deadline could not be stored (%s)", live.id, error.code)
            self._wake(live, self.clock() + 1.0, force=True)
            return
        self._follow(live, transition, None)

    def _commit(self, live: LiveTable, transition: Transition) -> None:
        """The store first: only a stored change becomes the table's state."""
        writes = transition.writes
        if writes:
            try:
                self.store.commit(live.id, live.state.version, writes, self.process)
            except StaleWrite:
                self.stale_writes += 1
                log.warning("table %s: a stale write was refused; the table is dropped", live.id)
                self._lost(live)
                raise UserError("table_moved") from None
            except StoreUnavailable:
                raise UserError("unavailable") from None
            self.actions += sum(1 for w in writes if isinstance(w, SaveAction))
        live.state = transition.state

    def _check_bot_tables(self, old: TableState, new: TableState) -> None:
        """One address may keep only a few matches of its own running at once (every
        person at the table came from it), counted in the store across processes."""
        if len(new.matches) == len(old.matches):
            return
        address = new.solo_address()
        if address is None:
            return
        self._check_room(address)

    def _check_room(self, address: str) -> None:
        try:
            running = self.store.solo_running(address)
        except StoreUnavailable:
            raise UserError("unavailable") from None
        if running >= self.settings.max_bot_tables:
            raise UserError("too_many_bot_tables", limit=self.settings.max_bot_tables)

    def _follow(self, live: LiveTable, transition: Transition, conn: Connection | None) -> None:
        for effect in transition.effects:
            if isinstance(effect, Publish):
                self.publish(live, announce=effect.announce)
            elif isinstance(effect, AskBot):
                self._schedule_bots(live)
            elif isinstance(effect, AskHint):
                self._hint(live, conn, effect)
            elif isinstance(effect, WakeAt):
                self._wake(live, effect.when)

    def _wake(self, live: LiveTable, when: float | None, *, force: bool = False) -> None:
        """One timer per table, at its earliest deadline."""
        if when == live.wake_at and live.timer is not None and not force:
            return
        if live.timer is not None:
            live.timer.cancel()
        live.timer, live.wake_at = None, when
        if when is None:
            return

        def fire() -> None:
            live.timer, live.wake_at = None, None
            spawn(self._due(live))

        delay = max(0.0, when - self.clock())
        live.timer = asyncio.get_running_loop().call_later(delay, fire)

    # ------------------------------------------------------------ connections

    async def connect(self, live: LiveTable, conn: Connection) -> None:
        """A new connection gets the state; the others only hear, soon, who is here now."""
        if conn.seat is None and live.state.spectators >= self.settings.max_spectators:
            raise UserError("too_many_spectators", limit=self.settings.max_spectators)
        first = conn.seat is None or live.connections_of(conn.seat) == 0
        if first:
            await self.apply(live, i.Arrive(), conn.seat)
        live.connections.add(conn)
        live.touched = time.monotonic()
        conn.deliver(self.state_text(live, conn, announce=False), "state")
        conn.deliver(present.presence_text(live.state), "presence")
        self._presence_soon(live)

    async def disconnect(self, live: LiveTable, conn: Connection) -> None:
        if conn not in live.connections:
            return
        live.connections.discard(conn)
        live.touched = time.monotonic()
        self._presence_soon(live)
        if self.tables.get(live.id) is not live:
            return  # dropped: its new owner hears of presence from its own clients
        if conn.seat is None or live.connections_of(conn.seat) == 0:
            try:
                await self.apply(live, i.Leave(), conn.seat)
            except UserError as error:
                log.warning("table %s: a departure was not stored (%s)", live.id, error.code)

    def _presence_soon(self, live: LiveTable) -> None:
        """Coalesce comings and goings: one small message for a burst of them."""
        if live.presence_due:
            return
        live.presence_due = True

        def send() -> None:
            live.presence_due = False
            text = present.presence_text(live.state)
            for conn in list(live.connections):
                conn.deliver(text, "presence")

        asyncio.get_running_loop().call_later(self.settings.presence_delay, send)

    async def handle(self, live: LiveTable, conn: Connection, message: dict[str, Any]) -> None:
        """One client message; ``UserError`` if it is refused (and then nothing changed)."""
        intent = i.parse(message)
        live.touched = time.monotonic()
        if isinstance(intent, i.Hello):
            if intent.lang in LANGUAGES:
                conn.lang = str(intent.lang)
            if intent.has_width:
                conn.width = present.snap_width(intent.width)
            if intent.has_height:
                conn.height = present.snap_height(intent.height)
            conn.deliver(self.state_text(live, conn, announce=False), "state")
            return
        if isinstance(intent, i.Ping):
            conn.deliver(present.encode({"type": "pong"}))
            return
        if isinstance(intent, i.Rematch) and intent.seed is not None and not self.allow_seeds:
            raise UserError("seeds_disabled")
        await self.apply(live, intent, conn.seat, conn)

    # ------------------------------------------------------------ what clients see

    def state_text(self, live: LiveTable, conn: Connection, *, announce: bool) -> str:
        return present.encoded_state(live, conn, announce=announce, now=self.clock())

    def publish(self, live: LiveTable, *, announce: bool = False) -> None:
        """Queue every connection its own state (each seat only its view, R21). Nothing here
        waits: each connection's outbox sends at the pace its client reads."""
        for conn in list(live.connections):
            conn.deliver(self.state_text(live, conn, announce=announce), "state")

    def report_error(self, live: LiveTable, code: str) -> None:
        """Tell everyone at the table that something went wrong on the server."""
        error = UserError(code)
        for conn in list(live.connections):
            message = {"type": "error", "code": code, "message": error.message(conn.lang)}
            conn.deliver(present.encode(message))

    # ------------------------------------------------------------ bots

    def _schedule_bots(self, live: LiveTable) -> None:
        if live.bot_task is not None or live.state.bot_to_move() is None:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))

    async def _run_bots(self, live: LiveTable) -> None:
        """Play bot turns until a person is to move; search bots think in worker processes.

        A failing turn (a bot error, a refused database write) is logged, reported to the
        table's clients and tried again after a growing pause: the table never freezes.
        """
        failures = 0
        settings = self.settings
        try:
            while self.tables.get(live.id) is live:
                try:
                    if not await self._bot_turn(live):
                        return
                    failures = 0
                except Exception:  # anything a bot or the database raised: retry below
                    failures += 1
                    log.exception("table %s: bot turn failed (attempt %d)", live.id, failures)
                    self.report_error(live, "bot_failed")
                    pause = settings.retry_delay * 2 ** (failures - 1)
                    await asyncio.sleep(min(settings.max_retry_delay, pause))
        finally:
            live.bot_task = None

    async def _bot_turn(self, live: LiveTable) -> bool:
        """One bot move if a bot is to move; False when it is nobody's or a person's turn."""
        state = live.state
        seat = state.bot_to_move()
        match = state.match
        if seat is None or match is None:
            return False
        round_start = bool(match.rounds) and not match.current_round.history
        if self.settings.bot_delay:
            await asyncio.sleep(self.settings.bot_delay * (2 if round_start else 1))
        if live.state.bot_to_move() != seat or live.state.seq != state.seq:
            return True  # the person came back while the bot waited: look again
        number = len(state.matches) - 1
        decision = bots.decision_seed(state.seed_of(number), state.seq, seat)
        view = match.view(seat)
        action = await self.scheduler.decide(live.id, state.level_of(seat), decision, view)
        await self.apply(live, i.BotMove(number, state.seq, action), seat)
        return True

    # ------------------------------------------------------------ hints

    def _hint(self, live: LiveTable, conn: Connection | None, asked: AskHint) -> None:
        """The seat to move asked what the analysis would play. The answer, worked out in
        the bot pool from this seat's own view (R21), goes to this connection alone."""
        if conn is None:
            return
        seat = asked.seat
        match = live.state.match
        assert match is not None
        view = match.view(seat)
        known = live.hinted.get(seat)
        if known is not None and known[:2] == (asked.number, asked.seq):  # the same answer
            text = present.encode(advice.hint_message(known[2], view.line, conn.lang, asked.seq))
            asyncio.get_running_loop().call_soon(conn.deliver, text)  # after the "ok"
            return
        if seat in live.hinting:
            raise UserError("hint_busy")
        live.hinting.add(seat)
        spawn(self._work_out_hint(live, conn, asked, match))

    async def _work_out_hint(
        self, live: LiveTable, conn: Connection, asked: AskHint, match: Match
    ) -> None:
        view = match.view(asked.seat)
        try:
            seed = bots.decision_seed(live.state.seed_of(asked.number), asked.seq, asked.seat)
            entries = await self.scheduler.run(
                live.id, advice.hint_entries, view, self.settings.analysis_iterations, seed
            )
        except Exception:  # the analysis failed: say so to the one who asked
            log.exception("table %s: a hint could not be worked out", live.id)
            error = UserError("hint_failed")
            message = {"type": "error", "code": error.code, "message": error.message(conn.lang)}
            conn.deliver(present.encode(message))
            return
        finally:
            live.hinting.discard(asked.seat)
        live.hinted[asked.seat] = (asked.number, asked.seq, entries)
        state = live.state
        if (len(state.matches) - 1, state.seq) == (asked.number, asked.seq) and (
            conn in live.connections
        ):
            message = advice.hint_message(entries, view.line, conn.lang, asked.seq)
            conn.deliver(present.encode(message))

    # ------------------------------------------------------------ finished matches

    def finished_match(self, table_id: str, number: int) -> tuple[LiveTable, Match]:
        """A match that is over (records of running matches would show hidden tiles)."""
        live = self.get(table_id)
        matches = live.state.matches
        if not 0 <= number < len(matches):
            raise UserError("unknown_match")
        match = matches[number]
        if not match.is_over:
            raise UserError("match_running")
        return live, match

    def start_review(self, table_id: str, number: int) -> bool:
        """Start reviewing a finished match unless it is stored or under way."""
        live, match = self.finished_match(table_id, number)
        return self.reviews.start(live.id, number, match)

    def review_status(self, table_id: str, number: int, lang: str) -> dict[str, Any]:
        """A finished match's review: ``none`` (not asked for), ``running`` with how many
        decisions are done, ``failed``, or ``done`` with the review in ``lang``."""
        live, match = self.finished_match(table_id, number)
        stored = self.reviews.stored(live.id, number)
        if stored is not None:
            names = list(present.seat_names(live.state, lang))
            kinds = [s.kind for s in live.state.seats]
            answer = advice.review_answer(match, stored, names, kinds, lang)
            return {"status": "done", "review": answer}
        progress = self.reviews.progress(live.id, number)
        if progress is not None:
            return {"status": "running", "done": progress[0], "total": progress[1]}
        if (live.id, number) in self.reviews.failed:
            return {"status": "failed"}
        return {"status": "none"}

    def replay_step(
        self,
        table_id: str,
        number: int,
        step_number: int,
        lang: str,
        width: int,
        height: int | None = None,
        deal: bool = False,
    ) -> dict[str, Any]:
        live, match = self.finished_match(table_id, number)
        names = list(present.seat_names(live.state, lang))
        return present.replay_step(match, names, step_number, lang, width, height, deal)

    async def close(self) -> None:
        """Stop: timers and bots end, leases are let go (another process may take over)."""
        for live in list(self.tables.values()):
            self._drop(live)
        await self.reviews.close()
        await self.scheduler.close()
