"""Hints at the table and reviews of finished matches, against a real server on 127.0.0.1."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Match, parse_action, record
from draw_dominoes.analysis import KINDS, review
from draw_dominoes.bots import decision_seed
from draw_dominoes.i18n import explain_hint
from draw_dominoes.web.advice import hint_entries, hint_message
from draw_dominoes.web.stores.sqlite import SqliteStore
from draw_dominoes.web.table.errors import UserError
from test_web_support import LIMITS_OFF, TILE_TEXT, Client, Server, my_turn, play_until

ITERATIONS = 150
"""Small analyses keep the tests fast; the web server takes them with --analysis-iterations."""
SERVER_ARGS = [*LIMITS_OFF, "--analysis-iterations", str(ITERATIONS)]


def start_server(db: Path) -> Server:
    return Server(db, allow_seeds=True, extra=SERVER_ARGS).start()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = start_server(tmp_path_factory.mktemp("advice") / "tables.sqlite3")
    yield running
    running.stop()


def seated(server: Server, table_id: str, token: str | None, lang: str = "en") -> Client:
    client = Client(server, table_id, token, lang=lang)
    client.recv()
    return client


def error_code(client: Client, message: dict[str, Any]) -> str | None:
    reply = client.reply_to(client.send(message))
    return None if reply["type"] == "ok" else str(reply["code"])


def lobby_with_hints(server: Server, seed: int) -> tuple[str, list[Client], Client]:
    """Ann hosts, Bea joins, a spectator watches; Ann allows hints and starts."""
    table = server.create_table(2, "Ann", {}, seed=seed)
    table_id = table["table_id"]
    bea = server.join(table_id, "Bea")
    ann_client = seated(server, table_id, table["token"])
    bea_client = seated(server, table_id, bea["token"], lang="de")
    watcher = seated(server, table_id, None)
    assert error_code(ann_client, {"type": "hints", "allowed": True}) is None
    assert error_code(ann_client, {"type": "start"}) is None
    for client in (ann_client, bea_client, watcher):
        client.state_where(lambda m: m["table"]["status"] == "playing")
    return table_id, [ann_client, bea_client], watcher


def test_hints_are_off_by_default_and_then_refused(server: Server) -> None:
    response = server.post("/api/tables", {"players": 2, "name": "Ann", "bots": {"1": "greedy"}})
    table = response.json()
    ann = seated(server, table["table_id"], table["token"])
    assert ann.state["table"]["hints"] is False
    assert error_code(ann, {"type": "start"}) is None
    state = ann.state_where(my_turn)
    assert state["table"]["hints"] is False
    assert error_code(ann, {"type": "hint"}) == "hints_off"
    ann.drain(0.3)
    assert not [m for m in ann.received if m["type"] == "hint"]
    ann.close()


def test_the_hints_toggle_is_the_hosts_in_the_lobby_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.sqlite3"
    server = start_server(db)
    try:
        table = server.create_table(3, "Ann", {"1": "greedy"}, seed=11)
        table_id = table["table_id"]
        bea = server.join(table_id, "Bea")
        ann_client = seated(server, table_id, table["token"])
        bea_client = seated(server, table_id, bea["token"])
        watcher = seated(server, table_id, None)
        assert error_code(bea_client, {"type": "hints", "allowed": True}) == "host_only"
        assert error_code(watcher, {"type": "hints", "allowed": True}) == "not_seated"
        for bad in ("yes", 1, None, [True]):
            assert error_code(ann_client, {"type": "hints", "allowed": bad}) == "bad_hints"
        assert ann_client.state["table"]["hints"] is False  # nothing changed
        assert error_code(ann_client, {"type": "hints", "allowed": True}) is None
        for client in (ann_client, bea_client, watcher):  # everyone sees it, allowed or not
            client.state_where(lambda m: m["table"]["hints"] is True)
        for client in (ann_client, bea_client, watcher):
            client.close()
    finally:
        server.stop()

    server = start_server(db)
    try:
        ann_client = seated(server, table_id, table["token"])
        assert ann_client.state["table"]["hints"] is True
        assert error_code(ann_client, {"type": "hints", "allowed": False}) is None
        ann_client.state_where(lambda m: m["table"]["hints"] is False)
        assert error_code(ann_client, {"type": "hints", "allowed": True}) is None
        assert error_code(ann_client, {"type": "start"}) is None
        ann_client.state_where(lambda m: m["table"]["status"] == "playing")
        assert error_code(ann_client, {"type": "hints", "allowed": False}) == "already_started"
        assert ann_client.state["table"]["hints"] is True
        ann_client.close()
    finally:
        server.stop()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT hints FROM tables WHERE id = ?", (table_id,)).fetchone() == (1,)


def test_a_database_from_before_hints_gets_the_column(tmp_path: Path) -> None:
    """An old file (no ``hints`` column, no ``reviews`` table) opens, keeps its tables, and
    every table in it has hints off."""
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as raw:
        raw.executescript(
            """CREATE TABLE tables (id TEXT PRIMARY KEY, players INTEGER NOT NULL,
                base_seed INTEGER NOT NULL, created REAL NOT NULL);
            CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL,
                kind TEXT NOT NULL, name TEXT NOT NULL, level TEXT, token_hash TEXT,
                PRIMARY KEY (table_id, seat));
            INSERT INTO tables VALUES ('old', 2, 5, 1.0);
            INSERT INTO seats VALUES ('old', 0, 'human', 'Ann', NULL, NULL);
            INSERT INTO seats VALUES ('old', 1, 'bot', 'Bot 2 (greedy)', 'greedy', NULL);"""
        )
    store = SqliteStore(db)
    row = store.load_table("old")
    assert row is not None and row.hints is False and row.public is False
    assert store.load_review("old", 0) is None
    store.close()


def test_a_hint_goes_to_the_asker_alone_and_names_the_askers_own_actions(server: Server) -> None:
    _, players, watcher = lobby_with_hints(server, seed=41)
    rng = random.Random(3)
    hints = 0
    for _ in range(6):  # a few turns, each player asking on their own turn
        mover = next(c for c in players if my_turn(c.state))
        other = next(c for c in players if c is not mover)
        state = mover.state
        assert error_code(other, {"type": "hint"}) == "not_your_turn"
        assert error_code(watcher, {"type": "hint"}) == "not_seated"
        assert error_code(mover, {"type": "hint"}) is None
        hint = mover.wait_for(lambda m: m["type"] == "hint")
        hints += 1
        view = state["view"]
        assert hint["seq"] == state["seq"]
        assert hint["action"] in view["legal_actions"]
        if hint["tile"] is not None:
            assert hint["tile"] in view["hand"]
            assert hint["action"].startswith(hint["tile"])
        # The words name tiles of the asker's own hand only (the best and the next best).
        assert set(TILE_TEXT.findall(hint["text"])) <= set(view["hand"])
        # The hint is the analysis of that seat's view at the server's setting.
        match = replay_current(mover.state, seed=41)
        seat = view["player"]
        entries = hint_entries(match.view(seat), ITERATIONS, decision_seed(41, state["seq"], seat))
        assert entries[0]["action"] == hint["action"]
        if len(entries) > 1 and entries[0]["points"] is not None:
            gain = entries[0]["points"] - entries[1]["points"]
            alternative = parse_action(entries[1]["action"])
        else:
            gain, alternative = None, None
        lang = "de" if mover is players[1] else "en"
        best = parse_action(hint["action"])
        line = match.view(seat).line
        assert hint["text"] == explain_hint(best, alternative, gain, line, lang)
        action = rng.choice(view["legal_actions"])
        assert error_code(mover, {"type": "action", "action": action}) is None
        for client in [*players, watcher]:
            client.state_where(lambda m, seq=state["seq"]: m["seq"] > seq)
        if any(c.state.get("round_end") for c in players):
            break
    for client in [*players, watcher]:
        client.drain(0.3)
    asked = [m for m in players[0].received + players[1].received if m["type"] == "hint"]
    assert len(asked) == hints
    assert not [m for m in watcher.received if m["type"] == "hint"]
    for client in [*players, watcher]:
        client.close()


def replay_current(state: dict[str, Any], seed: int) -> Match:
    """The running two-seat match as the server holds it, rebuilt from a state's public
    history and the seed the test chose (the test knows the deal; a client never does)."""
    match = Match.new(2, seed=seed)
    for row in state["rounds"]:
        for entry in row["history"]:
            match.apply(parse_action(entry["action"]))
    for entry in state["view"]["history"]:
        match.apply(parse_action(entry[1] if isinstance(entry, list) else entry["action"]))
    return match


def test_one_hint_at_a_time_per_seat(server: Server) -> None:
    _, players, watcher = lobby_with_hints(server, seed=42)
    mover = next(c for c in players if my_turn(c.state))
    first, second = mover.send({"type": "hint"}), mover.send({"type": "hint"})
    assert mover.reply_to(first)["type"] == "ok"
    busy = mover.reply_to(second)
    assert busy["type"] == "error" and busy["code"] == "hint_busy", busy
    lang = "de" if mover is players[1] else "en"
    assert busy["message"] == UserError("hint_busy").message(lang)
    hint = mover.wait_for(lambda m: m["type"] == "hint")
    # Asked again at the same position: the same answer at once.
    assert mover.reply_to(mover.send({"type": "hint"}))["type"] == "ok"
    again = mover.wait_for(lambda m: m["type"] == "hint", timeout=2)
    assert again == hint
    for client in [*players, watcher]:
        client.close()


# ------------------------------------------------------------ reviews


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A whole two-seat match, Ann (random choices) against the greedy bot."""
    table = server.create_table(2, "Ann", {"1": "greedy"}, seed=2026)
    table_id = table["table_id"]
    ann = seated(server, table_id, table["token"])
    assert error_code(ann, {"type": "start"}) is None
    play_until([ann], random.Random(9), lambda: ann.state["table"]["status"] == "over")
    ann.close()
    text = server.get(f"/api/tables/{table_id}/matches/0/record").text
    return {"table_id": table_id, "record": text, "seat": {"token": table["token"]}}


def review_path(table_id: str, number: int = 0) -> str:
    return f"/api/tables/{table_id}/matches/{number}/review"


def test_a_running_match_cannot_be_reviewed(server: Server) -> None:
    table = server.create_table(2, "Ann", {"1": "greedy"}, seed=5)
    table_id = table["table_id"]
    ann = seated(server, table_id, table["token"])
    assert error_code(ann, {"type": "start"}) is None
    for response in (server.post(review_path(table_id), {}), server.get(review_path(table_id))):
        assert response.status_code == 403
        assert response.json()["error"] == "match_running"
    assert server.get(review_path(table_id, 3)).json()["error"] == "unknown_match"
    assert server.post(review_path("nope"), {}).status_code == 404
    ann.close()


def test_a_review_is_worked_out_once_with_its_progress_and_stored(
    server: Server, finished: dict[str, Any]
) -> None:
    table_id = finished["table_id"]
    path = review_path(table_id)
    assert server.get(path).json() == {"status": "none"}
    started = server.post(path, finished["seat"])
    assert started.status_code in (200, 202), started.text
    seen: list[tuple[int, int]] = []
    answer = started.json()
    deadline = time.monotonic() + 120
    while answer["status"] in ("queued", "running"):  # waiting its turn, then worked out
        assert time.monotonic() < deadline, "the review did not finish"
        if answer["status"] == "running":
            seen.append((answer["done"], answer["total"]))
        else:
            assert answer["position"] >= 1
        again = server.post(path, finished["seat"]).json()["status"]
        assert again in ("queued", "running", "done")  # no second one
        time.sleep(0.2)
        answer = server.get(path).json()
    assert answer["status"] == "done", answer
    assert seen, "the progress was never reported"
    match = record.loads(finished["record"])
    assert isinstance(match, Match)
    actions = [a for r in match.rounds for _, a in r.history]
    assert all(done <= total == len(actions) for done, total in seen if total)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)

    data = answer["review"]
    assert data["names"][0] == "Ann" and data["kinds"] == ["human", "bot"]
    decisions = data["decisions"]
    assert len(decisions) == len(actions)
    for decision in decisions:
        assert decision["played"] == str(actions[decision["step"]])
        assert decision["kind"] in KINDS
        assert decision["played_text"] and decision["best_text"]
    # The same review as the analysis gives for the downloaded record (seed 0).
    expected = review(match, iterations=ITERATIONS, workers=1).to_dict()
    assert data["summary"] == expected["summary"]
    assert [d["kind"] for d in decisions] == [d["kind"] for d in expected["decisions"]]

    # Stored: a second request is instant, and the same.
    before = time.monotonic()
    again = server.post(path, finished["seat"])
    assert again.status_code == 200 and time.monotonic() - before < 2
    assert again.json() == answer
    german = server.get(path + "?lang=de").json()["review"]
    assert german["summary"] == data["summary"]
    assert any(a != b for a, b in zip(german["decisions"], decisions, strict=True))
    with sqlite3.connect(server.db) as raw:
        rows = raw.execute(
            "SELECT review FROM reviews WHERE table_id = ? AND number = 0", (table_id,)
        ).fetchall()
    assert len(rows) == 1 and json.loads(rows[0][0])["summary"] == data["summary"]


def test_a_stored_review_survives_a_restart_without_new_analysis(
    tmp_path: Path, finished: dict[str, Any], server: Server
) -> None:
    path = review_path(finished["table_id"])
    answer = server.get(path).json()
    if answer["status"] != "done":  # run on its own: make the review first
        server.post(path, finished["seat"])
        while answer["status"] != "done":
            time.sleep(0.2)
            answer = server.get(path).json()
    copy = tmp_path / "copy.sqlite3"
    with sqlite3.connect(server.db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    restarted = start_server(copy)
    try:
        again = restarted.post(path, finished["seat"])
        assert again.status_code == 200 and again.json() == answer
        metrics = restarted.get("/metrics").text
        assert "draw_analyses_total 0.0" in metrics
    finally:
        restarted.stop()


def test_a_server_stopped_mid_review_stops_at_once_and_reviews_afresh(
    tmp_path: Path, finished: dict[str, Any], server: Server
) -> None:
    """Stopping gives up a review under way (nothing half-done is stored); the next
    request after the restart works it out from the start."""
    copy = tmp_path / "copy.sqlite3"
    with sqlite3.connect(server.db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
        target.execute("DELETE FROM reviews")
    path = review_path(finished["table_id"])
    slow = Server(copy, allow_seeds=True, extra=[*LIMITS_OFF, "--analysis-iterations", "4000"])
    slow.start()
    try:
        assert slow.post(path, finished["seat"]).json()["status"] in ("queued", "running")
        deadline = time.monotonic() + 60
        while slow.get(path).json().get("done", 0) < 1:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        began = time.monotonic()
        slow.stop()
    # uvicorn ends on SIGTERM once it has shut down; a hang would have needed SIGKILL.
    assert slow.process is not None and slow.process.returncode == -signal.SIGTERM
    assert time.monotonic() - began < 8
    restarted = start_server(copy)
    try:
        assert restarted.get(path).json() == {"status": "none"}
        answer = restarted.post(path, finished["seat"]).json()
        while answer["status"] in ("queued", "running"):
            time.sleep(0.2)
            answer = restarted.get(path).json()
        assert answer["status"] == "done"
    finally:
        restarted.stop()


def test_a_hint_message_says_what_to_light_up() -> None:
    """A placement names its tile and end (``open`` for the first tile); drawing and
    passing name neither; the sentence is the analysis's words in the asked language."""
    match = Match.new(2, seed=3)
    view = match.view(match.current_player)
    line = view.line
    first, second = (str(a) for a in view.legal_actions[:2])
    opening: list[dict[str, Any]] = [
        {"action": action, "points": 1.0, "value": 0.1, "visits": 9} for action in (first, second)
    ]
    message = hint_message(opening, line, "de", 0)
    assert message["tile"] == first and message["end"] == "open"
    best, other = parse_action(first), parse_action(second)
    assert message["text"] == explain_hint(best, other, 0.0, line, "de")
    draw: list[dict[str, Any]] = [
        {"action": "draw", "points": 3.0, "value": 0.2, "visits": 5},
        {"action": first, "points": 1.0, "value": 0.1, "visits": 5},
    ]
    message = hint_message(draw, line, "en", 4)
    assert (message["action"], message["tile"], message["end"], message["seq"]) == (
        "draw",
        None,
        None,
        4,
    )
    assert message["text"].startswith("Drawing: about 2 points better than")
    forced = [{"action": "pass", "points": None, "value": None, "visits": 0, "forced": True}]
    assert hint_message(forced, line, "en", 0)["text"] == "Passing is the only legal move."
