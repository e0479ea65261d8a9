"""The web server under attack, on 127.0.0.1: slow and silent clients, crowds, floods,
hostile bytes, impostor names and cross-site requests. Every loop is bounded."""

from __future__ import annotations

import base64
import json
import os
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from draw_dominoes import Match
from draw_dominoes.web.server import Limits
from test_web_support import Client, InProcessServer, my_turn

# ------------------------------------------------------------------ helpers


def metric(server: InProcessServer, name: str) -> float:
    text = httpx.get(f"{server.url}/metrics", timeout=10).text
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


def eventually(condition: Any, what: str, limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.05)


def frame(text: str) -> bytes:
    """One masked WebSocket text frame, as a browser sends it."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def silent_websocket(server: InProcessServer, table_id: str) -> socket.socket:
    """A spectator with a tiny receive buffer that opens the socket and never reads it."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws/{table_id}?lang=en&width=1120 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


def human_leads(seed: int) -> bool:
    return Match.new(2, seed=seed).first_leader == 0


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    started: list[InProcessServer] = []

    def make(limits: Limits | None = None, **settings: Any) -> InProcessServer:
        server = InProcessServer(
            tmp_path / f"hard{len(started)}.sqlite3",
            allow_seeds=True,
            limits=limits or Limits(max_connections_per_address=1000, max_connections=2000),
            **settings,
        )
        started.append(server.start())
        return server

    yield make
    for server in started:
        server.stop()


def play_moves(client: Client, rng: random.Random, moves: int) -> int:
    """The client plays ``moves`` of its turns against its bot; each must be acknowledged."""
    done = 0
    while done < moves and client.state["table"]["status"] == "playing":
        state = client.state_where(my_turn, timeout=15)
        action = rng.choice(state["view"]["legal_actions"])
        reply = client.reply_to(client.send({"type": "action", "action": action}))
        assert reply["type"] == "ok", reply
        done += 1
    return done


# ------------------------------------------------------------------ 1. a silent client


def test_a_client_that_stops_reading_freezes_nothing_and_is_cut_off(make_server: Any) -> None:
    server = make_server(stall_timeout=3.0, flood_limit=10**6)
    seed = next(s for s in range(100) if human_leads(s))
    table = server.create_table(2, "Ann", {"1": "random"}, seed=seed)
    ann = Client(server, table["table_id"], table["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    silent = silent_websocket(server, table["table_id"])
    junk = frame(json.dumps({"type": "nope", "id": "x" * 64}))  # each gets an error back
    for _ in range(300):
        silent.sendall(junk)
    # The table goes on at once for the player, the bot and newcomers.
    assert play_moves(ann, random.Random(1), 10) == 10
    newcomer = Client(server, table["table_id"], None)
    assert newcomer.recv()["type"] == "state"
    newcomer.close()
    # Asking for ever more while reading nothing, the silent one is cut off.
    cut = False
    for _ in range(20000):
        try:
            silent.sendall(junk)
        except OSError:  # reset by the server
            cut = True
            break
    assert cut
    eventually(lambda: metric(server, "draw_send_queue_drops_total") >= 1, "the cut is counted")
    eventually(lambda: metric(server, "draw_websockets_open") == 1, "one socket left", 10)
    assert play_moves(ann, random.Random(2), 2) >= 1
    silent.close()
    ann.close()


# ------------------------------------------------------------------ 2. connections, slow requests


def test_connections_are_limited_per_address_and_late_headers_time_out(make_server: Any) -> None:
    server = make_server(Limits(max_connections_per_address=20, header_timeout=1.0))
    half_sent = []
    for _ in range(30):
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end
        half_sent.append(conn)
    answers = [conn.recv(200) for conn in half_sent]  # each is answered within seconds
    refused = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
    late = [a for a in answers if a.startswith(b"HTTP/1.1 408")]
    assert len(refused) == 10 and len(late) == 20, answers
    for conn in half_sent:
        conn.close()
    eventually(lambda: metric(server, "draw_connections_open") <= 1, "the sockets are released")
    assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
    assert metric(server, "draw_header_timeouts_total") >= 20
    assert metric(server, "draw_connections_refused_total") >= 10


def test_connections_are_limited_in_total(make_server: Any) -> None:
    server = make_server(Limits(max_connections=5, max_connections_per_address=100))
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(5)]
    extra = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    assert extra.recv(200).startswith(b"HTTP/1.1 503")
    for conn in (*held, extra):
        conn.close()
    eventually(lambda: _get_ok(server), "room again after the others left")


def _get_ok(server: InProcessServer) -> bool:
    try:
        return httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


# ------------------------------------------------------------------ 3. crowds of spectators


def test_three_hundred_spectators_cost_a_seated_player_a_handful_of_states(
    make_server: Any,
) -> None:
    server = make_server(max_spectators=300)
    table = server.create_table(2, "Ann", {"1": "random"})
    ann = Client(server, table["table_id"], table["token"])
    ann.recv()
    before = len(ann.received)
    crowd = []
    for _ in range(300):
        watcher = Client(server, table["table_id"], None)
        assert watcher.recv()["type"] == "state"
        crowd.append(watcher)
    presence = ann.wait_for(lambda m: m["type"] == "presence" and m["spectators"] == 300)
    assert len(json.dumps(presence)) < 200  # O(1) in size
    states = [m for m in ann.received[before:] if m["type"] == "state"]
    assert len(states) <= 3, len(states)
    presences = [m for m in ann.received[before:] if m["type"] == "presence"]
    assert len(presences) < 100  # coalesced, not one per newcomer
    assert server.runtime is not None
    encoded = server.runtime.tables[table["table_id"]].encoded
    assert len([key for key in encoded if key[0] is None]) == 1  # one shared spectator state
    for watcher in crowd:
        watcher.close()
    ann.close()


def test_spectators_per_table_are_capped(make_server: Any) -> None:
    server = make_server(max_spectators=3)
    table = server.create_table(2, "Ann", {})
    watchers = [Client(server, table["table_id"], None) for _ in range(3)]
    for watcher in watchers:
        assert watcher.recv()["type"] == "state"
    late = Client(server, table["table_id"], None)
    refusal = late.recv()
    assert refusal["type"] == "error" and refusal["code"] == "too_many_spectators"
    # A seated player always gets in.
    ann = Client(server, table["table_id"], table["token"])
    assert ann.recv()["type"] == "state"
    for client in (*watchers, ann):
        client.close()


# ------------------------------------------------------------------ 5. memory and creation


def test_idle_tables_leave_memory_and_come_back_as_they_were(make_server: Any) -> None:
    server = make_server(idle_seconds=0.5)
    seed = next(s for s in range(100) if human_leads(s))
    table = server.create_table(2, "Ann", {"1": "random"}, seed=seed)
    ann = Client(server, table["table_id"], table["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    play_moves(ann, random.Random(2), 3)
    ann.drain()
    before = ann.state
    ann.close()
    assert server.runtime is not None
    eventually(lambda: table["table_id"] not in server.runtime.tables, "the table leaves memory")
    back = Client(server, table["table_id"], table["token"])
    state = back.recv()
    assert state["seq"] == before["seq"] and state["view"] == before["view"]
    back.close()


def test_start_up_loads_no_table_until_asked_for(tmp_path: Path) -> None:
    first = InProcessServer(tmp_path / "lazy.sqlite3").start()
    ids = [first.create_table(2, "Ann", {"1": "random"})["table_id"] for _ in range(5)]
    first.stop()
    second = InProcessServer(tmp_path / "lazy.sqlite3").start()
    try:
        assert second.runtime is not None and not second.runtime.tables
        assert second.get(f"/api/tables/{ids[2]}").status_code == 200
        assert set(second.runtime.tables) == {ids[2]}
    finally:
        second.stop()


def test_a_table_loaded_on_demand_lets_its_bot_move(tmp_path: Path) -> None:
    """Stopped while a bot was to move; the first look-up loads it and the bot plays on."""
    db = tmp_path / "resume.sqlite3"
    first = InProcessServer(db, allow_seeds=True, bot_delay=60).start()
    seed = next(s for s in range(100) if not human_leads(s))
    table = first.create_table(2, "Ann", {"1": "random"}, seed=seed)
    ann = Client(first, table["table_id"], table["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    ann.close()
    first.stop()
    second = InProcessServer(db, allow_seeds=True).start()
    try:
        assert second.get(f"/api/tables/{table['table_id']}").status_code == 200
        back = Client(second, table["table_id"], table["token"])
        assert back.state_where(lambda s: s["seq"] >= 1)["view"]["history"][0]["player"] == 1
        back.close()
    finally:
        second.stop()


def test_creating_tables_is_rate_limited_per_address(make_server: Any) -> None:
    server = make_server(create_rate=1.0, create_burst=3)
    for _ in range(3):
        server.create_table(2, "Ann", {})
    refused = server.post("/api/tables", {"players": 2, "name": "Ann"})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert server.runtime is not None and len(server.runtime.tables) == 3


def test_guessing_table_ids_is_rate_limited(make_server: Any) -> None:
    server = make_server(lookup_misses=5)
    real = server.create_table(2, "Ann", {})["table_id"]
    codes = [server.get(f"/api/tables/nope{n}").status_code for n in range(8)]
    assert codes[:5] == [404] * 5 and set(codes[5:]) == {429}
    # While it must wait, a real id answers the same: guessing tells nothing.
    assert server.get(f"/api/tables/{real}").status_code == 429


# ------------------------------------------------------------------ 6. hostile input


ERROR_CODES = {
    "bad_json",
    "too_large",
    "unknown_type",
    "not_seated",
    "bad_action",
    "not_playing",
    "not_your_turn",
    "illegal",
    "host_only",
    "already_started",
    "seats_open",
    "not_over",
    "bad_seat",
    "seat_taken",
    "bad_level",
    "bad_name",
    "seeds_disabled",
    "bad_request",
    "rate_limited",
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
messages = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "start", "rematch", "seat", "rename", "x"])},
        optional={
            "action": json_values,
            "name": json_values,
            "seat": json_values,
            "level": json_values,
            "seed": json_values,
            "id": json_values,
        },
    ),
)


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    server = InProcessServer(
        tmp_path_factory.mktemp("hostile") / "hostile.sqlite3",
        flood_limit=10**6,
        limits=Limits(max_connections_per_address=1000),
    ).start()
    table = server.create_table(3, "Ann", {"1": "greedy"})
    host = Client(server, table["table_id"], table["token"])
    host.recv()
    yield {"server": server, "table": table, "host": host}
    host.close()
    server.stop()


def table_snapshot(server: InProcessServer, table_id: str) -> Any:
    assert server.runtime is not None
    table = server.runtime.tables[table_id].state
    return ([(s.kind, s.name, s.level) for s in table.seats], table.status, table.seq)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=messages, as_bytes=st.booleans())
def test_any_websocket_message_gets_a_specific_error_or_a_change_it_asked_for(
    target: dict[str, Any], message: Any, as_bytes: bool
) -> None:
    server, host = target["server"], target["host"]
    table_id = target["table"]["table_id"]
    before = table_snapshot(server, table_id)
    text = json.dumps(message)
    if isinstance(message, dict) and message.get("type") in ("start", "rename", "seat"):
        return  # asked for a real change; the API tests cover those
    host.socket.send(text.encode() if as_bytes else text)
    reply = host.wait_for(lambda m: m["type"] in ("ok", "error"), timeout=15)
    if reply["type"] == "error":
        assert reply["code"] in ERROR_CODES, reply
        assert table_snapshot(server, table_id) == before


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=300))
def test_any_bytes_over_the_websocket_get_a_specific_error(
    target: dict[str, Any], raw: bytes
) -> None:
    server, host = target["server"], target["host"]
    table_id = target["table"]["table_id"]
    before = table_snapshot(server, table_id)
    host.socket.send(raw)
    reply = host.wait_for(lambda m: m["type"] in ("ok", "error"), timeout=15)
    assert reply["type"] == "error" and reply["code"] in ERROR_CODES, reply
    assert table_snapshot(server, table_id) == before


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=300)))
def test_any_body_posted_to_the_api_gets_a_specific_error(
    target: dict[str, Any], body: bytes
) -> None:
    server = target["server"]
    table_id = target["table"]["table_id"]
    before = table_snapshot(server, table_id)
    for path in ("/api/tables", f"/api/tables/{table_id}/join"):
        response = httpx.post(
            f"{server.url}{path}",
            content=body,
            headers={"Content-Type": "application/json"},
            timeout=10,
        )
        if response.status_code in (200, 201):
            continue  # a valid request after all (a table, or the open seat)
        assert response.status_code in (400, 413, 429), (body, response.text)
        assert response.json()["error"] in ERROR_CODES | {"no_open_seat", "bad_players"}
    assert table_snapshot(server, table_id)[1:] == before[1:]


def test_the_inputs_that_used_to_break_the_server(target: dict[str, Any]) -> None:
    server, host = target["server"], target["host"]
    deep = "[" * 1000 + "]" * 1000
    host.socket.send('{"type": "action", "action": ' + deep + "}")
    assert host.wait_for(lambda m: m["type"] == "error")["code"] == "bad_json"
    response = httpx.post(
        f"{server.url}/api/tables",
        content=deep.encode(),
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 400 and response.json()["error"] == "bad_json"
    response = httpx.post(
        f"{server.url}/api/tables",
        content=b'{"players": 2, "name": "a\\ud800"}',
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 400 and response.json()["error"] == "bad_name"
    host.socket.send('{"type": "nope", "id": "a\\ud800"}')
    answer = host.wait_for(lambda m: m["type"] == "error")
    assert answer["code"] == "unknown_type" and answer["id"] == "a\ud800"
    host.send({"type": "ping"})
    assert host.wait_for(lambda m: m["type"] == "pong")  # the socket stays open


# ------------------------------------------------------------------ 7. names


@pytest.mark.parametrize(
    "name",
    ["\u200b", "Ann\u202eevil", "\u0085Ann", "Bot 2 (random)", "bot3", "Ann (ismcts)", "a\x07"],
)
def test_names_that_impersonate_or_confuse_are_refused(target: dict[str, Any], name: str) -> None:
    server = target["server"]
    response = server.post("/api/tables", {"players": 2, "name": name})
    assert response.status_code == 400 and response.json()["error"] == "bad_name"
    host = target["host"]
    reply = host.reply_to(host.send({"type": "rename", "name": name}))
    assert reply["type"] == "error" and reply["code"] == "bad_name"


def test_names_are_stored_in_nfc(target: dict[str, Any]) -> None:
    created = target["server"].create_table(2, "Jose\u0301", {})
    info = target["server"].get(f"/api/tables/{created['table_id']}").json()
    assert info["seats"][0]["name"] == "Jos\u00e9"


# ------------------------------------------------------------------ 8. cross-site requests


def test_cross_site_requests_are_refused(make_server: Any) -> None:
    server = make_server(allowed_origins=("https://friend.example",))
    url = f"{server.url}/api/tables"
    body = json.dumps({"players": 2, "name": "Ann"})
    plain = httpx.post(url, content=body, headers={"Content-Type": "text/plain"}, timeout=10)
    assert plain.status_code == 415 and plain.json()["error"] == "bad_content_type"
    form = httpx.post(url, data={"players": "2", "name": "Ann"}, timeout=10)
    assert form.status_code == 415
    json_type = {"Content-Type": "application/json"}
    foreign = httpx.post(
        url, content=body, headers={**json_type, "Origin": "https://evil.example"}, timeout=10
    )
    assert foreign.status_code == 403 and foreign.json()["error"] == "bad_origin"
    own = f"http://127.0.0.1:{server.port}"
    for origin in (own, "https://friend.example"):
        allowed = httpx.post(url, content=body, headers={**json_type, "Origin": origin}, timeout=10)
        assert allowed.status_code == 201, origin
    assert server.runtime is not None and len(server.runtime.tables) == 2
    table_id = next(iter(server.runtime.tables))
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws_url}/ws/{table_id}", origin="https://evil.example")  # type: ignore[call-overload]
    assert refused.value.response.status_code == 403
    with connect(f"{server.ws_url}/ws/{table_id}", origin=own) as fine:  # type: ignore[call-overload]
        assert json.loads(fine.recv(timeout=10))["type"] == "state"


def test_every_page_sends_the_security_headers_and_the_api_docs_are_off(
    make_server: Any,
) -> None:
    server = make_server()
    for path in ("/", "/howto", "/static/app.js", "/api/bots", "/healthz"):
        headers = httpx.get(f"{server.url}{path}", timeout=10).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
    for path in ("/docs", "/openapi.json"):
        assert httpx.get(f"{server.url}{path}", timeout=10).status_code == 404
    debug = make_server(debug=True)
    for path in ("/docs", "/openapi.json"):
        assert httpx.get(f"{debug.url}{path}", timeout=10).status_code == 200


# ------------------------------------------------------------------ 9. floods


def test_a_steady_flood_is_disconnected(make_server: Any) -> None:
    server = make_server(rate=15.0, burst=30.0)
    table = server.create_table(2, "Ann", {})
    flooder = Client(server, table["table_id"], None)
    flooder.recv()
    closed = False
    for _ in range(400):
        try:
            flooder.socket.send("junk")
        except Exception:  # the server closed the socket
            closed = True
            break
        time.sleep(0.004)
    if not closed:
        try:
            while True:
                flooder.recv(timeout=10)
        except Exception:
            closed = True
    assert closed
    assert metric(server, "draw_floods_closed_total") >= 1


def test_many_connections_from_one_address_share_one_message_limit(make_server: Any) -> None:
    server = make_server(rate=15.0, burst=30.0, address_rate=20.0)
    table = server.create_table(2, "Ann", {})
    clients = [Client(server, table["table_id"], None) for _ in range(20)]
    for client in clients:
        client.recv()
    for client in clients:
        for _ in range(25):  # within each connection's own burst of 30
            client.send({"type": "nope"})
    answers: dict[str, int] = {}
    for client in clients:
        for _ in range(25):
            reply = client.wait_for(lambda m: m["type"] == "error", timeout=15)
            answers[reply["code"]] = answers.get(reply["code"], 0) + 1
    assert answers.get("rate_limited", 0) >= 500 - 40 - 20 * 10  # burst, plus 10 s of refill
    assert answers.get("unknown_type", 0) <= 40 + 20 * 10
    for client in clients:
        client.close()


# ------------------------------------------------------------------ for operators


def test_health_and_metrics_for_whoever_runs_the_server(make_server: Any) -> None:
    server = make_server()
    health = httpx.get(f"{server.url}/healthz", timeout=10)
    assert health.status_code == 200 and health.json()["status"] == "ok"
    table = server.create_table(2, "Ann", {"1": "random"})
    ann = Client(server, table["table_id"], table["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    play_moves(ann, random.Random(5), 2)
    assert metric(server, "draw_tables_in_memory") == 1
    assert metric(server, "draw_websockets_open") == 1
    assert metric(server, "draw_actions_total") >= 2
    assert metric(server, "draw_bot_queue_length") == 0
    assert metric(server, "draw_send_queue_drops_total") == 0
    ann.close()
