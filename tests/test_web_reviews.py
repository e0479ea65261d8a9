"""The review queue shared fairly: one review per address, a capped queue served
round-robin by address in a worker process of its own, positions while waiting, and
finished answers cached as bytes with an ETag (real processes, real asyncio)."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from draw_dominoes import Match
from draw_dominoes.analysis import review
from draw_dominoes.web.advice import Encoded, ReviewCache, Reviews, review_answer
from draw_dominoes.web.limits import Refused
from draw_dominoes.web.scheduler import BotScheduler
from test_web_support import children, eventually, run_bounded

ITERATIONS = 20
SLOW = 4000
"""Iterations that keep a review of a whole match busy for far longer than a test."""


class MemoryStore:
    """The two store methods reviews use, in memory, counting the reads."""

    def __init__(self, fail_saves: int = 0) -> None:
        self.rows: dict[tuple[str, int], str] = {}
        self.saved: list[tuple[str, int]] = []
        self.loads = 0
        self.fail_saves = fail_saves

    def save_review(self, table_id: str, number: int, review: str, created: float) -> None:
        if self.fail_saves:
            self.fail_saves -= 1
            raise OSError("disk full")
        self.rows.setdefault((table_id, number), review)
        self.saved.append((table_id, number))

    def load_review(self, table_id: str, number: int) -> str | None:
        self.loads += 1
        return self.rows.get((table_id, number))


def played_out(players: int, seed: int) -> Match:
    match = Match.new(players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.view(match.current_player).legal_actions))
    return match


@functools.cache
def short_match() -> Match:
    """A finished match of one short round: reviewed in a fraction of a second."""
    match = played_out(3, 39)
    assert len(match.rounds) == 1 and len(match.rounds[0].history) < 30
    return match


@functools.cache
def long_match() -> Match:
    return played_out(2, 1)


async def until(condition: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.02)


def test_a_review_waits_runs_is_stored_and_then_answered_from_the_cache() -> None:
    match = short_match()
    names, kinds = ["Ann", "Bea", "Cy"], ["human", "human", "bot"]
    store = MemoryStore()

    async def body() -> None:
        before = children()
        reviews = Reviews(store, iterations=ITERATIONS)
        try:
            assert reviews.status("t", 0) == {"status": "none"}
            assert reviews.start("t", 0, match, "10.0.0.1")
            assert reviews.status("t", 0) == {"status": "queued", "position": 1}
            assert reviews.progress("t", 0) == (0, 0)
            assert reviews.answer("t", 0, "en", match, names, kinds) is None
            assert not reviews.start("t", 0, match, "10.0.0.2")  # under way: no second one
            seen: list[dict[str, Any]] = []

            def finished() -> bool:
                seen.append(reviews.status("t", 0))
                return ("t", 0) in store.rows

            await until(finished)
            assert any(s["status"] == "running" for s in seen)
            await until(lambda: not reviews.jobs)
            assert reviews.status("t", 0) == {"status": "none"}  # done: ask ``answer``
            assert not reviews.start("t", 0, match, "10.0.0.1")  # stored
            assert children() - before  # the reviews' own worker
        finally:
            await reviews.close()
        assert eventually(lambda: not (children() - before))
        # The stored review is the analysis's own, as the terminal gives it (seed 0).
        expected = review(match, iterations=ITERATIONS, workers=1).to_dict()
        assert json.loads(store.rows[("t", 0)]) == expected
        assert reviews.analysed == len(expected["decisions"])

        answer = reviews.answer("t", 0, "en", match, names, kinds)
        assert answer is not None
        assert json.loads(answer.body) == {
            "status": "done",
            "review": review_answer(match, expected, names, kinds, "en"),
        }
        loads = store.loads
        assert reviews.answer("t", 0, "en", match, names, kinds) is answer  # cached
        assert store.loads == loads
        german = reviews.answer("t", 0, "de", match, names, kinds)
        assert german is not None and german.etag != answer.etag
        renamed = reviews.answer("t", 0, "en", match, ["Anna", "Bea", "Cy"], kinds)
        assert renamed is not None and renamed.etag != answer.etag
        assert json.loads(renamed.body)["review"]["names"][0] == "Anna"

    run_bounded(body)


def test_one_review_per_address_and_a_capped_queue_with_positions() -> None:
    """A whole match reviewed slowly keeps the worker busy: the queue behind it fills."""
    slow, match = long_match(), short_match()

    async def body() -> None:
        before = children()
        reviews = Reviews(MemoryStore(), iterations=SLOW, queue_limit=2)
        try:
            assert reviews.start("busy", 0, slow, "10.0.0.1")
            await until(lambda: reviews.status("busy", 0)["status"] == "running")
            with pytest.raises(Refused) as busy:
                reviews.start("other", 0, match, "10.0.0.1")
            assert (busy.value.code, busy.value.status) == ("review_busy", 429)
            assert busy.value.retry_after is not None and busy.value.retry_after >= 1
            assert f"{busy.value.retry_after} " in busy.value.message("en")
            assert reviews.start("b", 0, match, "10.0.0.2")
            assert reviews.start("c", 0, match, "10.0.0.3")
            assert reviews.status("b", 0) == {"status": "queued", "position": 1}
            assert reviews.status("c", 0) == {"status": "queued", "position": 2}
            assert not reviews.start("c", 0, match, "10.0.0.4")  # already waiting
            with pytest.raises(Refused) as full:
                reviews.start("d", 0, match, "10.0.0.4")
            assert (full.value.code, full.value.status) == ("review_queue_full", 503)
            assert full.value.retry_after is not None and full.value.retry_after >= 1
            assert full.value.message("de")
            assert "d" not in {key[0] for key in reviews.jobs}
            assert reviews.queued == 2 and len(reviews.jobs) == 3
        finally:
            await asyncio.wait_for(reviews.close(), 30)  # not the slow review's minutes
        assert eventually(lambda: not (children() - before))
        assert not reviews.jobs and reviews.queued == 0
        assert not reviews.start("e", 0, match, "10.0.0.5")  # closed

    run_bounded(body)


def test_waiting_reviews_take_turns_by_address() -> None:
    """An address with three reviews waiting gets one turn a round, as each other
    address does (``per_address`` raised to let one address queue several)."""
    match = short_match()
    store = MemoryStore()
    asked = [("a1", "A"), ("a2", "A"), ("a3", "A"), ("b1", "B"), ("c1", "C"), ("c2", "C")]
    order = ["a1", "b1", "c1", "a2", "c2", "a3"]

    async def body() -> None:
        reviews = Reviews(store, iterations=ITERATIONS, per_address=3)
        try:
            for table_id, address in asked:
                assert reviews.start(table_id, 0, match, address)
            positions = {t: reviews.status(t, 0)["position"] for t, _ in asked}
            assert sorted(positions, key=positions.__getitem__) == order
            await until(lambda: len(store.saved) == len(asked))
        finally:
            await reviews.close()

    run_bounded(body)
    assert [table_id for table_id, _ in store.saved] == order


def test_stopping_mid_review_ends_the_worker_and_keeps_nothing_half_done() -> None:
    slow = long_match()
    store = MemoryStore()

    async def body() -> None:
        before = children()
        reviews = Reviews(store, iterations=SLOW)
        assert reviews.start("t", 0, slow, "10.0.0.1")
        await until(lambda: (reviews.progress("t", 0) or (0, 0))[0] >= 1)
        workers = children() - before
        assert workers
        await asyncio.wait_for(reviews.close(), 30)
        assert eventually(lambda: not any(worker.is_alive() for worker in workers))
        assert reviews.status("t", 0) == {"status": "none"}

    run_bounded(body)
    assert not store.rows


def test_a_failed_review_says_so_and_starts_afresh_when_asked_again() -> None:
    match = short_match()
    store = MemoryStore(fail_saves=1)

    async def body() -> None:
        reviews = Reviews(store, iterations=ITERATIONS)
        try:
            assert reviews.start("t", 0, match, "10.0.0.1")
            await until(lambda: reviews.status("t", 0) == {"status": "failed"})
            assert reviews.start("t", 0, match, "10.0.0.1")  # the address is free again
            await until(lambda: ("t", 0) in store.rows)
        finally:
            await reviews.close()

    run_bounded(body)


def test_a_review_does_not_hold_up_the_bots() -> None:
    """Reviews have their own worker: with the bots' only worker free, a bot's move
    is as quick while a whole match is being reviewed."""
    slow = long_match()
    match = Match.new(2, seed=8)
    view = match.view(match.current_player)

    async def body() -> bool:
        scheduler = BotScheduler(workers=1)
        reviews = Reviews(MemoryStore(), iterations=SLOW)
        try:
            await scheduler.decide("warm", "heuristic", 0, view)
            assert reviews.start("t", 0, slow, "10.0.0.1")
            await until(lambda: (reviews.progress("t", 0) or (0, 0))[1] > 0)
            await scheduler.decide("bot", "heuristic", 1, view)
            return reviews.progress("t", 0) is not None  # the review still runs
        finally:
            await reviews.close()
            await scheduler.close()

    assert run_bounded(body)  # the bot's one worker moved while the whole review went on


def test_the_etag_is_strong_and_matches_as_if_none_match_says() -> None:
    first, second = Encoded.of({"a": 1}), Encoded.of({"a": 2})
    assert first.etag.startswith('"') and first.etag.endswith('"')
    assert first.etag == Encoded.of({"a": 1}).etag != second.etag
    assert json.loads(first.body) == {"a": 1}
    assert first.matches(first.etag)
    assert first.matches(f'"x", {first.etag}')
    assert first.matches(f"W/{first.etag}")  # If-None-Match compares weakly
    assert first.matches("*")
    assert not first.matches(second.etag)
    assert not first.matches(None)
    assert not first.matches("")


def test_the_cache_keeps_the_most_recently_used_answers() -> None:
    cache = ReviewCache(size=2)
    answer = Encoded.of({})
    for number in range(3):
        cache.put("t", number, "en", (), answer)
        assert cache.get("t", 0, "en", ()) is answer  # used: kept
    assert len(cache) == 2
    assert cache.get("t", 1, "en", ()) is None
    assert cache.get("t", 0, "en", ("other names",)) is None
    cache.forget("t", 0)
    assert len(cache) == 1 and cache.get("t", 2, "en", ()) is answer
    cache.put("t", 2, "de", (), answer)
    cache.forget("t", 2)  # in every language
    assert len(cache) == 0
