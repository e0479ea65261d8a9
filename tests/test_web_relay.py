"""The relay's own rules, against a real Redis: an owner never applies an intent whose
asker may have given up on it, and its answer carries the commit the intent made."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import redis.asyncio as redis

from draw_dominoes import parse_action
from draw_dominoes.web.runtime.bus import Bus
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
