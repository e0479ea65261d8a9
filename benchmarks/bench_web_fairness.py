"""Load test of the server's fair sharing: does one client address's attack change what a
stranger at a live table gets?

One server (``python -m draw_dominoes.web``, a fresh SQLite file, the default limits, the
bots' and the reviews' worker processes) serves a stranger at 127.0.0.2: a live two-seat
table against a ``heuristic`` bot (which thinks in the bots' worker processes), and
finished matches of their own to have reviewed. For each attack the stranger is measured
for ``--seconds`` before it and again while it runs, side by side in one run:

* ping: the round trip of ``{"type": "ping"}`` over the table's WebSocket (the event loop);
* move → ok: from sending a move to its ``ok`` (checked, stored, published);
* bot reply: from sending a move to the first state in which the bot has answered it
  (moves that end a round are left out);
* review start: from asking for the review of a finished match of theirs to its leaving
  the queue (``running`` or ``done``), at most ``--review-wait`` seconds;
* listed: whether the stranger's public table is on the start page's list.

The attacks, each from one address of its own (every 127.0.0.x is another client):

1. ``reviews``: 20 review requests, one for each of 20 finished matches the attacker sits
   at (the matches were played from other addresses beforehand), then again every second;
2. ``gets``: 40 keep-alive connections repeating ``GET .../review`` of a finished review;
3. ``hints``: hint requests at 20 tables (started from other addresses, so that the
   bot-table limit does not stop them) as fast as the per-connection limit lets through,
   a move after every answered hint;
4. ``bot tables``: 4-seat tables with three ``expert`` bots each, started at once, as many
   as the address may (``--max-bot-tables``), and more asked for: a second seat of its
   own table taken from the same address does not make a table another person's; the
   attacker plays its seat at once whenever it is to move;
5. ``list``: public tables, as many as the address may create, each with a connection so
   that it is listed.

Only 127.0.0.x is used, every count is bounded and the whole run is capped at
``--limit`` seconds; an attack's own outcome (accepted and refused) is printed beside it.

    python benchmarks/bench_web_fairness.py
    python benchmarks/bench_web_fairness.py --seconds 10 --attacks reviews,gets
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

STRANGER = "127.0.0.2"
ATTACKERS = {
    "reviews": "127.0.0.3",
    "gets": "127.0.0.4",
    "hints": "127.0.0.5",
    "bot tables": "127.0.0.6",
    "list": "127.0.0.7",
}
HELPERS = "127.0.1.{}"
"""Addresses that play the finished matches beforehand and create the hint attack's
tables (each its own client, so that no limit of the attacker's applies to them)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# ------------------------------------------------------------------ HTTP, kept alive


class Http:
    """One HTTP/1.1 connection from ``address``, kept alive, one request at a time."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(self.address, 0)
                )
            assert self.reader is not None
            data = b"" if body is None else json.dumps(body).encode()
            lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
            lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
            if body is not None:
                lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
            try:
                self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
                continue
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            found = {}
            for line in header_lines:
                if ":" in line:
                    name, _, value = line.partition(":")
                    found[name.strip().lower()] = value.strip()
            length = int(found.get("content-length", "0"))
            content = await self.reader.readexactly(length) if length else b""
            if found.get("connection") == "close":
                self.close()
            return int(status_line.split()[1]), found, content
        raise AssertionError("unreachable")

    async def json(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, _, content = await self.request(method, path, body)
        return status, json.loads(content) if content else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# ------------------------------------------------------------------ a seat at a table


def my_turn(state: dict[str, Any]) -> bool:
    view = state.get("view")
    if state.get("round_end") or state.get("table", {}).get("waiting"):
        return False
    return bool(view and state["table"]["status"] == "playing" and view["legal_actions"])


class Seat:
    """A WebSocket at a table: the latest state, answers by id, and a way to wait."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.state: dict[str, Any] = {}
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.pongs: list[asyncio.Future[float]] = []
        self.hints = 0
        self.changed = asyncio.Event()
        self.next_id = 1
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, table_id: str, token: str | None, address: str) -> Seat:
        query = f"?lang=en&token={token}" if token else "?lang=en"
        socket = await connect(
            f"ws://127.0.0.1:{port}/ws/{table_id}{query}",
            local_addr=(address, 0),
            max_size=2**22,
            open_timeout=20,
        )
        seat = cls(socket)
        await seat.wait(lambda s: bool(s), 20)
        return seat

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in self.socket:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "state":
                    self.state = message
                elif kind == "pong" and self.pongs:
                    self.pongs.pop(0).set_result(time.perf_counter())
                elif kind == "hint":
                    self.hints += 1
                elif kind in ("ok", "error") and message.get("id") in self.replies:
                    self.replies.pop(message["id"]).set_result(message)
                elif kind == "error" and message.get("id") is None and self.replies:
                    # Refused before it was read (``rate_limited``): the oldest waiting.
                    self.replies.pop(min(self.replies)).set_result(message)
                self.changed.set()

    async def send(self, message: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        request_id = self.next_id
        self.next_id += 1
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[request_id] = answer
        await self.socket.send(json.dumps({**message, "id": request_id}))
        return answer

    async def ask(self, message: dict[str, Any], timeout: float = 20) -> dict[str, Any]:
        return await asyncio.wait_for(await self.send(message), timeout)

    async def ping(self) -> float:
        pong: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.pongs.append(pong)
        began = time.perf_counter()
        await self.socket.send(json.dumps({"type": "ping"}))
        return await asyncio.wait_for(pong, 10) - began

    async def wait(self, condition: Callable[[dict[str, Any]], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not condition(self.state):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def play_on(self, rng: random.Random) -> str | None:
        """One step of whatever the seat should do now: continue after a round's end,
        ask for a rematch after the match, or move; the move's intent, else ``None``."""
        state = self.state
        if state.get("round_end") and state.get("you") is not None:
            await self.send({"type": "continue"})
            return None
        if state.get("table", {}).get("status") == "over":
            await self.send({"type": "rematch"})
            return None
        if my_turn(state):
            return str(rng.choice(state["view"]["legal_actions"]))
        return None

    async def close(self) -> None:
        await self.socket.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


# ------------------------------------------------------------------ the server


class Server:
    def __init__(self, folder: Path, args: argparse.Namespace) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "draw_dominoes.web", "--port", str(self.port)]
        command += ["--db", str(folder / "bench.sqlite3"), "--bot-delay", "0"]
        command += ["--analysis-iterations", str(args.analysis_iterations)]
        command += ["--round-pause", "0"]
        self.log = (folder / "server.log").open("wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)

    async def ready(self) -> None:
        http = Http(self.port, "127.0.0.1")
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _ = await http.json("GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("the server did not start")
            await asyncio.sleep(0.1)

    async def metric(self, name: str) -> float:
        _, _, body = await Http(self.port, "127.0.0.1").request("GET", "/metrics")
        found = re.search(rf"^{name} (\S+)$", body.decode(), re.MULTILINE)
        return float(found.group(1)) if found else 0.0

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


async def create(
    port: int, address: str, players: int, name: str, bots: dict[str, str], **more: Any
) -> dict[str, Any]:
    request = {"players": players, "name": name, "bots": bots, **more}
    status, data = await Http(port, address).json("POST", "/api/tables", request)
    if status != 201:
        raise RuntimeError(f"a table was refused: {status} {data}")
    return dict(data)


async def finished_match(port: int, address: str, seed: int) -> dict[str, Any]:
    """A whole two-seat match against the greedy bot, played from ``address``."""
    table = await create(port, address, 2, "Helper", {"1": "greedy"})
    seat = await Seat.open(port, table["table_id"], table["token"], address)
    rng = random.Random(seed)
    await seat.ask({"type": "start"})
    deadline = time.monotonic() + 300
    while seat.state.get("table", {}).get("status") != "over":
        if time.monotonic() > deadline:
            raise RuntimeError("a match did not finish")
        state = seat.state
        if state.get("round_end"):
            await seat.ask({"type": "continue"})
        elif my_turn(state):
            answer = await seat.ask(
                {"type": "action", "action": rng.choice(state["view"]["legal_actions"])}
            )
            if answer["type"] != "ok" and answer.get("code") == "rate_limited":
                await asyncio.sleep(0.2)
        seq = state.get("seq")
        await seat.wait(lambda s, seq=seq: s.get("seq") != seq or my_turn(s), 0.5)
    await seat.close()
    return table


# ------------------------------------------------------------------ the stranger


@dataclass
class Figures:
    pings: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    bot: list[float] = field(default_factory=list)
    review: float | None = None
    review_position: int | None = None
    listed: bool | None = None
    errors: list[str] = field(default_factory=list)


STEP_SECONDS = 0.25
"""The stranger pings and moves at most this often: a quick player, well inside the
per-connection message limit."""


class Stranger:
    """Someone else at the server: a live table against a heuristic bot, a public table
    of theirs, and finished matches to have reviewed."""

    def __init__(self, port: int, finished: list[dict[str, Any]]) -> None:
        self.port = port
        self.finished = finished
        self.http = Http(port, STRANGER)
        self.rng = random.Random(7)
        self.seat: Seat | None = None
        self.lobby: Seat | None = None
        self.public_id = ""

    async def sit(self) -> None:
        table = await create(self.port, STRANGER, 2, "Stranger", {"1": "heuristic"})
        self.seat = await Seat.open(self.port, table["table_id"], table["token"], STRANGER)
        await self.seat.ask({"type": "start"})
        public = await create(self.port, STRANGER, 3, "Stranger", {}, public=True)
        self.public_id = public["table_id"]
        self.lobby = await Seat.open(self.port, public["table_id"], public["token"], STRANGER)

    async def measure(self, seconds: float, review_wait: float) -> Figures:
        figures = Figures()
        reviewing = asyncio.get_running_loop().create_task(self._review(figures, review_wait))
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            await self._step(figures)
        status, data = await self.http.json("GET", "/api/tables")
        figures.listed = status == 200 and any(t["id"] == self.public_id for t in data["tables"])
        await reviewing
        return figures

    async def _step(self, figures: Figures) -> None:
        seat = self.seat
        assert seat is not None
        paced = asyncio.get_running_loop().create_task(asyncio.sleep(STEP_SECONDS))
        try:
            await self._act(seat, figures)
        finally:
            await paced

    async def _act(self, seat: Seat, figures: Figures) -> None:
        try:
            figures.pings.append(await seat.ping())
        except TimeoutError:
            figures.errors.append("no pong")
        action = await seat.play_on(self.rng)
        if action is None:
            await seat.wait(lambda s: my_turn(s) or bool(s.get("round_end")), 0.25)
            return
        seq = seat.state["seq"]
        began = time.perf_counter()
        answer = await seat.ask({"type": "action", "action": action})
        if answer["type"] != "ok":
            figures.errors.append(str(answer.get("code")))
            return
        figures.acks.append(time.perf_counter() - began)
        # Drawing keeps the turn: then the next state is the stranger's own again.
        answered = await seat.wait(
            lambda s: (
                s.get("seq", 0) >= seq + 2
                or bool(s.get("round_end"))
                or (s.get("seq", 0) == seq + 1 and my_turn(s))
            ),
            20,
        )
        state = seat.state
        if answered and not state.get("round_end") and state.get("seq", 0) >= seq + 2:
            figures.bot.append(time.perf_counter() - began)

    async def _review(self, figures: Figures, review_wait: float) -> None:
        """Ask for a review of one of the stranger's finished matches; how long until it
        leaves the queue (bounded; then waits, as long again at most, for it to end)."""
        if not self.finished:
            return
        table = self.finished.pop()
        path = f"/api/tables/{table['table_id']}/matches/0/review"
        began = time.perf_counter()
        status, data = await self.http.json("POST", path, {"token": table["token"]})
        if status not in (200, 202):
            figures.errors.append(f"review {status} {data.get('error')}")
            return
        figures.review_position = data.get("position")
        deadline = time.monotonic() + review_wait
        while data.get("status") == "queued" and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            status, data = await self.http.json("GET", path)
        if data.get("status") in ("running", "done"):
            figures.review = time.perf_counter() - began
        while data.get("status") == "running" and time.monotonic() < deadline:
            await asyncio.sleep(0.2)  # done before the next measurement asks again
            status, data = await self.http.json("GET", path)


# ------------------------------------------------------------------ the attacks


@dataclass
class Outcome:
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def __str__(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))


Attack = Callable[[asyncio.Event, Outcome], Awaitable[None]]


async def prepared_finished(port: int, count: int, first: int) -> list[dict[str, Any]]:
    """``count`` finished matches, each played from a helper address of its own."""
    return list(
        await asyncio.gather(
            *(finished_match(port, HELPERS.format(first + n), first + n) for n in range(count))
        )
    )


def review_flood(port: int, matches: list[dict[str, Any]]) -> Attack:
    address = ATTACKERS["reviews"]

    async def attack(stop: asyncio.Event, outcome: Outcome) -> None:
        http = Http(port, address)
        while not stop.is_set():
            for table in matches:
                path = f"/api/tables/{table['table_id']}/matches/0/review"
                status, data = await http.json("POST", path, {"token": table["token"]})
                outcome.count(f"{status} {data.get('error') or data.get('status')}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)

    return attack


def get_flood(port: int, path: str, connections: int = 40) -> Attack:
    address = ATTACKERS["gets"]

    async def attack(stop: asyncio.Event, outcome: Outcome) -> None:
        async def one() -> None:
            http = Http(port, address)
            etag = ""
            while not stop.is_set():
                headers = {"If-None-Match": etag} if etag else {}
                status, found, _ = await http.request("GET", path, headers=headers)
                etag = found.get("etag", etag)
                outcome.count(str(status))
            http.close()

        await asyncio.gather(*(one() for _ in range(connections)))

    return attack


def hint_spam(port: int, tables: list[dict[str, Any]]) -> Attack:
    address = ATTACKERS["hints"]

    async def attack(stop: asyncio.Event, outcome: Outcome) -> None:
        seats = [await Seat.open(port, t["table_id"], t["token"], address) for t in tables]
        rng = random.Random(5)
        try:
            while not stop.is_set() and seats:
                for seat in list(seats):
                    try:
                        await hint_or_move(seat, rng, outcome)
                    except (ConnectionClosed, TimeoutError):
                        outcome.count("sockets closed by the server")
                        seats.remove(seat)
                await asyncio.sleep(0.05)
        finally:
            for seat in seats:
                await seat.close()

    return attack


async def hint_or_move(seat: Seat, rng: random.Random, outcome: Outcome) -> None:
    if seat.hints:  # answered: move on, so that the next hint is new work
        seat.hints = 0
        action = await seat.play_on(rng)
        if action is not None:
            await seat.send({"type": "action", "action": action})
    elif my_turn(seat.state):
        answer = await seat.ask({"type": "hint"}, timeout=5)
        outcome.count(answer.get("code") or "accepted")
    else:
        await seat.play_on(rng)


def bot_tables(port: int, tables: int = 10) -> Attack:
    address = ATTACKERS["bot tables"]
    levels = {"1": "expert", "2": "expert", "3": "expert"}

    async def attack(stop: asyncio.Event, outcome: Outcome) -> None:
        http = Http(port, address)
        seats: list[Seat] = []
        for _ in range(tables):
            request = {"players": 4, "name": "Bots", "bots": levels, "start": True}
            status, data = await http.json("POST", "/api/tables", request)
            outcome.count(f"{status} {data.get('error', 'started')}")
            if status == 201:
                seats.append(await Seat.open(port, data["table_id"], data["token"], address))
        # A second seat from the same address: still one person's table.
        lobby = await create(port, address, 4, "Bots", {"2": "expert", "3": "expert"})
        status, _ = await http.json(
            "POST", f"/api/tables/{lobby['table_id']}/join", {"name": "Twin"}
        )
        host = await Seat.open(port, lobby["table_id"], lobby["token"], address)
        answer = await host.ask({"type": "start"})
        outcome.count(f"twin seat start {answer.get('code') or 'ok'}")
        if answer["type"] == "ok":
            seats.append(host)
        else:
            await host.close()
        rng = random.Random(3)
        try:
            while not stop.is_set():
                for seat in seats:
                    action = await seat.play_on(rng)
                    if action is not None:
                        await seat.send({"type": "action", "action": action})
                        outcome.count("attacker moves")
                await asyncio.sleep(0.02)
        finally:
            for seat in seats:
                await seat.close()

    return attack


def list_flood(port: int, tables: int = 40) -> Attack:
    address = ATTACKERS["list"]

    async def attack(stop: asyncio.Event, outcome: Outcome) -> None:
        http = Http(port, address)
        seats: list[Seat] = []
        try:
            for n in range(tables):
                request = {"players": 4, "name": f"Spam {n}", "public": True}
                status, data = await http.json("POST", "/api/tables", request)
                outcome.count(f"{status} {data.get('error', 'created')}")
                if status == 201:
                    seats.append(await Seat.open(port, data["table_id"], data["token"], address))
            status, data = await http.json("GET", "/api/tables")
            outcome.count(
                "listed of theirs", sum(1 for t in data["tables"] if t["host"].startswith("Spam"))
            )
            await stop.wait()
        finally:
            for seat in seats:
                await seat.close()

    return attack


# ------------------------------------------------------------------ the run


def ms(values: list[float], q: float) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.0f}"


def cell(figures: Figures, what: str) -> str:
    if what == "ping":
        return f"{ms(figures.pings, 0.5)} / {ms(figures.pings, 0.9)}"
    if what == "ack":
        return f"{ms(figures.acks, 0.5)} / {ms(figures.acks, 0.9)}"
    if what == "bot":
        return f"{ms(figures.bot, 0.5)} / {ms(figures.bot, 0.9)}"
    if what == "review":
        if figures.review is None:
            return "not started" if figures.review_position is None else "still queued"
        place = "" if figures.review_position is None else f" (#{figures.review_position})"
        return f"{figures.review:.1f} s{place}"
    return "yes" if figures.listed else "no"


COLUMNS = [
    ("ping", "ping ms p50/p90"),
    ("ack", "move→ok ms p50/p90"),
    ("bot", "bot reply ms p50/p90"),
    ("review", "review start"),
    ("listed", "listed"),
]


async def quiet(server: Server, limit: float) -> None:
    """Wait until no review is waiting or running (the last phase's are done)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and await server.metric("draw_reviews_running") > 0:
        await asyncio.sleep(0.5)


async def run(args: argparse.Namespace, folder: Path) -> None:
    server = Server(folder, args)
    try:
        await server.ready()
        port = server.port
        chosen = [a.strip() for a in args.attacks.split(",") if a.strip()]
        began = time.monotonic()
        theirs = 21 if "reviews" in chosen or "gets" in chosen else 0
        finished = await prepared_finished(port, theirs + 2 * len(chosen), 1)
        attacker_matches, own = finished[:theirs], finished[theirs:]
        hint_tables: list[dict[str, Any]] = []
        if "hints" in chosen:
            for n in range(20):  # created and started from other addresses
                helper = HELPERS.format(100 + n)
                table = await create(port, helper, 2, "Hinter", {"1": "greedy"}, hints=True)
                seat = await Seat.open(port, table["table_id"], table["token"], helper)
                await seat.ask({"type": "hints", "allowed": True})
                await seat.ask({"type": "start"})
                await seat.close()
                hint_tables.append(table)
        print(f"prepared in {time.monotonic() - began:.0f} s", flush=True)
        review_path = ""
        if attacker_matches:
            done = attacker_matches[-1]
            review_path = f"/api/tables/{done['table_id']}/matches/0/review"
            helper = Http(port, HELPERS.format(99))
            await helper.json("POST", review_path, {"token": done["token"]})
            while (await helper.json("GET", review_path))[1].get("status") != "done":
                await asyncio.sleep(0.5)
            attacker_matches = attacker_matches[:-1]
        attacks: dict[str, Attack] = {
            "reviews": review_flood(port, attacker_matches[:20]),
            "gets": get_flood(port, review_path),
            "hints": hint_spam(port, hint_tables),
            "bot tables": bot_tables(port),
            "list": list_flood(port),
        }
        stranger = Stranger(port, own)
        await stranger.sit()
        rows = []
        for name in chosen:
            await quiet(server, args.review_wait)
            before = await stranger.measure(args.seconds, args.review_wait)
            stop = asyncio.Event()
            outcome = Outcome()
            task = asyncio.get_running_loop().create_task(attacks[name](stop, outcome))
            await asyncio.sleep(args.warmup)
            during = await stranger.measure(args.seconds, args.review_wait)
            stop.set()
            await asyncio.wait_for(task, 60)
            rows.append((name, before, during, outcome))
            print(f"{name}: done", flush=True)
        print()
        print(
            f"stranger at {STRANGER}; {args.seconds:.0f} s before and during each attack;"
            f" bots' and reviews' workers on {os.cpu_count()} cores"
        )
        header = "| attack | when | " + " | ".join(title for _, title in COLUMNS) + " |"
        print(header)
        print("|" + "---|" * (len(COLUMNS) + 2))
        for name, before, during, _ in rows:
            for when, figures in (("before", before), ("during", during)):
                cells = " | ".join(cell(figures, what) for what, _ in COLUMNS)
                print(f"| {name} | {when} | {cells} |")
        print()
        for name, before, during, outcome in rows:
            errors = before.errors + during.errors
            extra = f"; the stranger's refusals: {errors}" if errors else ""
            print(f"- {name} ({ATTACKERS[name]}): {outcome}{extra}")
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each measurement's length")
    parser.add_argument("--warmup", type=float, default=2.0, help="attack before measuring")
    parser.add_argument("--review-wait", type=float, default=30.0, help="at most this long")
    parser.add_argument("--analysis-iterations", type=int, default=100)
    parser.add_argument("--attacks", default=",".join(ATTACKERS))
    parser.add_argument("--limit", type=float, default=900.0, help="the whole run's cap")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fairness-") as folder:
        asyncio.run(asyncio.wait_for(run(args, Path(folder)), args.limit))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
