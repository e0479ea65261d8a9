"""The runtime around the table state machine: it stores, publishes, times and asks bots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ...i18n import LANGUAGES
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
from ..table.stored import from_row
from .bots import BotTurns
from .finished import FinishedMatches
from .hints import Hints
from .live import LiveTable, Socket
from .presence import Presence
from .rating import newly_finished, rate_match
from .relay import Relay

__all__ = ["TableRuntime", "fresh_seed"]

log = logging.getLogger(__name__)

T = TypeVar("T")

BACKGROUND: set[asyncio.Task[Any]] = set()
"""Follow-up work started from plain callbacks (kept so that it is not collected)."""


def fresh_seed() -> int:
    """An independent, unpredictable seed for one match: no record gives away another's."""
    return secrets.randbits(63)


class TableRuntime(Presence, FinishedMatches):
    """The tables this process serves. Every change goes through ``step``/``due``; the
    runtime stores the result first (a compare-and-set on the table's version, fenced by
    the table's lease), takes the new state only then, publishes it once, and starts
    bots and the next timer. With a bus, tables another process owns are relayed."""

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
        self.reviews = advice.Reviews(
            store,
            settings.analysis_iterations,
            workers=settings.review_workers,
            queue_limit=settings.review_queue,
        )
        self.timing = Timing(settings.round_pause, settings.away_seconds, settings.host_grace)
        self.clock = clock
        self.process = settings.process or secrets.token_hex(6)
        """This process's name in leases and on the bus."""
        self.tables: dict[str, LiveTable] = {}
        self.unavailable: dict[str, str] = {}
        """Stored tables that could not be rebuilt, with the reason; their rows stay untouched."""
        self.actions = 0
        """Actions accepted since the start (for the metrics)."""
        self.stale_writes = 0
        """Commits refused because another process had moved the table on."""
        self.allow_seeds = settings.allow_seeds
        self.bots = BotTurns(self)
        self.hints = Hints(self)
        self.relay: Relay | None = None
        self._store_thread = (
            ThreadPoolExecutor(1, thread_name_prefix="store") if store.remote else None
        )

    async def stored(self, call: Callable[[], T]) -> T:
        """A store call. A remote store's is made on a thread of its own, so that while
        one table waits for its commit every other table goes on; a file's at once."""
        if self._store_thread is None:
            return call()
        return await asyncio.get_running_loop().run_in_executor(self._store_thread, call)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        BACKGROUND.add(task)
        task.add_done_callback(BACKGROUND.discard)

    # ------------------------------------------------------------ memory and leases

    def owns(self, live: LiveTable) -> bool:
        return live.owner == self.process and self.tables.get(live.id) is live

    async def get(self, table_id: str) -> LiveTable:
        """The table, from memory or loaded from the store: leased to this process, or
        (with a bus, while another process holds it) relayed for its owner."""
        live = self.tables.get(table_id)
        if live is None:
            live = await self._load(table_id)
        live.touched = time.monotonic()
        return live

    async def _load(self, table_id: str) -> LiveTable:
        if table_id in self.unavailable:
            raise UserError("unavailable")
        try:
            row = await self.stored(lambda: self.store.load_table(table_id))
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
        found = self.tables.get(table_id)  # loaded meanwhile by another request
        if found is not None:
            return found
        owner = self._lease(table_id)
        live = LiveTable(state, owner=owner, touched=time.monotonic())
        self.tables[table_id] = live
        if owner == self.process:
            self.resume(live)
        elif self.relay is not None:
            await self.relay.follow(live)
        return live

    def _lease(self, table_id: str) -> str:
        """Who serves the table: this process if it can hold the lease. A process without
        a bus is alone on its database: a lease it finds is a dead process's (this one
        before a restart), and it takes the table."""
        store, seconds = self.store, self.settings.lease_seconds
        try:
            if store.take_lease(table_id, self.process, seconds):
                return self.process
            holder = store.lease_owner(table_id)
            if self.relay is not None and holder is not None:
                return holder
            if holder is not None:
                store.drop_lease(table_id, holder)
            if store.take_lease(table_id, self.process, seconds):
                return self.process
        except StoreUnavailable:
            pass
        raise UserError("unavailable")

    def resume(self, live: LiveTable) -> None:
        """A table this process owns now picks up its bots and its next deadline."""
        with contextlib.suppress(RuntimeError):  # outside a running loop: nothing to time
            asyncio.get_running_loop()
            self.bots.schedule(live)
            self._wake(live, live.state.deadline())

    def evict_idle(self) -> int:
        """Let tables nobody uses leave memory; they load again when next asked for."""
        cutoff = time.monotonic() - self.settings.idle_seconds
        idle = [
            live
            for live in self.tables.values()
            if live.touched < cutoff
            and not live.connections
            and not live.crowd
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
        owned = live.owner == self.process
        if self.tables.get(live.id) is live:
            del self.tables[live.id]
        if owned:
            with contextlib.suppress(StoreUnavailable):
                self.store.drop_lease(live.id, self.process)
        elif self.relay is not None:
            self.spawn(self.relay.bus.unwatch(live.id))

    async def renew_leases(self) -> None:
        """Keep this process's tables; one whose lease was lost is dropped at once. A
        process alone on its database (no bus) takes a lapsed lease back: nobody else
        can have it (a lease lapses when the loop was too busy to renew it in time)."""
        process, seconds = self.process, self.settings.lease_seconds
        # Judged: the tables owned before the renewal and still owned after it (a table
        # taken or handed to this process meanwhile has a lease the renewal may not show).
        owned = [t for t in self.tables.values() if self.owns(t)]
        held = await self.stored(lambda: self.store.renew_leases(process, seconds))
        for live in owned:
            if live.id in held or not self.owns(live):
                continue
            if self.relay is None and self.store.take_lease(
                live.id, self.process, self.settings.lease_seconds
            ):
                continue
            log.warning("table %s: its lease was lost; another process serves it", live.id)
            self.lost(live)

    def lost(self, live: LiveTable) -> None:
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
        rated: object = False,
        move_seconds: object = 0,
        *,
        table_id: str | None = None,
        token_hash: str | None = None,
    ) -> tuple[LiveTable, str]:
        """A new table, stored and leased to this process; the creator holds seat 0 (with
        a new token, or with ``token_hash``'s: then the token returned is empty)."""
        token = "" if token_hash is not None else secrets.token_urlsafe(18)
        first_seed = self._seed_from(seed)
        while True:
            state = new_table(
                table_id or secrets.token_urlsafe(6),
                players,
                host_name,
                bot_levels,
                first_seed=first_seed,
                token_hash=token_hash or hash_token(token),
                address=address,
                public=public,
                hints=hints,
                now=self.clock(),
                timing=self.timing,
                rated=rated,
                move_seconds=move_seconds,
            )
            try:
                self.store.create_table(state.row())
                break
            except StaleWrite:  # the id exists: draw another
                if table_id is not None:
                    raise UserError("unavailable") from None
                continue
            except StoreUnavailable:
                raise UserError("unavailable") from None
        if self._lease(state.id) != self.process:
            raise UserError("unavailable")
        live = LiveTable(state, owner=self.process, touched=time.monotonic())
        self.tables[state.id] = live
        return live, token

    def check_start(self, players: object, bot_levels: object, address: str | None) -> None:
        """A table to start at once is refused before anything is stored or counted if
        its bots do not fill it or its creator runs all the matches it may."""
        check_bots_fill(players, bot_levels)
        if address is not None:
            self._check_room(address)

    async def start(self, live: LiveTable, seat: int) -> None:
        """The host deals the first match."""
        await self.apply(live, i.Start(), seat)

    async def join(
        self, table_id: str, name: object, seat: object = None, address: str | None = None
    ) -> tuple[int, str]:
        """Take an open seat (the first, or the one asked for) under a display name."""
        live = await self.get(table_id)
        token = secrets.token_urlsafe(18)
        digest = hash_token(token)
        await self.apply(live, i.Join(name, seat, digest, address), None)
        if not self.owns(live):  # the owner took the seat: wait until its commit is here
            async with asyncio.timeout(5):
                while all(s.token_hash != digest for s in live.state.seats):
                    await asyncio.sleep(0.01)
        taken = next(s.seat for s in live.state.seats if s.token_hash == digest)
        return taken, token

    # ------------------------------------------------------------ the one way to change a table

    async def apply(
        self,
        live: LiveTable,
        intent: i.Intent,
        seat: int | None,
        conn: Socket | None = None,
        *,
        relayed: bool = False,
    ) -> Transition | None:
        """Step the table; ``UserError`` if the intent is refused (nothing changed then).
        The transition made here, or ``None`` if the table's owner is another process:
        the intent goes there (unless it came from another process, ``relayed``: it is
        refused, and its asker looks again)."""
        if self.owns(live):
            async with live.lock:
                if self.owns(live):  # still: the table may have moved while this waited
                    transition = step(live.state, intent, seat, self.clock(), fresh=fresh_seed())
                    self._check_bot_tables(live.state, transition.state)
                    await self._commit(live, transition)
                    self._follow(live, transition, conn)
                    return transition
        if self.relay is None or relayed:
            raise UserError("table_moved")
        await self.relay.forward(live, intent, seat, conn)
        return None

    async def _due(self, live: LiveTable) -> None:
        """A deadline passed: step the table by the clock."""
        try:
            async with live.lock:
                if not self.owns(live):
                    return
                transition = due(live.state, self.clock(), fresh=fresh_seed())
                await self._commit(live, transition)
        except UserError as error:  # the store failed: look again shortly
            log.warning("table %s: a deadline could not be stored (%s)", live.id, error.code)
            self._wake(live, self.clock() + 1.0, force=True)
            return
        self._follow(live, transition, None)

    async def _commit(self, live: LiveTable, transition: Transition) -> None:
        """The store first: only a stored change becomes the table's state."""
        writes, version, process = transition.writes, live.state.version, self.process
        if writes:
            try:
                await self.stored(lambda: self.store.commit(live.id, version, writes, process))
            except StaleWrite:
                self.stale_writes += 1
                log.warning("table %s: a stale write was refused; the table is dropped", live.id)
                self.lost(live)
                raise UserError("table_moved") from None
            except StoreUnavailable:
                raise UserError("unavailable") from None
            self.actions += sum(1 for w in writes if isinstance(w, SaveAction))
        finished = newly_finished(live.state, transition.state)
        live.state = transition.state
        for number in finished if live.state.rated else ():
            self.spawn(rate_match(self, live, number))

    def _check_bot_tables(self, old: TableState, new: TableState) -> None:
        """One address may keep only a few matches of its own running at once (every
        person at the table came from it), counted in the store across processes."""
        if len(new.matches) == len(old.matches):
            return
        address = new.solo_address()
        if address is not None:
            self._check_room(address)

    def _check_room(self, address: str) -> None:
        try:
            running = self.store.solo_running(address)
        except StoreUnavailable:
            raise UserError("unavailable") from None
        if running >= self.settings.max_bot_tables:
            raise UserError("too_many_bot_tables", limit=self.settings.max_bot_tables)

    def _follow(self, live: LiveTable, transition: Transition, conn: Socket | None) -> None:
        announce = False
        for effect in transition.effects:
            if isinstance(effect, Publish):
                announce = effect.announce
                self.publish(live, announce=announce)
            elif isinstance(effect, AskBot):
                self.bots.schedule(live)
            elif isinstance(effect, AskHint):
                self.hints.ask(live, conn, effect)
            elif isinstance(effect, WakeAt):
                self._wake(live, effect.when)
        if self.relay is not None:
            self.relay.transition_done(live, transition, announce)

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
            self.spawn(self._due(live))

        delay = max(0.0, when - self.clock())
        live.timer = asyncio.get_running_loop().call_later(delay, fire)

    # ------------------------------------------------------------ one connection

    async def handle(self, live: LiveTable, conn: Socket, message: dict[str, Any]) -> None:
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

    def state_text(self, live: LiveTable, conn: Socket, *, announce: bool) -> str:
        return present.encoded_state(live, conn, announce=announce, now=self.clock())

    def publish(self, live: LiveTable, *, announce: bool = False) -> None:
        """Queue every connection here its own state (each seat only its view, R21).
        Nothing waits: each connection's outbox sends at the pace its client reads."""
        for conn in list(live.connections):
            conn.deliver(self.state_text(live, conn, announce=announce), "state")

    def report_error(self, live: LiveTable, code: str) -> None:
        """Tell everyone at the table that something went wrong on the server."""
        error = UserError(code)
        for conn in list(live.connections):
            message = {"type": "error", "code": code, "message": error.message(conn.lang)}
            conn.deliver(present.encode(message))
        if self.relay is not None and self.owns(live):
            self.relay.post_error(live, code)

    async def close(self) -> None:
        """Stop: timers and bots end, leases are let go (another process may take over)."""
        for live in list(self.tables.values()):
            self._drop(live)
        await self.reviews.close()
        await self.scheduler.close()
        if self._store_thread is not None:
            self._store_thread.shutdown(wait=True)
