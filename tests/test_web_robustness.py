"""The web app under faults: unpredictable seeds, failing bots and writes, damaged records."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import socket
import sqlite3
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Match, bots, parse_action
from draw_dominoes.actions import Action
from draw_dominoes.view import PlayerView
from draw_dominoes.web.routes.api import parse_width
from draw_dominoes.web.routes.deps import MAX_MESSAGE_BYTES
from draw_dominoes.web.runtime.live import LiveTable
from draw_dominoes.web.runtime.runtime import TableRuntime
from draw_dominoes.web.scheduler import BotScheduler
from draw_dominoes.web.settings import Settings
from draw_dominoes.web.stores.sqlite import SqliteStore
from draw_dominoes.web.table import UserError
from draw_dominoes.web.table.intents import Act
from test_web_support import Client, InProcessServer, Server, play_until

# ------------------------------------------------------------------ helpers


class Recorder:
    """A connection (``runtime.live.Socket``) that keeps everything it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.lang = "en"
        self.width = 800
        self.height: int | None = None
        self.address = "127.0.0.1"
        self.messages: list[dict[str, Any]] = []

    def deliver(self, text: str, slot: str | None = None) -> None:
        self.messages.append(json.loads(text))

    def errors(self) -> list[str]:
        return [m["code"] for m in self.messages if m["type"] == "error"]

    def close(self) -> None:
        pass


def make_runtime(db: Path, scheduler: BotScheduler | None = None, **changes: Any) -> TableRuntime:
    """The runtime over an SQLite file, as a server makes it, without the server."""
    settings = Settings(db=str(db), **{"bot_delay": 0.0, **changes})
    return TableRuntime(SqliteStore(db), settings, scheduler=scheduler)


async def act(runtime: TableRuntime, live: LiveTable, seat: int, text: str) -> None:
    await runtime.apply(live, Act(parse_action(text)), seat)


async def close(runtime: TableRuntime) -> None:
    await runtime.close()
    runtime.store.close()


def in_process_bots() -> BotScheduler:
    """Bots in threads of the test process, so that a bot registered by a test is known."""
    return BotScheduler(executor=ThreadPoolExecutor(2))


async def until(condition: Callable[[], bool], what: str, limit: float = 60) -> None:
    """Wait (without blocking the event loop) until ``condition()`` holds."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    try:
        await asyncio.wait_for(poll(), limit)
    except TimeoutError:
        raise AssertionError(f"gave up waiting: {what}") from None


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


def first_deal(match: Match) -> Any:
    first = match.rounds[0] if match.rounds else match.current_round
    return first.deal


def bots_done(table: LiveTable) -> Callable[[], bool]:
    return lambda: table.bot_task is None


def human_leads(seed: int, players: int = 2) -> bool:
    return Match.new(players, seed=seed).first_leader == 0


# ------------------------------------------------------------------ R21: seeds


@pytest.mark.parametrize("allow_seeds", [False, True])
def test_a_finished_record_does_not_give_away_the_rematch_deal(
    tmp_path: Path, allow_seeds: bool
) -> None:
    """R21: the seed in a downloaded record rebuilds that match only, never the next one."""
    server = InProcessServer(tmp_path / "seeds.sqlite3", allow_seeds=allow_seeds).start()
    try:
        seed = 4321 if allow_seeds else None
        table = server.create_table(2, "Ann", {"1": "random"}, seed=seed)
        ann = Client(server, table["table_id"], table["token"])
        ann.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        play_until([ann], random.Random(3), lambda: ann.state["table"]["status"] == "over")
        downloaded = server.get(f"/api/tables/{table['table_id']}/matches/0/record").text
        seed0 = json.loads(downloaded)["seed"]
        if allow_seeds:
            assert seed0 == seed  # the test client's seed deals the first match
        assert ann.reply_to(ann.send({"type": "rematch"}))["type"] == "ok"
        assert server.runtime is not None
        live = server.runtime.tables[table["table_id"]]
        rematch = live.state.matches[1]
        deal = first_deal(rematch)
        for k in range(-200, 201):
            guess = Match.new(2, seed=seed0 + k)
            assert guess.current_round.deal != deal, f"seed {seed0} + {k} rebuilds the rematch"
            assert guess.current_round.deal[1] != deal[1]  # not even the boneyard order
        assert rematch.seed is not None and abs(rematch.seed - seed0) > 2**32
        # The rematch replays from its own stored seed after a restart.
        stored = SqliteStore(server.db).load_table(table["table_id"])
        assert stored is not None
        assert [m.seed for m in stored.matches] == [seed0, rematch.seed]
        ann.close()
    finally:
        server.stop()


def test_without_the_testing_option_a_client_cannot_choose_seeds(tmp_path: Path) -> None:
    server = InProcessServer(tmp_path / "noseeds.sqlite3").start()
    try:
        refused = server.post("/api/tables", {"players": 2, "name": "Ann", "seed": 5})
        assert refused.status_code == 400
        assert refused.json()["error"] == "seeds_disabled" and refused.json()["message"]
        assert server.runtime is not None and not server.runtime.tables  # nothing was created
        table = server.create_table(2, "Ann", {"1": "random"})
        ann = Client(server, table["table_id"], table["token"])
        ann.recv()
        assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
        play_until([ann], random.Random(4), lambda: ann.state["table"]["status"] == "over")
        reply = ann.reply_to(ann.send({"type": "rematch", "seed": 5}))
        assert reply["type"] == "error" and reply["code"] == "seeds_disabled"
        assert len(server.runtime.tables[table["table_id"]].state.matches) == 1
        ann.close()
    finally:
        server.stop()


def test_each_match_gets_an_independent_fresh_seed(tmp_path: Path) -> None:
    async def body() -> None:
        runtime = make_runtime(tmp_path / "fresh.sqlite3", max_bot_tables=100)
        seeds = set()
        for _ in range(20):
            table, _ = runtime.create_table(2, "Ann", {"1": "random"})
            await runtime.start(table, 0)
            seeds.add(table.state.seed_of(0))
        assert len(seeds) == 20 and all(0 <= s < 2**63 for s in seeds)
        ordered = sorted(seeds)
        assert min(b - a for a, b in itertools.pairwise(ordered)) > 1000
        for table in runtime.tables.values():  # let the bots finish their turns
            await until(bots_done(table), "bots done")
        await close(runtime)

    run(body)


# ------------------------------------------------------------------ bots that fail

FLAKY = "flaky-test-bot"


@pytest.fixture
def flaky_bot() -> Iterator[list[int]]:
    """A test-only bot that raises on its first decision and plays greedy after that."""
    calls: list[int] = []

    class Flaky:
        name = FLAKY

        def __init__(self, seed: int) -> None:
            self.inner = bots.create("greedy", seed=seed)

        def choose(self, view: PlayerView) -> Action:
            assert view.player is not None
            calls.append(view.player)
            if len(calls) == 1:
                raise RuntimeError("the bot fell over")
            return self.inner.choose(view)

    bots.register(FLAKY, lambda seed=0, **_: Flaky(seed))
    yield calls
    bots._REGISTRY.pop(FLAKY)
    bots.NAMES.remove(FLAKY)
    bots.OFFERED.remove(FLAKY)


async def play_with_bot(runtime: TableRuntime, table: LiveTable, ann: Recorder, moves: int) -> None:
    """Ann plays the first legal action on her turns until the bot has moved ``moves`` times."""
    rng = random.Random(1)

    def bot_moves() -> int:
        match = table.state.match
        assert match is not None
        history = [seat for r in match.rounds for seat, _ in r.history]
        if not match.is_over:
            history += [seat for seat, _ in match.current_round.history]
        return history.count(1)

    while bot_moves() < moves and table.state.status == "playing":
        match = table.state.match
        assert match is not None
        if match.current_player == 0:
            await act(runtime, table, 0, str(rng.choice(match.legal_actions())))
        else:
            await asyncio.sleep(0.005)


def test_a_bot_that_raises_is_retried_and_the_table_goes_on(
    tmp_path: Path, flaky_bot: list[int]
) -> None:
    async def body() -> None:
        runtime = make_runtime(tmp_path / "flaky.sqlite3", in_process_bots(), retry_delay=0.01)
        table, _ = runtime.create_table(2, "Ann", {"1": FLAKY})
        ann, watcher = Recorder(0), Recorder(None)
        table.connections |= {ann, watcher}
        await runtime.start(table, 0)
        await asyncio.wait_for(play_with_bot(runtime, table, ann, moves=5), 120)
        assert len(flaky_bot) >= 6  # the failed decision, then five moves
        for conn in (ann, watcher):  # everybody at the table heard about the failure
            assert conn.errors() == ["bot_failed"]
            error = next(m for m in conn.messages if m["type"] == "error")
            assert error["message"] == UserError("bot_failed").message("en")
        await close(runtime)

    run(body)


def test_a_refused_database_write_does_not_stop_the_bots(tmp_path: Path) -> None:
    """The database turns read-only while the bot is to move; once writable, it moves."""

    async def body() -> None:
        db = tmp_path / "readonly.sqlite3"
        seed = next(s for s in range(100) if human_leads(s))
        runtime = make_runtime(db, allow_seeds=True, retry_delay=0.01, max_retry_delay=0.05)
        table, _ = runtime.create_table(2, "Ann", {"1": "greedy"}, seed)
        ann = Recorder(0)
        table.connections.add(ann)
        await runtime.start(table, 0)
        match = table.state.match
        assert match is not None and match.current_player == 0
        opening = next(a for a in match.legal_actions() if str(a) != "draw")
        # Before the bot's task first runs, the file refuses every write.
        with sqlite3.connect(db) as raw:
            raw.execute(
                "CREATE TRIGGER refuse_actions BEFORE INSERT ON actions"
                " WHEN NEW.seq > 0 BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        await act(runtime, table, 0, str(opening))
        await until(lambda: len(ann.errors()) >= 2, "the failed bot turns are reported")
        assert table.state.seq == 1  # nothing was applied that is not on disk
        with sqlite3.connect(db) as raw:
            raw.execute("DROP TRIGGER refuse_actions")
        await until(lambda: table.state.seq >= 2, "the bot moves once the database is writable")
        assert set(ann.errors()) == {"bot_failed"}
        reloaded = (await make_runtime(db).get(table.id)).state.match
        assert reloaded is not None and table.state.match is not None
        assert reloaded.current_round.history == table.state.match.current_round.history
        await close(runtime)

    run(body)


# ------------------------------------------------------------------ damaged records


def make_two_tables(db: Path) -> tuple[str, str]:
    async def body() -> tuple[str, str]:
        runtime = make_runtime(db, allow_seeds=True)
        ids = []
        for seed in (11, 12):
            table, _ = runtime.create_table(2, "Ann", {"1": "greedy"}, seed)
            await runtime.start(table, 0)
            await play_with_bot(runtime, table, Recorder(0), moves=2)
            await until(bots_done(table), "bots done")
            ids.append(table.id)
        await close(runtime)
        return ids[0], ids[1]

    return asyncio.run(body())


def test_one_damaged_record_leaves_the_other_tables_playable(tmp_path: Path) -> None:
    db = tmp_path / "damaged.sqlite3"
    good, bad = make_two_tables(db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE matches SET record = substr(record, 1, 60) WHERE table_id = ?", (bad,))
    with sqlite3.connect(db) as raw:
        damaged = raw.execute("SELECT * FROM matches WHERE table_id = ?", (bad,)).fetchall()

    runtime = make_runtime(db, round_pause=0)
    assert asyncio.run(runtime.get(good)).state.status == "playing"
    with pytest.raises(UserError) as refused:
        asyncio.run(runtime.get(bad))
    assert refused.value.code == "unavailable"
    assert set(runtime.tables) == {good} and set(runtime.unavailable) == {bad}
    runtime.store.close()

    # A real server starts on that file, serves the good table and reports the bad one.
    server = Server(db).start()
    try:
        assert server.get(f"/api/tables/{good}").status_code == 200
        response = server.get(f"/api/tables/{bad}")
        assert response.status_code == 503 and response.json()["error"] == "unavailable"
        watcher = Client(server, bad, None)
        assert watcher.recv()["code"] == "unavailable"
        watcher.close()
        created = server.create_table(2, "Bea", {"1": "random"})
        assert created["table_id"] not in (good, bad)
    finally:
        server.stop()
    with sqlite3.connect(db) as raw:  # kept exactly as it was: nothing deleted or rewritten
        assert raw.execute("SELECT * FROM matches WHERE table_id = ?", (bad,)).fetchall() == (
            damaged
        )
        assert raw.execute("SELECT count(*) FROM tables WHERE id = ?", (bad,)).fetchone() == (1,)


# ------------------------------------------------------------------ WebSocket errors


def test_width_parameters_that_are_not_plain_numbers_fall_back_to_the_default() -> None:
    assert parse_width("640") == 640 and parse_width("700") == 640
    for text in ("²", "٣٠٠", "9" * 5000, "", None, "-5", "1e3", "800px"):
        assert parse_width(text) == 800, text


@pytest.fixture
def live(tmp_path: Path) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path / "live.sqlite3").start()
    yield running
    running.stop()


def test_odd_width_parameters_still_get_a_table(live: InProcessServer) -> None:
    table = live.create_table(2, "Ann", {})
    for width in ("%C2%B2", "9" * 5000, "%D9%A3"):
        client = Client(live, table["table_id"], table["token"], extra=f"&width={width}")
        state = client.recv()
        assert state["type"] == "state" and state["you"] == 0
        client.close()


def test_a_failing_write_leaves_seats_unchanged_and_the_socket_open(
    live: InProcessServer,
) -> None:
    """A server fault gets a generic error on the same socket; memory is as before (R8)."""
    table = live.create_table(3, "Ann", {"2": "greedy"})
    table_id = table["table_id"]
    host = Client(live, table_id, table["token"])
    host.recv()
    assert live.runtime is not None
    seats_before = [dict(s) for s in host.state["table"]["seats"]]
    live.runtime.store.close()  # every write from now on fails

    for message in (
        {"type": "rename", "name": "Hostess"},
        {"type": "seat", "seat": 1, "level": "random"},
        {"type": "seat", "seat": 2, "level": None},
    ):
        reply = host.reply_to(host.send(message))
        assert reply["type"] == "error" and reply["code"] == "internal", reply
        assert reply["message"] == UserError("internal").message("en")
    joined = live.post(f"/api/tables/{table_id}/join", {"name": "Bea"})
    assert joined.status_code == 500 and joined.json()["error"] == "internal"

    host.send({"type": "ping"})
    assert host.wait_for(lambda m: m["type"] == "pong")  # still connected
    host.send({"type": "hello"})
    state = host.wait_for(lambda m: m["type"] == "state")
    assert state["table"]["seats"] == seats_before
    seats = live.runtime.tables[table_id].state.seats
    assert [(s.kind, s.name, s.level, s.token_hash is None) for s in seats] == [
        ("human", "Ann", None, False),
        ("open", "", None, True),
        ("bot", "Bot 3 (greedy)", "greedy", True),
    ]
    host.close()


def raw_request(server: Server, head: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """Send a request's head and only part of its body; read the answer that comes anyway."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as conn:
        conn.sendall(head.encode() + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += conn.recv(65536)
        head_part, _, rest = answer.partition(b"\r\n\r\n")
        length = int(
            next(
                line.split(b":")[1]
                for line in head_part.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
        )
        while len(rest) < length:
            rest += conn.recv(65536)
    return int(head_part.split(b" ")[1]), json.loads(rest)


def test_large_bodies_are_refused_before_they_are_read(live: InProcessServer) -> None:
    """The server answers while most of the body has not even been sent."""
    head = "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    status, data = raw_request(live, head + "Content-Length: 100000000\r\n\r\n", b'{"pl')
    assert status == 413 and data["error"] == "too_large"
    chunk = b" " * (MAX_MESSAGE_BYTES + 100)
    status, data = raw_request(
        live,
        head + "Transfer-Encoding: chunked\r\n\r\n",
        f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n",  # and no end of the body
    )
    assert status == 413 and data["error"] == "too_large"
    assert live.runtime is not None and not live.runtime.tables


def test_a_refused_final_record_refuses_the_move_and_changes_nothing(tmp_path: Path) -> None:
    """The file refuses the finished record (an SQLite trigger): the match-ending move is
    refused with it, as one write, and nothing changes (R8); once the file takes writes
    again, the match ends and reloads as finished."""
    db = tmp_path / "final.sqlite3"

    async def body() -> str:
        runtime = make_runtime(db, round_pause=0, retry_delay=0.01, max_retry_delay=0.05)
        table, _ = runtime.create_table(2, "Ann", {"1": "random"})
        ann = Recorder(0)
        table.connections.add(ann)
        await runtime.start(table, 0)
        with sqlite3.connect(db) as raw:
            raw.execute(
                "CREATE TRIGGER refuse_records BEFORE UPDATE ON matches"
                " BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        rng = random.Random(2)
        refused_at = None
        for _ in range(20000):
            state = table.state
            match = state.match
            assert match is not None
            if match.is_over:
                break
            if refused_at is None and (ann.errors() or "refused" in ann.messages[-1:]):
                break
            if match.current_player == 0:
                try:
                    await act(runtime, table, 0, str(rng.choice(match.legal_actions())))
                except (UserError, ValueError):
                    refused_at = state
                    break
            else:
                await asyncio.sleep(0.001)
                if ann.errors():
                    refused_at = state
                    break
        assert refused_at is not None and table.state is refused_at  # nothing changed
        assert table.state.status == "playing"
        with sqlite3.connect(db) as raw:
            raw.execute("DROP TRIGGER refuse_records")
        while table.state.status == "playing":
            match = table.state.match
            assert match is not None
            if match.current_player == 0:
                await act(runtime, table, 0, str(rng.choice(match.legal_actions())))
            else:
                await asyncio.sleep(0.001)
        await until(bots_done(table), "bots done")
        await close(runtime)
        return table.id

    table_id = asyncio.run(body())
    reloaded = asyncio.run(make_runtime(db).get(table_id)).state
    assert reloaded.status == "over" and reloaded.match is not None
    assert max(reloaded.match.scores) >= reloaded.match.target
