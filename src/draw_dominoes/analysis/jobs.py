"""Running many independent analyses: in this process, or on every core."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

__all__ = ["run_jobs"]

Key = TypeVar("Key", bound=Hashable)
Result = TypeVar("Result")


def run_jobs(
    work: Callable[..., Result],
    jobs: Mapping[Key, tuple[Any, ...]],
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    done: Callable[[Key, Result], None],
) -> None:
    """``work(*arguments)`` for every job, ``done(key, result)`` as each finishes: one at a
    time here when one core (``workers``) is wanted or there is a single job, else on
    ``executor`` or a pool of spawned processes (``workers``; ``None``: every core) that is
    shut down, its waiting jobs dropped, whatever happens."""
    cores = workers if workers is not None else os.cpu_count() or 1
    if executor is None and (cores <= 1 or len(jobs) <= 1):
        for key, arguments in jobs.items():
            done(key, work(*arguments))
        return
    own = executor is None
    pool = executor or ProcessPoolExecutor(cores, mp_context=multiprocessing.get_context("spawn"))
    try:
        futures = {pool.submit(work, *arguments): key for key, arguments in jobs.items()}
        for future in as_completed(futures):
            done(futures[future], future.result())
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
