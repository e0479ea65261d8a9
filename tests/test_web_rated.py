"""Rated matches on a real server: only for signed-in players and the bots' levels; at the
end the ratings move once (Glicko-2 by pairs), and the API, the profile and the
leaderboard show them. The stores keep each match's changes once, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from draw_dominoes.web.ratings import Rating
from draw_dominoes.web.ratings.levels import LEVEL_RATINGS
from draw_dominoes.web.stores import open_store
from draw_dominoes.web.stores.base import AccountRow, SeatRow, TableRow
from draw_dominoes.web.stores.ratings_sql import RatingChange
from test_web_accounts import browser, sign_up
from test_web_support import Client, InProcessServer, play_until


def rating_changes(client: httpx.Client, table_id: str) -> list[dict[str, object]]:
    """Match 0's rating changes, once stored (a moment after the match's end)."""
    changes: list[dict[str, object]] = []
    for _ in range(100):
        changes = client.get(f"/api/tables/{table_id}/matches/0/ratings").json()["changes"]
        if changes:
            break
        time.sleep(0.1)
    return changes


@pytest.fixture
def server(tmp_path: Path) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path / "tables.sqlite3", round_pause=0).start()
    yield running
    running.stop()


def test_only_signed_in_players_and_the_levels_play_rated(server: InProcessServer) -> None:
    rated = {"players": 2, "name": "Anna", "bots": {"1": "random"}, "rated": True}
    with browser(server) as guest:
        refused = guest.post("/api/tables", json=rated)
        assert refused.status_code == 403 and refused.json()["error"] == "rated_needs_account"
        unrated = guest.post("/api/tables", json={**rated, "rated": False})
        assert unrated.status_code == 201
        bad = guest.post("/api/tables", json={**rated, "rated": "yes"})
        assert bad.status_code == 400 and bad.json()["error"] == "bad_rated"
    with browser(server) as anna:
        sign_up(anna, "Anna")
        pimc = anna.post("/api/tables", json={**rated, "bots": {"1": "pimc"}})
        assert pimc.status_code == 400 and pimc.json()["error"] == "rated_levels_only"
        open_seat = anna.post("/api/tables", json={**rated, "bots": {}})
        assert open_seat.status_code == 201
        table_id = open_seat.json()["table_id"]
    with browser(server) as guest:  # a guest cannot take a rated table's seat
        joined = guest.post(f"/api/tables/{table_id}/join", json={"name": "Bea"})
        assert joined.status_code == 403 and joined.json()["error"] == "rated_needs_account"
    with browser(server) as bea:
        sign_up(bea, "Bea")
        assert bea.post(f"/api/tables/{table_id}/join", json={"name": "Bea"}).status_code == 200


def test_a_rated_match_against_a_level_moves_the_players_rating_once(
    server: InProcessServer,
) -> None:
    with browser(server) as anna:
        sign_up(anna, "Anna")
        made = anna.post(
            "/api/tables",
            json={
                "players": 2,
                "name": "Anna",
                "bots": {"1": "easy"},
                "rated": True,
                "start": True,
            },
        )
        assert made.status_code == 201, made.text
        table_id, token = made.json()["table_id"], made.json()["token"]
        player = Client(server, table_id, token)
        player.recv()
        assert player.state["table"]["rated"] is True
        shown = anna.get(f"/api/tables/{table_id}/ratings").json()["seats"]
        easy = LEVEL_RATINGS["easy"].rating
        assert shown == {
            "0": {"rating": 1500, "provisional": True},
            "1": {"rating": round(easy), "provisional": False},
        }
        play_until([player], random.Random(3), lambda: player.state["table"]["status"] == "over")
        player.close()
        (mine,) = rating_changes(anna, table_id)
        assert mine["seat"] == 0 and mine["username"] == "Anna" and mine["before"] == 1500
        assert mine["change"] != 0 and mine["provisional"] is True
        scores = player.state["result"]["scores"]
        assert (int(mine["change"]) > 0) == (scores[0] > scores[1])  # type: ignore[call-overload]  # a win against the level gains
        me = anna.get("/api/me").json()
        assert me["ratings"]["2"]["games"] == 1
        assert me["ratings"]["2"]["rating"] == mine["after"]
    board = httpx.get(f"{server.url}/api/leaderboard?players=2", timeout=10).json()
    assert [row["username"] for row in board["leaders"]] == ["Anna"]
    assert httpx.get(f"{server.url}/api/leaderboard?players=5", timeout=10).status_code == 400
    profile = httpx.get(f"{server.url}/players/anna?lang=de", timeout=10)
    assert profile.status_code == 200 and "<svg" in profile.text and "Anna" in profile.text
    page = httpx.get(f"{server.url}/leaderboard?players=2", timeout=10)
    assert page.status_code == 200 and "/players/Anna" in page.text


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    url: str = request.getfixturevalue("fresh_postgres")
    return url


def test_a_matchs_changes_are_stored_once_with_the_new_rating(where: str) -> None:
    store = open_store(where)
    try:
        seats = (
            SeatRow(0, "human", "Anna", None, "a" * 64),
            SeatRow(1, "bot", "Bot", "greedy", None),
        )
        store.create_table(TableRow("t1", 2, 1, 1.0, seats, ()))
        assert store.create_account(AccountRow("acc", "Anna", "scrypt$x", 1.0), "anna")
        assert store.claim_seat("t1", "a" * 64, "acc")
        (seat,) = store.table_accounts("t1")
        assert (seat.seat, seat.account_id, seat.username) == (0, "acc", "Anna")
        change = RatingChange(0, "acc", "Anna", 1500.0, 1580.5, 250.0, 0.06, 10.0)
        assert store.record_ratings("t1", 0, 2, [change])
        assert not store.record_ratings("t1", 0, 2, [change])  # once, whoever tries again
        (row,) = store.account_ratings("acc")
        assert (row.rating, row.deviation, row.games) == (1580.5, 250.0, 1)
        assert store.ratings_of(["acc", "nobody"], 2) == {"acc": row}
        assert store.match_ratings("t1", 0) == [change]
        assert store.rating_history("acc", 2, 10) == [change]
        assert store.leaderboard(2, 10) == [row] and store.leaderboard(3, 10) == []
        store.delete_account("acc")  # a deleted player's ratings go with the account
        assert store.leaderboard(2, 10) == [] and store.match_ratings("t1", 0) == []
    finally:
        store.close()


def test_the_levels_have_ratings_on_the_same_scale() -> None:
    assert set(LEVEL_RATINGS) == {"beginner", "easy", "medium", "strong", "expert"}
    assert all(isinstance(r, Rating) for r in LEVEL_RATINGS.values())
    order = [LEVEL_RATINGS[level].rating for level in ("beginner", "easy", "medium")]
    assert order == sorted(order)


def test_w4_w6_resigning_a_rated_match_is_a_loss_and_frees_the_bot_limit(
    tmp_path: Path,
) -> None:
    """Resigned from My games (the API), a rated match against a level is over at once and
    rated as a loss (W4, W6); the address's limit of bot matches is free again."""
    server = InProcessServer(tmp_path / "tables.sqlite3", round_pause=0, max_bot_tables=1).start()
    try:
        with browser(server) as anna:
            sign_up(anna, "Anna")
            rated = {"players": 2, "name": "Anna", "bots": {"1": "easy"}, "rated": True}
            made = anna.post("/api/tables", json={**rated, "start": True})
            assert made.status_code == 201, made.text
            table_id = made.json()["table_id"]
            again = anna.post("/api/tables", json={**rated, "start": True})
            assert again.status_code == 400 and again.json()["error"] == "too_many_bot_tables"
            games = anna.get("/api/me").json()["games"]
            assert games[0]["bots_only"] is True and games[0]["status"] == "playing"
            with browser(server) as stranger:  # another browser, no seat: refused
                refused = stranger.post(f"/api/tables/{table_id}/resign", json={})
                assert refused.status_code == 403 and refused.json()["error"] == "not_seated"
            anna.cookies.pop(f"dd_{table_id}", None)  # the account's seat, from any device
            resigned = anna.post(f"/api/tables/{table_id}/resign", json={})
            assert resigned.status_code == 200 and resigned.json()["seat"] == 0
            twice = anna.post(f"/api/tables/{table_id}/resign", json={})
            assert twice.status_code == 409 and twice.json()["error"] == "not_playing"
            (mine,) = rating_changes(anna, table_id)
            assert int(str(mine["change"])) < 0, "a resignation is a loss, whatever the score"
            assert anna.get("/api/me").json()["games"][0]["status"] == "over"
            assert anna.post("/api/tables", json={**rated, "start": True}).status_code == 201
    finally:
        server.stop()
