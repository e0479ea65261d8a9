"""A database or a bus that goes away while the server runs: the affected requests fail
at once with a clear error, nothing acknowledged is lost, and the server recovers."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest

from tcp_relay import TcpRelay
from test_web_support import LIMITS_OFF, Client, Server, my_turn

pytestmark = pytest.mark.slow


def through(relay_port: int, url: str) -> str:
    parts = urlsplit(url)
    return parts._replace(netloc=f"{parts.username}@127.0.0.1:{relay_port}").geturl()


@pytest.fixture
def postgres_relay(fresh_postgres: str) -> Iterator[TcpRelay]:
    parts = urlsplit(fresh_postgres)
    relay = TcpRelay(parts.hostname or "127.0.0.1", parts.port or 5432).start()
    yield relay
    relay.stop()


def move(client: Client, rng: random.Random) -> dict[str, object]:
    """One move of this seat (it waits for its turn); the server's answer."""
    client.state_where(my_turn, timeout=30)
    action = rng.choice(client.state["view"]["legal_actions"])
    return client.reply_to(client.send({"type": "action", "action": action}))


def stored_count(url: str, table_id: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT count(*) FROM actions WHERE table_id = %s", (table_id,)).fetchone()
    assert row is not None
    return int(row[0])


def test_a_database_gone_away_refuses_clearly_and_the_server_recovers(
    fresh_postgres: str, postgres_relay: TcpRelay
) -> None:
    url = through(postgres_relay.port, fresh_postgres)
    server = Server(url, extra=LIMITS_OFF).start()  # type: ignore[arg-type]
    try:
        table = server.create_table(2, "Ann", {"1": "random"})
        ann = Client(server, table["table_id"], table["token"])
        ann.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        rng = random.Random(1)
        assert move(ann, rng)["type"] == "ok"
        with contextlib.suppress(TimeoutError):
            ann.state_where(my_turn, timeout=10)
        before = stored_count(fresh_postgres, table["table_id"])

        postgres_relay.stop()  # the database goes away
        started = time.monotonic()
        refused = move(ann, rng)
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        created = httpx.post(
            f"{server.url}/api/tables", json={"players": 2, "name": "Bea"}, timeout=15
        )
        assert created.status_code == 503 and created.json()["error"] == "unavailable"
        health = httpx.get(f"{server.url}/healthz", timeout=15)
        assert health.status_code == 503 and health.json()["store"].startswith("unavailable")
        assert time.monotonic() - started < 30  # answers, never a hang
        ann.send({"type": "ping"})
        assert ann.wait_for(lambda m: m["type"] == "pong")  # the socket stays open

        postgres_relay.start()  # it is back
        assert stored_count(fresh_postgres, table["table_id"]) == before  # nothing half-written
        assert move(ann, rng)["type"] == "ok"
        assert httpx.get(f"{server.url}/healthz", timeout=15).status_code == 200
        assert stored_count(fresh_postgres, table["table_id"]) > before
        ann.close()
    finally:
        server.stop()


def test_a_bus_gone_away_refuses_forwarded_intents_and_recovers(
    fresh_postgres: str, redis_url: str, redis_prefix: str
) -> None:
    parts = urlsplit(redis_url)
    relay = TcpRelay(parts.hostname or "127.0.0.1", parts.port or 6379).start()
    bus = parts._replace(netloc=f"127.0.0.1:{relay.port}").geturl()
    extra = [*LIMITS_OFF, "--bus", bus, "--bus-prefix", redis_prefix, "--lease-seconds", "3"]
    servers = [Server(fresh_postgres, extra=extra).start() for _ in range(2)]  # type: ignore[arg-type]
    try:
        owner, other = servers
        table = owner.create_table(2, "Ann", {})
        bea_seat = other.join(table["table_id"], "Bea", address="127.0.0.2")
        ann = Client(owner, table["table_id"], table["token"])
        bea = Client(other, table["table_id"], bea_seat["token"])
        ann.recv()
        bea.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        relay.stop()  # the bus goes away; the database stays
        answer = bea.reply_to(bea.send({"type": "rename", "name": "Bea B"}))
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        health = httpx.get(f"{other.url}/healthz", timeout=15)
        assert health.status_code == 503 and health.json()["bus"] == "unavailable"
        relay.start()
        deadline = time.monotonic() + 30
        while True:  # the bus reconnects on its own
            answer = bea.reply_to(bea.send({"type": "rename", "name": "Bea B"}))
            if answer["type"] == "ok" or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert answer["type"] == "ok", answer
        assert ann.state_where(lambda m: m["table"]["seats"][1]["name"] == "Bea B")
        ann.close()
        bea.close()
    finally:
        for server in servers:
            server.stop()
        relay.stop()
