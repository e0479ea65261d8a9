"""The production layout of docs/web.md ("Running many processes"): two ``serve``
processes on one PostgreSQL database and one Redis bus, behind nginx running the shipped
docs/nginx.conf (only its upstream servers and its listen port changed). Players reach
the app through nginx alone; one process is killed mid-match and they play on."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from test_web_processes import Acked, Seat, check_stored, cluster_args
from test_web_support import Client, Server, my_turn

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).parent.parent / "docs" / "nginx.conf"
UPSTREAM_LINE = re.compile(r"^(\s*)server 127\.0\.0\.1:\d+;", re.MULTILINE)
LISTEN_LINE = re.compile(r"^(\s*)listen 80;", re.MULTILINE)


def nginx_binary() -> str:
    """nginx's path; without it the test skips, except under CI=true, where it fails."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        message = "nginx is not installed (apt-get install nginx)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}; CI must run this test", pytrace=False)
        pytest.skip(message)
    return found


def render(example: str, upstreams: list[int], port: int) -> str:
    """The example with the test's processes and port in place of its own: nothing else."""
    assert len(UPSTREAM_LINE.findall(example)) == len(upstreams), "one server line a process"
    ports = iter(upstreams)
    text = UPSTREAM_LINE.sub(lambda m: f"{m[1]}server 127.0.0.1:{next(ports)};", example)
    text, listens = LISTEN_LINE.subn(lambda m: f"{m[1]}listen 127.0.0.1:{port};", text)
    assert listens == 1
    return text


def main_config(prefix: Path) -> str:
    """What nginx's own nginx.conf would hold, with every path under ``prefix`` (nothing
    root's, nothing the system nginx uses), around the rendered example. Two workers, so
    that the example's round-robin is shared between workers as it claims."""
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""worker_processes 2;
events {{ worker_connections 256; }}
http {{
{temp}
    log_format upstreams '$remote_addr $request_method $uri $status $upstream_addr';
    access_log {prefix / "access.log"} upstreams;
    include {prefix / "draw.conf"};
}}
"""


try:  # found before any fork: a child calls it and nothing more
    PRCTL: Any = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    PRCTL = None


def die_with_parent() -> None:
    """In the child: end nginx if the test process dies, so it never outlives the test."""
    if PRCTL is not None:
        PRCTL(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Nginx(Server):
    """nginx in front of the processes: players talk to its port only, like a browser
    (each request and handshake carries the page's ``Origin``)."""

    def __init__(self, prefix: Path, upstreams: list[Server]) -> None:
        super().__init__(prefix / "unused")
        self.prefix = prefix
        self.upstreams = upstreams
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Nginx:
        binary = nginx_binary()
        example = EXAMPLE.read_text()
        ports = [server.port for server in self.upstreams]
        (self.prefix / "draw.conf").write_text(render(example, ports, self.port))
        (self.prefix / "nginx.conf").write_text(main_config(self.prefix))
        errors = self.prefix / "error.log"
        command = [binary, "-p", f"{self.prefix}/", "-c", str(self.prefix / "nginx.conf")]
        command += ["-e", str(errors)]
        command += ["-g", f"daemon off; pid {self.prefix / 'nginx.pid'}; error_log {errors};"]
        self.nginx = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=die_with_parent
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.nginx.poll() is not None:
                stderr = self.nginx.stderr.read().decode() if self.nginx.stderr else ""
                log = errors.read_text() if errors.exists() else ""
                raise RuntimeError(f"nginx exited at start: {stderr}{log}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()  # a fast shutdown: a graceful one waits for every WebSocket
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()

    def error_log(self) -> str:
        errors = self.prefix / "error.log"
        return errors.read_text() if errors.exists() else ""

    def upstreams_used(self) -> set[str]:
        """Every upstream address nginx passed a request or handshake to (its access log)."""
        lines = (self.prefix / "access.log").read_text().splitlines()
        used = {address for line in lines for address in line.split()[4].split(", ")}
        return used - {"-"}  # "-": answered by nginx itself

    def post(self, path: str, data: Any, address: str | None = None) -> httpx.Response:
        transport = httpx.HTTPTransport(local_address=address or "127.0.0.1")
        with httpx.Client(transport=transport, timeout=10, trust_env=False) as client:
            return client.post(f"{self.url}{path}", json=data, headers={"Origin": self.origin})


class BrowserClient(Client):
    """A WebSocket through nginx from one loopback address, with the page's ``Origin``."""

    def __init__(self, front: Nginx, table_id: str, token: str | None, address: str) -> None:
        self.socket = ws_connect(front, f"/ws/{table_id}?lang=en&token={token}", address)
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.next_id = 1


def ws_connect(
    front: Nginx, path: str, address: str, headers: dict[str, str] | None = None
) -> ClientConnection:
    return connect(
        f"{front.ws_url}{path}",
        origin=Origin(front.origin),
        additional_headers=headers,
        source_address=(address, 0),
        proxy=None,
        open_timeout=5,
        max_size=2**22,
    ).__enter__()


class Player(Seat):
    """A seat in a browser: it reaches the app through nginx only and, cut off, opens its
    socket again through nginx (which finds a process that answers)."""

    def __init__(self, front: Nginx, table_id: str, token: str, address: str) -> None:
        self.front, self.address, self.reconnects = front, address, 0
        super().__init__(front, table_id, token)

    def connect(self, server: Server) -> Client:
        self.client = BrowserClient(self.front, self.table_id, self.token, self.address)
        self.client.recv()
        return self.client

    def play(self, rng: random.Random, acked: Acked) -> bool:
        """``Seat.step``, but waiting only briefly for news while it is not this seat's
        turn (the other seat is acting), and opening the socket again when cut off."""
        try:
            state = self.client.state
            if not (my_turn(state) or state.get("round_end")):
                with contextlib.suppress(TimeoutError):
                    self.client.recv(timeout=0.01)
                return False
            return self.step(rng, acked)
        except (ConnectionClosed, TimeoutError):
            pass
        while True:  # reconnect; an answer the socket did not get is not acknowledged
            self.reconnects += 1
            time.sleep(0.1)
            with contextlib.suppress(ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                self.connect(self.front)
                return False


def status(player: Player) -> str | None:
    """The table's status as the player last saw it (nothing yet on a new socket)."""
    found: str | None = player.client.state.get("table", {}).get("status")
    return found


def first_word(front: Nginx, table_id: str, address: str, headers: dict[str, str]) -> str:
    """The error code the app answers a WebSocket to ``table_id`` with."""
    with ws_connect(front, f"/ws/{table_id}", address, headers) as probe:
        message = json.loads(probe.recv(timeout=5))
    assert message["type"] == "error", message
    code: str = message["code"]
    return code


def metric(server: Server, name: str) -> float:
    """One figure of a process's /metrics, read at the process itself."""
    text = server.get("/metrics").text
    found = re.search(rf"^{name}(?:_total)? (\S+)$", text, re.MULTILINE)
    assert found is not None, name
    return float(found[1])


@pytest.fixture
def layout(
    fresh_postgres: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> Iterator[tuple[Nginx, list[Server]]]:
    """Two processes that believe nginx's X-Forwarded-For, and nginx in front of them."""
    nginx_binary()  # skip (or fail under CI) before starting anything
    extra = [*cluster_args(redis_url, redis_prefix), "--trusted-proxy", "127.0.0.1"]
    servers = [Server(fresh_postgres, extra=extra) for _ in range(2)]  # type: ignore[arg-type]
    front = Nginx(tmp_path, servers)
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, servers))
        yield front.start(), servers
    finally:
        front.stop()
        for server in servers:
            server.stop()
    assert front.nginx is None or front.nginx.poll() is not None, "nginx was left running"


def test_a_match_through_nginx_survives_a_killed_process(
    layout: tuple[Nginx, list[Server]], fresh_postgres: str
) -> None:
    front, servers = layout
    assert front.get("/").status_code == 200
    assert front.get("/healthz").json()["status"] == "ok"
    assert front.get("/metrics").status_code == 404  # scraped at each process instead

    # The app counts each client by the address nginx saw, on the WebSocket too (the
    # location that sets its own headers): one address that keeps asking for unknown
    # tables is made to wait, another is not, even when it names the first in its own
    # X-Forwarded-For.
    unknown = secrets.token_urlsafe(6)
    words = [first_word(front, unknown, "127.0.0.5", {}) for _ in range(2)]
    while words[-2:] != ["rate_limited"] * 2:  # at both processes: each counts its own
        assert len(words) < 80, words
        words.append(first_word(front, unknown, "127.0.0.5", {}))
    for headers in ({}, {"X-Forwarded-For": "127.0.0.5"}, {}):
        assert first_word(front, unknown, "127.0.0.6", headers) == "unknown_table"
        first_word(front, unknown, "127.0.0.5", {})  # keeps its budgets empty

    # Ann creates a table and Bea joins it, each from an address of their own.
    created = front.post("/api/tables", {"players": 2, "name": "Ann", "bots": {}}, "127.0.0.3")
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    joined = front.post(f"/api/tables/{table_id}/join", {"name": "Bea"}, "127.0.0.4")
    assert joined.status_code == 200, joined.text
    with psycopg.connect(fresh_postgres) as db:
        address, state = db.execute(
            "SELECT address, state FROM tables WHERE id = %s", (table_id,)
        ).fetchone()  # type: ignore[misc]
    assert address == "127.0.0.3"
    assert json.loads(state)["addresses"] == ["127.0.0.3", "127.0.0.4"]

    ann = Player(front, table_id, created.json()["token"], "127.0.0.3")
    bea = Player(front, table_id, joined.json()["token"], "127.0.0.4")
    reply = ann.client.reply_to(ann.client.send({"type": "start"}))
    assert reply["type"] == "ok", reply
    rng, acked = random.Random(3), cast(Acked, [])
    deadline = time.monotonic() + 90
    while len(acked) < 20:
        assert time.monotonic() < deadline
        ann.play(rng, acked)
        bea.play(rng, acked)

    # nginx spread the requests over both processes, and the one that does not own the
    # table forwarded its player's moves to the owner.
    assert front.upstreams_used() == {f"127.0.0.1:{s.port}" for s in servers}
    assert sum(metric(s, "draw_websockets_open") for s in servers) == 2
    assert sum(metric(s, "draw_intents_forwarded") for s in servers) > 0
    owned = [metric(s, "draw_tables_owned") for s in servers]
    assert sorted(owned) == [0, 1]
    owner, survivor = (servers[0], servers[1]) if owned[0] else (servers[1], servers[0])

    owner.kill()  # no shutdown code runs: its lease stays until it runs out
    killed, before = time.monotonic(), len(acked)
    moved_at = None
    while status(ann) != "over":
        assert time.monotonic() < deadline, "the match did not finish"
        ann.play(rng, acked)
        bea.play(rng, acked)
        if moved_at is None and len(acked) > before:
            moved_at = time.monotonic()
    # A move sent to the dead owner waits for its answer (3 s), then for the lease to run
    # out (--lease-seconds 3), and is refused as unavailable if the table moved meanwhile;
    # the player sends it again.
    assert moved_at is not None and moved_at - killed < 15.0
    assert ann.reconnects + bea.reconnects > 0  # someone's socket went down with the owner

    # Both saw the same end; every acknowledged move is stored once, in a legal match.
    end = bea.client.state_where(lambda m: m["table"]["status"] == "over")
    assert end["result"] == ann.client.state["result"]
    check_stored(fresh_postgres, table_id, acked)
    assert metric(survivor, "draw_tables_owned") == 1
    assert metric(survivor, "draw_lease_takeovers") >= 1
    assert front.get("/healthz").json()["status"] == "ok"
    problems = [line for line in front.error_log().splitlines() if "[emerg]" in line]
    assert not problems, problems
    for player in (ann, bea):
        player.client.close()
