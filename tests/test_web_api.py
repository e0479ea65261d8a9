"""The web app over HTTP and WebSockets against a real server process on 127.0.0.1."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Match, bots, record
from draw_dominoes.i18n import describe_line
from draw_dominoes.web.limits import RateLimiter
from test_web_support import Client, Server, assert_no_leak, play_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "tables.sqlite3", allow_seeds=True).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A whole 3-seat match: two humans over WebSockets, a greedy bot, and a spectator."""
    table = server.create_table(3, "Ann", {"1": "greedy"}, seed=2024)
    table_id = table["table_id"]
    bea = server.join(table_id, "Bea")
    assert bea["seat"] == 2
    ann = Client(server, table_id, table["token"])
    bob = Client(server, table_id, bea["token"], lang="de")
    watcher = Client(server, table_id, None)
    ann.recv()
    reply = ann.reply_to(ann.send({"type": "start"}))
    assert reply["type"] == "ok"
    clients = [ann, bob]
    play_until(clients, random.Random(7), lambda: ann.state["table"]["status"] == "over")
    for client in (ann, bob, watcher):
        client.state_where(lambda m: m["table"]["status"] == "over")
        client.drain(0.3)
    text = server.get(f"/api/tables/{table_id}/matches/0/record").text
    result = {
        "table_id": table_id,
        "tokens": [table["token"], None, bea["token"]],
        "record": text,
        "messages": {"ann": ann.received, "bea": bob.received, "watcher": watcher.received},
    }
    for client in (ann, bob, watcher):
        client.close()
    return result


def test_a_whole_match_is_played_to_the_target_over_websockets(finished: dict[str, Any]) -> None:
    """R20: the match ends once a score reaches 61 with three players."""
    match = record.loads(finished["record"])
    assert isinstance(match, Match)
    assert match.is_over and max(match.scores) >= 61
    final = finished["messages"]["ann"][-1]
    assert final["table"]["status"] == "over"
    assert final["result"]["winners"] == match.winners
    assert [row["scores"] for row in final["rounds"]][-1] == list(match.scores)
    assert len(final["rounds"]) == len(match.rounds)


def test_no_message_shows_a_seat_hidden_tiles(finished: dict[str, Any]) -> None:
    """R21 over a whole match: each seat sees its own hand, never another's or the boneyard."""
    states = 0
    for messages in finished["messages"].values():
        for message in messages:
            if message["type"] == "state" and message["view"] is not None:
                assert_no_leak(message, finished["record"])
                states += 1
    assert states > 100


def test_spectators_see_no_hand(finished: dict[str, Any]) -> None:
    states = [m for m in finished["messages"]["watcher"] if m["type"] == "state" and m["view"]]
    assert states
    for message in states:
        assert message["you"] is None
        assert message["view"]["hand"] == [] and message["view"]["legal_actions"] == []


def test_messages_come_in_each_seats_language(finished: dict[str, Any]) -> None:
    """The line description is R12's text, in English for Ann and in German for Bea."""
    ann = [m for m in finished["messages"]["ann"] if m["type"] == "state" and m["view"]][-1]
    bea = [m for m in finished["messages"]["bea"] if m["type"] == "state" and m["view"]][-1]
    assert ann["line_description"].startswith("Tiles: ")
    assert bea["line_description"].startswith("Steine: ")
    assert "<title" in bea["line_svg"] and "Freie Anlegestellen" in bea["line_svg"]
    assert 'class="port-marker' in ann["line_svg"]
    assert ann["rounds"][0]["explanation"] != bea["rounds"][0]["explanation"]
    announced = [m["announce"] for m in finished["messages"]["bea"] if m.get("announce")]
    assert any("hat einen Stein gezogen" in a or "angelegt" in a for a in announced)


def test_round_end_reveals_all_hands_and_explains_the_settlement(
    finished: dict[str, Any],
) -> None:
    match = record.loads(finished["record"])
    assert isinstance(match, Match)
    last = finished["messages"]["ann"][-1]["last_round"]
    final_round = match.rounds[-1]
    assert last["number"] == len(match.rounds)
    assert last["revealed_hands"] == [[str(t) for t in final_round.hand(s)] for s in range(3)]
    assert final_round.outcome is not None
    assert last["pip_totals"] == list(final_round.outcome.pip_totals)
    said = last["explanation"]  # a sentence of its own, as a person would say it
    assert said.startswith("Nobody can play on.") or " is out of tiles; " in said


def test_record_download_and_replay_of_a_finished_match(
    server: Server, finished: dict[str, Any]
) -> None:
    table_id = finished["table_id"]
    response = server.get(f"/api/tables/{table_id}/matches/0/record")
    assert response.headers["content-disposition"].startswith("attachment")
    match = record.loads(response.text)
    assert isinstance(match, Match)
    total = sum(len(r.history) for r in match.rounds)
    first = server.get(f"/api/tables/{table_id}/matches/0/replay/1?lang=de").json()
    assert first["total"] == total and first["step"] == 1
    assert first["line_description"].startswith("Steine: ")
    opening = match.rounds[0]
    seat, action = opening.history[0]
    assert first["names"] == ["Ann", "Bot 2 (leicht)", "Bea"]  # a bot by its level, in German
    assert first["announce"].startswith(first["names"][seat])
    assert str(action) in first["announce"] or "einen Stein gezogen" in first["announce"]
    assert sum(map(len, first["hands"])) == 21 - (0 if str(action) == "draw" else 1) + (
        1 if str(action) == "draw" else 0
    )
    end = server.get(f"/api/tables/{table_id}/matches/0/replay/{total}").json()
    assert end["scores"] == list(match.scores)
    assert end["explanation"] is not None
    assert end["line_description"] == describe_line(match.rounds[-1].line, "en")
    bad = server.get(f"/api/tables/{table_id}/matches/0/replay/{total + 1}")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_step"


def finished_names() -> list[str]:
    return ["Ann", "Bot 2 (easy)", "Bea"]


def test_records_of_running_matches_stay_hidden(server: Server) -> None:
    """A running match's record would show every hand and the boneyard (R21)."""
    table = server.create_table(2, "Ann", {"1": "random"}, seed=3)
    client = Client(server, table["table_id"], table["token"])
    client.recv()
    assert client.reply_to(client.send({"type": "start"}))["type"] == "ok"
    for path in ("record", "replay/0"):
        response = server.get(f"/api/tables/{table['table_id']}/matches/0/{path}")
        assert response.status_code == 403
        assert response.json()["error"] == "match_running"
    client.close()


def test_rematch_starts_a_new_match_at_the_same_table(
    server: Server, finished: dict[str, Any]
) -> None:
    client = Client(server, finished["table_id"], finished["tokens"][2])
    client.recv()
    assert client.reply_to(client.send({"type": "rematch"}))["type"] == "ok"
    state = client.state_where(lambda m: m["table"]["match_number"] == 2)
    assert state["table"]["status"] == "playing"
    assert state["table"]["finished_matches"] == [0]
    assert state["rounds"] == [] and state["view"]["scores"] == [0, 0, 0]
    again = client.reply_to(client.send({"type": "rematch"}))
    assert again["code"] == "not_over"
    client.close()


def test_creating_tables_refuses_bad_input_clearly(server: Server) -> None:
    cases: list[tuple[Any, str]] = [
        ({"players": 5, "name": "Ann"}, "bad_players"),
        ({"players": "3", "name": "Ann"}, "bad_players"),
        ({"players": 3, "name": ""}, "bad_name"),
        ({"players": 3, "name": "x" * 25}, "bad_name"),
        ({"players": 3, "name": "<b>"}, "bad_name"),
        ({"players": 3, "name": "Ann", "bots": {"1": "omniscient"}}, "bad_level"),
        ({"players": 3, "name": "Ann", "bots": {"0": "random"}}, "bad_seat"),
        ({"players": 3, "name": "Ann", "bots": ["random"]}, "bad_request"),
        ([1, 2], "bad_json"),
    ]
    for data, code in cases:
        response = server.post("/api/tables", data)
        assert response.status_code == 400, data
        body = response.json()
        assert body["error"] == code and body["message"], data
    raw = server.post("/api/tables", None)  # no body and no JSON content type
    assert raw.status_code == 415 and raw.json()["error"] == "bad_content_type"
    garbage = httpx_post_raw(server, "/api/tables", b"{not json")
    assert garbage.status_code == 400 and garbage.json()["error"] == "bad_json"
    huge = httpx_post_raw(server, "/api/tables", b" " * 5000)
    assert huge.json()["error"] == "too_large"
    german = httpx_post_raw(server, "/api/tables?lang=de", b"{}")
    assert german.json()["message"] == "An einem Tisch sitzen 2, 3 oder 4 Spieler."
    missing = server.get("/api/tables/nope")
    assert missing.status_code == 404 and missing.json()["error"] == "unknown_table"


def httpx_post_raw(server: Server, path: str, content: bytes) -> Any:
    import httpx

    return httpx.post(
        f"{server.url}{path}", content=content, headers={"Content-Type": "application/json"}
    )


def test_lobby_seats_start_and_host_rights(server: Server) -> None:
    table = server.create_table(4, "Host", {"2": "greedy"}, seed=11)
    table_id = table["table_id"]
    host = Client(server, table_id, table["token"])
    state = host.recv()
    assert [s["kind"] for s in state["table"]["seats"]] == ["human", "open", "bot", "open"]
    assert host.reply_to(host.send({"type": "start"}))["code"] == "seats_open"
    guest = server.join(table_id, "Guest")
    assert guest["seat"] == 1
    other = Client(server, table_id, guest["token"])
    other.recv()
    assert other.reply_to(other.send({"type": "start"}))["code"] == "host_only"
    assert (
        other.reply_to(other.send({"type": "seat", "seat": 3, "level": "random"}))["code"]
        == "host_only"
    )
    assert (
        host.reply_to(host.send({"type": "seat", "seat": 1, "level": "random"}))["code"]
        == "seat_taken"
    )
    assert (
        host.reply_to(host.send({"type": "seat", "seat": 3, "level": "nope"}))["code"]
        == "bad_level"
    )
    assert host.reply_to(host.send({"type": "seat", "seat": 3, "level": "random"}))["type"] == "ok"
    assert host.reply_to(host.send({"type": "rename", "name": "Hostess"}))["type"] == "ok"
    assert host.reply_to(host.send({"type": "start"}))["type"] == "ok"
    state = other.state_where(lambda m: m["view"] is not None)
    assert next(s["name"] for s in state["table"]["seats"]) == "Hostess"
    assert len(state["view"]["hand"]) == 6  # four players hold six tiles each (R2)
    late = server.post(f"/api/tables/{table_id}/join", {"name": "Late"})
    assert late.status_code == 400 and late.json()["error"] == "no_open_seat"
    assert host.reply_to(host.send({"type": "start"}))["code"] == "already_started"
    host.close()
    other.close()


def _state_snapshot(client: Client) -> tuple[int, Any]:
    client.send({"type": "hello"})
    state = client.wait_for(lambda m: m["type"] == "state")
    return state["seq"], state["view"]


def test_bad_messages_get_clear_errors_and_change_nothing(server: Server) -> None:
    """R8: malformed JSON, illegal moves, moves out of turn: an error and no change."""
    table = server.create_table(2, "Ann", {}, seed=5)
    table_id = table["table_id"]
    bea = server.join(table_id, "Bea")
    ann = Client(server, table_id, table["token"])
    bob = Client(server, table_id, bea["token"])
    watcher = Client(server, table_id, None)
    for c in (ann, bob, watcher):
        c.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    ann.drain(0.2)
    bob.drain(0.2)
    mover, waiter = (ann, bob) if ann.state["view"]["legal_actions"] else (bob, ann)
    before = _state_snapshot(mover)
    hand = mover.state["view"]["hand"]
    not_mine = next(f"[{a}|{b}]" for a in range(7) for b in range(a, 7) if f"[{a}|{b}]" not in hand)
    refusals = {
        "not_your_turn": (waiter, {"type": "action", "action": "draw"}),
        "illegal": (mover, {"type": "action", "action": not_mine}),
        "bad_action": (mover, {"type": "action", "action": "[9|9]"}),
        "not_seated": (watcher, {"type": "action", "action": "draw"}),
        "unknown_type": (mover, {"type": "teleport"}),
    }
    for code, (client, message) in refusals.items():
        reply = client.reply_to(client.send(message))
        assert reply["type"] == "error" and reply["code"] == code, (code, reply)
        assert reply["message"]
    for raw in ("{oops", "[1, 2]", '{"type": 3}', "null"):
        mover.socket.send(raw)
        reply = mover.wait_for(lambda m: m["type"] == "error")
        assert reply["code"] == "bad_json"
    mover.socket.send(json.dumps({"type": "action", "action": "draw", "pad": "x" * 5000}))
    assert mover.wait_for(lambda m: m["type"] == "error")["code"] == "too_large"
    assert _state_snapshot(mover) == before
    illegal = mover.reply_to(mover.send({"type": "action", "action": not_mine}))
    assert "not allowed" in illegal["message"] and f"does not hold {not_mine}" in illegal["message"]
    # the same refusal on a German connection of the same seat: the engine's reason in German
    token = table["token"] if mover is ann else bea["token"]
    german = Client(server, table_id, token, lang="de")
    german.recv()
    reply = german.reply_to(german.send({"type": "action", "action": not_mine}))
    assert reply["code"] == "illegal"
    assert reply["message"].startswith("Dieser Zug ist nicht erlaubt: Spieler ")
    assert f"hat {not_mine} nicht auf der Hand" in reply["message"]
    assert "does not hold" not in reply["message"]
    assert _state_snapshot(mover) == before
    for c in (ann, bob, watcher, german):
        c.close()


def test_a_stolen_or_made_up_token_gives_no_seat(server: Server) -> None:
    table = server.create_table(2, "Ann", {"1": "random"}, seed=8)
    intruder = Client(server, table["table_id"], "made-up-token")
    first = intruder.recv()
    assert first["type"] == "error" and first["code"] == "bad_token"
    state = intruder.wait_for(lambda m: m["type"] == "state")
    assert state["you"] is None
    unknown = Client(server, "no-such-table", None)
    assert unknown.recv()["code"] == "unknown_table"
    intruder.close()


def test_the_token_bucket_refills_at_its_rate() -> None:
    """The limiter against a clock the test moves: a burst, then ``rate`` a second."""
    now = [100.0]
    limiter = RateLimiter(rate=2.0, burst=3.0, clock=lambda: now[0])
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.4  # 0.8 of a token
    assert not limiter.allow()
    now[0] += 0.1  # a whole token
    assert limiter.allow() and not limiter.allow()
    now[0] += 1000  # never more than the burst
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]


def test_a_flood_of_messages_is_rate_limited(tmp_path: Path) -> None:
    """A burst of 10 and one new message every 1000 s: however fast or slow this client is,
    exactly the burst gets through."""
    slow = Server(tmp_path / "flood.sqlite3", rate=0.001, burst=10).start()
    try:
        table = slow.create_table(2, "Ann", {"1": "random"})
        client = Client(slow, table["table_id"], table["token"])
        client.recv()
        sent = [client.send({"type": "ping"}) for _ in range(40)]
        replies = [client.wait_for(lambda m: m["type"] in ("pong", "error")) for _ in range(40)]
        limited = [r for r in replies if r["type"] == "error"]
        assert all(r["code"] == "rate_limited" and r["message"] for r in limited)
        assert [r["id"] for r in limited] == sent[10:]  # each refusal names its request
        assert [r["type"] for r in replies] == ["pong"] * 10 + ["error"] * 30
        client.close()
    finally:
        slow.stop()


def test_bots_wait_the_bot_delay_before_moving(tmp_path: Path) -> None:
    """``--bot-delay``: the bot's answer comes no sooner than the delay after a move."""
    delay = 1.5
    paced = Server(tmp_path / "paced.sqlite3", bot_delay=delay).start()
    try:
        table = paced.create_table(2, "Ann", {"1": "greedy"})
        ann = Client(paced, table["table_id"], table["token"])
        ann.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        while True:  # Ann places a tile (after drawing, if she has to or wants to)
            state = ann.state_where(lambda m: bool(m["view"]["legal_actions"]), timeout=60)
            legal = state["view"]["legal_actions"]
            action = next((a for a in legal if a not in ("draw", "pass")), legal[0])
            seq = state["seq"]
            sent = time.monotonic()
            assert ann.reply_to(ann.send({"type": "action", "action": action}))["type"] == "ok"
            after = ann.state_where(lambda m, seq=seq: m["seq"] > seq)
            if after["view"]["current_player"] == 1:
                break
        answered = ann.state_where(lambda m: m["seq"] > seq + 1, timeout=60)
        assert time.monotonic() - sent >= delay  # the bot waited (slowness only adds to it)
        assert answered["view"]["history"][-1]["player"] == 1
        ann.close()
    finally:
        paced.stop()


def test_every_action_is_in_sqlite_in_wal_mode(server: Server, finished: dict[str, Any]) -> None:
    with sqlite3.connect(server.db) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        (stored,) = db.execute(
            "SELECT record FROM matches WHERE table_id = ? AND number = 0",
            (finished["table_id"],),
        ).fetchone()
    assert record.loads(stored).scores == record.loads(finished["record"]).scores


def test_pages_and_assets_are_served_without_external_resources(server: Server) -> None:
    for path in ("/", "/t/anything", "/howto", "/howto?lang=de", "/static/app.js"):
        response = server.get(path)
        assert response.status_code == 200, path
        assert "https://" not in response.text and "http://" not in response.text.replace(
            "http://www.w3.org", ""
        )
    howto = server.get("/howto?lang=de").text
    assert '<html lang="de">' in howto and "Spielanleitung" in howto
    # The rules page figures are live SVGs with markers and the R12 text alternative.
    assert howto.count("<svg") >= 7 and 'class="port-marker' in howto
    assert "Freie Anlegestellen" in howto
    assert "Legal continuation ports" in server.get("/howto?lang=en").text
    tile = server.get("/tile/1-4.svg")
    assert tile.headers["content-type"].startswith("image/svg+xml") and "[1|4]" in tile.text
    assert server.get("/tile/9-9.svg").status_code == 404
    en, de = server.get("/api/i18n/en").json(), server.get("/api/i18n/de").json()
    assert set(en) == set(de) and en["web.draw_button"] != de["web.draw_button"]
    # The seat menus name each bot with its level, from bots.LEVELS, in the reader's language.
    assert (en["web.level_learned"], de["web.level_learned"]) == ("strong", "stark")
    assert (en["web.level_ismcts"], de["web.level_ismcts"]) == ("ISMCTS", "ISMCTS")
    assert (en["web.level_expert"], de["web.level_expert"]) == ("expert", "Experte")
    assert en["web.level_about_expert"].startswith("looks ahead through many imagined deals")
    assert "web.level_about_pimc" not in en  # pimc is offered but plays no level
    # The one-click menu offers the levels only, weakest first; a seat may have any bot.
    menus = server.get("/api/bots").json()
    assert menus["levels"] == list(bots.LEVELS.values())
    assert set(menus["levels"]) < set(menus["offered"]) and "ismcts" in menus["offered"]


def test_a_table_takes_a_level_where_it_takes_a_bot(server: Server) -> None:
    """``bots.LEVELS``: "strong" seats the bot that plays it, under that bot's name."""
    table = server.create_table(3, "Ann", {"1": "strong", "2": "beginner"}, seed=3)
    ann = Client(server, table["table_id"], table["token"])
    seats = ann.recv()["table"]["seats"]
    assert [s["level"] for s in seats] == [None, "learned", "random"]
    assert seats[1]["name"] == "Bot 2 (strong)"  # named by the level it plays
    refused = server.post(
        "/api/tables", {"players": 2, "name": "Ann", "bots": {"1": "grandmaster"}}
    )
    assert refused.status_code == 400 and refused.json()["error"] == "bad_level"


def test_a_player_who_leaves_mid_request_breaks_nothing(server: Server) -> None:
    """The action counts even if its sender is gone before the answer; the table goes on."""
    table = server.create_table(2, "Ann", {"1": "greedy"}, seed=21)
    ann = Client(server, table["table_id"], table["token"])
    ann.recv()
    ann.reply_to(ann.send({"type": "start"}))
    state = ann.state_where(lambda m: bool(m["view"]["legal_actions"]))
    seq = state["seq"]
    ann.send({"type": "action", "action": state["view"]["legal_actions"][0]})
    ann.close()
    again = Client(server, table["table_id"], table["token"])
    resumed = again.state_where(lambda m: m["seq"] > seq)
    assert resumed["you"] == 0
    again.send({"type": "ping"})
    assert again.wait_for(lambda m: m["type"] == "pong")
    again.close()
