"""Hints and reviews at the web tables: worked out in the bot pool, reviews kept in SQLite."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, ParamSpec, TypeVar

from ..actions import Place, parse_action
from ..analysis import Entry, analyse, hint_of, review
from ..analysis.review import decisions_of
from ..i18n import explain_hint, name_action
from ..line import Line
from ..match import Match
from ..view import PlayerView
from .scheduler import BotScheduler
from .store import Store

__all__ = [
    "HINT_SECONDS",
    "PoolShare",
    "Reviews",
    "hint_entries",
    "hint_message",
    "review_answer",
]

log = logging.getLogger(__name__)

HINT_SECONDS: Final = 2.0
"""A hint's search stops after this long at the latest, as the terminal's does: the
player waits for it, and the workers are shared with every table's bots."""
P = ParamSpec("P")
T = TypeVar("T")


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


class PoolShare(concurrent.futures.Executor):
    """The executor a review runs on (from its own thread): each analysis goes through the
    bot scheduler's queue like a bot's move, at most ``window`` at a time for all reviews
    together, so a bot at another table waits behind a few analyses at most, never
    behind a whole match of them."""

    def __init__(
        self,
        scheduler: BotScheduler,
        loop: asyncio.AbstractEventLoop,
        window: asyncio.Semaphore,
        table_id: str,
    ) -> None:
        self.scheduler, self.loop, self.window, self.table_id = scheduler, loop, window, table_id
        self.pending: set[concurrent.futures.Future[Any]] = set()
        self.closed = False

    def submit(
        self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
    ) -> concurrent.futures.Future[T]:
        if kwargs:
            raise TypeError("the bot pool takes positional arguments only")
        if self.closed:  # the server is stopping: nothing more is started
            refused: concurrent.futures.Future[T] = concurrent.futures.Future()
            refused.cancel()
            return refused
        future = asyncio.run_coroutine_threadsafe(self._run(fn, args), self.loop)
        self.pending.add(future)
        future.add_done_callback(self.pending.discard)
        return future

    async def _run(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        async with self.window:
            result: T = await self.scheduler.run(self.table_id, fn, *args)
            return result

    def cancel(self) -> None:
        """Give up: the review's thread sees every unfinished analysis cancelled."""
        for future in list(self.pending):
            future.cancel()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work and cancel what waits (the bot pool itself stays)."""
        self.closed = True
        self.cancel()


@dataclass
class _Job:
    """A review being worked out: how far it is, and its executor (to give it up)."""

    done: int
    total: int
    share: PoolShare
    task: asyncio.Task[None] | None = None


class Reviews:
    """Reviews of finished matches: started on request, worked out once in the bot pool,
    then kept in SQLite, so that a second request (after a restart too) is instant."""

    def __init__(
        self,
        store: Store,
        scheduler: BotScheduler,
        iterations: int | None = None,
        window: int | None = None,
    ) -> None:
        self.store = store
        self.scheduler = scheduler
        self.iterations = iterations
        """The analysis's iterations a decision (``None``: the analysis's own default)."""
        self.window = window or max(1, scheduler.workers - 1)
        """Analyses of all reviews together in the pool at once: one worker stays free
        for the bots when there are two or more."""
        self._slots: asyncio.Semaphore | None = None
        self.jobs: dict[tuple[str, int], _Job] = {}
        self.failed: dict[tuple[str, int], str] = {}
        self.closed = False

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
        job = self.jobs.get((table_id, number))
        return None if job is None else (job.done, job.total)

    def start(self, table_id: str, number: int, match: Match) -> bool:
        """Start reviewing a finished match unless it is stored or under way; True if this
        call started it."""
        key = (table_id, number)
        if self.closed or key in self.jobs or self.stored(table_id, number) is not None:
            return False
        loop = asyncio.get_running_loop()
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.window)
        job = _Job(0, 0, PoolShare(self.scheduler, loop, self._slots, table_id))
        self.jobs[key] = job
        self.failed.pop(key, None)
        job.task = loop.create_task(self._work(key, match, job))
        return True

    async def _work(self, key: tuple[str, int], match: Match, job: _Job) -> None:
        def progress(done: int, total: int) -> None:  # in the review's thread
            job.done, job.total = done, total

        try:
            # The review waits on its analyses in a thread of its own; the analyses
            # themselves run in the bot pool (``PoolShare``). Seed 0, as
            # ``draw-dominoes review`` uses: the downloaded record reviews the same there.
            result = await asyncio.to_thread(
                review,
                match,
                iterations=self.iterations,
                seed=0,
                executor=job.share,
                progress=progress,
            )
            text = json.dumps(result.to_dict(), separators=(",", ":"))
            self.store.save_review(key[0], key[1], text, time.time())
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            job.share.cancel()  # the server is stopping
        except Exception as exc:  # an analysis or the database failed: say so, retry later
            job.share.cancel()
            log.exception("table %s: the review of match %d failed", *key)
            self.failed[key] = type(exc).__name__
        finally:
            self.jobs.pop(key, None)

    async def close(self) -> None:
        """Give up the reviews under way (they start afresh when next asked for): their
        threads find every analysis cancelled and end at once."""
        self.closed = True
        tasks = []
        for job in list(self.jobs.values()):
            job.share.shutdown()
            if job.task is not None:
                job.task.cancel()
                tasks.append(job.task)
        await asyncio.gather(*tasks, return_exceptions=True)


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
