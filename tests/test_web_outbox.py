"""One connection's outbox: putting never waits, the newest state wins in its place, and a
client that falls behind is cut off."""

from __future__ import annotations

import asyncio

from draw_dominoes.web.outbox import Outbox


class Socket:
    """A real in-memory peer: it reads when the test lets it."""

    def __init__(self) -> None:
        self.read: list[str] = []
        self.gate = asyncio.Event()
        self.cut: list[str] = []

    async def write(self, text: str) -> None:
        await self.gate.wait()
        self.read.append(text)


def test_the_newest_state_replaces_an_unsent_one_in_its_place() -> None:
    async def body() -> None:
        peer = Socket()
        outbox = Outbox(peer.write, peer.cut.append)
        runner = asyncio.get_running_loop().create_task(outbox.run())
        outbox.put("state 1", "state")
        await asyncio.sleep(0)  # the writer takes "state 1" and waits on the peer
        outbox.put("state 2", "state")
        outbox.put("ok 2")
        outbox.put("state 3", "state")
        outbox.put("presence", "presence")
        outbox.put("state 4", "state")
        peer.gate.set()
        await asyncio.sleep(0.05)
        assert peer.read == ["state 1", "state 4", "ok 2", "presence"]
        assert outbox.replaced == 2 and not peer.cut
        outbox.close()
        await runner

    asyncio.run(body())


def test_a_client_that_falls_behind_is_cut_off() -> None:
    async def body() -> None:
        peer = Socket()
        outbox = Outbox(peer.write, peer.cut.append, limit=5)
        runner = asyncio.get_running_loop().create_task(outbox.run())
        for n in range(10):
            outbox.put(f"ok {n}")  # never waits, however far behind the peer is
        assert peer.cut == ["overflow"] and outbox.closed
        await runner

    asyncio.run(body())


def test_a_socket_that_accepts_nothing_is_cut_off_after_the_stall_timeout() -> None:
    async def body() -> None:
        peer = Socket()
        outbox = Outbox(peer.write, peer.cut.append, stall_timeout=0.05)
        runner = asyncio.get_running_loop().create_task(outbox.run())
        outbox.put("state", "state")
        await asyncio.wait_for(runner, 5)
        assert peer.cut == ["stalled"] and not peer.read

    asyncio.run(body())
