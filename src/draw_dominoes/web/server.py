"""Serving the app with uvicorn: connection limits per address and in total, and a deadline
for request headers, enforced where the connections are accepted."""

from __future__ import annotations

import asyncio
import collections
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["ABORT_EXTENSION", "ConnectionGuard", "Limits", "config"]

ABORT_EXTENSION = "draw_dominoes.abort"
"""The scope extension through which the app can cut off a WebSocket whose client stopped
reading: a close frame would wait behind everything it has not read."""


@dataclass
class Limits:
    """The server's limits; every one is a command-line option of ``draw-dominoes serve``."""

    max_connections: int = 1000
    max_connections_per_address: int = 50
    header_timeout: float = 5.0
    """Seconds a client has to send a request's headers (a WebSocket handshake's included)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses (a reverse proxy's) whose connections count only towards the total."""


@dataclass
class ConnectionGuard:
    """Counts open TCP connections and refuses those over the limits at once."""

    limits: Limits
    open: dict[asyncio.BaseTransport, str] = field(default_factory=dict)
    per_address: collections.Counter[str] = field(default_factory=collections.Counter)
    refused: int = 0
    timed_out: int = 0

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        limits = self.limits
        if len(self.open) >= limits.max_connections or (
            address not in limits.trusted_proxies
            and self.per_address[address] >= limits.max_connections_per_address
        ):
            self.refused += 1
            return False
        self.open[transport] = address
        self.per_address[address] += 1
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.open.pop(transport, None)
        if address is not None:
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]


REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 20\r\nconnection: close\r\n\r\ntoo many connections"
)
TOO_SLOW = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 20\r\nconnection: close\r\n\r\nrequest headers late"
)


def protocols(guard: ConnectionGuard) -> tuple[type[Any], type[Any]]:
    """uvicorn's HTTP and WebSocket protocols, with the guard at their door."""

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(transport):
                transport.write(REFUSAL)
                transport.close()
                return
            self._start_deadline()

        def _start_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            loop = asyncio.get_running_loop()
            self._deadline = loop.call_later(guard.limits.header_timeout, self._too_slow)

        def _too_slow(self) -> None:
            self._deadline = None
            guard.timed_out += 1
            if not self.transport.is_closing():
                self.transport.write(TOO_SLOW)
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._deadline is None:
                self._start_deadline()

        def on_headers_complete(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            guard.release(self.transport)
            super().connection_lost(exc)

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the app's task starts only after this returns
                scope["extensions"][ABORT_EXTENSION] = {"abort": self.transport.abort}

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket


def config(app: Any, host: str, port: int, limits: Limits, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration for ``app``; ``app.state.guard`` counts its connections."""
    guard = ConnectionGuard(limits)
    app.state.guard = guard
    http, ws = protocols(guard)
    proxies = list(limits.trusted_proxies)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http,
        ws=ws,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # compressing every state costs more than it saves
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_keep_alive=5,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        **options,
    )
