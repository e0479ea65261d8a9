"""The bot pool shared fairly: bots before analyses, one hint in flight per address, and
no worker process left behind when the server stops (real processes, real asyncio)."""

from __future__ import annotations

import asyncio
import time

import pytest

from draw_dominoes import Match
from draw_dominoes.view import PlayerView
from draw_dominoes.web.limits import Refused
from draw_dominoes.web.scheduler import INLINE_LEVELS, BotScheduler, stop_processes
from test_web_support import children, eventually, run_bounded

SEARCH_LEVEL = "heuristic"
"""A bot that thinks in a worker process (not inline) and answers in well under a second."""


def a_view() -> PlayerView:
    match = Match.new(2, seed=8)
    return match.view(match.current_player)


async def warm(scheduler: BotScheduler, view: PlayerView) -> None:
    """Start every worker process (each answers one decision), so timings below are not
    a process's start-up."""
    await asyncio.gather(
        *(scheduler.decide("warm", SEARCH_LEVEL, n, view) for n in range(scheduler.workers))
    )
    scheduler.served.clear()


def test_the_search_level_is_not_chosen_inline() -> None:
    assert SEARCH_LEVEL not in INLINE_LEVELS


def test_a_bot_is_served_before_an_analysis_that_asked_earlier() -> None:
    """One worker, busy with an analysis; another analysis and then a bot's decision
    wait: the decision goes first."""

    async def body() -> list[str]:
        scheduler = BotScheduler(workers=1)
        view = a_view()
        try:
            await warm(scheduler, view)
            busy = asyncio.ensure_future(scheduler.run("busy", time.sleep, 0.4))
            await asyncio.sleep(0.1)  # the worker has it
            later = asyncio.ensure_future(scheduler.run("hint", time.sleep, 0.01))
            await asyncio.sleep(0)
            bot = asyncio.ensure_future(scheduler.decide("bot", SEARCH_LEVEL, 1, view))
            await asyncio.sleep(0)
            assert scheduler.queue_length == 2 and scheduler.analyses_waiting == 1
            await asyncio.gather(busy, later, bot)
            assert bot.result() in view.legal_actions
        finally:
            await scheduler.close()
        return list(scheduler.served)

    assert run_bounded(body) == ["busy", "bot", "hint"]


def test_analyses_leave_a_worker_free_for_the_bots() -> None:
    """Two workers: analyses take one at most, so a bot's decision never waits behind
    them, and a second analysis waits for the first though a worker is idle."""

    async def body() -> list[str]:
        scheduler = BotScheduler(workers=2)
        assert scheduler.analysis_workers == 1
        view = a_view()
        try:
            await warm(scheduler, view)
            first = asyncio.ensure_future(scheduler.run("first", time.sleep, 1.0))
            second = asyncio.ensure_future(scheduler.run("second", time.sleep, 0.01))
            await asyncio.sleep(0.1)
            assert scheduler.analyses_waiting == 1  # held back: one analysis at a time
            await scheduler.decide("bot", SEARCH_LEVEL, 2, view)
            assert not first.done()  # the bot did not wait for it
            await asyncio.gather(first, second)
        finally:
            await scheduler.close()
        return list(scheduler.served)

    assert run_bounded(body) == ["first", "bot", "second"]


def test_one_hint_in_flight_per_address() -> None:
    """A second hint from the same address, at any table, is refused at once while the
    first waits or runs; another address is not held up; once the answer is in, the
    address may ask again."""

    async def body() -> None:
        scheduler = BotScheduler(workers=1)
        try:
            first = scheduler.run_hint("t1", "10.0.0.1", time.sleep, 0.2)
            assert scheduler.hinting("10.0.0.1")
            with pytest.raises(Refused) as refused:
                scheduler.run_hint("t2", "10.0.0.1", time.sleep, 0.01)
            assert refused.value.code == "hint_address_busy"
            assert refused.value.message("de") and refused.value.message("en")
            other = scheduler.run_hint("t3", "10.0.0.2", time.sleep, 0.01)
            await asyncio.gather(first, other)
            assert not scheduler.hinting("10.0.0.1")
            await scheduler.run_hint("t2", "10.0.0.1", time.sleep, 0.01)
            assert list(scheduler.served) == ["t1", "t3", "t2"]
        finally:
            await scheduler.close()

    run_bounded(body)


def test_a_hint_given_up_while_it_waits_frees_its_place_and_its_address() -> None:
    async def body() -> None:
        scheduler = BotScheduler(workers=1)
        try:
            busy = scheduler.run_hint("busy", "10.0.0.9", time.sleep, 0.3)
            await asyncio.sleep(0.05)
            waiting = scheduler.run_hint("t", "10.0.0.1", time.sleep, 5)
            assert scheduler.analyses_waiting == 1
            waiting.cancel()
            await asyncio.sleep(0)
            assert scheduler.analyses_waiting == 0
            assert not scheduler.hinting("10.0.0.1")
            await busy
            assert list(scheduler.served) == ["busy"]  # the given-up hint never ran
        finally:
            await scheduler.close()

    run_bounded(body)


def test_an_analysis_error_goes_to_the_asker_and_frees_the_address() -> None:
    async def body() -> None:
        scheduler = BotScheduler(workers=1)
        try:
            with pytest.raises(ValueError):
                await scheduler.run_hint("t", "10.0.0.1", int, "not a number")
            assert not scheduler.hinting("10.0.0.1")
            assert await scheduler.run_hint("t", "10.0.0.1", int, "12") == 12
        finally:
            await scheduler.close()

    run_bounded(body)


def test_close_terminates_and_joins_the_workers_even_mid_task() -> None:
    """The pool's processes are gone when ``close`` returns, a worker in the middle of
    a long task included; whoever waited gets a cancellation; nothing more starts."""

    async def body() -> None:
        before = children()
        scheduler = BotScheduler(workers=2)
        view = a_view()
        assert await scheduler.decide("t", "ismcts", 1, view) in view.legal_actions
        long = asyncio.ensure_future(scheduler.run("long", time.sleep, 60))
        await asyncio.sleep(0.2)
        workers = children() - before
        assert workers and all(worker.is_alive() for worker in workers)
        await asyncio.wait_for(scheduler.close(), 30)  # not the 60 s the task would take
        assert eventually(lambda: not any(worker.is_alive() for worker in workers))
        assert not (children() & workers)
        await asyncio.gather(long, return_exceptions=True)
        assert long.cancelled()
        late = asyncio.ensure_future(scheduler.decide("t", "ismcts", 2, view))
        with pytest.raises(asyncio.CancelledError):
            await late
        assert eventually(lambda: not (children() - before))  # no fresh pool either

    run_bounded(body)


def test_a_killed_worker_costs_one_answer_not_the_pool() -> None:
    """A worker that dies (killed, out of memory) breaks a process pool for good; the
    scheduler starts a fresh one, so the bots go on."""

    async def body() -> None:
        before = children()
        scheduler = BotScheduler(workers=1)
        view = a_view()
        try:
            await scheduler.decide("t", SEARCH_LEVEL, 1, view)
            (worker,) = children() - before
            worker.kill()
            worker.join(5)
            failures = 0
            for n in range(3):
                try:
                    await scheduler.decide("t", SEARCH_LEVEL, n, view)
                except Exception:  # the broken pool's answer
                    failures += 1
            assert failures <= 1
            assert await scheduler.decide("t", SEARCH_LEVEL, 9, view) in view.legal_actions
        finally:
            await scheduler.close()
        assert eventually(lambda: not (children() - before))

    run_bounded(body)


def test_stop_processes_leaves_a_thread_pool_alone_but_shut() -> None:
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1)
    assert pool.submit(sum, [1, 2]).result() == 3
    stop_processes(pool)
    with pytest.raises(RuntimeError):
        pool.submit(sum, [1])
