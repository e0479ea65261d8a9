"""Bot decisions and analyses for every table: in worker processes, bots first."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .. import bots
from ..actions import Action, parse_action
from ..view import PlayerView
from .limits import Refused

__all__ = ["INLINE_LEVELS", "BotScheduler", "decide", "stop_processes"]

INLINE_LEVELS = frozenset({"random", "greedy"})
"""Bots that choose in microseconds: a trip to a worker process would cost more than the
move, so they choose on the event loop."""


def decide(level: str, seed: int, view: PlayerView) -> str:
    """In a worker: a fresh seeded bot chooses from the seat's view alone (R21)."""
    return str(bots.create_for_play(level, seed=seed).choose(view))


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, each a fresh interpreter: forking a running server
    would copy its threads' locks in whatever state they were."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def stop_processes(executor: Executor, timeout: float = 5.0) -> None:
    """Shut ``executor`` down without waiting for its work, and end a process pool's
    workers: each is terminated (SIGTERM), joined, and killed if it is still there after
    ``timeout`` seconds, so that no worker outlives the server. Blocks until then."""
    # ProcessPoolExecutor has no public way to stop a worker in the middle of a task
    # before Python 3.14 (``terminate_workers``); its process table is the way in. The
    # table itself is kept, and read once ``shutdown`` has made sure that no submit
    # (from a review's thread, say) can start another worker.
    table = getattr(executor, "_processes", None)
    executor.shutdown(wait=False, cancel_futures=True)
    processes: list[Any] = list(table.values()) if isinstance(table, dict) else []
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(timeout)


@dataclass(eq=False)
class _Request:
    """One piece of work for a worker: a bot's decision or an analysis."""

    table_id: str
    work: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any] = field(repr=False)
    decision: bool = True
    address: str | None = None
    """Who asked for an analysis (one in flight per address), if anyone said."""
    owner: str | None = None
    """The client address whose bots a decision is for (its tables' every person came
    from it), if there is one: one address's bots take at most ``per_owner`` workers."""


class BotScheduler:
    """Search bots think in ``workers`` processes, so they never slow the event loop.

    Bots come first: whenever a bot's decision and an analysis (a hint, a reviewed
    decision) both wait, the decision is served first, and analyses take at most
    ``analysis_workers`` workers at once (one fewer than there are, at least one), so a
    bot waits for an analysis only when there is a single worker, and then for one at
    most. Each table asks for one decision at a time, and decisions are served first
    come first served: a table with three bots waits its turn like a table with one.
    The bots of one client address's tables (``owner``) think on at most ``per_owner``
    workers at once (one fewer than there are, at least one), so another address's bot
    finds a worker free however many tables of bots one address runs. ``run_hint``
    allows one hint in flight per client address.
    """

    def __init__(
        self,
        workers: int | None = None,
        executor: Executor | None = None,
        analysis_workers: int | None = None,
    ) -> None:
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.analysis_workers = min(self.workers, analysis_workers or max(1, self.workers - 1))
        """Workers that may be on analyses at once; the others wait for the bots."""
        self.per_owner = max(1, self.workers - 1)
        """Workers one address's bots may think on at once."""
        self._thinking: collections.Counter[str] = collections.Counter()
        self._executor = executor
        self._decisions: collections.deque[_Request] = collections.deque()
        self._analyses: collections.deque[_Request] = collections.deque()
        self._analysing = 0
        self._wakeup: asyncio.Event | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._serving: set[_Request] = set()
        self._hinting: set[str] = set()
        self.closed = False
        self.served: collections.deque[str] = collections.deque(maxlen=1000)
        """The tables of the latest decisions and analyses, in the order they were
        served (for the metrics and the tests)."""
        self.decisions = 0
        self.analyses = 0
        """Hints and reviewed decisions worked out in the pool (for the metrics)."""

    @property
    def queue_length(self) -> int:
        """Requests waiting for a worker, decisions and analyses together."""
        return len(self._decisions) + len(self._analyses)

    @property
    def analyses_waiting(self) -> int:
        return len(self._analyses)

    def hinting(self, address: str) -> bool:
        """Whether a hint the address asked for is queued or being worked out."""
        return address in self._hinting

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = process_pool(self.workers)
        return self._executor

    async def decide(
        self, table_id: str, level: str, seed: int, view: PlayerView, owner: str | None = None
    ) -> Action:
        """A bot's move at ``table_id``; ``owner``: the client address the table's people
        all came from, if they did (its bots share ``per_owner`` workers)."""
        if level in INLINE_LEVELS:
            self.decisions += 1
            self.served.append(table_id)
            return parse_action(decide(level, seed, view))
        text = await self._enqueue(
            table_id, decide, (level, seed, view), decision=True, owner=owner
        )
        return parse_action(text)

    async def run(self, table_id: str, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a worker process as an analysis for ``table_id``: it waits
        until no bot's decision does. ``work`` is a module-level function; its arguments
        and result pickle."""
        return await self._enqueue(table_id, work, args, decision=False)

    def run_hint(
        self, table_id: str, address: str, work: Callable[..., Any], *args: Any
    ) -> asyncio.Future[Any]:
        """Like ``run``, for a hint asked for from ``address``: refused at once with
        ``Refused("hint_address_busy")`` while another hint of that address (at any
        table) is queued or being worked out; else the future of the answer, to await.
        Cancelling the future while the hint waits gives its place up."""
        if address in self._hinting:
            raise Refused("hint_address_busy")
        answer = self._enqueue(table_id, work, args, decision=False, address=address)
        self._hinting.add(address)
        return answer

    def _enqueue(
        self,
        table_id: str,
        work: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        decision: bool,
        address: str | None = None,
        owner: str | None = None,
    ) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        if self.closed:
            answer.cancel()
            return answer
        if self._wakeup is None:
            self._wakeup = asyncio.Event()
            self._runners = [loop.create_task(self._serve()) for _ in range(self.workers)]
        request = _Request(table_id, work, args, answer, decision, address, owner)
        (self._decisions if decision else self._analyses).append(request)
        answer.add_done_callback(lambda _: self._given_up(request))
        self._wakeup.set()
        return answer

    def _given_up(self, request: _Request) -> None:
        """The answer is settled: a request still queued (its asker gave up) leaves the
        queue; one being served is released when its worker is done."""
        if request in self._serving:
            return
        queue = self._decisions if request.decision else self._analyses
        with contextlib.suppress(ValueError):
            queue.remove(request)
        self._release(request)

    def _release(self, request: _Request) -> None:
        if request.address is not None:
            self._hinting.discard(request.address)

    def _next(self) -> _Request | None:
        """Bots first (the first whose address has a worker to spare); an analysis only
        while fewer than ``analysis_workers`` run."""
        for request in self._decisions:
            if request.owner is None or self._thinking[request.owner] < self.per_owner:
                self._decisions.remove(request)
                if request.owner is not None:
                    self._thinking[request.owner] += 1
                return request
        if self._analyses and self._analysing < self.analysis_workers:
            return self._analyses.popleft()
        return None

    async def _serve(self) -> None:
        assert self._wakeup is not None
        loop = asyncio.get_running_loop()
        while True:
            request = self._next()
            if request is None:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            self.served.append(request.table_id)
            if request.decision:
                self.decisions += 1
            else:
                self.analyses += 1
                self._analysing += 1
            self._serving.add(request)
            pool = self._pool()
            try:
                result = await loop.run_in_executor(pool, request.work, *request.args)
                if not request.answer.done():
                    request.answer.set_result(result)
            except Exception as exc:  # a bot's error goes back to the table that asked
                if isinstance(exc, BrokenProcessPool) and self._executor is pool:
                    # A worker died (killed, out of memory): the pool takes no more
                    # work, so the next request starts a fresh one.
                    self._executor = None
                    pool.shutdown(wait=False, cancel_futures=True)
                if not request.answer.done():
                    request.answer.set_exception(exc)
            finally:
                self._serving.discard(request)
                self._release(request)
                if request.owner is not None:
                    self._thinking[request.owner] -= 1
                    if not self._thinking[request.owner]:
                        del self._thinking[request.owner]
                    self._wakeup.set()  # a decision of that address held back may go now
                if not request.decision:
                    self._analysing -= 1
                    self._wakeup.set()  # an analysis held back may go now

    async def close(self) -> None:
        """Stop serving: whoever still waits for an answer gets a cancellation, and the
        worker processes are terminated and joined (none outlives the server)."""
        self.closed = True
        waiting = [*self._decisions, *self._analyses, *self._serving]
        for runner in self._runners:
            runner.cancel()
        await asyncio.gather(*self._runners, return_exceptions=True)
        self._runners = []
        self._decisions.clear()
        self._analyses.clear()
        self._serving.clear()
        self._thinking.clear()
        for request in waiting:
            request.answer.cancel()
        self._hinting.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(stop_processes, executor)
