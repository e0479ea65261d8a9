"""Many processes, any of them for any table: intents go to a table's owner over the bus,
its commits and presence come back, a table moves to the process where all its
connections are, and a table whose owner died is taken over."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from typing import TYPE_CHECKING, Any

from ...actions import IllegalActionError
from ..stores.base import StoreUnavailable, write_from_json, write_to_json
from ..table import Transition, UserError
from ..table import intents as i
from ..table.stored import from_row, replay
from .bus import Bus, BusError
from .live import LiveTable, Socket

if TYPE_CHECKING:
    from .runtime import TableRuntime

__all__ = ["Relay"]

log = logging.getLogger(__name__)

ASK_SECONDS = 3.0
"""How long a process waits for a table's owner to answer an intent."""
EXPIRY_MARGIN = 1.0
"""An owner applies a forwarded intent only this long before its asker gives up on it,
so that an intent reported refused is never applied after all."""
PRESENCE_SECONDS = 2.0
"""How often a process repeats who is connected to it at tables owned elsewhere."""
PRESENCE_EXPIRES = 4 * PRESENCE_SECONDS
"""A process not heard from this long has no connections left (it died)."""


def encode_values(values: dict[str, Any]) -> dict[str, Any]:
    """A refusal's values as JSON (the engine's refusal by its reason and code)."""
    return {
        key: {"refusal": [str(value), value.code, value.details]}
        if isinstance(value, IllegalActionError)
        else value
        for key, value in values.items()
    }


def decode_values(values: dict[str, Any]) -> dict[str, Any]:
    decoded = {}
    for key, value in values.items():
        if isinstance(value, dict) and "refusal" in value:
            text, code, details = value["refusal"]
            value = IllegalActionError(text, code, **details)
        decoded[key] = value
    return decoded


class RemoteConnection:
    """A connection at another process, as the owner sees it when it answers an intent:
    what it is sent (a hint) goes back over the bus to that connection alone."""

    def __init__(self, bus: Bus, process: str, key: int, seat: int | None, lang: str) -> None:
        self.bus, self.process, self.key = bus, process, key
        self.seat, self.lang = seat, lang
        self.address = "?"
        self.width: int = 800
        self.height: int | None = None

    def deliver(self, text: str, slot: str | None = None) -> None:
        self.bus.post(self.process, {"op": "deliver", "conn": self.key, "text": text})

    def close(self) -> None:
        pass


class Relay:
    """The multi-process part of the runtime: present only when serving with ``--bus``."""

    def __init__(self, runtime: TableRuntime, bus: Bus) -> None:
        self.runtime = runtime
        self.bus = bus
        self.takeovers = 0
        """Tables this process took over from an owner whose lease had run out."""
        self.handovers = 0
        """Tables this process gave to the process where all their connections were."""
        self.handing: set[str] = set()
        self.local: dict[int, Socket] = {}
        """Connections here by key, for what an owner sends to one of them."""

    async def start(self) -> None:
        await self.bus.start(self.on_message)

    # ------------------------------------------------------------ relaying

    async def follow(self, live: LiveTable) -> None:
        """This process serves clients of a table another process owns."""
        await self.bus.watch(live.id)

    async def forward(
        self, live: LiveTable, intent: i.Intent, seat: int | None, conn: Socket | None
    ) -> None:
        """Hand an intent to the table's owner and wait for its answer. An owner that does
        not answer may be gone: once its lease runs out this process takes the table."""
        key = id(conn) if conn is not None else 0
        if conn is not None:
            self.local[key] = conn
        data: dict[str, Any] = {
            "op": "intent",
            "table": live.id,
            "seat": seat,
            "intent": i.to_json(intent),
            "conn": key,
            "lang": conn.lang if conn is not None else "en",
            "address": conn.address if conn is not None else "?",
        }
        self.bus.forwarded += 1
        try:
            owner = live.owner
            data["expires"] = time.time() + ASK_SECONDS - EXPIRY_MARGIN
            answer = await self.bus.ask(
                owner, data, ASK_SECONDS, give_up=lambda: live.owner != owner
            )
        except BusError:
            if await self.take_over(live, wait=True):
                await self.runtime.apply(live, intent, seat, conn)
                return
            raise UserError("unavailable") from None
        if answer.get("error") == "table_moved" and await self._settle(live, owner):
            await self.runtime.apply(live, intent, seat, conn)  # at the table's new place
            return
        if "error" in answer:
            if answer["error"] == "table_moved":
                self.runtime.lost(live)
            raise UserError(answer["error"], **decode_values(answer.get("values", {})))
        version = int(answer.get("version", 0))
        if version == live.state.version + 1 and answer.get("writes"):  # the owner's commit
            writes = [write_from_json(w) for w in answer["writes"]]
            live.state = replay(live.state, writes, version)
            self.runtime.publish(live)
        await self._catch_up(live, version)

    async def _catch_up(self, live: LiveTable, version: int) -> None:
        """Answer only once this process's copy shows the change: a client gets the state
        its intent made before the ``ok``, as from the owner itself."""
        deadline = time.monotonic() + ASK_SECONDS
        while live.state.version < version and time.monotonic() < deadline:
            await asyncio.sleep(0.002)
        if live.state.version < version:  # the owner's news was lost: read the store
            await self._reload(live)

    async def _settle(self, live: LiveTable, asked: str) -> bool:
        """The owner asked said the table is no longer its own: the store says who has it
        now (this process, when it was handed the table); True if someone else than
        ``asked`` serves it."""
        runtime = self.runtime
        if runtime.owns(live):
            return True
        try:
            holder = await runtime.stored(lambda: runtime.store.lease_owner(live.id))
        except StoreUnavailable:
            return False
        if holder == runtime.process:
            return await self._become_owner(live, handed=True)
        if holder is None or holder == asked:
            return False
        live.owner = holder
        self.tell_presence(live)
        return True

    def tell_presence(self, live: LiveTable) -> None:
        """Tell the owner how many connections this process has at its table, per seat."""
        counts = {"" if seat is None else str(seat): n for seat, n in live.counts().items()}
        self.bus.post(
            live.owner,
            {"op": "presence", "table": live.id, "counts": counts, "version": live.state.version},
        )

    async def take_over(self, live: LiveTable, *, wait: bool = False) -> bool:
        """Take a table whose owner's lease ran out (waiting for that, with ``wait``);
        True once this process owns it (it may already have, by another path)."""
        runtime = self.runtime
        deadline = time.monotonic() + (runtime.settings.lease_seconds + 1.0 if wait else 0.0)
        while not runtime.owns(live):
            try:
                holder = runtime.store.lease_owner(live.id)
            except StoreUnavailable:
                return False
            if holder is None and await self._become_owner(live):
                return True
            if holder == runtime.process:  # handed to this process (its word was lost)
                return await self._become_owner(live, handed=True)
            if holder not in (None, runtime.process, live.owner):
                live.owner = str(holder)  # another process was quicker: relay for it
                self.tell_presence(live)
                return False
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.1)
        return True

    async def _become_owner(self, live: LiveTable, *, handed: bool = False) -> bool:
        """The lease (taken, or ``handed`` to this process by the owner), then the table
        as stored; one path at a time (under the lock)."""
        runtime = self.runtime
        store, process, seconds = runtime.store, runtime.process, runtime.settings.lease_seconds
        async with live.lock:
            if runtime.owns(live):
                return True
            try:
                if handed:
                    held = await runtime.stored(lambda: store.lease_owner(live.id)) == process
                else:
                    held = await runtime.stored(lambda: store.take_lease(live.id, process, seconds))
                if not held:
                    return False
                row = await runtime.stored(lambda: store.load_table(live.id))
            except StoreUnavailable:
                return False
            if row is None:
                return False
            if handed:
                log.info("table %s: handed over by %s", live.id, live.owner)
            else:
                log.warning("table %s: taken over from %s", live.id, live.owner)
                self.takeovers += 1
            live.state = from_row(row, runtime.timing, runtime.clock())
            live.owner = runtime.process
            live.crowd.clear()
        with contextlib.suppress(UserError):
            await runtime.recount(live)
        runtime.resume(live)
        runtime.publish(live)
        self.post_commit(live, (), announce=False)  # relays hear of the new owner
        runtime.spawn(self.bus.unwatch(live.id))  # an owner has no news to follow
        return True

    def consider_handover(self, live: LiveTable) -> None:
        """Owner: a table whose every connection is at one other process moves there, so
        that neither its intents nor its commits cross the bus."""
        runtime = self.runtime
        if runtime.settings.hold_tables or not runtime.owns(live) or live.id in self.handing:
            return
        if live.connections or len(live.crowd) != 1:
            return
        (process,) = live.crowd
        self.handing.add(live.id)
        runtime.spawn(self._hand_over(live, process))

    async def _hand_over(self, live: LiveTable, process: str) -> None:
        """The lease goes to ``process`` (in one step: nobody can take it between), this
        process forgets the table, and tells ``process`` so."""
        runtime, me = self.runtime, self.runtime.process
        try:
            async with live.lock:
                if not runtime.owns(live) or live.connections or set(live.crowd) != {process}:
                    return
                seconds = runtime.settings.lease_seconds
                try:
                    given = await runtime.stored(
                        lambda: runtime.store.hand_lease(live.id, me, process, seconds)
                    )
                except StoreUnavailable:
                    return
                if not given:
                    return
                self.handovers += 1
                live.owner = process
                runtime.lost(live)  # nobody is connected here: the table leaves memory
            self.bus.post(process, {"op": "handover", "table": live.id})
        finally:
            self.handing.discard(live.id)

    # ------------------------------------------------------------ owning

    def post_commit(self, live: LiveTable, writes: tuple[Any, ...], *, announce: bool) -> None:
        """Tell the relays of a table what the owner just stored, in order."""
        state = live.state
        self.bus.post_table(
            live.id,
            {
                "op": "commit",
                "owner": self.runtime.process,
                "version": state.version,
                "writes": [write_to_json(w) for w in writes],
                "announce": announce,
                "present": sorted(state.present),
                "spectators": state.spectators,
            },
        )

    def post_presence(self, live: LiveTable) -> None:
        state = live.state
        self.bus.post_table(
            live.id,
            {
                "op": "presence",
                "owner": self.runtime.process,
                "present": sorted(state.present),
                "spectators": state.spectators,
            },
        )

    def post_error(self, live: LiveTable, code: str) -> None:
        self.bus.post_table(live.id, {"op": "error", "code": code})

    def sweep(self) -> None:
        """Forget the connections of processes not heard from (they died), and repeat
        this process's own at tables owned elsewhere."""
        runtime = self.runtime
        now = time.monotonic()
        for live in list(runtime.tables.values()):
            if runtime.owns(live):
                gone = [p for p, (heard, _) in live.crowd.items() if now - heard > PRESENCE_EXPIRES]
                for process in gone:
                    del live.crowd[process]
                if gone:
                    runtime.spawn(runtime.recount_quietly(live))
                self.consider_handover(live)
            else:
                self.tell_presence(live)
                runtime.spawn(self.take_over(live))

    # ------------------------------------------------------------ what the bus brings

    async def on_message(self, table_id: str, data: dict[str, Any]) -> None:
        op = data.get("op")
        runtime = self.runtime
        if op == "deliver":
            conn = self.local.get(int(data.get("conn", 0)))
            if conn is not None:
                conn.deliver(str(data["text"]))
            return
        live = runtime.tables.get(table_id)
        if op == "intent":  # not waited for: the bus reader goes on to other news
            runtime.spawn(self._answer(live, data))
        elif op == "handover":
            await self._handed(table_id, live)
        elif op == "presence" and "counts" in data:
            if live is not None and runtime.owns(live):
                counts = {None if k == "" else int(k): int(n) for k, n in data["counts"].items()}
                if any(counts.values()):
                    live.crowd[str(data["from"])] = (time.monotonic(), counts)
                else:  # that process has nobody left here: the table may leave memory
                    live.crowd.pop(str(data["from"]), None)
                if int(data.get("version", live.state.version)) < live.state.version:
                    # Its copy is behind (a commit it was not told of): it catches up.
                    self.post_commit(live, (), announce=False)
                await runtime.recount_quietly(live)
                self.consider_handover(live)
        elif live is None or runtime.owns(live):
            return  # news of a table this process owns (its own) or no longer serves
        elif op == "commit":
            await self._follow_commit(live, data)
        elif op == "presence":
            self._overlay(live, data)
            runtime.presence_soon(live)
        elif op == "error":
            runtime.report_error(live, str(data["code"]))

    async def _handed(self, table_id: str, live: LiveTable | None) -> None:
        """The owner gave this process a table: it serves it from the store's row (a
        table no longer in memory here is loaded, and leaves again when idle)."""
        if live is not None:
            await self._become_owner(live, handed=True)
            return
        with contextlib.suppress(UserError):
            await self.runtime.get(table_id)

    async def _answer(self, live: LiveTable | None, data: dict[str, Any]) -> None:
        runtime = self.runtime
        if live is None or not runtime.owns(live):
            await self.bus.reply(data, {"error": "table_moved"})
            return
        if time.time() > float(data.get("expires", 0.0)):
            # Its asker has given up waiting and told its client so: never apply it late.
            await self.bus.reply(data, {"error": "unavailable", "values": {}})
            return
        seat = data.get("seat")
        conn = RemoteConnection(
            self.bus, str(data["reply_to"]), int(data.get("conn", 0)), seat, str(data["lang"])
        )
        conn.address = str(data.get("address", "?"))
        try:
            made = await runtime.apply(live, i.from_json(data["intent"]), seat, conn, relayed=True)
        except UserError as error:
            await self.bus.reply(data, {"error": error.code, "values": encode_values(error.values)})
            return
        reply: dict[str, Any] = {"ok": True, "version": live.state.version}
        if made is not None and made.writes:  # the asker follows at once, not via the news
            reply["version"] = made.state.version
            reply["writes"] = [write_to_json(w) for w in made.writes]
        await self.bus.reply(data, reply)

    def _overlay(self, live: LiveTable, data: dict[str, Any]) -> None:
        live.state = dataclasses.replace(
            live.state,
            present=frozenset(int(s) for s in data.get("present", ())),
            spectators=int(data.get("spectators", 0)),
        )

    async def _follow_commit(self, live: LiveTable, data: dict[str, Any]) -> None:
        """The owner's commit, applied to this process's copy; a gap reloads it."""
        runtime = self.runtime
        owner = str(data.get("owner", live.owner))
        if owner != live.owner:
            live.owner = owner
            self.tell_presence(live)
        version, writes = int(data["version"]), data["writes"]
        state = live.state
        if version < state.version or (version == state.version and writes):
            return  # already known
        if version == state.version + 1 and writes:
            live.state = replay(state, [write_from_json(w) for w in writes], version)
        elif version > state.version and not await self._reload(live):
            return  # a gap, or news without its writes (a new owner, a copy found behind)
        self._overlay(live, data)
        runtime.publish(live, announce=bool(data.get("announce")))
        runtime.presence_soon(live)

    async def _reload(self, live: LiveTable) -> bool:
        """This process's copy of a table it relays for, afresh from the store."""
        runtime = self.runtime
        try:
            row = runtime.store.load_table(live.id)
        except StoreUnavailable:
            return False
        if row is None:
            return False
        present, spectators = live.state.present, live.state.spectators
        state = from_row(row, runtime.timing, runtime.clock())
        live.state = dataclasses.replace(state, present=present, spectators=spectators)
        runtime.publish(live)
        return True

    def transition_done(self, live: LiveTable, transition: Transition, announce: bool) -> None:
        """After a local commit: the relays follow (only processes with connections at the
        table are told; one without catches up from the store when it needs to)."""
        writes = transition.writes
        if writes and live.crowd:
            self.post_commit(live, writes, announce=announce)
