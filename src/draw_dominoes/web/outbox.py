"""One connection's outgoing messages: a bounded queue where the newest state wins."""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable

__all__ = ["Outbox"]

log = logging.getLogger(__name__)


class Outbox:
    """Messages waiting for one WebSocket, written by its own task.

    Putting a message in never waits, so a client that stops reading holds up nobody but
    itself. A message with a ``slot`` (``"state"``, ``"presence"``) replaces an unsent one
    of the same slot in its place: only the newest state matters. A client that falls
    ``limit`` messages behind, or whose socket takes longer than ``stall_timeout`` to accept
    one message, is cut off with ``abort``.
    """

    def __init__(
        self,
        write: Callable[[str], Awaitable[None]],
        abort: Callable[[str], None],
        *,
        limit: int = 64,
        stall_timeout: float = 10.0,
    ) -> None:
        self._write = write
        self._abort = abort
        self.limit = limit
        self.stall_timeout = stall_timeout
        self._queue: collections.deque[list[str | None]] = collections.deque()
        self._slots: dict[str, list[str | None]] = {}
        self._ready = asyncio.Event()
        self.closed = False
        self.replaced = 0
        """States that were replaced before being sent (for the metrics)."""

    def put(self, text: str, slot: str | None = None) -> None:
        if self.closed:
            return
        if slot is not None:
            waiting = self._slots.get(slot)
            if waiting is not None:
                waiting[1] = text
                self.replaced += 1
                return
        entry: list[str | None] = [slot, text]
        if slot is not None:
            self._slots[slot] = entry
        self._queue.append(entry)
        if len(self._queue) > self.limit:
            self.fail("overflow")
            return
        self._ready.set()

    def fail(self, reason: str) -> None:
        """Give up on this client: nothing more is queued or sent."""
        if self.closed:
            return
        self.closed = True
        self._queue.clear()
        self._slots.clear()
        self._ready.set()
        self._abort(reason)

    async def run(self) -> None:
        """Send queued messages in order until the outbox is closed or the socket is gone."""
        while not self.closed:
            if not self._queue:
                self._ready.clear()
                await self._ready.wait()
                continue
            slot, text = self._queue.popleft()
            if slot is not None:
                del self._slots[slot]
            assert text is not None
            try:  # a timeout scope, not wait_for: no extra task for every message
                async with asyncio.timeout(self.stall_timeout):
                    await self._write(text)
            except TimeoutError:
                self.fail("stalled")
            except Exception:  # the socket is gone: whatever the server stack raised
                self.closed = True

    def close(self) -> None:
        self.closed = True
        self._ready.set()
