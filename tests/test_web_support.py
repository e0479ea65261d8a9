"""Helpers for the web tests: a real server process on 127.0.0.1 and a small WebSocket player."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from draw_dominoes import Match, parse_action, record
from draw_dominoes.web.app import create_app
from draw_dominoes.web.runtime.runtime import TableRuntime
from draw_dominoes.web.server import Limits, config

TILE_TEXT = re.compile(r"\[\d\|\d\]")

TEST_SETTINGS: dict[str, Any] = {
    "bot_delay": 0,
    "rate": 1000,
    "burst": 2000,
    "address_rate": 100000,
    "create_rate": 100000,
    "create_burst": 100000,
    "max_bot_tables": 1000,
}
"""A test server serves one test: its many tables and messages from 127.0.0.1 are no flood."""
LIMITS_OFF = [
    "--create-rate",
    "1000000",
    "--max-bot-tables",
    "1000",
    "--address-rate",
    "100000",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``draw-dominoes serve`` in its own process, as a player would start it."""

    def __init__(
        self,
        db: Path,
        *,
        bot_delay: float = 0.0,
        rate: float = 1000.0,
        burst: float | None = None,
        allow_seeds: bool = False,
        extra: list[str] | None = None,
    ) -> None:
        self.db = db
        self.extra = LIMITS_OFF if extra is None else extra
        self.bot_delay = bot_delay
        self.rate = rate
        self.burst = 2 * rate if burst is None else burst
        self.allow_seeds = allow_seeds
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        command = [sys.executable, "-m", "draw_dominoes.web", "--port", str(self.port)]
        command += ["--db", str(self.db), "--bot-delay", str(self.bot_delay)]
        command += ["--rate", str(self.rate), "--burst", str(self.burst), *self.extra]
        if self.allow_seeds:
            command.append("--allow-seeds")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/api/bots", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                if self.process.poll() is not None:
                    raise RuntimeError("the server exited at start") from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """Like ``kill -9``: no shutdown code runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def post(self, path: str, data: Any, address: str | None = None) -> httpx.Response:
        """POST from 127.0.0.1, or from another loopback ``address`` (another client)."""
        if address is None:
            return httpx.post(f"{self.url}{path}", json=data, timeout=10)
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, timeout=10) as client:
            return client.post(f"{self.url}{path}", json=data)

    def get(
        self, path: str, address: str | None = None, headers: dict[str, str] | None = None
    ) -> httpx.Response:
        """GET from 127.0.0.1, or from another loopback ``address``."""
        if address is None:
            return httpx.get(f"{self.url}{path}", timeout=10, headers=headers)
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, timeout=10) as client:
            return client.get(f"{self.url}{path}", headers=headers)

    def create_table(
        self, players: int, name: str, bots: dict[str, str], seed: int | None = None
    ) -> Any:
        request: dict[str, Any] = {"players": players, "name": name, "bots": bots}
        if seed is not None:
            request["seed"] = seed
        response = self.post("/api/tables", request)
        assert response.status_code == 201, response.text
        return response.json()

    def join(self, table_id: str, name: str, address: str | None = None) -> Any:
        response = self.post(f"/api/tables/{table_id}/join", {"name": name}, address)
        assert response.status_code == 200, response.text
        return response.json()


class InProcessServer(Server):
    """The app on a real uvicorn server on 127.0.0.1, in a thread of the test process.

    Tests reach its ``runtime`` directly (to register a test bot, or to break its database).
    """

    def __init__(
        self,
        db: Path,
        *,
        allow_seeds: bool = False,
        limits: Limits | None = None,
        **settings: Any,
    ) -> None:
        super().__init__(db, allow_seeds=allow_seeds)
        self.thread: threading.Thread | None = None
        self.uvicorn: uvicorn.Server | None = None
        self.runtime: TableRuntime | None = None
        self.limits = limits or Limits()
        self.settings = {**TEST_SETTINGS, **settings}

    def start(self) -> InProcessServer:
        self.port = free_port()
        app = create_app(self.db, allow_seeds=self.allow_seeds, **self.settings)
        self.runtime = app.state.runtime
        self.uvicorn = uvicorn.Server(
            config(app, "127.0.0.1", self.port, self.limits, log_level="critical")
        )
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        assert self.uvicorn is not None and self.thread is not None
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)


class Client:
    """One WebSocket at a table; keeps every message it received."""

    def __init__(
        self,
        server: Server,
        table_id: str,
        token: str | None,
        lang: str = "en",
        extra: str = "",
        address: str | None = None,
    ):
        """``address``: connect from another loopback address (another client)."""
        query = f"?lang={lang}" + (f"&token={token}" if token else "") + extra
        url = f"{server.ws_url}/ws/{table_id}{query}"
        if address is None:
            opened = connect(url, max_size=2**22)
        else:
            opened = connect(url, max_size=2**22, source_address=(address, 0))
        # Entered as a context manager (the form websockets asks for), closed by close().
        self.socket: ClientConnection = opened.__enter__()
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.next_id = 1

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def send(self, message: dict[str, Any]) -> int:
        request_id = self.next_id
        self.next_id += 1
        self.socket.send(json.dumps({**message, "id": request_id}))
        return request_id

    def wait_for(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def state_where(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        """The latest state if it already satisfies ``predicate``, else the next one that does."""
        if self.state and predicate(self.state):
            return self.state
        return self.wait_for(lambda m: m["type"] == "state" and predicate(m), timeout)

    def reply_to(self, request_id: int) -> dict[str, Any]:
        """The ``ok`` or ``error`` answering one request (states may come before it)."""
        return self.wait_for(lambda m: m["type"] in ("ok", "error") and m.get("id") == request_id)

    def drain(self, quiet: float = 0.2) -> None:
        try:
            while True:
                self.recv(timeout=quiet)
        except TimeoutError:
            pass

    def close(self) -> None:
        self.socket.close()


def my_turn(state: dict[str, Any]) -> bool:
    view = state.get("view")
    if state.get("round_end") or state.get("table", {}).get("waiting"):
        return False  # the next round waits until everyone has seen the last one's end
    return bool(view and state["table"]["status"] == "playing" and view["legal_actions"])


def continue_if_asked(client: Client) -> bool:
    """Continue after a round's end if this seat is shown one (R8: the next round waits)."""
    if not client.state.get("round_end") or client.state.get("you") is None:
        return False
    reply = client.reply_to(client.send({"type": "continue"}))
    assert reply["type"] == "ok" or reply.get("code") == "nothing_to_continue", reply
    return True


def play_until(
    clients: list[Client], rng: random.Random, done: Any, max_messages: int = 20000
) -> None:
    """Let the seated clients play (a seeded random choice each turn) until ``done()``.

    Each client acts only when its latest state says it is its turn, and waits for the
    answer before looking again.
    """
    for _ in range(max_messages):
        if done():
            return
        acted = False
        for client in clients:
            acted = continue_if_asked(client) or acted
            if my_turn(client.state):
                action = rng.choice(client.state["view"]["legal_actions"])
                reply = client.reply_to(client.send({"type": "action", "action": action}))
                assert reply["type"] == "ok", reply
                acted = True
        if not acted:
            for client in clients:
                with contextlib.suppress(TimeoutError):
                    client.recv(timeout=0.05)
    raise AssertionError("the match did not finish")


def replay_to(text: str, seq: int) -> Match:
    """The match of a finished record, replayed to its first ``seq`` actions."""
    finished = record.loads(text)
    assert isinstance(finished, Match)
    actions = [a for r in finished.rounds for _, a in r.history]
    match = Match.new(finished.players, seed=finished.seed, first_leader=finished.first_leader)
    for action in actions[:seq]:
        match.apply(parse_action(str(action)))
    return match


def hidden_from(match: Match, seat: int | None) -> set[str]:
    """Tiles that seat may not see now (R21): other hands and the boneyard, unless over."""
    current = match.current_round
    if current.is_over:
        return set()
    hidden = {str(t) for t in current.boneyard}
    for other in range(match.players):
        if other != seat:
            hidden |= {str(t) for t in current.hand(other)}
    return hidden


def assert_no_leak(message: dict[str, Any], text: str) -> None:
    """A state message shows its seat only what R21 allows, checked against the full record."""
    seat = message["you"]
    match = replay_to(text, message["seq"])
    public = {k: v for k, v in message.items() if k not in ("last_round", "announce", "rounds")}
    # Finished rounds are public history: their moves are exactly what was played (R21).
    for row, finished in zip(message["rounds"], match.rounds, strict=True):
        assert row["history"] == [{"player": s, "action": str(a)} for s, a in finished.history]
        assert not set(TILE_TEXT.findall(json.dumps(row["history"]))) - {
            str(t) for t in finished.line.tiles
        }, "a finished round's history names only tiles it placed"
    announced = set(TILE_TEXT.findall(message.get("announce") or ""))
    placed = {str(t) for t in match.current_round.line.tiles}
    if match.rounds:  # the move that ended a round is announced with the next deal shown
        placed |= {str(t) for t in match.rounds[-1].line.tiles}
    assert announced <= placed, f"announced tiles {announced - placed} were never placed"
    shown = set(TILE_TEXT.findall(json.dumps(public)))
    leaked = shown & hidden_from(match, seat)
    assert not leaked, f"seat {seat} was sent hidden tiles {leaked} at action {message['seq']}"
    view = message["view"]
    if view is not None:
        own = [] if seat is None else [str(t) for t in match.current_round.hand(seat)]
        assert view["hand"] == own
        assert "boneyard" not in view
    last = message["last_round"]
    if last is not None:  # a finished round: every hand is revealed (R21)
        finished = match.rounds[last["number"] - 1]
        assert finished.is_over
        assert last["revealed_hands"] == [
            [str(t) for t in finished.hand(s)] for s in range(match.players)
        ]


def run_bounded(body: Callable[[], Awaitable[Any]], timeout: float = 30) -> Any:
    """``asyncio.run`` of ``body()``, given up after ``timeout`` seconds."""

    async def bounded() -> Any:
        return await asyncio.wait_for(body(), timeout)

    return asyncio.run(bounded())


def eventually(condition: Callable[[], bool], limit: float = 20.0) -> bool:
    """``condition()`` holds now or within ``limit`` seconds (a terminated worker is
    reaped a moment after ``close`` returns on a loaded machine)."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def children() -> set[multiprocessing.process.BaseProcess]:
    """This process's live child processes (worker pools')."""
    return set(multiprocessing.active_children())
