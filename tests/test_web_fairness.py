"""The server's CPU shared fairly, end to end against a real server on 127.0.0.1: one
review per address, a capped review queue with positions, reviews only for the table's
players, finished reviews with an ETag, a budget for ``GET /api/...``, hints within a
budget and one in flight per address, a few listed tables per address, and names that
pass for staff refused with their reason. Each 127.0.0.x is another client address."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from draw_dominoes import Match
from draw_dominoes.web import scheduler
from draw_dominoes.web.names import explain_reason
from test_web_support import Client, InProcessServer, my_turn, play_until

FAST = 150
"""Analysis iterations that review a whole match in a few seconds."""
SLOW = 4000
"""Iterations that keep the reviews' worker busy with one match for far longer than a test."""


@contextlib.contextmanager
def running(db: Path, **settings: Any) -> Iterator[InProcessServer]:
    server = InProcessServer(db, allow_seeds=True, **settings).start()
    try:
        yield server
    finally:
        server.stop()


def seated(server: InProcessServer, table_id: str, token: str | None, **more: Any) -> Client:
    client = Client(server, table_id, token, **more)
    client.recv()
    return client


def ok(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    return client.reply_to(client.send(message))


def finish_match(server: InProcessServer, seed: int) -> dict[str, Any]:
    """Ann (random choices) plays a whole two-seat match against the greedy bot."""
    table = server.create_table(2, "Ann", {"1": "greedy"}, seed=seed)
    ann = seated(server, table["table_id"], table["token"])
    assert ok(ann, {"type": "start"})["type"] == "ok"
    play_until([ann], random.Random(seed), lambda: ann.state["table"]["status"] == "over")
    ann.close()
    return table


def review_path(table_id: str) -> str:
    return f"/api/tables/{table_id}/matches/0/review"


def ask_review(
    server: InProcessServer, table: dict[str, Any], address: str | None = None
) -> httpx.Response:
    return server.post(review_path(table["table_id"]), {"token": table["token"]}, address)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """Four finished matches at four tables in a database the tests copy."""
    db = tmp_path_factory.mktemp("fairness") / "tables.sqlite3"
    with running(db, analysis_iterations=FAST) as server:
        tables = [finish_match(server, seed) for seed in (2026, 7, 8, 9)]
    return db, tables


def copy_of(db: Path, target: Path) -> Path:
    with sqlite3.connect(db) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    return target


def wait_for(condition: Any, what: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        time.sleep(0.1)


# ------------------------------------------------------------------ reviews


def test_one_review_per_address_and_a_capped_queue_with_retry_after(
    tmp_path: Path, finished: tuple[Path, list[dict[str, Any]]]
) -> None:
    db, (first, second, third, fourth) = finished
    copy = copy_of(db, tmp_path / "copy.sqlite3")
    with running(copy, analysis_iterations=SLOW, review_queue=1) as server:
        started = ask_review(server, first, "127.0.0.2")
        assert started.status_code == 202, started.text
        assert started.json()["status"] in ("queued", "running")
        path = review_path(first["table_id"])
        wait_for(lambda: server.get(path).json()["status"] == "running", "the review to run")

        busy = ask_review(server, second, "127.0.0.2")  # the same address again
        assert busy.status_code == 429, busy.text
        assert busy.json()["error"] == "review_busy"
        seconds = int(busy.headers["Retry-After"])
        assert seconds >= 1 and busy.json()["retry_after"] == seconds
        assert f"{seconds} " in busy.json()["message"]

        queued = ask_review(server, second, "127.0.0.3")  # another address waits its turn
        assert queued.status_code == 202, queued.text
        assert queued.json() == {"status": "queued", "position": 1}
        assert server.get(review_path(second["table_id"])).json() == queued.json()
        again = ask_review(server, second, "127.0.0.4")  # already waiting: no second one
        assert again.status_code == 202 and again.json() == queued.json()

        full = ask_review(server, third, "127.0.0.4")  # the queue (one place) is full
        assert full.status_code == 503, full.text
        assert full.json()["error"] == "review_queue_full"
        assert int(full.headers["Retry-After"]) >= 1
        german = server.post(
            review_path(fourth["table_id"]) + "?lang=de",
            {"token": fourth["token"]},
            "127.0.0.5",
        )
        assert german.status_code == 503 and "Sekunden" in german.json()["message"]
        assert server.get(review_path(third["table_id"])).json() == {"status": "none"}
        metrics = server.get("/metrics").text
        assert "draw_reviews_queued 1.0" in metrics


def test_only_the_tables_players_may_ask_for_a_review(
    tmp_path: Path, finished: tuple[Path, list[dict[str, Any]]]
) -> None:
    db, (table, *_) = finished
    with running(copy_of(db, tmp_path / "copy.sqlite3"), analysis_iterations=FAST) as server:
        path = review_path(table["table_id"])
        for body in ({}, {"token": "made-up"}, {"token": 7}):
            refused = server.post(path, body, "127.0.0.2")
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"] == "not_seated"
            assert "watching" in refused.json()["message"]
        assert server.get(path).json() == {"status": "none"}  # nothing was started
        # The seat cookie a player's browser holds is as good as the token.
        cookie = {f"dd_{table['table_id']}": table["token"]}
        with httpx.Client(cookies=cookie, timeout=10) as browser:
            started = browser.post(f"{server.url}{path}", json={})
        assert started.status_code in (200, 202), started.text


def test_a_finished_review_is_sent_with_an_etag_and_304_when_unchanged(
    tmp_path: Path, finished: tuple[Path, list[dict[str, Any]]]
) -> None:
    db, (table, *_) = finished
    with running(copy_of(db, tmp_path / "copy.sqlite3"), analysis_iterations=FAST) as server:
        path = review_path(table["table_id"])
        assert ask_review(server, table).status_code == 202
        wait_for(lambda: server.get(path).json()["status"] == "done", "the review", 120)
        done = server.get(path)
        etag = done.headers["ETag"]
        assert etag.startswith('"') and done.headers["Cache-Control"] == "no-cache"
        assert done.json()["review"]["names"][0] == "Ann"
        same = server.get(path, headers={"If-None-Match": etag})
        assert same.status_code == 304 and same.content == b""
        assert same.headers["ETag"] == etag
        assert server.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
        german = server.get(path + "?lang=de", headers={"If-None-Match": etag})
        assert german.status_code == 200 and german.headers["ETag"] != etag
        # Asked for again by a player: the stored review, the same bytes, nothing new.
        again = ask_review(server, table, "127.0.0.3")
        assert again.status_code == 200 and again.content == done.content
        # A spectator reads it too.
        assert server.get(path, "127.0.0.9").json() == done.json()


# ------------------------------------------------------------------ GET /api/...


def test_gets_of_the_api_are_budgeted_per_address(tmp_path: Path) -> None:
    with running(tmp_path / "tables.sqlite3") as server:
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        answers: list[httpx.Response] = []
        with httpx.Client(transport=transport, timeout=10) as client:
            began = time.monotonic()
            while len(answers) < 400 and (not answers or answers[-1].status_code == 200):
                asked = time.monotonic()
                answers.append(client.get(f"{server.url}/api/bots?lang=de"))
            elapsed = time.monotonic() - began
        allowed, refused = answers[:-1], answers[-1]
        assert all(a.status_code == 200 for a in allowed)
        assert 60 <= len(allowed) <= 60 + 20 * elapsed + 1, (len(allowed), elapsed)
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert "warten" in refused.json()["message"]
        assert int(refused.headers["Retry-After"]) >= 1
        # A refusal comes only after a pause: one connection's flood is slowed down.
        assert time.monotonic() - asked >= 0.9
        # Another address is not held up, nor are the pages and the posts.
        assert server.get("/api/bots", "127.0.0.3").status_code == 200
        assert server.get("/").status_code == 200
        made = server.post("/api/tables", {"players": 2, "name": "Ann"}, "127.0.0.2")
        assert made.status_code == 201


# ------------------------------------------------------------------ hints


def hint_table(server: InProcessServer, seed: int) -> Client:
    """Ann alone against the greedy bot with hints allowed, on her turn."""
    table = server.create_table(2, "Ann", {"1": "greedy"}, seed=seed)
    ann = seated(server, table["table_id"], table["token"])
    assert ok(ann, {"type": "hints", "allowed": True})["type"] == "ok"
    assert ok(ann, {"type": "start"})["type"] == "ok"
    ann.state_where(my_turn)
    return ann


def test_one_hint_in_flight_per_address_at_every_table_together(tmp_path: Path) -> None:
    with running(tmp_path / "tables.sqlite3", analysis_iterations=SLOW) as server:
        first, second = hint_table(server, 3), hint_table(server, 4)
        assert ok(first, {"type": "hint"})["type"] == "ok"
        busy = ok(second, {"type": "hint"})  # while the first is worked out (2 s)
        assert busy["type"] == "error" and busy["code"] == "hint_address_busy", busy
        metrics = server.get("/metrics").text
        assert "draw_hints_in_flight 1.0" in metrics
        for name in ("draw_tables_owned 2.0", "draw_intents_forwarded_total 0.0"):
            assert name in metrics
        for name in ("draw_lease_takeovers_total 0.0", "draw_stale_writes_total 0.0"):
            assert name in metrics
        assert "address" in busy["message"]
        first.wait_for(lambda m: m["type"] == "hint", timeout=30)
        # Once the first is answered, the address may ask again.
        assert ok(second, {"type": "hint"})["type"] == "ok"
        second.wait_for(lambda m: m["type"] == "hint", timeout=30)
        for client in (first, second):
            client.close()


def test_hints_are_budgeted_per_address(tmp_path: Path) -> None:
    with running(
        tmp_path / "tables.sqlite3", analysis_iterations=FAST, hint_burst=2, hints_per_minute=1
    ) as server:
        tables = [hint_table(server, seed) for seed in (3, 4, 5)]
        for ann in tables[:2]:
            assert ok(ann, {"type": "hint"})["type"] == "ok"
            hint = ann.wait_for(lambda m: m["type"] == "hint", timeout=30)
            # The same position again: the same answer, for free.
            assert ok(ann, {"type": "hint"})["type"] == "ok"
            assert ann.wait_for(lambda m: m["type"] == "hint", timeout=5) == hint
        over = ok(tables[2], {"type": "hint"})
        assert over["type"] == "error" and over["code"] == "rate_limited", over
        # Another address has its own budget.
        table = server.create_table(2, "Bea", {"1": "greedy"}, seed=6)
        bea = seated(server, table["table_id"], table["token"], address="127.0.0.2")
        assert ok(bea, {"type": "hints", "allowed": True})["type"] == "ok"
        assert ok(bea, {"type": "start"})["type"] == "ok"
        bea.state_where(my_turn)
        assert ok(bea, {"type": "hint"})["type"] == "ok"
        bea.wait_for(lambda m: m["type"] == "hint", timeout=30)
        for client in (*tables, bea):
            client.close()


# ------------------------------------------------------------------ the public list


def test_at_most_two_listed_tables_per_address(tmp_path: Path) -> None:
    with running(tmp_path / "tables.sqlite3") as server:
        clients: list[Client] = []

        def listed_table(name: str, address: str) -> str:
            request = {"players": 3, "name": name, "public": True}
            made = server.post("/api/tables", request, address).json()
            clients.append(seated(server, made["table_id"], made["token"]))
            time.sleep(0.01)  # each a little newer than the last
            return str(made["table_id"])

        stranger = listed_table("Ann", "127.0.0.2")
        flood = [listed_table(f"Spam {n}", "127.0.0.3") for n in range(6)]
        neighbour = listed_table("Cid", "127.0.0.4")
        listed = [t["id"] for t in server.get("/api/tables").json()["tables"]]
        assert listed == [neighbour, flood[5], flood[4], stranger]
        for client in clients:
            client.close()


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("name", "reason"),
    [("Admin", "staff"), ("Server notice", "staff"), ("visit evil.example", "address")],
)
def test_names_that_pass_for_staff_or_an_address_are_refused_with_the_reason(
    tmp_path: Path, name: str, reason: str
) -> None:
    with running(tmp_path / "tables.sqlite3") as server:
        for lang in ("en", "de"):
            made = server.post(f"/api/tables?lang={lang}", {"players": 2, "name": name})
            assert made.status_code == 400
            assert made.json() == {"error": "bad_name", "message": explain_reason(reason, lang)}
        table = server.create_table(2, "Ann", {})
        joined = server.post(f"/api/tables/{table['table_id']}/join", {"name": name})
        assert joined.json()["message"] == explain_reason(reason, "en")
        ann = seated(server, table["table_id"], table["token"], lang="de")
        renamed = ok(ann, {"type": "rename", "name": name})
        assert renamed["code"] == "bad_name"
        assert renamed["message"] == explain_reason(reason, "de")
        ann.close()


# ------------------------------------------------------------------ bots of many tables


def test_one_addresss_bots_leave_a_worker_for_everybody_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three tables of one address's bots, each thinking 0.3 s a move, on two workers:
    they take one worker, and another address's bot moves at once on the other."""

    def slow(level: str, seed: int, view: Any) -> str:
        time.sleep(0.3)
        return "draw"

    monkeypatch.setattr(scheduler, "decide", slow)
    from concurrent.futures import ThreadPoolExecutor

    view = Match.new(2, seed=1).view(0)

    async def body() -> int:
        bots = scheduler.BotScheduler(workers=2, executor=ThreadPoolExecutor(2))
        try:
            theirs = [
                asyncio.ensure_future(bots.decide(f"t{n}", "expert", n, view, "10.0.0.1"))
                for n in range(3)
            ]
            await asyncio.sleep(0.05)
            await bots.decide("stranger", "expert", 9, view, "10.0.0.2")
            done = sum(move.done() for move in theirs)
            await asyncio.gather(*theirs)
            return done
        finally:
            await bots.close()

    # The address's three moves take one worker, one after another: the stranger's move,
    # on the other, is done before the second of theirs is.
    assert asyncio.run(body()) <= 1
