"""Bots on the server: search bots think in worker processes, tables take turns, and one
client cannot keep many bot-only tables busy."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from draw_dominoes import Match
from draw_dominoes.web.scheduler import INLINE_LEVELS, BotScheduler
from test_web_support import Client, InProcessServer


def test_tables_take_turns_however_many_bots_they_have() -> None:
    """A table with three bots asks for one decision at a time and waits its turn behind
    the tables that asked before it (real search bots, in one worker process)."""

    async def body() -> list[str]:
        scheduler = BotScheduler(workers=1)
        match = Match.new(4, seed=5)
        view = match.view(match.current_player)

        async def table(name: str, decisions: int) -> None:
            for n in range(decisions):
                action = await scheduler.decide(name, "ismcts", n, view)
                assert action in view.legal_actions

        try:
            await asyncio.wait_for(
                asyncio.gather(table("three-bots", 3), table("b", 1), table("c", 1)), 120
            )
        finally:
            await scheduler.close()
        return list(scheduler.served)

    served = asyncio.run(body())
    assert served == ["three-bots", "b", "c", "three-bots", "three-bots"]


def test_cheap_bots_choose_at_once_and_search_bots_wait_for_a_worker() -> None:
    """``random`` and ``greedy`` answer without suspending (no trip to a process); a search
    bot's request suspends until a worker process has chosen."""

    async def body() -> None:
        scheduler = BotScheduler(workers=1)
        match = Match.new(2, seed=8)
        view = match.view(match.current_player)
        try:
            for level in sorted(INLINE_LEVELS):
                asking = scheduler.decide("t", level, 1, view)
                with pytest.raises(StopIteration) as answered:
                    asking.send(None)  # runs to the end without ever waiting
                assert answered.value.value in view.legal_actions
            asking = scheduler.decide("t", "ismcts", 1, view)
            asking.send(None)  # suspends: the decision is in a worker's hands
            asking.close()
            assert {"random", "greedy"} == INLINE_LEVELS
        finally:
            await scheduler.close()

    asyncio.run(body())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path / "bots.sqlite3", allow_seeds=True, max_bot_tables=2)
    running.start()
    yield running
    running.stop()


def start(server: InProcessServer, players: int, bots: dict[str, str]) -> tuple[Client, str]:
    table = server.create_table(players, "Ann", bots)
    client = Client(server, table["table_id"], table["token"])
    client.recv()
    reply = client.reply_to(client.send({"type": "start"}))
    return client, reply["type"] if reply["type"] == "ok" else reply["code"]


def test_one_client_may_run_only_a_few_matches_against_bots_alone(
    server: InProcessServer,
) -> None:
    search = {"1": "ismcts", "2": "ismcts", "3": "ismcts"}
    first, ok1 = start(server, 4, search)
    second, ok2 = start(server, 4, search)
    third, refused = start(server, 4, search)
    assert (ok1, ok2, refused) == ("ok", "ok", "too_many_bot_tables")
    assert third.state["table"]["status"] == "lobby"  # nothing was started
    # A table with a friend from another address is not one person's table against bots.
    table = server.create_table(2, "Ann", {})
    server.join(table["table_id"], "Bea", address="127.0.0.2")
    host = Client(server, table["table_id"], table["token"])
    host.recv()
    assert host.reply_to(host.send({"type": "start"}))["type"] == "ok"
    # Every bot-only table counts, whatever its bots.
    greedy, refused_again = start(server, 2, {"1": "greedy"})
    assert refused_again == "too_many_bot_tables"
    # A person who fills a four-player table's open seat from the same address does not
    # get round the limit: every table whose people all come from one address counts.
    bots_and_me = server.create_table(4, "Ann", {"1": "greedy", "2": "greedy"})
    server.join(bots_and_me["table_id"], "Ann again")
    sneaky = Client(server, bots_and_me["table_id"], bots_and_me["token"])
    sneaky.recv()
    reply = sneaky.reply_to(sneaky.send({"type": "start"}))
    assert reply["type"] == "error" and reply["code"] == "too_many_bot_tables"
    for client in (first, second, third, greedy, host, sneaky):
        client.close()


def test_a_refused_start_stores_nothing_and_spends_no_creation(tmp_path: Path) -> None:
    """``"start": true`` refused (too many matches against bots, or seats not all bots) is
    refused before the table is stored and before it counts against creating tables."""
    server = InProcessServer(
        tmp_path / "refused.sqlite3", max_bot_tables=1, create_rate=60.0, create_burst=2
    ).start()
    try:
        assert server.runtime is not None
        store = server.runtime.store
        against_bot = {"players": 2, "name": "Ann", "bots": {"1": "greedy"}, "start": True}
        running = server.post("/api/tables", against_bot)
        assert running.status_code == 201
        before = store.count_tables()
        for _ in range(5):
            refused = server.post("/api/tables", against_bot)
            assert refused.json()["error"] == "too_many_bot_tables"
            open_seat = server.post("/api/tables", {"players": 2, "name": "Ann", "start": True})
            assert open_seat.json()["error"] == "seats_open"
        assert store.count_tables() == before
        made = server.post("/api/tables", {"players": 2, "name": "Ann"})  # the second token
        assert made.status_code == 201
    finally:
        server.stop()
