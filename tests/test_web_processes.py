"""Many processes on one PostgreSQL database and one Redis bus: any process serves any
table, and a table whose owner is killed (SIGKILL) goes on at another without losing or
doubling an acknowledged move."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any, cast

import psycopg
import pytest

from draw_dominoes import Match, parse_action
from test_web_support import LIMITS_OFF, Client, Server, continue_if_asked, my_turn

Acked = list[tuple[int, int, str]]
"""Acknowledged actions: (match, seq, action)."""


def cluster_args(redis_url: str, prefix: str) -> list[str]:
    return [*LIMITS_OFF, "--bus", redis_url, "--bus-prefix", prefix, "--lease-seconds", "3"]


@pytest.fixture
def pair(fresh_postgres: str, redis_url: str, redis_prefix: str) -> Iterator[list[Server]]:
    servers = [
        Server(fresh_postgres, extra=cluster_args(redis_url, redis_prefix)).start()  # type: ignore[arg-type]
        for _ in range(2)
    ]
    yield servers
    for server in servers:
        server.stop()


class Seat:
    """A seated player who reconnects, to whichever process it is told, when cut off."""

    def __init__(self, server: Server, table_id: str, token: str) -> None:
        self.table_id, self.token = table_id, token
        self.client = self.connect(server)

    def connect(self, server: Server) -> Client:
        self.client = Client(server, self.table_id, self.token)
        self.client.recv()
        return self.client

    def step(self, rng: random.Random, acked: Acked) -> bool:
        """One move if it is this seat's turn; True if it did something."""
        client = self.client
        if continue_if_asked(client):
            return True
        state = client.state
        if not my_turn(state):
            with contextlib.suppress(TimeoutError):
                client.recv(timeout=0.05)
            return False
        action = rng.choice(state["view"]["legal_actions"])
        number, seq = state["table"]["match_number"] - 1, state["seq"]
        reply = client.reply_to(client.send({"type": "action", "action": action}))
        if reply["type"] == "ok":
            acked.append((number, seq, action))
            return True
        assert reply["code"] in ("unavailable", "table_moved", "not_your_turn"), reply
        time.sleep(0.2)
        with contextlib.suppress(TimeoutError):
            client.recv(timeout=0.2)
        return False


def stored_actions(url: str, table_id: str) -> Acked:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT number, seq, action FROM actions WHERE table_id = %s ORDER BY number, seq",
            (table_id,),
        ).fetchall()
    return [(int(n), int(s), str(a)) for n, s, a in rows]


def check_stored(url: str, table_id: str, acked: Acked) -> None:
    """Every acknowledged action is stored at its place, none twice, and what is stored
    is a legal match from its seed."""
    stored = stored_actions(url, table_id)
    assert set(acked) <= set(stored), set(acked) - set(stored)
    assert len(stored) == len(set((n, s) for n, s, _ in stored))
    with psycopg.connect(url) as db:
        seed, players = db.execute(
            "SELECT m.seed, t.players FROM matches m JOIN tables t ON t.id = m.table_id"
            " WHERE m.table_id = %s AND m.number = 0",
            (table_id,),
        ).fetchone()  # type: ignore[misc]
    match = Match.new(players, seed=seed)
    for _, seq, text in stored:
        assert not match.is_over
        match.apply(parse_action(text))
        assert seq >= 0


def seat_two(servers: list[Server]) -> tuple[str, Seat, Seat]:
    """Ann creates a table at the first process; Bea joins it through the second."""
    first, second = servers
    table = first.create_table(2, "Ann", {})
    table_id = table["table_id"]
    joined = second.join(table_id, "Bea", address="127.0.0.2")
    ann = Seat(first, table_id, table["token"])
    bea = Seat(second, table_id, joined["token"])
    reply = ann.client.reply_to(ann.client.send({"type": "start"}))
    assert reply["type"] == "ok", reply
    return table_id, ann, bea


@pytest.mark.slow
def test_two_processes_serve_one_table(pair: list[Server], fresh_postgres: str) -> None:
    table_id, ann, bea = seat_two(pair)
    rng, acked = random.Random(1), cast(Acked, [])
    deadline = time.monotonic() + 240
    while ann.client.state["table"]["status"] != "over":
        assert time.monotonic() < deadline
        ann.step(rng, acked)
        bea.step(rng, acked)
        with contextlib.suppress(TimeoutError):
            ann.client.recv(timeout=0.01)
    # Bea, at the other process, saw the same match end with the same scores.
    end = bea.client.state_where(lambda m: m["table"]["status"] == "over")
    assert end["result"] == ann.client.state["result"]
    check_stored(fresh_postgres, table_id, acked)
    owners = [pair[0].get("/healthz").json(), pair[1].get("/healthz").json()]
    assert all(h["status"] == "ok" and h["bus"] == "ok" for h in owners)
    metrics = pair[1].get("/metrics").text
    assert "draw_intents_forwarded" in metrics


@pytest.mark.slow
def test_a_killed_owner_loses_its_tables_to_another_process(
    pair: list[Server], fresh_postgres: str
) -> None:
    table_id, ann, bea = seat_two(pair)
    rng, acked = random.Random(2), cast(Acked, [])
    while len(acked) < 12:
        ann.step(rng, acked)
        bea.step(rng, acked)
    pair[0].kill()  # the owner: no shutdown code runs, its lease stays until it expires
    killed = time.monotonic()
    ann.connect(pair[1])  # the browser reconnects, here to the other process
    moved_at = None
    before = len(acked)
    deadline = time.monotonic() + 120
    while len(acked) < before + 30 and ann.client.state["table"]["status"] != "over":
        assert time.monotonic() < deadline
        ann.step(rng, acked)
        bea.step(rng, acked)
        if moved_at is None and len(acked) > before:
            moved_at = time.monotonic()
    assert moved_at is not None and moved_at - killed < 10.0
    check_stored(fresh_postgres, table_id, acked)


def serve_exit(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "draw_dominoes", "serve", "--port", "1", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_an_unreachable_bus_or_database_is_one_line_and_exit_2(
    fresh_postgres: str, tmp_path: Any
) -> None:
    no_redis = serve_exit("--db", fresh_postgres, "--bus", "redis://127.0.0.1:1/0")
    assert no_redis.returncode == 2, no_redis.stderr
    assert len(no_redis.stderr.strip().splitlines()) == 1 and "127.0.0.1:1" in no_redis.stderr
    no_database = serve_exit("--db", "postgresql://postgres@127.0.0.1:1/none")
    assert no_database.returncode == 2
    assert len(no_database.stderr.strip().splitlines()) == 1
    wrong = serve_exit("--db", "mysql://127.0.0.1/tables")
    assert wrong.returncode == 2 and "mysql" in wrong.stderr
    lonely_bus = serve_exit("--db", str(tmp_path / "t.sqlite3"), "--bus", "redis://127.0.0.1:6379")
    assert lonely_bus.returncode == 2 and "PostgreSQL" in lonely_bus.stderr
