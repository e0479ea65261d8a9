"""A table in a process's memory: its state, the connections here, and what they share."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..encoding import GrowingList
from ..stores.base import hash_token
from ..table import TableState

__all__ = ["LiveTable", "Socket"]


class Socket(Protocol):
    """One open WebSocket: who it is (a seat or a spectator, from which address), how it
    wants text drawn, and a non-blocking way to hand it encoded messages."""

    seat: int | None
    lang: str
    width: int
    height: int | None
    address: str
    """The client's address, as it came (``?`` if unknown); limits count it by
    ``limits.address_key``."""

    def deliver(self, text: str, slot: str | None = None) -> None:
        """Queue ``text``; a message with a ``slot`` replaces an unsent one of the same slot."""

    def close(self) -> None:
        """End the connection (its client reconnects, to whichever process)."""


@dataclass(eq=False)
class LiveTable:
    """A table this process serves: the state is replaced, never changed, by each step;
    everything else here is this process's own (connections, caches, timers, tasks)."""

    state: TableState
    owner: str = ""
    """The process that holds the table's lease: this one, or the one it relays for."""
    connections: set[Socket] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    touched: float = 0.0
    """When the table was last used (monotonic); idle tables leave memory."""
    encoded: dict[tuple[Any, ...], str] = field(default_factory=dict)
    """Encoded states of ``encoded_for`` by seat, language and size."""
    encoded_for: TableState | None = None
    growing: dict[tuple[str, int | None], GrowingList] = field(default_factory=dict)
    """The encoded history (one per seat: its own draws name their tiles) and placements
    of the current round, kept between states."""
    bot_task: asyncio.Task[None] | None = None
    timer: asyncio.TimerHandle | None = None
    wake_at: float | None = None
    presence_due: bool = False
    hinting: set[int] = field(default_factory=set)
    """Seats whose hint is being worked out (one at a time per seat)."""
    hinted: dict[int, tuple[int, int, list[dict[str, Any]]]] = field(default_factory=dict)
    """Per seat, the last hint's analysis and where it was asked (match number and
    action count): asking again at the same position costs nothing."""

    crowd: dict[str, tuple[float, dict[int | None, int]]] = field(default_factory=dict)
    """Connections at other processes (owner only): per process, when it last said, and
    how many it has per seat (``None``: spectators)."""

    @property
    def id(self) -> str:
        return self.state.id

    def counts(self) -> dict[int | None, int]:
        """This process's connections per seat (``None``: spectators)."""
        counted: dict[int | None, int] = {}
        for conn in self.connections:
            counted[conn.seat] = counted.get(conn.seat, 0) + 1
        return counted

    def everyone(self) -> tuple[frozenset[int], int]:
        """The seats with a connection at any process, and all spectators."""
        total = self.counts()
        for _, counted in self.crowd.values():
            for seat, number in counted.items():
                total[seat] = total.get(seat, 0) + number
        seats = frozenset(s for s, n in total.items() if s is not None and n > 0)
        return seats, total.get(None, 0)

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.state.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def grown(self, part: str, seat: int | None = None) -> GrowingList:
        """The encoded ``part`` of the round (``history``, ``placements``) as ``seat`` sees it."""
        return self.growing.setdefault((part, seat), GrowingList())

    def cached(self, key: tuple[Any, ...]) -> str | None:
        """An encoded state for this very state (a new state drops the old texts)."""
        if self.encoded_for is not self.state:
            self.encoded.clear()
            self.encoded_for = self.state
        return self.encoded.get(key)
