"""Hints and reviews at the web tables: hints in the bot pool, reviews in a queue and a
worker process of their own, finished reviews kept in the store and cached encoded."""

from __future__ import annotations

import asyncio
import collections
import functools
import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ..actions import Place, parse_action
from ..analysis import Entry, analyse, hint_of, review
from ..analysis.review import Review, decisions_of
from ..i18n import explain_hint, name_action
from ..line import Line
from ..match import Match
from ..view import PlayerView
from .encoding import encode
from .limits import Refused
from .scheduler import process_pool, stop_processes

__all__ = [
    "HINT_SECONDS",
    "REVIEW_QUEUE",
    "REVIEW_WORKERS",
    "Encoded",
    "ReviewCache",
    "ReviewStore",
    "Reviews",
    "hint_entries",
    "hint_message",
    "review_answer",
]

log = logging.getLogger(__name__)

HINT_SECONDS: Final = 2.0
"""A hint's search stops after this long at the latest, as the terminal's does: the
player waits for it, and the workers are shared with every table's bots."""
REVIEW_WORKERS: Final = 1
"""Worker processes for reviews, apart from the bots' pool: reviews never take a worker
a bot needs, and one review at a time uses them all."""
REVIEW_QUEUE: Final = 16
"""Reviews that may wait at once, every address together (the one running not counted)."""
REVIEW_PER_ADDRESS: Final = 1
"""Reviews one client address may have waiting or running at once."""
SECONDS_PER_ACTION: Final = 0.3
"""What a review is guessed to take per action of its match until one has finished."""


def hint_entries(view: PlayerView, iterations: int | None, seed: int) -> list[dict[str, Any]]:
    """In a worker: every legal action of the seat's own view, best first. Only the view
    goes to the worker, so a hint cannot use an opponent's tiles or the boneyard (R21)."""
    entries = analyse(view, iterations=iterations, time_per_move=HINT_SECONDS, seed=seed)
    return [entry.to_dict() for entry in entries]


def hint_message(entries: list[dict[str, Any]], line: Line, lang: str, seq: int) -> dict[str, Any]:
    """The hint for one connection: the best action, the tile and end to light up, and
    the sentence that says why (against the next best action)."""
    hint = hint_of([Entry.from_dict(entry) for entry in entries], line)
    action = hint.best
    tile = end = None
    if isinstance(action, Place):
        tile = str(action.tile)
        end = "open" if action.end is None else str(action.end)
    return {
        "type": "hint",
        "seq": seq,
        "action": str(action),
        "tile": tile,
        "end": end,
        "text": explain_hint(action, hint.alternative, hint.gain, line, lang),
    }


class ReviewStore(Protocol):
    """What reviews need of the store: one row per table and match, written once."""

    def save_review(self, table_id: str, number: int, review: str, created: float) -> None: ...

    def load_review(self, table_id: str, number: int) -> str | None: ...


@dataclass(frozen=True)
class Encoded:
    """An answer encoded once: its bytes (UTF-8 JSON) and a strong ETag for them."""

    body: bytes
    etag: str

    @classmethod
    def of(cls, value: Any) -> Encoded:
        body = encode(value).encode("utf-8")
        return cls(body, f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"')

    def matches(self, if_none_match: str | None) -> bool:
        """Whether an ``If-None-Match`` header names this answer (the route then answers
        304 Not Modified): ``*`` or any of its tags, compared weakly as RFC 9110 says."""
        if not if_none_match:
            return False
        tags = (tag.strip() for tag in if_none_match.split(","))
        return any(tag == "*" or tag.removeprefix("W/") == self.etag for tag in tags)


class ReviewCache:
    """Finished reviews as encoded answers, per table, match and language, the most
    recently used ``size`` of them: a review is worked out once, read many times, and
    each reading would otherwise parse the stored row, replay the match and encode."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._entries: collections.OrderedDict[
            tuple[str, int, str], tuple[tuple[Any, ...], Encoded]
        ] = collections.OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, table_id: str, number: int, lang: str, inputs: tuple[Any, ...]) -> Encoded | None:
        """The cached answer, if it was built from the same ``inputs`` (the seat names and
        kinds: a rename after the match shows in its review)."""
        key = (table_id, number, lang)
        entry = self._entries.get(key)
        if entry is None or entry[0] != inputs:
            return None
        self._entries.move_to_end(key)
        return entry[1]

    def put(
        self, table_id: str, number: int, lang: str, inputs: tuple[Any, ...], answer: Encoded
    ) -> None:
        key = (table_id, number, lang)
        self._entries[key] = (inputs, answer)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def forget(self, table_id: str, number: int) -> None:
        """Drop the match's answers in every language."""
        for key in [k for k in self._entries if k[:2] == (table_id, number)]:
            del self._entries[key]


@dataclass(eq=False)
class _Job:
    """A review asked for: waiting its turn, then worked out."""

    table_id: str
    number: int
    match: Match = field(repr=False)
    address: str | None
    actions: int
    """The match's actions, to guess how long the review takes."""
    done: int = 0
    total: int = 0
    started: float | None = None
    """When it started running (``None`` while it waits)."""

    @property
    def key(self) -> tuple[str, int]:
        return (self.table_id, self.number)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a thread's outcome as seen: nobody awaits it after the server stops."""
    if not future.cancelled():
        future.exception()


class Reviews:
    """Reviews of finished matches: queued on request, worked out one at a time in a
    worker process of their own, kept in the store, and answered from a cache.

    Fair sharing: one client address has at most ``per_address`` reviews waiting or
    running (more are refused with ``review_busy``); at most ``queue_limit`` reviews wait
    at once, every address together (more are refused with ``review_queue_full``, with
    a guess of when a place frees up); and the waiting ones are served round-robin by
    address, so an address with several reviews waiting gets one turn in each round.
    The reviews run on ``workers`` processes of their own (``executor`` instead, if
    given), never on the bots' pool, so no bot waits for them.
    """

    def __init__(
        self,
        store: ReviewStore,
        iterations: int | None = None,
        *,
        workers: int = REVIEW_WORKERS,
        queue_limit: int = REVIEW_QUEUE,
        per_address: int = REVIEW_PER_ADDRESS,
        executor: Executor | None = None,
        cache_size: int = 256,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.iterations = iterations
        """The analysis's iterations a decision (``None``: the analysis's own default)."""
        self.workers = workers
        self.queue_limit = queue_limit
        self.per_address = per_address
        self.clock = clock
        self.cache = ReviewCache(cache_size)
        self.jobs: dict[tuple[str, int], _Job] = {}
        """Every review waiting or running, by table and match."""
        self.failed: dict[tuple[str, int], str] = {}
        """Reviews that failed, with the error's name (asked for again, they start afresh)."""
        self.running: _Job | None = None
        self.analysed = 0
        """Decisions analysed for reviews since the start (for the metrics)."""
        self.closed = False
        self._executor = executor
        self._waiting: collections.OrderedDict[str | None, collections.deque[_Job]] = (
            collections.OrderedDict()
        )
        self._wakeup: asyncio.Event | None = None
        self._dispatcher: asyncio.Task[None] | None = None
        self._thread: asyncio.Future[Review] | None = None
        self._pace = SECONDS_PER_ACTION
        """Seconds per action the last finished review took."""

    # ------------------------------------------------------------ asking

    @property
    def queued(self) -> int:
        """Reviews waiting for their turn (the running one not counted)."""
        return sum(len(jobs) for jobs in self._waiting.values())

    def start(self, table_id: str, number: int, match: Match, address: str | None = None) -> bool:
        """Queue the review of a finished match unless it is stored, waiting or running;
        True if this call queued it. ``address`` is the client's (``None``: not limited
        per address). Refused with ``Refused("review_busy")`` (HTTP 429) when the address
        has its reviews waiting or running already, and ``Refused("review_queue_full")``
        (HTTP 503) when the queue is full; both with ``retry_after`` seconds."""
        key = (table_id, number)
        if self.closed or key in self.jobs or self.stored(table_id, number) is not None:
            return False
        if address is not None:
            own = [job for job in self.jobs.values() if job.address == address]
            if len(own) >= self.per_address:
                raise Refused("review_busy", min(self._eta(job) for job in own), 429)
        if self.queued >= self.queue_limit:
            raise Refused("review_queue_full", self._remaining(), 503)
        actions = sum(len(finished.history) for finished in match.rounds)
        job = _Job(table_id, number, match, address, actions)
        self.jobs[key] = job
        self.failed.pop(key, None)
        self._waiting.setdefault(address, collections.deque()).append(job)
        if self._wakeup is None:
            self._wakeup = asyncio.Event()
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch())
        self._wakeup.set()
        return True

    # ------------------------------------------------------------ where a review is

    def stored(self, table_id: str, number: int) -> dict[str, Any] | None:
        """The finished review of a match, or ``None``; a damaged row counts as none (and
        is replaced by the next review)."""
        text = self.store.load_review(table_id, number)
        if text is None:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            log.warning("table %s: the stored review of match %d is damaged", table_id, number)
            return None
        return data if isinstance(data, dict) and "decisions" in data else None

    def progress(self, table_id: str, number: int) -> tuple[int, int] | None:
        """Decisions done and in all of a review waiting (``(0, 0)``) or running."""
        job = self.jobs.get((table_id, number))
        return None if job is None else (job.done, job.total)

    def position(self, table_id: str, number: int) -> int | None:
        """Where a waiting review is in the queue (1: next), ``None`` if it is not waiting."""
        job = self.jobs.get((table_id, number))
        if job is None or job is self.running:
            return None
        return next(n for n, waiting in enumerate(self._order(), 1) if waiting is job)

    def status(self, table_id: str, number: int) -> dict[str, Any]:
        """A review that is not done: ``{"status": "queued", "position": n}`` (1: next),
        ``{"status": "running", "done": d, "total": t}``, ``{"status": "failed"}`` or
        ``{"status": "none"}``. Ask ``answer`` first for a finished one."""
        key = (table_id, number)
        job = self.jobs.get(key)
        if job is not None:
            if job is self.running:
                return {"status": "running", "done": job.done, "total": job.total}
            return {"status": "queued", "position": self.position(table_id, number)}
        if key in self.failed:
            return {"status": "failed"}
        return {"status": "none"}

    def answer(
        self,
        table_id: str,
        number: int,
        lang: str,
        match: Match,
        names: Sequence[str],
        kinds: Sequence[str],
    ) -> Encoded | None:
        """The finished review as the route sends it, ``{"status": "done", "review": …}``
        (see ``review_answer``), encoded once per table, match, language and seat names,
        with its ETag; ``None`` while it is not done."""
        inputs = (tuple(names), tuple(kinds))
        cached = self.cache.get(table_id, number, lang, inputs)
        if cached is not None:
            return cached
        if (table_id, number) in self.jobs:
            return None
        stored = self.stored(table_id, number)
        if stored is None:
            return None
        answer = review_answer(match, stored, list(names), list(kinds), lang)
        encoded = Encoded.of({"status": "done", "review": answer})
        self.cache.put(table_id, number, lang, inputs, encoded)
        return encoded

    # ------------------------------------------------------------ serving the queue

    def _order(self) -> list[_Job]:
        """The waiting reviews in the order they will run: round-robin by address."""
        queues = [list(jobs) for jobs in self._waiting.values()]
        order: list[_Job] = []
        for turn in range(max((len(jobs) for jobs in queues), default=0)):
            order.extend(jobs[turn] for jobs in queues if turn < len(jobs))
        return order

    def _next(self) -> _Job | None:
        for address, jobs in self._waiting.items():
            job = jobs.popleft()
            if jobs:
                self._waiting.move_to_end(address)
            else:
                del self._waiting[address]
            return job
        return None

    def _remaining(self) -> float:
        """Seconds the running review is guessed to take still."""
        job = self.running
        if job is None or job.started is None:
            return self._pace * 50
        elapsed = self.clock() - job.started
        if job.done and job.total:
            return elapsed * (job.total - job.done) / job.done
        return max(1.0, self._pace * job.actions - elapsed)

    def _eta(self, job: _Job) -> float:
        """Seconds until ``job`` is guessed to be done."""
        if job is self.running:
            return self._remaining()
        ahead = self._order()
        before = ahead[: ahead.index(job) + 1] if job in ahead else [job]
        return self._remaining() + sum(self._pace * waiting.actions for waiting in before)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = process_pool(self.workers)
        return self._executor

    async def _dispatch(self) -> None:
        assert self._wakeup is not None
        while True:
            job = self._next()
            if job is None:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            self.running = job
            job.started = self.clock()
            try:
                await self._work(job)
            finally:
                self.running = None
                self.jobs.pop(job.key, None)

    async def _work(self, job: _Job) -> None:
        def progress(done: int, total: int) -> None:  # in the review's thread
            job.done, job.total = done, total

        loop = asyncio.get_running_loop()
        pool: Executor | None = None
        try:
            pool = self._pool()
            # The review waits on its analyses in a thread of its own; the analyses run
            # on the reviews' processes. Seed 0, as ``draw-dominoes review`` uses: the
            # downloaded record reviews the same there.
            thread = loop.run_in_executor(
                None,
                functools.partial(
                    review,
                    job.match,
                    iterations=self.iterations,
                    seed=0,
                    executor=pool,
                    progress=progress,
                ),
            )
            thread.add_done_callback(_retrieve)
            self._thread = thread
            # Shielded: stopping the server cancels this task, and the thread ends
            # once ``close`` has stopped the processes it waits on.
            result = await asyncio.shield(thread)
            text = json.dumps(result.to_dict(), separators=(",", ":"))
            self.store.save_review(job.table_id, job.number, text, time.time())
        except Exception as exc:  # an analysis or the database failed: say so, retry later
            if isinstance(exc, BrokenProcessPool) and pool is not None and self._executor is pool:
                self._executor = None  # a worker died: the next review gets a fresh pool
                pool.shutdown(wait=False, cancel_futures=True)
            log.exception("table %s: the review of match %d failed", *job.key)
            self.failed[job.key] = type(exc).__name__
            return
        finally:
            self._thread = None
        self.cache.forget(job.table_id, job.number)
        self.analysed += job.total
        if job.actions and job.started is not None:
            self._pace = max(0.01, (self.clock() - job.started) / job.actions)

    async def close(self) -> None:
        """Give up the reviews waiting and running (they start afresh when next asked
        for), and terminate and join the reviews' worker processes."""
        self.closed = True
        thread = self._thread
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            await asyncio.gather(self._dispatcher, return_exceptions=True)
            self._dispatcher = None
        self._waiting.clear()
        self.jobs.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(stop_processes, executor)
        if thread is not None:
            # Its analyses are cancelled or broken now: the thread ends at once.
            await asyncio.wait([thread], timeout=5)


def review_answer(
    match: Match, stored: dict[str, Any], names: list[str], kinds: list[str], lang: str
) -> dict[str, Any]:
    """A stored review as the replay page shows it: each decision with the replay step it
    was made at and its played and best actions in words. The entries of every legal
    action are left out; the summary is as ``Review.to_dict`` gave it."""
    starts = [0]
    for finished in match.rounds:
        starts.append(starts[-1] + len(finished.history))
    lines = {(p.round, p.move): p.view.line for p in decisions_of(match)}
    decisions = []
    for decision in stored.get("decisions", []):
        where = (decision["round"], decision["move"])
        line = lines[where]
        played = parse_action(decision["played"])
        best = Entry.from_dict(decision["entries"][0])
        chosen = next((e for e in decision["entries"] if e["action"] == decision["played"]), None)
        decisions.append(
            {
                "round": decision["round"],
                "move": decision["move"],
                "seat": decision["seat"],
                "step": starts[decision["round"]] + decision["move"],
                "deal": decision["move"] == 0 and decision["round"] > 0,
                "kind": decision["kind"],
                "loss": decision["loss"],
                "played": decision["played"],
                "played_text": name_action(played, line, lang),
                "played_points": None if chosen is None else chosen["points"],
                "best": str(best.action),
                "best_text": name_action(best.action, line, lang),
                "best_points": best.points,
            }
        )
    return {
        "players": stored.get("players"),
        "seats": stored.get("seats"),
        "iterations": stored.get("iterations"),
        "summary": stored.get("summary"),
        "names": names,
        "kinds": kinds,
        "decisions": decisions,
    }
