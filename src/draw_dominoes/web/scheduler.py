"""Bot decisions for every table: in worker processes, tables served in turn."""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .. import bots
from ..actions import Action, parse_action
from ..view import PlayerView

__all__ = ["INLINE_LEVELS", "BotScheduler", "decide"]

INLINE_LEVELS = frozenset({"random", "greedy"})
"""Bots that choose in microseconds: a trip to a worker process would cost more than the
move, so they choose on the event loop."""


def decide(level: str, seed: int, view: PlayerView) -> str:
    """In a worker: a fresh seeded bot chooses from the seat's view alone (R21)."""
    return str(bots.create_for_play(level, seed=seed).choose(view))


@dataclass(eq=False)
class _Request:
    """One piece of work for a worker: a bot's decision or an analysis."""

    table_id: str
    work: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any] = field(repr=False)
    decision: bool = True


class BotScheduler:
    """Search bots think in ``workers`` processes, so they never slow the event loop.

    Each table asks for one decision at a time, and requests are served first come first
    served: a table with three bots waits its turn like a table with one, and no table
    gets more turns than another.
    """

    def __init__(self, workers: int | None = None, executor: Executor | None = None) -> None:
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._executor = executor
        self._queue: collections.deque[_Request] = collections.deque()
        self._wakeup: asyncio.Event | None = None
        self._runners: list[asyncio.Task[None]] = []
        self.served: collections.deque[str] = collections.deque(maxlen=1000)
        """The tables of the latest decisions, in order (for the metrics and the tests)."""
        self.decisions = 0
        self.analyses = 0
        """Hints and reviewed decisions worked out in the pool (for the metrics)."""
        self._serving: set[_Request] = set()

    @property
    def queue_length(self) -> int:
        return len(self._queue)

    def _pool(self) -> Executor:
        if self._executor is None:
            # A fresh interpreter per worker: forking a running server copies its threads'
            # locks in whatever state they were.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def decide(self, table_id: str, level: str, seed: int, view: PlayerView) -> Action:
        if level in INLINE_LEVELS:
            self.decisions += 1
            self.served.append(table_id)
            return parse_action(decide(level, seed, view))
        text = await self._queued(table_id, decide, (level, seed, view), decision=True)
        return parse_action(text)

    async def run(self, table_id: str, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a worker process, queued like a bot's decision: an analysis
        for ``table_id`` waits its turn and delays no other table more than one move
        would. ``work`` is a module-level function; its arguments and result pickle."""
        return await self._queued(table_id, work, args, decision=False)

    async def _queued(
        self, table_id: str, work: Callable[..., Any], args: tuple[Any, ...], *, decision: bool
    ) -> Any:
        loop = asyncio.get_running_loop()
        if self._wakeup is None:
            self._wakeup = asyncio.Event()
            self._runners = [loop.create_task(self._serve()) for _ in range(self.workers)]
        request = _Request(table_id, work, args, loop.create_future(), decision)
        self._queue.append(request)
        self._wakeup.set()
        return await request.answer

    async def _serve(self) -> None:
        assert self._wakeup is not None
        loop = asyncio.get_running_loop()
        while True:
            if not self._queue:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            request = self._queue.popleft()
            if request.answer.done():  # the table gave up waiting
                continue
            self.served.append(request.table_id)
            if request.decision:
                self.decisions += 1
            else:
                self.analyses += 1
            self._serving.add(request)
            try:
                result = await loop.run_in_executor(self._pool(), request.work, *request.args)
                if not request.answer.done():
                    request.answer.set_result(result)
            except Exception as exc:  # a bot's error goes back to the table that asked
                if not request.answer.done():
                    request.answer.set_exception(exc)
            finally:
                self._serving.discard(request)

    async def close(self) -> None:
        """Stop serving; whoever still waits for an answer gets a cancellation."""
        for runner in self._runners:
            runner.cancel()
        await asyncio.gather(*self._runners, return_exceptions=True)
        for request in [*self._queue, *self._serving]:
            request.answer.cancel()
        self._queue.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
