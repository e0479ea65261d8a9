"""Tables that wait for their people: the round's end, rematches, away players, the host,
public tables; against a real server on 127.0.0.1."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Line, Tile
from draw_dominoes.render import svg
from draw_dominoes.web import present
from draw_dominoes.web.stores.base import SaveTable
from draw_dominoes.web.stores.sqlite import SqliteStore as Store
from test_web_support import Client, InProcessServer, my_turn, play_until


@contextlib.contextmanager
def running(tmp_path: Path, **settings: Any) -> Iterator[InProcessServer]:
    server = InProcessServer(tmp_path / "tables.sqlite3", allow_seeds=True, **settings).start()
    try:
        yield server
    finally:
        server.stop()


def two_people(server: InProcessServer, seed: int = 5) -> tuple[str, Client, Client]:
    """Ann (seat 0) and Bea (seat 1) at a started two-player table."""
    table = server.create_table(2, "Ann", {}, seed=seed)
    bea = server.join(table["table_id"], "Bea")
    TOKENS[table["table_id"]] = bea["token"]
    ann_client = Client(server, table["table_id"], table["token"])
    bea_client = Client(server, table["table_id"], bea["token"])
    ann_client.recv()
    bea_client.recv()
    assert ann_client.reply_to(ann_client.send({"type": "start"}))["type"] == "ok"
    return table["table_id"], ann_client, bea_client


def play_to_round_end(clients: list[Client], rng: random.Random) -> None:
    """Random legal moves until a round is over (nobody continues)."""
    for _ in range(2000):
        if any(c.state.get("round_end") for c in clients):
            return
        acted = False
        for client in clients:
            if my_turn(client.state):
                action = rng.choice(client.state["view"]["legal_actions"])
                reply = client.reply_to(client.send({"type": "action", "action": action}))
                assert reply["type"] == "ok", reply
                acted = True
                break
        if not acted:
            for client in clients:
                with contextlib.suppress(TimeoutError):
                    client.recv(timeout=0.05)
    raise AssertionError("no round ended")


TOKENS: dict[str, str] = {}
"""Bea's seat token per table (only the join answer holds it)."""


def latest(client: Client, quiet: float = 0.2) -> dict[str, Any]:
    client.drain(quiet)
    return client.state


# ------------------------------------------------------------------ the round's end


def test_the_next_round_waits_until_everyone_has_seen_the_round_end(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=30) as server:
        _, ann, bea = two_people(server)
        play_to_round_end([ann, bea], random.Random(3))
        for client, seat in ((ann, 0), (bea, 1)):
            state = client.state_where(lambda m: m["round_end"] is not None)
            assert state["round_end"]["number"] == 1
            assert state["round_end"]["waiting"] == [0, 1]
            assert 0 < state["round_end"]["seconds_left"] <= 30
            assert state["table"]["waiting"] == [0, 1]
            assert state["you"] == seat
        # Nobody may move while the round's end is shown, not even the new leader.
        state = latest(ann)
        leader = state["view"]["current_player"]
        mover = ann if leader == 0 else bea
        action = latest(mover)["view"]["legal_actions"][0]
        refused = mover.reply_to(mover.send({"type": "action", "action": action}))
        assert refused["code"] == "round_end"
        seq = state["seq"]
        assert ann.reply_to(ann.send({"type": "continue"}))["type"] == "ok"
        after = ann.state_where(lambda m: m["round_end"] is None)
        assert after["table"]["waiting"] == [1]
        assert 0 < after["table"]["waiting_seconds_left"] <= 30  # for "still to continue"
        assert latest(bea)["round_end"]["waiting"] == [1]  # Bea still sees the round's end
        again = ann.reply_to(ann.send({"type": "continue"}))
        assert again["code"] == "nothing_to_continue"
        assert bea.reply_to(bea.send({"type": "continue"}))["type"] == "ok"
        started = bea.state_where(lambda m: m["round_end"] is None and not m["table"]["waiting"])
        assert started["seq"] == seq
        reply = mover.reply_to(mover.send({"type": "action", "action": action}))
        assert reply["type"] == "ok"


def test_the_round_end_waits_no_longer_than_the_pause(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=0.5) as server:
        _, ann, bea = two_people(server)
        play_to_round_end([ann, bea], random.Random(3))
        assert ann.reply_to(ann.send({"type": "continue"}))["type"] == "ok"
        # Bea never continues: after the pause the table plays on...
        ann.state_where(lambda m: not m["table"]["waiting"], timeout=5)
        # ...and Bea, who has not pressed Continue, is still shown the round's end.
        state = latest(bea)
        assert state["round_end"] is not None and state["round_end"]["waiting"] == []
        assert bea.reply_to(bea.send({"type": "continue"}))["type"] == "ok"
        assert bea.state_where(lambda m: m["round_end"] is None)


def test_a_person_who_leaves_does_not_hold_up_the_next_round(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=30) as server:
        _, ann, bea = two_people(server)
        play_to_round_end([ann, bea], random.Random(3))
        assert ann.reply_to(ann.send({"type": "continue"}))["type"] == "ok"
        bea.close()
        assert ann.state_where(lambda m: not m["table"]["waiting"], timeout=5)


def test_a_table_of_bots_and_one_person_waits_for_that_person(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=30) as server:
        table = server.create_table(3, "Ann", {"1": "greedy", "2": "random"}, seed=8)
        ann = Client(server, table["table_id"], table["token"])
        ann.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        rng = random.Random(1)
        while not ann.state.get("round_end"):
            if my_turn(ann.state):
                action = rng.choice(ann.state["view"]["legal_actions"])
                assert ann.reply_to(ann.send({"type": "action", "action": action}))["type"] == "ok"
            else:
                ann.recv()
        seq = ann.state["seq"]
        time.sleep(0.5)
        assert latest(ann)["seq"] == seq, "the bots moved while the round's end was shown"
        assert ann.reply_to(ann.send({"type": "continue"}))["type"] == "ok"
        ann.state_where(lambda m: m["seq"] > seq or my_turn(m))


# ------------------------------------------------------------------ rematch


@pytest.mark.slow
def test_a_rematch_starts_only_when_every_person_has_accepted(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=30) as server:
        _, ann, bea = two_people(server, seed=227)
        play_until([ann, bea], random.Random(4), lambda: ann.state["table"]["status"] == "over")
        over = latest(ann)
        assert over["rematch"] == {"accepted": [], "needed": [0, 1]}
        assert over["result"]["scores"] == over["rounds"][-1]["scores"]
        assert ann.reply_to(ann.send({"type": "rematch"}))["type"] == "ok"
        waiting = ann.state_where(lambda m: m["rematch"]["accepted"] == [0])
        assert waiting["table"]["status"] == "over" and waiting["table"]["match_number"] == 1
        assert ann.reply_to(ann.send({"type": "rematch"}))["type"] == "ok"  # asking twice
        assert latest(ann)["table"]["match_number"] == 1
        assert bea.reply_to(bea.send({"type": "rematch"}))["type"] == "ok"
        fresh = ann.state_where(lambda m: m["table"]["match_number"] == 2)
        assert fresh["table"]["status"] == "playing"
        assert fresh["rounds"] == [] and fresh["view"]["history"] == []
        assert fresh["rematch"] is None and fresh["result"] is None


@pytest.mark.slow
def test_a_rematch_does_not_wait_for_someone_who_left(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=0) as server:
        _, ann, bea = two_people(server, seed=227)
        play_until([ann, bea], random.Random(4), lambda: ann.state["table"]["status"] == "over")
        assert ann.reply_to(ann.send({"type": "rematch"}))["type"] == "ok"
        bea.close()
        assert ann.state_where(lambda m: m["table"]["match_number"] == 2, timeout=5)


# ------------------------------------------------------------------ away


def test_an_away_player_is_played_for_by_the_medium_bot_until_back(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=0, away_seconds=0.5) as server:
        table_id, ann, bea = two_people(server, seed=11)
        rng = random.Random(2)
        # Ann plays until it is Bea's turn; Bea, gone, is played for after 0.5 s.
        state = latest(ann)
        while state["view"]["current_player"] != 1:
            action = rng.choice(state["view"]["legal_actions"])
            assert ann.reply_to(ann.send({"type": "action", "action": action}))["type"] == "ok"
            state = latest(ann)
        bea.close()
        seq = state["seq"]
        moved = ann.state_where(lambda m: m["seq"] > seq, timeout=10)
        assert moved["table"]["seats"][1]["away"] is True
        history = moved["view"]["history"] or moved["rounds"][-1]["history"]
        assert history[-1]["player"] == 1  # the move was made for Bea's seat
        # Bea comes back: she is no longer away and plays her own turns again.
        back = Client(server, table_id, TOKENS[table_id])
        state = back.state_where(lambda m: not m["table"]["seats"][1]["away"])
        assert state["you"] == 1
        assert ann.state_where(lambda m: not m["table"]["seats"][1]["away"])
        back.close()


# ------------------------------------------------------------------ the host


def test_a_host_who_leaves_the_lobby_hands_the_table_on(tmp_path: Path) -> None:
    with running(tmp_path, host_grace=0.3) as server:
        table = server.create_table(3, "Ann", {})
        table_id = table["table_id"]
        bea_seat = server.join(table_id, "Bea")
        ann = Client(server, table_id, table["token"])
        bea = Client(server, table_id, bea_seat["token"])
        ann.recv()
        assert bea.recv()["table"]["host_seat"] == 0
        refused = bea.reply_to(bea.send({"type": "seat", "seat": 2, "level": "random"}))
        assert refused["code"] == "host_only"
        ann.close()
        assert bea.state_where(lambda m: m["table"]["host_seat"] == 1, timeout=5)
        stored = Store(tmp_path / "tables.sqlite3").load_table(table_id)
        assert stored is not None and stored.host == 1
        made_bot = bea.reply_to(bea.send({"type": "seat", "seat": 2, "level": "random"}))
        assert made_bot["type"] == "ok"
        assert bea.reply_to(bea.send({"type": "start"}))["type"] == "ok"
        assert bea.state_where(lambda m: m["table"]["status"] == "playing")


def test_a_host_back_within_the_grace_stays_host(tmp_path: Path) -> None:
    with running(tmp_path, host_grace=1.0) as server:
        table = server.create_table(3, "Ann", {})
        table_id = table["table_id"]
        bea_seat = server.join(table_id, "Bea")
        bea = Client(server, table_id, bea_seat["token"])
        bea.recv()
        ann = Client(server, table_id, table["token"])
        ann.recv()
        ann.close()
        ann = Client(server, table_id, table["token"])  # a reload
        time.sleep(1.3)
        assert latest(bea)["table"]["host_seat"] == 0


# ------------------------------------------------------------------ public tables


def test_public_tables_waiting_for_players_are_listed(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        public = server.post(
            "/api/tables", {"players": 3, "name": "Ann", "bots": {"2": "random"}, "public": True}
        ).json()
        private = server.create_table(2, "Cid", {})
        assert server.get("/api/tables").json() == {"tables": []}  # nobody is there yet
        ann = Client(server, public["table_id"], public["token"])
        cid = Client(server, private["table_id"], private["token"])
        ann.recv()
        cid.recv()
        listed = server.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [public["table_id"]]
        assert listed[0]["players"] == 3 and listed[0]["free"] == 1
        assert listed[0]["host"] == "Ann" and listed[0]["names"] == ["Ann", "Bot 3 (random)"]
        assert 0 <= listed[0]["age"] < 60
        assert ann.state["table"]["public"] is True and cid.state["table"]["public"] is False
        # The host takes it off the list, and puts it back; nobody else may.
        assert ann.reply_to(ann.send({"type": "visibility", "public": False}))["type"] == "ok"
        assert server.get("/api/tables").json() == {"tables": []}
        bad = ann.reply_to(ann.send({"type": "visibility", "public": "yes"}))
        assert bad["code"] == "bad_visibility"
        assert ann.reply_to(ann.send({"type": "visibility", "public": True}))["type"] == "ok"
        assert len(server.get("/api/tables").json()["tables"]) == 1
        # Taking the last seat takes it off the list.
        server.join(public["table_id"], "Bea")
        assert server.get("/api/tables").json() == {"tables": []}
        refused = server.post("/api/tables", {"players": 2, "name": "Dan", "public": "1"})
        assert refused.status_code == 400 and refused.json()["error"] == "bad_visibility"


def test_a_stored_table_keeps_its_host_and_visibility(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as raw:  # a file from before tables could be public
        raw.execute(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, players INTEGER NOT NULL,"
            " base_seed INTEGER NOT NULL, created REAL NOT NULL)"
        )
        raw.execute("INSERT INTO tables VALUES ('old', 2, 1, 0)")
    store = Store(db)
    row = store.load_table("old")
    assert row is not None and row.public is False and row.host == 0
    store.commit("old", row.version, [SaveTable(True, 1, False, False, "lobby", "{}")])
    row = store.load_table("old")
    assert row is not None and row.public is True and row.host == 1


# ------------------------------------------------------------------ drawing and replay


def attribute(svg_text: str, name: str) -> float:
    return float(svg_text.split(f' {name}="', 1)[1].split('"', 1)[0])


def test_the_line_is_drawn_as_large_as_the_room_allows() -> None:
    short = long = Line()
    for text in ("[3|3]", "[3|5]", "[5|1]", "[1|6]", "[6|2]"):
        short = short.place(Tile.parse(text), 1 if len(short) else None)
    for low, high in [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 5),
        (5, 6),
        (6, 0),
        (0, 2),
        (2, 4),
        (4, 6),
        (6, 1),
        (1, 3),
        (3, 5),
        (5, 0),
        (0, 3),
        (3, 6),
    ]:
        long = long.place(Tile(low, high), 1 if len(long) else None)
    # On a desktop felt (about 960 × 400) a short line gets at least 1.5 × the usual tiles.
    assert svg.fitting_tile_size(short, 960, 400, present.TILE_SIZES) >= 48
    roomy = present.line_svg(short, "en", 960, "x", 400, role="group")
    usual = present.line_svg(short, "en", 960, "x")
    assert 'role="group"' in roomy and 'role="img"' in usual
    assert attribute(roomy, "width") >= 1.5 * attribute(usual, "width")
    # A long line in a low room gets smaller tiles and stays within the room.
    assert svg.fitting_tile_size(long, 960, 120, present.TILE_SIZES) < 48
    assert attribute(present.line_svg(long, "en", 960, "x", 120), "height") <= 120


@pytest.mark.slow
def test_the_replay_knows_where_rounds_start_and_end(tmp_path: Path) -> None:
    with running(tmp_path, round_pause=0) as server:
        table_id, ann, bea = two_people(server, seed=227)
        play_until([ann, bea], random.Random(4), lambda: ann.state["table"]["status"] == "over")
        first = server.get(f"/api/tables/{table_id}/matches/0/replay/0").json()
        ends, starts = first["round_ends"], first["round_starts"]
        assert len(ends) == len(latest(ann)["rounds"]) >= 2
        assert starts[0] == 0 and starts[1:] == ends[:-1] and ends[-1] == first["total"]
        at_end = server.get(f"/api/tables/{table_id}/matches/0/replay/{ends[0]}").json()
        assert at_end["round"] == 1 and at_end["explanation"] and not at_end["deal"]
        dealt = server.get(f"/api/tables/{table_id}/matches/0/replay/{ends[0]}?deal=1").json()
        assert dealt["round"] == 2 and dealt["explanation"] is None and dealt["deal"]
        assert dealt["line_description"] != at_end["line_description"]


def test_play_against_a_bot_starts_in_one_request(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        made = server.post(
            "/api/tables", {"players": 2, "name": "Ann", "bots": {"1": "greedy"}, "start": True}
        )
        assert made.status_code == 201
        info = server.get(f"/api/tables/{made.json()['table_id']}").json()
        assert info["status"] == "playing"
        # With a seat left open it cannot start, and no table is made.
        before = server.runtime.store.count_tables()  # type: ignore[union-attr]
        refused = server.post(
            "/api/tables", {"players": 3, "name": "Ann", "bots": {"1": "greedy"}, "start": True}
        )
        assert refused.status_code == 400 and refused.json()["error"] == "seats_open"
        assert server.runtime.store.count_tables() == before  # type: ignore[union-attr]
        wrong = server.post("/api/tables", {"players": 2, "name": "Ann", "start": "yes"})
        assert wrong.json()["error"] == "bad_request"


def test_a_person_who_joined_but_never_came_is_played_for_too(tmp_path: Path) -> None:
    """Joined over HTTP, never opened the table: the table does not wait for them forever."""
    with running(tmp_path, round_pause=0, away_seconds=0.3) as server:
        table = server.create_table(2, "Ann", {}, seed=11)
        server.join(table["table_id"], "Bea")
        ann = Client(server, table["table_id"], table["token"])
        ann.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        state = latest(ann)
        rng = random.Random(5)
        while state["view"]["current_player"] != 1:
            action = rng.choice(state["view"]["legal_actions"])
            assert ann.reply_to(ann.send({"type": "action", "action": action}))["type"] == "ok"
            state = latest(ann)
        seq = state["seq"]
        moved = ann.state_where(lambda m: m["seq"] > seq, timeout=10)
        assert moved["table"]["seats"][1]["away"] is True
