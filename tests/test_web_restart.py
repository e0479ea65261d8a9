"""Kill the server with SIGKILL mid-match, start it again: every table goes on where it was."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Match, record
from test_web_support import Client, Server, play_until

pytestmark = pytest.mark.slow

BOT_SEAT = 1


def seated(server: Server, table_id: str, tokens: list[str]) -> list[Client]:
    clients = [Client(server, table_id, token) for token in tokens]
    for client in clients:
        client.recv()
    return clients


def public_part(state: dict[str, Any]) -> dict[str, Any]:
    return {k: state[k] for k in ("seq", "view", "line_svg", "rounds", "last_round", "you")}


def test_a_killed_server_resumes_every_table_and_finishes_the_match(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    # Phase 1: bots are slow, so the kill comes while the bot is still to move.
    server = Server(db, bot_delay=30, allow_seeds=True).start()
    table = server.create_table(3, "Ann", {str(BOT_SEAT): "greedy"}, seed=77)
    table_id = table["table_id"]
    tokens = [table["token"], server.join(table_id, "Bea")["token"]]
    clients = seated(server, table_id, tokens)
    assert clients[0].reply_to(clients[0].send({"type": "start"}))["type"] == "ok"
    rng = random.Random(5)
    play_until(clients, rng, lambda: clients[0].state["view"]["current_player"] == BOT_SEAT)
    for client in clients:
        client.drain(0.2)
    before = [public_part(c.state) for c in clients]
    server.kill()
    for client in clients:
        client.close()

    # Phase 2: the same database; the bot moves on its own, the players reconnect.
    server = Server(db, bot_delay=0, allow_seeds=True).start()
    clients = [Client(server, table_id, token) for token in tokens]
    first = [c.recv() for c in clients]
    restored = [public_part(m) for m in first]
    for was, now in zip(before, restored):
        if now["seq"] == was["seq"]:
            assert now == was
        else:  # the resumed bot already moved once
            assert now["seq"] > was["seq"]
            assert now["view"]["hand"] == was["view"]["hand"]
    # Nobody acts: the bot, whose turn it was at the kill, moves by itself after the restart.
    clients[0].state_where(lambda m: m["seq"] > before[0]["seq"])
    # Play into the second round, then kill again in the middle of it.
    play_until(
        clients,
        rng,
        lambda: len(clients[0].state["rounds"]) >= 1 and clients[0].state["view"]["history"],
    )
    for client in clients:
        client.drain(0.2)
    middle = [public_part(c.state) for c in clients]
    server.kill()
    for client in clients:
        client.close()

    # Phase 3: resume once more and finish the match through the same seats.
    server = Server(db, bot_delay=0, allow_seeds=True).start()
    try:
        clients = [Client(server, table_id, token) for token in tokens]
        resumed = [public_part(c.recv()) for c in clients]
        for was, now in zip(middle, resumed):
            assert now["seq"] >= was["seq"]
            if now["seq"] == was["seq"]:
                assert now == was
        play_until(clients, rng, lambda: clients[0].state["table"]["status"] == "over")
        text = server.get(f"/api/tables/{table_id}/matches/0/record").text
        match = record.loads(text)
        assert isinstance(match, Match) and match.is_over and max(match.scores) >= 61
        # The finished record starts with exactly the actions played before the kills.
        actions = [str(a) for r in match.rounds for _, a in r.history]
        history = [h["action"] for h in middle[0]["view"]["history"]]
        first_round_done = len(match.rounds[0].history)
        assert actions[first_round_done : first_round_done + len(history)] == history
        for client in clients:
            client.close()
    finally:
        server.stop()
