"""Play now on a real server, on SQLite and across two processes on PostgreSQL: people
waiting for the same table are seated together, each ticket their seat's token; bots fill
the table after the wait for those who agreed; a rated wait is for signed-in players."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from test_web_accounts import browser, sign_up
from test_web_support import Client, InProcessServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path / "tables.sqlite3", bot_wait=1.5).start()
    yield running
    running.stop()


def seek(client: httpx.Client, **choice: object) -> dict[str, object]:
    answer = client.post("/api/play-now", json={"players": 2, **choice})
    assert answer.status_code == 200, answer.text
    data: dict[str, object] = answer.json()
    return data


def poll(client: httpx.Client, ticket: object) -> dict[str, object]:
    answer = client.post("/api/play-now/poll", json={"ticket": ticket})
    assert answer.status_code == 200, answer.text
    data: dict[str, object] = answer.json()
    return data


def test_two_people_waiting_for_two_seats_are_seated_together(server: InProcessServer) -> None:
    with browser(server) as ann, browser(server) as bea:
        first = seek(ann, name="Ann")
        assert first["status"] == "waiting" and first["bots_in"] is None
        assert poll(ann, first["ticket"])["status"] == "waiting"
        second = seek(bea, name="Bea")
        assert second["status"] == "matched" and second["seat"] == 1
        again = poll(ann, first["ticket"])
        assert again["status"] == "matched" and again["seat"] == 0
        table_id = str(again["table_id"])
        assert second["table_id"] == table_id and ann.cookies[f"dd_{table_id}"] == first["ticket"]
        for ticket, seat in ((first["ticket"], 0), (second["ticket"], 1)):
            player = Client(server, table_id, str(ticket))
            state = player.recv()
            assert state["you"] == seat and state["table"]["status"] == "playing"
            assert [s["name"] for s in state["table"]["seats"]] == ["Ann", "Bea"]
            player.close()


def test_bots_fill_the_table_only_for_those_who_agreed(server: InProcessServer) -> None:
    with browser(server) as ann, browser(server) as cid:
        waiting = seek(ann, players=3, bots=True, level="easy", name="Ann")
        assert waiting["status"] == "waiting" and 0 < float(str(waiting["bots_in"])) <= 1.5
        alone = seek(cid, players=4)  # no bots asked for: waits on; no name: "Player"
        time.sleep(1.7)
        filled = poll(ann, waiting["ticket"])
        assert filled["status"] == "matched"
        player = Client(server, str(filled["table_id"]), str(waiting["ticket"]))
        seats = player.recv()["table"]["seats"]
        player.close()
        assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
        assert all(s["level"] == "greedy" for s in seats[1:])  # the easy level's bot
        assert poll(cid, alone["ticket"])["status"] == "waiting"
        assert cid.post("/api/play-now/cancel", json={"ticket": alone["ticket"]}).status_code == 204
        gone = cid.post("/api/play-now/poll", json={"ticket": alone["ticket"]})
        assert gone.status_code == 404 and gone.json()["error"] == "unknown_ticket"


def test_bad_requests_and_rated_waits(server: InProcessServer) -> None:
    with browser(server) as guest:
        for body in [
            {"players": 5},
            {"players": "2"},
            {"players": 2, "rated": "yes"},
            {"players": 2, "level": "godlike"},
            {"players": 2, "level": ["x"]},
        ]:
            assert guest.post("/api/play-now", json=body).status_code == 400, body
        refused = guest.post("/api/play-now", json={"players": 2, "rated": True})
        assert refused.status_code == 403 and refused.json()["error"] == "rated_needs_account"
        assert guest.post("/api/play-now/poll", json={"ticket": "x" * 20}).status_code == 404
    with browser(server) as ann, browser(server) as bea:
        sign_up(ann, "Anna")
        sign_up(bea, "Bea")
        first = seek(ann, rated=True)
        unrated = seek(bea)  # a rated and an unrated wait never meet
        assert unrated["status"] == "waiting"
        second = seek(bea, rated=True)
        assert second["status"] == "matched"
        poll(ann, first["ticket"])  # the seats are the accounts'
        games = ann.get("/api/me").json()["games"]
        assert [g["table_id"] for g in games] == [second["table_id"]]


def test_people_at_two_processes_are_paired_once(fresh_postgres: str) -> None:
    one = InProcessServer(fresh_postgres).start()  # type: ignore[arg-type]
    two = InProcessServer(fresh_postgres).start()  # type: ignore[arg-type]
    try:
        with browser(one) as ann, browser(two) as bea, browser(one) as cid:
            first = seek(ann, name="Ann")
            second = seek(bea, name="Bea")  # at the other process
            assert second["status"] == "matched"
            third = seek(cid, name="Cid")  # the next pair starts afresh
            assert third["status"] == "waiting"
            assert poll(ann, first["ticket"])["table_id"] == second["table_id"]
    finally:
        one.stop()
        two.stop()
