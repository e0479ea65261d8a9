"""Load benchmark of the web app: two server builds side by side, saturated, paced and busy.

Each table is a WebSocket player (seat 0, a seeded random player) against a server-side bot
(seat 1, ``--bot``). Two measurements, each run on a fresh server with a fresh database:

* saturated: ``--tables`` tables start at once and every player acts as soon as its previous
  action is acknowledged, until each table's match is over. Reports all actions a second (the
  bots' included: the state message's ``seq`` counts them), the players' acknowledgement
  latency (from sending the intent to the server's ``ok``, which comes after the action is
  validated, written to SQLite and pushed to the table) and the server's CPU seconds per
  action (utime + stime of its process and any children, from /proc), the most robust
  figure on a shared machine.
* paced: ``--paced-tables`` tables whose players wait a seeded random 1-2 s before each of
  their actions, for ``--paced-seconds``; reports ack latency p50/p99/max (target: p99 under
  50 ms) and how many acks were measured.
* busy (``--busy-tables``, off by default): one client's 4-seat tables, three ``--busy-bot``
  bots each (a search bot, which the newer server runs in worker processes), whose hosts play
  as soon as it is their turn, with rematches; once all are started, one probe table (a
  ``greedy`` bot at seat 1, its host waiting a seeded 1-2 s before each action) measures for
  ``--busy-seconds`` how long the bot takes to reply: from sending the host's action to the
  first state in which the bot has moved after it (actions that end a round or the match
  are skipped). Reports the reply p50/p90/max, the samples and the server's CPU.

All are run for two builds in the same run, alternating which goes first over ``--repeat``
rounds: the baseline (``--baseline REV``, default 589f486; exported with ``git archive`` and
imported through PYTHONPATH, which is checked to win over the editable install) and the
candidate (the working tree, or ``--candidate REV``). Server options the baseline lacks (the
connection, creation and message-rate limits, set out of the way) are passed only to builds
whose ``--help`` lists them. Only
127.0.0.1 is used; any error message from the server aborts the run, and each run is capped
at ``--limit`` seconds.

    python benchmarks/bench_web.py --tables 100 --paced-tables 200 --paced-seconds 60
    python benchmarks/bench_web.py --baseline 589f486 --candidate HEAD --repeat 3
    python benchmarks/bench_web.py --baseline none --paced-tables 0
    python benchmarks/bench_web.py --tables 0 --paced-tables 0 --busy-tables 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

REPO = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
COMMON_OPTIONS = ["--bot-delay", "0", "--rate", "1000", "--allow-seeds"]
"""Every build gets these: bots answer at once, the players are never rate limited, and
deals are reproducible (this server serves only the benchmark)."""
LIMIT_OPTIONS = {
    "--create-rate": "1000000",
    "--max-bot-tables": "1000000",
    "--max-connections-per-address": "100000",
    "--max-connections": "100000",
    "--address-rate": "1000000",
    "--round-pause": "0",
}
"""Passed only to a build whose --help lists them, so that many tables from one address
are not refused."""
PACE = (1.0, 2.0)
"""Seconds a paced player (and the busy run's probe) waits before each of its actions."""
HOST_SEAT = 0
PROBE_BOT = "greedy"
PROBE_SEAT = 1
"""The busy run's probe: a 2-player table with this bot at this seat."""
P99_TARGET_MS = 50.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class BenchError(Exception):
    """Aborts the run: a server that fails, refuses or misbehaves."""


# ------------------------------------------------------------------ builds and servers


@dataclass
class Build:
    label: str
    source: Path
    """The src folder this build's ``draw_dominoes`` must be imported from."""
    env: dict[str, str]
    options: list[str] = field(default_factory=list)
    """The LIMIT_OPTIONS this build understands, with their values."""


def git(*args: str) -> str:
    result = subprocess.run(
        ["git", *args], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    if result.returncode != 0:
        raise BenchError(f"git {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def python_output(build: Build, args: list[str], cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=build.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode != 0:
        raise BenchError(
            f"{build.label}: `python {' '.join(args)}` failed:\n{result.stderr.strip()[-2000:]}"
        )
    return result.stdout


def prepare(role: str, rev: str | None, folder: Path) -> Build:
    """The working tree (``rev`` None) or an exported commit, checked to import from there."""
    if rev is None:
        changed = git("--no-optional-locks", "status", "--porcelain", "--", "src").splitlines()
        note = f", {len(changed)} files changed under src/" if changed else ""
        build = Build(f"{role} working tree", REPO / "src", clean_env())
        description = f"the working tree {REPO} (HEAD {git('rev-parse', '--short', 'HEAD')}{note})"
    else:
        try:
            commit = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
        except BenchError:
            raise BenchError(f"--{role} {rev}: not a commit of {REPO}") from None
        short = git("rev-parse", "--short", commit)
        target = folder / f"{role}-{short}"
        target.mkdir()
        archive = subprocess.Popen(
            ["git", "archive", commit, "src"], cwd=REPO, stdout=subprocess.PIPE
        )
        untar = subprocess.run(["tar", "-x", "-C", str(target)], stdin=archive.stdout, check=False)
        assert archive.stdout is not None
        archive.stdout.close()
        if archive.wait(timeout=60) != 0 or untar.returncode != 0:
            raise BenchError(f"could not export {rev} ({commit}) with git archive | tar")
        env = clean_env()
        env["PYTHONPATH"] = str(target / "src")
        build = Build(f"{role} {short}", target / "src", env)
        description = f"commit {commit[:12]} exported to {target / 'src'}"
    probe = "import draw_dominoes as d, draw_dominoes.web as w; print(d.__file__, w.__file__)"
    paths = [Path(line).resolve() for line in python_output(build, ["-c", probe], folder).split()]
    if len(paths) != 2 or not all(p.is_relative_to(build.source.resolve()) for p in paths):
        raise BenchError(
            f"{build.label}: draw_dominoes is imported from {[str(p) for p in paths]}, "
            f"not from {build.source}"
        )
    usage = python_output(build, ["-m", "draw_dominoes.web", "--help"], folder)
    for option, value in LIMIT_OPTIONS.items():
        if re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", usage):
            build.options += [option, value]
    extra = " ".join(build.options[::2]) or "none"
    print(f"{build.label}: {description}; imports {paths[0]}; extra options: {extra}", flush=True)
    return build


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its living descendants (a server may think
    in worker processes), all threads included, from /proc/<pid>/stat."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:  # it ended meanwhile
            continue
        parents[int(entry.name)] = int(fields[1])
        ticks[int(entry.name)] = int(fields[11]) + int(fields[12])
    if pid not in ticks:
        raise BenchError(f"the server process {pid} is gone")
    tree = {pid}
    for _ in range(10):  # descendants, down to ten generations
        grown = tree | {child for child, parent in parents.items() if parent in tree}
        if grown == tree:
            break
        tree = grown
    return sum(ticks[p] for p in tree) / CLOCK_TICKS


class Server:
    """One server process of a build on a free port of 127.0.0.1, with a fresh database."""

    def __init__(self, build: Build, folder: Path, deadline: float) -> None:
        self.build = build
        self.port = free_port()
        self.base = f"{HOST}:{self.port}"
        self.log_path = folder / "server.log"
        command = [sys.executable, "-m", "draw_dominoes.web", "--host", HOST]
        command += ["--port", str(self.port), "--db", str(folder / "bench.sqlite3")]
        command += COMMON_OPTIONS + build.options
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=folder, env=build.env, stdout=subprocess.DEVNULL, stderr=log
            )
        try:
            self._wait_ready(min(deadline, time.monotonic() + 60))
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(
                    f"{self.build.label}: the server exited with code {self.process.returncode} "
                    f"before it answered:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"http://{self.base}/api/bots", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise BenchError(
            f"{self.build.label}: the server did not answer in time:\n{self.log_tail()}"
        )

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def log_tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(errors="replace").strip().splitlines()
        return "\n".join(text[-lines:]) or "(nothing on stderr)"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


# ------------------------------------------------------------------ players


def post(url: str, data: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(data).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            result: dict[str, Any] = json.loads(response.read())
            return result
    except urllib.error.HTTPError as error:
        body = error.read().decode(errors="replace")[:500]
        raise BenchError(f"POST {url} refused: HTTP {error.code} {body}") from None
    except OSError as error:
        raise BenchError(f"POST {url} failed: {error!r}") from None


@dataclass
class Table:
    """Seat 0 of one table: its socket, the last state it saw, and what it measured."""

    number: int
    socket: ClientConnection
    choice: random.Random
    pace: random.Random
    state: dict[str, Any] = field(default_factory=dict)
    pending: dict[int, float] = field(default_factory=dict)
    """Request id to perf_counter time of each action not yet acknowledged."""
    latencies: list[float] = field(default_factory=list)
    worst: tuple[float, float] = (0.0, 0.0)
    """The longest ack latency and the perf_counter time its action was sent."""
    seqs: dict[int, int] = field(default_factory=dict)
    """Match number to the highest ``seq`` seen in it: the actions played at this table."""
    next_id: int = 1
    state_at: float = 0.0
    """The perf_counter time the latest state arrived."""

    @property
    def actions(self) -> int:
        return sum(self.seqs.values())

    async def send(self, message: dict[str, Any], timed: bool = False) -> None:
        """Send an intent with a fresh id; ``timed``: measure the time to its ``ok``."""
        request_id = self.next_id
        self.next_id += 1
        if timed:
            self.pending[request_id] = time.perf_counter()
        try:
            await self.socket.send(json.dumps({**message, "id": request_id}))
        except ConnectionClosed as error:
            raise self.closed(error) from None

    def closed(self, error: ConnectionClosed) -> BenchError:
        return BenchError(f"table {self.number}: the server closed the socket: {error}")

    async def receive(self, deadline: float, until: float | None = None) -> bool:
        """Take the next message; False if ``until`` came first. Errors abort the run."""
        end = deadline if until is None else min(until, deadline)
        try:
            text = await asyncio.wait_for(self.socket.recv(), max(0.0, end - time.monotonic()))
        except TimeoutError:
            if until is not None and until < deadline:
                return False
            raise BenchError(f"table {self.number}: not done when the --limit ran out") from None
        except ConnectionClosed as error:
            raise self.closed(error) from None
        received = time.perf_counter()
        message = json.loads(text)
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "error":
            raise BenchError(
                f"table {self.number}: the server sent an error: {message.get('code')}: "
                f"{message.get('message')}"
            )
        if kind == "state":
            self.state = message
            self.state_at = received
            match_number = int(message.get("table", {}).get("match_number", 0))
            if match_number:
                seq = int(message.get("seq", 0))
                self.seqs[match_number] = max(seq, self.seqs.get(match_number, 0))
        elif kind == "ok":
            sent = self.pending.pop(message.get("id"), None)
            if sent is not None:
                self.latencies.append(received - sent)
                self.worst = max(self.worst, (received - sent, sent))
        # anything else (pong, presence, newer message types) is not ours to judge
        return True


async def open_table(
    base: str, number: int, bot: str, seed: int, deadline: float, players: int = 2
) -> Table:
    """Create a table (every seat but the host's a ``bot``), connect seat 0 and wait for its
    first state."""
    created = await asyncio.to_thread(
        post,
        f"http://{base}/api/tables",
        {
            "players": players,
            "name": f"P{number}",
            "bots": {str(seat): bot for seat in range(1, players)},
            "seed": seed + number,
        },
    )
    uri = f"ws://{base}/ws/{created['table_id']}?token={created['token']}"
    try:
        connection = await asyncio.wait_for(
            connect(uri, max_size=2**22), max(0.1, deadline - time.monotonic())
        )
    except (OSError, TimeoutError, ConnectionClosed) as error:
        raise BenchError(f"table {number}: could not connect: {error!r}") from None
    table = Table(
        number,
        connection,
        choice=random.Random(seed * 7919 + number),
        pace=random.Random(f"pace:{seed}:{number}"),
    )
    while not table.state:
        await table.receive(deadline)
    return table


async def start(table: Table, deadline: float) -> None:
    """Start the table's match and wait until a state shows it started."""
    await table.send({"type": "start"})
    while (table.state.get("table") or {}).get("status") in (None, "lobby"):
        await table.receive(deadline)


async def play(
    table: Table,
    paced: bool,
    stop: float,
    deadline: float,
    seed: int,
    rematches: bool | None = None,
    started: bool = False,
) -> None:
    """Play seat 0 at random: at once (not ``paced``) until the match is over, or after a
    1-2 s pause each turn (``paced``), with rematches, until ``stop``. ``rematches`` (default:
    ``paced``) plays on after a match; ``started``: the match is started already."""
    if rematches is None:
        rematches = paced
    if not started:
        await table.send({"type": "start"})
    acted: tuple[int, int] | None = None  # (match number, seq) of the last action sent
    rematched = 0
    due: float | None = None
    while True:
        info = table.state.get("table") or {}
        view = table.state.get("view") or {}
        match_number = int(info.get("match_number", 0))
        position = (match_number, int(table.state.get("seq", 0)))
        now = time.monotonic()
        if not table.pending:
            if now >= stop:
                return
            if info.get("status") == "over":
                if not rematches:
                    return
                if rematched != match_number:
                    rematched = match_number
                    fresh = seed + table.number * 1000 + match_number
                    await table.send({"type": "rematch", "seed": fresh})
            elif view.get("legal_actions") and position != acted:
                if paced and due is None:
                    due = now + table.pace.uniform(*PACE)
                if due is None or now >= due:
                    action = table.choice.choice(view["legal_actions"])
                    await table.send({"type": "action", "action": action}, timed=True)
                    acted, due = position, None
                    continue
        until = None if table.pending else (stop if due is None else min(due, stop))
        await table.receive(deadline, until)


@dataclass
class Sent:
    """The probe's host action awaiting the bot's reply, and where the match stood."""

    match_number: int
    seq: int
    rounds: int
    """Finished rounds of the match when it was sent."""
    history: int
    """Entries in the round's history when it was sent."""
    at: float
    """perf_counter time it was sent."""


def reply_seen(sent: Sent, state: dict[str, Any]) -> str | None:
    """Whether ``state`` answers the probe's action: "reply" (the bot has moved after it),
    "ended" (the host's own action ended the round or the match: no sample), "host" (the
    host is to move again, as after a draw: no reply due), or None (still waiting)."""
    info = state.get("table") or {}
    view = state.get("view") or {}
    if int(info.get("match_number", 0)) != sent.match_number:
        return "ended"  # a new match: nothing to time (the host sent no rematch meanwhile)
    since = int(state.get("seq", 0)) - sent.seq  # actions since, the host's one included
    if since < 1:
        return None
    history = view.get("history") or []
    rounds = len(state.get("rounds") or [])
    if info.get("status") == "over":
        return "reply" if since >= 2 else "ended"
    if rounds == sent.rounds:
        if any(entry.get("player") == PROBE_SEAT for entry in history[sent.history + 1 :]):
            return "reply"
        if view.get("current_player") == HOST_SEAT and since == 1:
            return "host"
        return None
    if rounds == sent.rounds + 1:  # the seq runs on over rounds: the old round's actions since
        return "reply" if since - len(history) >= 2 else "ended"
    return "ended"


@dataclass
class ProbeResult:
    replies: list[float] = field(default_factory=list)
    """The bot's reply latencies, in seconds."""
    skipped: int = 0
    """Host actions that ended a round or the match."""
    awaited: float = math.nan
    """How long the reply still awaited when the time was up had been awaited."""


async def probe(table: Table, stop: float, deadline: float, seed: int) -> ProbeResult:
    """Play the probe's host after a 1-2 s pause each turn, with rematches, until ``stop``,
    timing the bot's reply to each of its actions."""
    result = ProbeResult()
    await table.send({"type": "start"})
    sent: Sent | None = None
    acted: tuple[int, int] | None = None
    rematched = 0
    due: float | None = None
    while True:
        info = table.state.get("table") or {}
        view = table.state.get("view") or {}
        match_number = int(info.get("match_number", 0))
        seq = int(table.state.get("seq", 0))
        if sent is not None:  # checked after every message: state_at is this state's time
            seen = reply_seen(sent, table.state)
            if seen == "reply":
                result.replies.append(table.state_at - sent.at)
            elif seen == "ended":
                result.skipped += 1
            if seen is not None:
                sent = None
        now = time.monotonic()
        if now >= stop:
            if sent is not None:
                result.awaited = time.perf_counter() - sent.at
            return result
        if sent is None:
            if info.get("status") == "over":
                if rematched != match_number:
                    rematched = match_number
                    fresh = seed + table.number * 1000 + match_number
                    await table.send({"type": "rematch", "seed": fresh})
            elif view.get("legal_actions") and (match_number, seq) != acted:
                if due is None:
                    due = now + table.pace.uniform(*PACE)
                if now >= due:
                    action = table.choice.choice(view["legal_actions"])
                    rounds = len(table.state.get("rounds") or [])
                    history = len(view.get("history") or [])
                    at = time.perf_counter()
                    await table.send({"type": "action", "action": action}, timed=True)
                    sent = Sent(match_number, seq, rounds, history, at)
                    acted, due = (match_number, seq), None
                    continue
        await table.receive(deadline, stop if due is None else min(due, stop))


@dataclass
class Run:
    kind: str
    build: str
    tables: int
    seconds: float
    actions: int
    server_cpu: float
    client_cpu: float
    latencies: list[float]
    """Sorted, in seconds."""
    worst_at: float
    """When the slowest acknowledged action was sent, in seconds after the start."""
    probe: ProbeResult | None = None
    """The busy run's probe."""
    probe_acks: list[float] = field(default_factory=list)
    """The busy run's probe host's ack latencies, sorted, in seconds."""

    def ms(self, q: float) -> float:
        """The q-quantile of the ack latency in ms (nearest rank)."""
        return quantile_ms(self.latencies, q)

    def reply_ms(self, q: float) -> float:
        """The q-quantile of the busy run's probe reply latency in ms."""
        return quantile_ms(sorted(self.probe.replies) if self.probe else [], q)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def cpu_ms_per_action(self) -> float:
        return self.server_cpu / self.actions * 1000 if self.actions else math.nan


async def measure(
    server: Server, kind: str, tables: int, bot: str, seed: int, seconds: float, limit: float
) -> Run:
    deadline = time.monotonic() + limit
    players: list[Table] = []
    try:
        for chunk in range(0, tables, 50):  # not hundreds of handshakes at once
            numbers = range(chunk, min(tables, chunk + 50))
            players += await asyncio.gather(
                *(open_table(server.base, n, bot, seed, deadline) for n in numbers)
            )
        paced = kind == "paced"
        cpu, client = server.cpu(), time.process_time()
        start, start_perf = time.monotonic(), time.perf_counter()
        stop = start + seconds if paced else math.inf
        async with asyncio.TaskGroup() as group:
            for table in players:
                group.create_task(play(table, paced, stop, deadline, seed))
        elapsed = time.monotonic() - start
        cpu, client = server.cpu() - cpu, time.process_time() - client
    finally:
        await asyncio.gather(*(t.socket.close() for t in players), return_exceptions=True)
    return Run(
        kind,
        server.build.label,
        tables,
        elapsed,
        sum(t.actions for t in players),
        cpu,
        client,
        sorted(x for t in players for x in t.latencies),
        max(t.worst for t in players)[1] - start_perf,
    )


async def measure_busy(
    server: Server, tables: int, bot: str, seed: int, seconds: float, limit: float
) -> Run:
    """``tables`` started 4-seat ``bot`` tables playing at once; then the probe table."""
    deadline = time.monotonic() + limit
    players: list[Table] = []
    try:
        for chunk in range(0, tables, 50):
            numbers = range(chunk, min(tables, chunk + 50))
            players += await asyncio.gather(
                *(open_table(server.base, n, bot, seed, deadline, players=4) for n in numbers)
            )
        for chunk in range(0, tables, 50):
            await asyncio.gather(*(start(t, deadline) for t in players[chunk : chunk + 50]))
        prober = await open_table(server.base, tables, PROBE_BOT, seed, deadline)
        players.append(prober)
        busy = players[:-1]
        before = sum(t.actions for t in busy)
        cpu, client = server.cpu(), time.process_time()
        start_at, start_perf = time.monotonic(), time.perf_counter()
        stop = start_at + seconds
        async with asyncio.TaskGroup() as group:
            for table in busy:
                group.create_task(play(table, False, stop, deadline, seed, True, True))
            probed = group.create_task(probe(prober, stop, deadline, seed))
        elapsed = time.monotonic() - start_at
        cpu, client = server.cpu() - cpu, time.process_time() - client
    finally:
        await asyncio.gather(*(t.socket.close() for t in players), return_exceptions=True)
    return Run(
        "busy",
        server.build.label,
        tables,
        elapsed,
        sum(t.actions for t in busy) - before,
        cpu,
        client,
        sorted(x for t in busy for x in t.latencies),
        max((t.worst for t in busy), default=(0.0, start_perf))[1] - start_perf,
        probed.result(),
        sorted(prober.latencies),
    )


def first_error(group: BaseExceptionGroup[Any]) -> BaseException:
    error: BaseException = group
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def run_once(build: Build, kind: str, tables: int, args: argparse.Namespace, folder: Path) -> Run:
    run_folder = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=folder))
    seconds = args.paced_seconds if kind == "paced" else 0.0
    server = Server(build, run_folder, time.monotonic() + args.limit)
    try:
        try:
            try:
                if kind == "busy":
                    work = measure_busy(
                        server, tables, args.busy_bot, args.seed, args.busy_seconds, args.limit
                    )
                else:
                    work = measure(server, kind, tables, args.bot, args.seed, seconds, args.limit)
                result = asyncio.run(work)
            except BaseExceptionGroup as group:
                raise first_error(group) from None
        except BenchError as error:
            raise BenchError(
                f"{build.label}, {kind} run: {error}\nserver stderr:\n{server.log_tail()}"
            ) from None
    finally:
        server.stop()
    noise = server.log_tail(5)
    if server.log_path.stat().st_size:
        print(f"  (the {build.label} server wrote to stderr:\n{noise})", flush=True)
    return result


def quantile_ms(values: list[float], q: float) -> float:
    """The q-quantile of sorted seconds, in ms (nearest rank); nan if there are none."""
    if not values:
        return math.nan
    index = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[index] * 1000


def describe(run: Run) -> str:
    acks = f"{len(run.latencies)} acks"
    if run.kind == "busy":
        assert run.probe is not None
        awaited = (
            ""
            if math.isnan(run.probe.awaited)
            else f", 1 still awaited at the end after {run.probe.awaited * 1000:.0f} ms"
        )
        return (
            f"{run.tables} busy tables for {run.seconds:.1f} s: probe {PROBE_BOT} reply p50 "
            f"{run.reply_ms(0.5):.1f} ms p90 {run.reply_ms(0.9):.1f} ms max "
            f"{run.reply_ms(1.0):.1f} ms ({len(run.probe.replies)} samples, "
            f"{run.probe.skipped} skipped{awaited}); probe ack p50 "
            f"{quantile_ms(run.probe_acks, 0.5):.1f} ms; busy tables {run.actions} actions "
            f"({run.per_second:.1f}/s), {acks} p50 {run.ms(0.5):.1f} ms; server CPU "
            f"{run.server_cpu / run.seconds:.0%} of a core; client CPU "
            f"{run.client_cpu / run.seconds:.0%}"
        )
    if run.kind == "saturated":
        return (
            f"{run.tables} tables, {run.actions} actions in {run.seconds:.1f} s: "
            f"{run.per_second:.0f} actions/s, server CPU {run.cpu_ms_per_action:.3f} ms/action "
            f"({run.server_cpu / run.seconds:.0%} of a core); {acks} p50 {run.ms(0.5):.1f} ms "
            f"p99 {run.ms(0.99):.1f} ms; client CPU {run.client_cpu / run.seconds:.0%}"
        )
    target = "met" if run.ms(0.99) < P99_TARGET_MS else "MISSED"
    return (
        f"{run.tables} tables for {run.seconds:.1f} s: {acks} p50 {run.ms(0.5):.1f} ms "
        f"p99 {run.ms(0.99):.1f} ms (< {P99_TARGET_MS:.0f} ms {target}) max {run.ms(1.0):.1f} ms "
        f"(sent at {run.worst_at:.1f} s); {run.actions} actions, server CPU "
        f"{run.cpu_ms_per_action:.3f} ms/action ({run.server_cpu / run.seconds:.0%} of a core); "
        f"client CPU {run.client_cpu / run.seconds:.0%}"
    )


METRICS: dict[str, list[tuple[str, str, Callable[[Run], float]]]] = {
    "saturated": [
        ("actions/s (higher is better)", ".0f", lambda r: r.per_second),
        ("server CPU ms/action", ".3f", lambda r: r.cpu_ms_per_action),
        ("ack p50 ms", ".1f", lambda r: r.ms(0.5)),
        ("ack p99 ms", ".1f", lambda r: r.ms(0.99)),
        ("actions played", ".0f", lambda r: r.actions),
    ],
    "paced": [
        ("ack p50 ms", ".1f", lambda r: r.ms(0.5)),
        ("ack p99 ms", ".1f", lambda r: r.ms(0.99)),
        ("ack max ms", ".1f", lambda r: r.ms(1.0)),
        ("acks measured", ".0f", lambda r: len(r.latencies)),
        ("server CPU ms/action", ".3f", lambda r: r.cpu_ms_per_action),
    ],
    "busy": [
        ("probe reply p50 ms", ".1f", lambda r: r.reply_ms(0.5)),
        ("probe reply p90 ms", ".1f", lambda r: r.reply_ms(0.9)),
        ("probe reply max ms", ".1f", lambda r: r.reply_ms(1.0)),
        ("probe replies measured", ".0f", lambda r: len(r.probe.replies) if r.probe else 0),
        ("server CPU % of a core", ".0f", lambda r: r.server_cpu / r.seconds * 100),
        ("busy tables' actions/s", ".1f", lambda r: r.per_second),
    ],
}
"""Per measurement: the summary's rows, each a name, a format and the figure of a run."""


def summarize(runs: list[Run], builds: list[Build], args: argparse.Namespace) -> None:
    rounds = f"median of {args.repeat} rounds" if args.repeat > 1 else "1 round"
    ratio = "; ratio = candidate / baseline" if len(builds) == 2 else ""
    print(f"\nsummary ({rounds}{ratio}):")
    width = max(24, *(len(b.label) + 2 for b in builds))
    for kind, metrics in METRICS.items():
        chosen = [r for r in runs if r.kind == kind]
        if not chosen:
            continue
        titles = {
            "saturated": f"saturated, {args.tables} tables",
            "paced": f"paced, {args.paced_tables} tables for {args.paced_seconds:g} s",
            "busy": f"busy, {args.busy_tables} {args.busy_bot} tables, {args.busy_seconds:g} s",
        }
        title = titles[kind]
        header = "".join(f"{b.label:>{width}}" for b in builds)
        print(f"  {title:<32}{header}{'ratio' if len(builds) == 2 else '':>8}")
        for name, form, metric in metrics:
            values = [
                statistics.median(metric(r) for r in chosen if r.build == b.label) for b in builds
            ]
            cells = "".join(f"{v:>{width}{form}}" for v in values)
            share = ""
            if len(values) == 2 and values[0]:
                quotient = values[1] / values[0]
                share = f"{quotient:>8.2f}" if abs(quotient) >= 0.1 else f"{quotient:>8.2g}"
            print(f"    {name:<30}{cells}{share}")
        if kind == "paced":
            worst = [max(r.ms(0.99) for r in chosen if r.build == b.label) for b in builds]
            verdicts = "".join(f"{'yes' if w < P99_TARGET_MS else 'NO':>{width}}" for w in worst)
            print(f"    {f'every p99 < {P99_TARGET_MS:.0f} ms':<30}{verdicts}")
        if kind == "saturated" and len({r.actions for r in chosen}) > 1:
            print("    note: the runs played different numbers of actions, so their games differ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="saturated tables (0: skip)")
    parser.add_argument("--paced-tables", type=int, default=200, help="paced tables (0: skip)")
    parser.add_argument("--paced-seconds", type=float, default=60, help="length of a paced run")
    parser.add_argument(
        "--baseline", default="589f486", help="the commit to compare with, or 'none'"
    )
    parser.add_argument(
        "--candidate", default=None, metavar="REV", help="a commit instead of the working tree"
    )
    parser.add_argument("--repeat", type=int, default=1, help="rounds, alternating the order")
    parser.add_argument("--bot", default="random", help="the server-side bot at each table")
    parser.add_argument(
        "--busy-tables", type=int, default=0, help="busy 4-seat bot tables (0: skip; try 50)"
    )
    parser.add_argument("--busy-seconds", type=float, default=40, help="length of a busy run")
    parser.add_argument("--busy-bot", default="ismcts", help="the bots at each busy table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=300, help="seconds a run may take at most")
    args = parser.parse_args()
    if min(args.tables, args.paced_tables, args.busy_tables) < 0 or args.repeat < 1:
        parser.error("--tables, --paced-tables and --busy-tables must be >= 0, --repeat >= 1")
    if args.paced_seconds <= 0 or args.busy_seconds <= 0:
        parser.error("--paced-seconds and --busy-seconds must be > 0")
    if args.paced_tables and args.paced_seconds >= args.limit:
        parser.error("--paced-seconds must be shorter than --limit")
    if args.busy_tables and args.busy_seconds >= args.limit:
        parser.error("--busy-seconds must be shorter than --limit")
    counts = (("saturated", args.tables), ("paced", args.paced_tables), ("busy", args.busy_tables))
    kinds = [(k, n) for k, n in counts if n]
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bench_web-") as temporary:
        folder = Path(temporary)
        try:
            builds = [] if args.baseline == "none" else [prepare("baseline", args.baseline, folder)]
            builds.append(prepare("candidate", args.candidate, folder))
            for round_number in range(args.repeat):
                order = builds if round_number % 2 == 0 else builds[::-1]
                for kind, tables in kinds:
                    for build in order:
                        run = run_once(build, kind, tables, args, folder)
                        runs.append(run)
                        line = f"round {round_number + 1} {kind:<9} {build.label}: {describe(run)}"
                        print(line, flush=True)
        except BenchError as error:
            print(f"bench_web: {error}", file=sys.stderr)
            return 1
    if runs:
        summarize(runs, builds, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
