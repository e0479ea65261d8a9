"""The relay's own rules, against a real Redis: an owner never applies an intent whose
asker may have given up on it, its answer carries the commit the intent made, and a
relay's copy that fell behind catches up."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis.asyncio as redis

from draw_dominoes import parse_action
from draw_dominoes.web.runtime.bus import Bus
from draw_dominoes.web.runtime.live import LiveTable
from draw_dominoes.web.runtime.relay import Relay
from draw_dominoes.web.runtime.runtime import TableRuntime
from draw_dominoes.web.settings import Settings
from draw_dominoes.web.stores.sqlite import SqliteStore
from draw_dominoes.web.table import intents as i


def test_an_expired_intent_is_refused_and_a_fresh_one_answered_with_its_commit(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    async def body() -> None:
        settings = Settings(db=str(tmp_path / "t.sqlite3"), bot_delay=0.0, process="owner")
        runtime = TableRuntime(SqliteStore(tmp_path / "t.sqlite3"), settings)
        relay = Relay(runtime, Bus(redis_url, "owner", redis_prefix))
        await relay.start()
        runtime.relay = relay
        listener = redis.from_url(redis_url)
        answers = listener.pubsub(ignore_subscribe_messages=True)
        await answers.subscribe(f"{redis_prefix}process:asker")
        try:
            live, _ = runtime.create_table(2, "Ann", {})
            await runtime.apply(live, i.Join("Bea", None, "b" * 64, "10.0.0.2"), None)
            await runtime.start(live, 0)
            match = live.state.match
            assert match is not None
            seat, action = match.current_player, match.legal_actions()[0]

            async def ask(number: int, expires: float) -> dict[str, Any]:
                intent = i.to_json(i.Act(parse_action(str(action))))
                data = {"op": "intent", "table": live.id, "seat": seat, "intent": intent}
                data |= {"conn": 0, "lang": "en", "address": "10.0.0.2", "expires": expires}
                data |= {"id": number, "reply_to": "asker", "from": "asker"}
                await relay.on_message(live.id, data)
                async with asyncio.timeout(10):
                    while True:
                        message = await answers.get_message(timeout=1.0)
                        if message is not None:
                            return dict(json.loads(message["data"]))

            before = live.state
            late = await ask(1, time.time() - 0.1)
            assert late["error"] == "unavailable" and late["id"] == 1
            assert live.state is before  # never applied: its asker had given up
            fresh = await ask(2, time.time() + 2.0)
            assert fresh["ok"] and fresh["version"] == before.version + 1
            kinds = [write["kind"] for write in fresh["writes"]]
            assert kinds[0] == "SaveAction" and kinds[-1] == "SaveTable"
            assert live.state.seq == before.seq + 1
        finally:
            await answers.aclose()
            await listener.aclose()
            await runtime.close()
            await relay.bus.close()
            runtime.store.close()

    asyncio.run(body())


class Listener:
    """A connection at a process: it keeps what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat, self.lang, self.width = seat, "en", 800
        self.height: int | None = None
        self.address = "10.0.0.3"
        self.texts: list[str] = []

    def deliver(self, text: str, slot: str | None = None) -> None:
        self.texts.append(text)

    def close(self) -> None:
        pass


def test_a_relay_whose_copy_fell_behind_catches_up_when_it_next_tells_its_presence(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """A commit its relays were not told of (the owner had not heard of their connections
    yet, or the news was lost) must not leave a copy stale for ever: a player there would
    wait for a turn it never sees."""

    async def body() -> None:
        db = tmp_path / "t.sqlite3"
        runtimes = []
        for name in ("owner", "relay"):  # held: the table must not move to its player
            settings = Settings(db=str(db), process=name, hold_tables=True)
            runtime = TableRuntime(SqliteStore(db), settings)
            runtime.relay = Relay(runtime, Bus(redis_url, name, redis_prefix))
            await runtime.relay.start()
            runtimes.append(runtime)
        owner, relay = runtimes
        assert relay.relay is not None
        try:
            live, _ = owner.create_table(2, "Ann", {})
            await owner.apply(live, i.Join("Bea", None, "b" * 64, "10.0.0.2"), None)
            await owner.start(live, 0)
            copy = await relay.get(live.id)
            assert copy.owner == "owner" and copy.state.version == live.state.version
            bea = Listener(1)
            await relay.connect(copy, bea)
            async with asyncio.timeout(10):
                while "relay" not in live.crowd or copy.state.version < live.state.version:
                    await asyncio.sleep(0.01)
            live.crowd.clear()  # the owner forgets it: its next commit is told to nobody
            match = live.state.match
            assert match is not None
            await owner.apply(live, i.Act(match.legal_actions()[0]), match.current_player)
            await asyncio.sleep(0.3)
            assert copy.state.version < live.state.version  # behind, and nobody knows
            relay.relay.sweep()  # its regular word to the owner, with its version
            async with asyncio.timeout(10):
                while copy.state.version < live.state.version:
                    await asyncio.sleep(0.01)
            assert copy.state.seq == live.state.seq
            assert json.loads(bea.texts[-1])["seq"] == live.state.seq
        finally:
            for runtime in runtimes:
                await runtime.close()
                assert runtime.relay is not None
                await runtime.relay.bus.close()
                runtime.store.close()

    asyncio.run(body())


def test_a_table_moves_to_the_process_where_all_its_connections_are(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """Its intents then need not cross the bus, nor its commits come back; a player
    who comes back at the old owner is relayed to the new one."""

    async def body() -> None:
        db = tmp_path / "t.sqlite3"
        runtimes = []
        for name in ("first", "second"):
            runtime = TableRuntime(SqliteStore(db), Settings(db=str(db), process=name))
            runtime.relay = Relay(runtime, Bus(redis_url, name, redis_prefix))
            await runtime.relay.start()
            runtimes.append(runtime)
        first, second = runtimes
        assert first.relay is not None and second.relay is not None
        try:
            live, _ = first.create_table(2, "Ann", {})
            await first.apply(live, i.Join("Bea", None, "b" * 64, "10.0.0.2"), None)
            await first.start(live, 0)
            ann = Listener(0)
            await first.connect(live, ann)
            copy = await second.get(live.id)
            bea = Listener(1)
            await second.connect(copy, bea)
            await asyncio.sleep(0.3)
            assert copy.owner == "first"  # Ann is at the first process: it stays
            await first.disconnect(live, ann)  # now everyone is at the second
            async with asyncio.timeout(10):
                while not second.owns(copy):
                    await asyncio.sleep(0.01)
            assert live.id not in first.tables and first.relay.handovers == 1
            assert second.store.lease_owner(live.id) == "second"
            assert copy.state.version == live.state.version  # as stored: nothing lost
            forwarded = second.relay.bus.forwarded
            match = copy.state.match
            assert match is not None
            await second.apply(copy, i.Act(match.legal_actions()[0]), match.current_player)
            assert second.relay.bus.forwarded == forwarded  # played where it is served
            # Ann comes back at the first process: her intents go to the second now.
            again = await first.get(live.id)
            assert again.owner == "second" and not first.owns(again)
            await first.connect(again, ann)
            async with asyncio.timeout(10):
                while again.state.version < copy.state.version:
                    await asyncio.sleep(0.01)
            while (match := copy.state.match) is not None and match.current_player != 0:
                await second.apply(copy, i.Act(match.legal_actions()[0]), 1)  # Bea plays on
            assert match is not None
            before = copy.state.seq
            await first.apply(again, i.Act(match.legal_actions()[0]), 0)
            assert copy.state.seq == before + 1 and first.relay.bus.forwarded == 1
        finally:
            for runtime in runtimes:
                await runtime.close()
                assert runtime.relay is not None
                await runtime.relay.bus.close()
                runtime.store.close()

    asyncio.run(body())


def test_a_table_made_while_leases_are_renewed_is_not_taken_for_lost(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """The renewal's answer is older than a table created (or handed over) while it was
    on its way back: that table's lease is this process's all the same."""

    async def body() -> None:
        db = tmp_path / "t.sqlite3"
        runtime = TableRuntime(SqliteStore(db), Settings(db=str(db), process="one"))
        runtime.relay = Relay(runtime, Bus(redis_url, "one", redis_prefix))
        await runtime.relay.start()
        made: list[LiveTable] = []
        renewing = runtime.stored

        async def renewed_then_created(call: Callable[[], Any]) -> Any:
            answer = await renewing(call)
            if not made:  # a player creates a table meanwhile
                made.append(runtime.create_table(2, "Ann", {})[0])
            return answer

        try:
            older, _ = runtime.create_table(2, "Bea", {})
            runtime.stored = renewed_then_created  # type: ignore[method-assign]
            await runtime.renew_leases()
            (live,) = made
            assert runtime.owns(live) and runtime.owns(older)
            assert runtime.store.lease_owner(live.id) == "one"
        finally:
            await runtime.close()
            await runtime.relay.bus.close()
            runtime.store.close()

    asyncio.run(body())
