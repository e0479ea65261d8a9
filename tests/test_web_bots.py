"""Bots think in worker threads: a slow bot at one table never holds up another table."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from draw_dominoes import Match
from draw_dominoes.view import PlayerView
from draw_dominoes.web import tables
from draw_dominoes.web.app import create_app
from test_web_support import Client, Server, free_port

THINKING = 2.0


class InProcessServer(Server):
    """The app on a real uvicorn server on 127.0.0.1, in a thread of the test process."""

    def __init__(self, db: Path) -> None:
        super().__init__(db)
        self.thread: threading.Thread | None = None
        self.uvicorn: uvicorn.Server | None = None

    def start(self) -> InProcessServer:
        self.port = free_port()
        app = create_app(self.db, bot_delay=0, rate=1000, burst=2000)
        self.uvicorn = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        while not self.uvicorn.started:
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        assert self.uvicorn is not None and self.thread is not None
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def slow_bots(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The real bots, made to think for a while (as a strong search bot would)."""
    real = tables.decide
    started: list[float] = []

    def thinking(level: str, seed: int, view: PlayerView) -> Any:
        started.append(time.monotonic())
        time.sleep(THINKING)  # blocks its worker thread, not the event loop
        return real(level, seed, view)

    monkeypatch.setattr(tables, "decide", thinking)
    return started


@pytest.fixture
def server(tmp_path: Path, slow_bots: list[float]) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path / "bots.sqlite3").start()
    yield running
    running.stop()


def bot_leads(seed: int) -> bool:
    return Match.new(2, seed=seed).first_leader == 1


def next_to_move(*clients: Client) -> Client:
    for _ in range(200):
        for client in clients:
            if client.state.get("view") and client.state["view"]["legal_actions"]:
                return client
        for client in clients:
            with contextlib.suppress(TimeoutError):
                client.recv(timeout=0.05)
    raise AssertionError("nobody is to move")


def test_a_thinking_bot_does_not_freeze_other_tables(
    server: InProcessServer, slow_bots: list[float]
) -> None:
    seed = next(s for s in range(100) if bot_leads(s))
    busy = server.create_table(2, "Ann", {"1": "greedy"}, seed=seed)
    ann = Client(server, busy["table_id"], busy["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    while not slow_bots:
        time.sleep(0.01)
    # While that bot thinks, a second table is created, joined, started and played.
    other = server.create_table(2, "Cleo", {}, seed=3)
    dan = server.join(other["table_id"], "Dan")
    cleo = Client(server, other["table_id"], other["token"])
    dana = Client(server, other["table_id"], dan["token"])
    cleo.recv()
    assert cleo.reply_to(cleo.send({"type": "start"}))["type"] == "ok"
    for _ in range(6):
        mover = next_to_move(cleo, dana)
        action = mover.state["view"]["legal_actions"][0]
        assert mover.reply_to(mover.send({"type": "action", "action": action}))["type"] == "ok"
    ann.send({"type": "ping"})
    assert ann.wait_for(lambda m: m["type"] == "pong")
    # All of that happened before the bot's first move reached Ann: her socket answered
    # the ping and no state with the bot's move came before the answer.
    assert ann.state["seq"] == 0
    moved = ann.wait_for(lambda m: m["type"] == "state" and m["seq"] == 1, timeout=10)
    assert moved["view"]["history"][0]["player"] == 1
    for client in (ann, cleo, dana):
        client.close()
