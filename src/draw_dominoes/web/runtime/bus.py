"""The bus between processes (Redis pub/sub): intents to a table's owner, its news back."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Bus", "BusError", "check_bus"]

CLOSE_SECONDS = 2.0
"""The longest each step of closing the bus may take."""

log = logging.getLogger(__name__)

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
"""Called with ``(table id or "", message)`` for every message this process hears."""


class BusError(Exception):
    """The bus cannot be reached (at start: one clear line; later: the request fails)."""


class Bus:
    """One Redis connection for publishing and one subscription: this process's own
    channel (intents for the tables it owns, replies) and the channels of the tables it
    relays for (their owner's commits and presence). Every key and channel begins with
    ``prefix``, so that servers (and test runs) sharing one Redis never meet."""

    def __init__(self, url: str, process: str, prefix: str = "draw:") -> None:
        self.url = url
        self.process = process
        self.prefix = prefix
        self._redis: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._handler: Handler | None = None
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self.watched: set[str] = set()
        self.forwarded = 0
        """Intents this process handed to another table's owner (for the metrics)."""
        self.received = 0
        """Intents other processes handed to this one."""

    def _table_channel(self, table_id: str) -> str:
        return f"{self.prefix}table:{table_id}"

    def _process_channel(self, process: str) -> str:
        return f"{self.prefix}process:{process}"

    async def start(self, handler: Handler) -> None:
        """Connect and listen; ``BusError`` if Redis does not answer."""
        import redis.asyncio as redis

        self._handler = handler
        try:
            self._redis = redis.from_url(
                self.url, socket_connect_timeout=3, socket_timeout=5, health_check_interval=10
            )
            await self._redis.ping()
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(self._process_channel(self.process))
        except (OSError, redis.RedisError) as error:
            await self.close()
            raise BusError(f"{redact(self.url)} cannot be reached ({error})") from error
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read())
        self._sender = loop.create_task(self._send())

    async def _send(self) -> None:
        """What ``post`` queued, in order: a table's commits reach its relays as made."""
        while True:
            channel, data = await self._outbox.get()
            try:
                await self._publish(channel, data)
            except BusError as error:
                log.warning("a bus message was lost (%s)", error)

    def post(self, process: str, data: dict[str, Any]) -> None:
        """Tell one process, without waiting (in order with every other ``post``)."""
        self._outbox.put_nowait((self._process_channel(process), {**data, "from": self.process}))

    def post_table(self, table_id: str, data: dict[str, Any]) -> None:
        """Tell a table's relays, without waiting (in order)."""
        self._outbox.put_nowait((self._table_channel(table_id), {**data, "table": table_id}))

    async def _read(self) -> None:
        """Hand every message to the handler; a lost connection is retried, resubscribing."""
        import redis.asyncio as redis

        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (OSError, redis.RedisError) as error:
                log.warning("the bus is unavailable (%s); trying again", error)
                await asyncio.sleep(1.0)
                with contextlib.suppress(OSError, redis.RedisError):
                    channels = [self._process_channel(self.process)]
                    channels += [self._table_channel(t) for t in self.watched]
                    await self._pubsub.subscribe(*channels)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
                await self._dispatch(data)
            except Exception:  # one bad message never stops the bus
                log.exception("a bus message could not be handled")

    async def _dispatch(self, data: dict[str, Any]) -> None:
        if data.get("op") == "reply":
            future = self._replies.pop(int(data.get("id", 0)), None)
            if future is not None and not future.done():
                future.set_result(data)
            return
        if data.get("op") == "intent":
            self.received += 1
        assert self._handler is not None
        await self._handler(str(data.get("table", "")), data)

    async def _publish(self, channel: str, data: dict[str, Any]) -> None:
        import redis.asyncio as redis

        try:
            await self._redis.publish(channel, json.dumps(data, separators=(",", ":")))
        except (OSError, redis.RedisError) as error:
            raise BusError(str(error)) from error

    async def tell(self, process: str, data: dict[str, Any]) -> None:
        """Tell one process."""
        await self._publish(self._process_channel(process), {**data, "from": self.process})

    async def ask(
        self,
        process: str,
        data: dict[str, Any],
        timeout: float,
        give_up: Callable[[], bool] = lambda: False,
    ) -> dict[str, Any]:
        """Tell one process and wait for its reply; ``BusError`` if none comes in time,
        or as soon as ``give_up()`` says the answer no longer matters."""
        request = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[request] = future
        deadline = time.monotonic() + timeout
        try:
            await self.tell(process, {**data, "id": request, "reply_to": self.process})
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BusError(f"{process} did not answer")
                done, _ = await asyncio.wait({future}, timeout=min(0.1, left))
                if done:
                    return future.result()
                if give_up():
                    raise BusError(f"{process} no longer owns the table")
        finally:
            self._replies.pop(request, None)

    async def reply(self, asked: dict[str, Any], data: dict[str, Any]) -> None:
        await self.tell(str(asked["reply_to"]), {**data, "op": "reply", "id": asked["id"]})

    async def watch(self, table_id: str) -> None:
        """Hear the news of a table this process relays for."""
        if table_id not in self.watched:
            self.watched.add(table_id)
            await self._pubsub.subscribe(self._table_channel(table_id))

    async def unwatch(self, table_id: str) -> None:
        if table_id in self.watched:
            self.watched.discard(table_id)
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(self._table_channel(table_id))

    async def healthy(self) -> bool:
        try:
            async with asyncio.timeout(2):
                await self._redis.ping()
        except Exception:
            return False
        return True

    async def close(self) -> None:
        """Stop reading and sending, and close the connections; each step is bounded, so
        that a reader cancelled in the middle of a read never holds the close up."""
        for task in (self._reader, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                    async with asyncio.timeout(CLOSE_SECONDS):
                        await task
        for client in (self._pubsub, self._redis):
            if client is not None:
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(CLOSE_SECONDS):
                        await client.aclose()


def check_bus(url: str) -> None:
    """Before serving: ``BusError`` (one clear line) unless Redis answers at ``url``."""
    import redis

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise BusError(f"{redact(url)} is not a Redis URL (redis://host:6379/0)")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (OSError, redis.RedisError) as error:
        raise BusError(f"the bus {redact(url)} cannot be reached ({error})") from error


def redact(url: str) -> str:
    """A URL as it may be shown: without its password."""
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{head}://{user + ':***@' if ':' in credentials else user + '@'}{host}"
