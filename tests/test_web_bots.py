"""Bots think in worker threads: a slow bot at one table never holds up another table."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Match
from draw_dominoes.view import PlayerView
from draw_dominoes.web import tables
from test_web_support import Client, InProcessServer


class Thinking:
    """The real bots, held in their worker thread until the test releases them (as a strong
    search bot would think for as long as it likes)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()


@pytest.fixture
def thinking(monkeypatch: pytest.MonkeyPatch) -> Iterator[Thinking]:
    real = tables.decide
    gate = Thinking()

    def held(level: str, seed: int, view: PlayerView) -> Any:
        gate.started.set()
        assert gate.release.wait(timeout=120)  # blocks its worker thread, not the event loop
        return real(level, seed, view)

    monkeypatch.setattr(tables, "decide", held)
    yield gate
    gate.release.set()


@pytest.fixture
def server(tmp_path: Path, thinking: Thinking) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path / "bots.sqlite3", allow_seeds=True).start()
    yield running
    thinking.release.set()
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
    server: InProcessServer, thinking: Thinking
) -> None:
    seed = next(s for s in range(100) if bot_leads(s))
    busy = server.create_table(2, "Ann", {"1": "greedy"}, seed=seed)
    ann = Client(server, busy["table_id"], busy["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    assert thinking.started.wait(timeout=30)
    # While that bot thinks (it cannot move until released), a second table is created,
    # joined, started and played.
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
    assert ann.state["seq"] == 0
    # Released, the bot's move reaches Ann.
    thinking.release.set()
    moved = ann.wait_for(lambda m: m["type"] == "state" and m["seq"] == 1)
    assert moved["view"]["history"][0]["player"] == 1
    for client in (ann, cleo, dana):
        client.close()
