"""Shared helpers for the tests: scripted deals, random play, PostgreSQL and Redis servers."""

from __future__ import annotations

import json
import os
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import settings

from draw_dominoes import ALL_TILES, Round, Tile

# The same examples on every run: a property test that fails, fails again.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.load_profile("repeatable")

USES_JAX = frozenset({"test_envs_jax.py", "research.md"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """What runs JAX goes last: once XLA runs, its threads make every later ``fork`` (the
    terminal's pseudo-terminals, the tournament's process pool) liable to deadlock."""
    items.sort(key=lambda item: item.path.name in USES_JAX)


DATA = Path(__file__).parent / "data"
RULES = Path(__file__).parent.parent / "docs" / "rules"


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


def deal(hands: list[list[str]], top: list[str] = (), leader: int = 0) -> Round:  # type: ignore[assignment]
    """A round from the given hands; the boneyard starts with ``top`` and then holds every
    other tile in set order."""
    used = {Tile.parse(t) for hand in hands for t in hand} | {Tile.parse(t) for t in top}
    rest = [str(t) for t in ALL_TILES if t not in used]
    return Round.from_deal(hands, list(top) + rest, leader)


def play_randomly(round_: Round, rng: random.Random, steps: int | None = None) -> None:
    while not round_.is_over and (steps is None or steps > 0):
        round_.apply(rng.choice(round_.legal_actions()))
        if steps is not None:
            steps -= 1


def worked_examples() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "worked_examples.json").read_text())
    return data


def snapshot(round_: Round) -> tuple[Any, ...]:
    """Everything observable about a round, to prove an action changed nothing."""
    return (
        tuple(round_.hand(p) for p in range(round_.players)),
        round_.boneyard,
        round_.line,
        round_.history,
        round_.current_player,
        round_.outcome,
        tuple(round_.lacking(p) for p in range(round_.players)),
    )


# ---------------------------------------------------------------- PostgreSQL and Redis
# Real servers, never mocks. Without one, the tests that need it skip (saying how to
# enable them), except in CI (CI=true), where they must run and so fail instead.

POSTGRES_ENV = "DRAW_DOMINOES_TEST_POSTGRES"
REDIS_ENV = "DRAW_DOMINOES_TEST_REDIS"


def _unreachable(what: str, url: str, variable: str, error: BaseException) -> None:
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    message = f"{what} is not reachable at {url} ({first})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; CI must run these tests", pytrace=False)
    pytest.skip(f"{message}: start {what}, or set {variable} to a server's URL")


def database_url(base: str, name: str) -> str:
    """``base`` with its database replaced by ``name``."""
    return urlunsplit(urlsplit(base)._replace(path=f"/{name}"))


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A PostgreSQL server's URL whose user may create databases."""
    import psycopg

    url = os.environ.get(POSTGRES_ENV, "postgresql://postgres@127.0.0.1:5432/postgres")
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as error:
        _unreachable("PostgreSQL", url, POSTGRES_ENV, error)
    return url


@pytest.fixture
def fresh_postgres(postgres_url: str) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test (connections and all)."""
    import psycopg

    name = f"dd_test_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield database_url(postgres_url, name)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    url = os.environ.get(REDIS_ENV, "redis://127.0.0.1:6379/0")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except redis.RedisError as error:
        _unreachable("Redis", url, REDIS_ENV, error)
    return url


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of the test's own; its keys are deleted after the test."""
    import redis

    prefix = f"dd_test_{secrets.token_hex(6)}:"
    try:
        yield prefix
    finally:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3)
        try:
            keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
