"""Who is at a table, at every process: connections come and go, the owner steps the
table for each seat that came or went (lila-ws's RoundCrowd is the model)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from .. import present
from ..settings import Settings
from ..table import UserError
from ..table import intents as i
from .live import LiveTable, Socket

if TYPE_CHECKING:
    from .relay import Relay

__all__ = ["Presence"]

log = logging.getLogger(__name__)


class Presence:
    """The runtime's part that counts connections and tells the table who is here."""

    if TYPE_CHECKING:
        settings: Settings
        relay: Relay | None
        tables: dict[str, LiveTable]

        def owns(self, live: LiveTable) -> bool: ...

        async def apply(self, live: LiveTable, intent: i.Intent, seat: int | None) -> object: ...

        def state_text(self, live: LiveTable, conn: Socket, *, announce: bool) -> str: ...

    async def connect(self, live: LiveTable, conn: Socket) -> None:
        """A new connection gets the state; the others only hear, soon, who is here now."""
        if conn.seat is None and live.state.spectators >= self.settings.max_spectators:
            raise UserError("too_many_spectators", limit=self.settings.max_spectators)
        live.connections.add(conn)
        live.touched = time.monotonic()
        if self.relay is not None:
            self.relay.local[id(conn)] = conn
        try:
            await self.recount(live)
        except UserError:
            await self.disconnect(live, conn)
            raise
        conn.deliver(self.state_text(live, conn, announce=False), "state")
        conn.deliver(present.presence_text(live.state), "presence")
        self.presence_soon(live)

    async def disconnect(self, live: LiveTable, conn: Socket) -> None:
        if conn not in live.connections:
            return
        live.connections.discard(conn)
        live.touched = time.monotonic()
        if self.relay is not None:
            self.relay.local.pop(id(conn), None)
        self.presence_soon(live)
        if self.tables.get(live.id) is live:
            await self.recount_quietly(live)
            if self.relay is not None:
                self.relay.consider_handover(live)

    async def recount(self, live: LiveTable) -> None:
        """Who is connected, at every process, as the table's state knows it: an owner
        steps the table for each seat that came or went; a relay tells the owner."""
        if not self.owns(live):
            if self.relay is not None:
                self.relay.tell_presence(live)
            return
        seats, spectators = live.everyone()
        state = live.state
        changes: list[tuple[i.Intent, int | None]] = [
            (i.Arrive(), s) for s in sorted(seats - state.present)
        ]
        changes += [(i.Leave(), s) for s in sorted(state.present - seats)]
        step_count = spectators - state.spectators
        changes += [(i.Arrive() if step_count > 0 else i.Leave(), None)] * abs(step_count)
        for intent, seat in changes:
            await self.apply(live, intent, seat)
        if changes and self.relay is not None:
            self.relay.post_presence(live)

    async def recount_quietly(self, live: LiveTable) -> None:
        try:
            await self.recount(live)
        except UserError as error:
            log.warning("table %s: who is here was not stored (%s)", live.id, error.code)

    def presence_soon(self, live: LiveTable) -> None:
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
