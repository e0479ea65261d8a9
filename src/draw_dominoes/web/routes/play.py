"""The WebSocket over which a table is played: one connection, its budget, its outbox."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .. import present
from ..limits import FloodWindow, RateLimiter
from ..metrics import Counts
from ..outbox import Outbox
from ..runtime.live import LiveTable
from ..server import ABORT_EXTENSION
from ..table import UserError
from .api import parse_size, parse_width
from .deps import (
    MAX_MESSAGE_BYTES,
    Services,
    client_address,
    foreign,
    limit_key,
    parse_object,
    pick_lang,
    signed_in,
)

__all__ = ["PlaySocket", "router"]

log = logging.getLogger(__name__)

router = APIRouter()

CLOSING: set[asyncio.Future[None]] = set()
"""Closes under way (kept so that they are not collected before they finish)."""


@dataclass(eq=False)
class PlaySocket:
    """A seat's (or a spectator's) WebSocket as the runtime sees it (``live.Socket``); its
    outbox does the sending, so nobody waits for it. Compared by identity: each is one."""

    seat: int | None
    lang: str
    width: int
    height: int | None
    outbox: Outbox
    socket: WebSocket
    address: str = "?"
    """The client's address (its hints are limited per address)."""

    def deliver(self, text: str, slot: str | None = None) -> None:
        self.outbox.put(text, slot)

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put(present.encode(message))

    def refuse(self, error: UserError, request_id: object = None) -> None:
        message = {"type": "error", "code": error.code, "message": error.message(self.lang)}
        self.send({"id": request_id, **message} if request_id is not None else message)

    def close(self) -> None:
        """Close after what is queued (the client reconnects and is served afresh)."""
        self.outbox.close()
        closing = asyncio.ensure_future(self.socket.close(code=1012, reason="table moved"))
        CLOSING.add(closing)
        closing.add_done_callback(CLOSING.discard)


def request_id_of(message: dict[str, Any]) -> int | str | None:
    """The id a client gave its message, echoed in the answer if it is a plain short one."""
    value = message.get("id")
    if type(value) is int and abs(value) < 2**53:
        return value
    if isinstance(value, str) and len(value) <= 64:
        return value
    return None


async def account_seat(socket: WebSocket, services: Services, table_id: str) -> int | None:
    """The seat a signed-in player's account holds at the table: a match started on one
    device is played on from any other where the player has signed in."""
    account = await signed_in(socket, services)
    if account is None:
        return None
    store = services.runtime.store
    return await services.runtime.stored(lambda: store.account_seat(table_id, account.id))


@router.websocket("/ws/{table_id}")
async def play(socket: WebSocket, table_id: str) -> None:
    services: Services = socket.app.state.services
    settings, counts = services.settings, services.counts
    if foreign(socket, settings):
        await socket.close(code=4403)  # before the handshake: an HTTP 403
        return
    params = socket.query_params
    lang = pick_lang(params.get("lang"), socket.cookies.get("lang"))
    width = parse_width(params.get("width"))
    address = limit_key(socket)
    await socket.accept()
    try:
        live = await services.find(table_id, address)
    except UserError as error:
        await turn_away(socket, error, lang, 4429 if error.code == "rate_limited" else 4404)
        return
    token = params.get("token") or socket.cookies.get(f"dd_{table_id}")
    seat = live.seat_of_token(token)
    if seat is None and not params.get("token"):
        seat = await account_seat(socket, services, table_id)  # another device of the player
        if seat is not None:
            token = None
    outbox = Outbox(socket.send_text, cutter(socket, counts), stall_timeout=settings.stall_timeout)
    height = present.snap_height(parse_size(params.get("height")))
    conn = PlaySocket(seat, lang, width, height, outbox, socket, client_address(socket))
    if token and seat is None:
        conn.refuse(UserError("bad_token"))
    runtime = services.runtime
    try:
        await runtime.connect(live, conn)
    except UserError as error:
        await turn_away(socket, error, lang, 4429 if error.code != "unavailable" else 1013)
        return
    writer = asyncio.get_running_loop().create_task(outbox.run())
    counts.websockets += 1
    try:
        await converse(socket, services, live, conn)
    except WebSocketDisconnect:
        pass
    finally:
        counts.websockets -= 1
        counts.states_replaced += outbox.replaced
        await runtime.disconnect(live, conn)
        outbox.close()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


async def converse(
    socket: WebSocket, services: Services, live: LiveTable, conn: PlaySocket
) -> None:
    """Answer one connection's messages until it goes; a flood is cut off."""
    settings, counts = services.settings, services.counts
    limiter = RateLimiter(settings.rate, settings.message_burst)
    flood = FloodWindow(settings.flood_limit, settings.flood_seconds)
    address = limit_key(socket)
    messages = services.budgets.messages
    while not conn.outbox.closed:
        event = await socket.receive()
        if event["type"] == "websocket.disconnect":
            return
        text = event.get("text")
        if text is None:
            text = (event.get("bytes") or b"").decode("utf-8", "replace")
        request_id: int | str | None = None
        try:
            if not (limiter.allow() and messages.allow(address)):
                request_id = peek_id(text)  # so that the client knows which was refused
                raise UserError("rate_limited")
            if len(text) > MAX_MESSAGE_BYTES or len(text.encode(errors="replace")) > (
                MAX_MESSAGE_BYTES
            ):
                raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
            message = parse_object(text)
            if not isinstance(message.get("type"), str):
                raise UserError("bad_json")
            request_id = request_id_of(message)
            await services.runtime.handle(live, conn, message)
            if message["type"] not in ("hello", "ping"):
                conn.send({"type": "ok", "id": request_id})
        except UserError as error:
            counts.refused_messages += 1
            conn.refuse(error, request_id)
            if flood.refused():
                counts.floods_closed += 1
                await socket.close(code=1008, reason="too many refused messages")
                return
        except Exception:  # a server fault: log it, tell the client, keep the socket
            log.exception("table %s: a message could not be handled", live.id)
            conn.refuse(UserError("internal"), request_id)


def peek_id(text: str) -> int | str | None:
    """The id of a message refused before it is read, if it is a small JSON object."""
    if len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        return request_id_of(parse_object(text))
    except UserError:
        return None


async def turn_away(socket: WebSocket, error: UserError, lang: str, code: int) -> None:
    """Say why a WebSocket cannot stay, then close it."""
    message = {"type": "error", "code": error.code, "message": error.message(lang)}
    await socket.send_text(present.encode(message))
    await socket.close(code=code)


def cutter(socket: WebSocket, counts: Counts) -> Callable[[str], None]:
    """How an outbox cuts off a client that stopped reading: abort the connection (a close
    frame would wait behind all it has not read), or close it where the server cannot."""

    def cut(reason: str) -> None:
        counts.send_queue_drops += 1
        log.info("closing a WebSocket that fell behind (%s)", reason)
        extension = socket.scope.get("extensions", {}).get(ABORT_EXTENSION)
        if extension is not None:
            extension["abort"]()
            return
        closing = asyncio.ensure_future(socket.close(code=1008, reason="not reading"))
        CLOSING.add(closing)
        closing.add_done_callback(CLOSING.discard)

    return cut
