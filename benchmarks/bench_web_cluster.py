"""Load benchmark of the web app across processes: SQLite, PostgreSQL, and two processes on
one PostgreSQL database and one Redis bus, side by side in one run.

Every table is bench_web.py's: a WebSocket player (seat 0, a seeded random player) against
a server-side ``random`` bot (seat 1) that answers at once (``--bot-delay 0``); its player,
pacing, table creation and CPU measuring are reused from there, its player loop adapted.
The servers run a copy of the working tree's src taken at the start (or ``--rev``). Three
parts, each run on fresh servers with a fresh database (a PostgreSQL database of a random
name, dropped at the end, and a random Redis prefix whose keys are deleted):

* paced: ``--tables`` tables whose players wait a seeded 1-2 s before each action (the
  same offered load for every configuration), for ``--seconds``, with (a) one SQLite
  process, (b) one PostgreSQL process, (c) two PostgreSQL+Redis processes, (d) the same
  with ``--hold-tables``. In (c) and (d) the tables are created alternately at both
  processes (each owns half) and the player of every other table connects to the
  process that does not own it. In (c) such a table moves to its player's process (as
  the servers do by default); in (d) it stays, so that half of the intents are forwarded
  to the owner and its commits relayed back over Redis. The tables
  are opened and their matches dealt (50 at a time) before the window. Reports the
  acknowledgement latency (intent sent to ``ok``: after the action is stored and
  published) p50/p99/max, and the server CPU (user + system of every server process and
  its children, from /proc) per acknowledged action and per action (the bots' included);
  beside it the CPU of the PostgreSQL backends serving the benchmark's database, of the
  Redis server (the whole server: it may serve others too), of this load generator, and
  how busy the machine was. Targets: (c)'s p99 under 50 ms, and (c)'s server CPU per
  acknowledged action at most 1.5 times (a)'s.
* saturated: ``--saturated-tables`` tables whose players act as soon as their last action
  is acknowledged (with rematches), for ``--saturated-seconds``, with one and with two
  PostgreSQL+Redis processes (clients spread as in (c)); reports acknowledged actions a
  second.
* fail-over: ``--failover-tables`` tables on two PostgreSQL+Redis processes, players
  acting after 0.2-0.4 s, clients spread as in (c); ``--kills`` times, the owner of one
  table (``lease_owner`` in PostgreSQL) is killed with SIGKILL in the middle of a match,
  its players reconnect to the surviving process, and once every table it owned has had
  an acknowledged move the killed process is started again on its port (so under its
  name) and the players of half the tables move to it. Reports the time from the kill to
  the next acknowledged move of the chosen table and of every table the killed process
  owned (target: at most 10 s).

Every PostgreSQL run is checked against what the database stored: acknowledged actions
lost (no row at their match, seq and action; target 0; also counted: how many of them
are stored at a later seq, i.e. applied to a position their player had not seen, since
an intent names no position), actions stored twice (target 0: a player's stored action
that none of its intents accounts for, each intent accounting for one row, a second row
for one place, or a match whose stored actions do not replay from its seed), and
refused intents whose action is stored all the same (a refusal must change nothing).
A refused intent, or a socket the server closes, is counted and the player goes on (it
tries again after 0.5 s from the position then shown, or reconnects).

Only 127.0.0.1 is used; each run is capped at ``--limit`` seconds, and so is the whole
benchmark (at that times the number of runs); the servers die with it.

    python benchmarks/bench_web_cluster.py
    python benchmarks/bench_web_cluster.py --quick
    python benchmarks/bench_web_cluster.py --parts paced --tables 200 --seconds 60 --repeat 3
    python benchmarks/bench_web_cluster.py --parts failover --kills 5 --lease-seconds 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import types
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench_web import (
    COMMON_OPTIONS,
    HOST,
    LIMIT_OPTIONS,
    PACE,
    REPO,
    BenchError,
    Build,
    Table,
    clean_env,
    cpu_seconds,
    first_error,
    free_port,
    git,
    post,
    prepare,
    python_output,
    quantile_ms,
)
from draw_dominoes import Match, parse_action, record

P99_TARGET_MS = 50.0
CPU_RATIO_TARGET = 1.5
FAILOVER_TARGET_S = 10.0
FAILOVER_PACE = (0.2, 0.4)
"""Seconds a fail-over player waits before each of its actions."""
RECOVERY_WAIT = 30.0
"""Seconds the fail-over run waits for a killed owner's tables to move again."""
BOT = "random"
HUMAN_SEAT = 0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PR_SET_PDEATHSIG = 1

Place = tuple[int, int, str]
"""An action where it was played: (match number in the store, seq, action)."""


# ------------------------------------------------------------------ CPU from /proc


def ticks_of(pid: int) -> float:
    """User plus system CPU seconds of one process (all its threads); 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    total = sum(values[:8])  # guest time is counted in user already
    idle = values[3] + values[4]
    return (total - idle) / CLOCK_TICKS, total / CLOCK_TICKS


def redis_pid() -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "redis-server":
                    return int(entry.name)
    return None


def die_with_parent() -> None:
    """In a server child: SIGKILL it if the benchmark itself dies, so none is left."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


# ------------------------------------------------------------------ PostgreSQL and Redis


def database_url(base: str, name: str) -> str:
    return urlunsplit(urlsplit(base)._replace(path=f"/{name}"))


class Backing:
    """The PostgreSQL databases and the Redis prefix of this run, all removed at the end."""

    def __init__(self, postgres: str, redis_url: str) -> None:
        self.postgres = postgres
        self.redis_url = redis_url
        self.run = secrets.token_hex(5)
        self.prefix = f"dd_bench_{self.run}:"
        self.names: list[str] = []
        try:
            psycopg.connect(postgres, connect_timeout=3).close()
        except psycopg.Error as error:
            raise BenchError(f"PostgreSQL does not answer at {postgres}: {error}") from None
        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3)
            client.ping()
            client.close()
        except redis.RedisError as error:
            raise BenchError(f"Redis does not answer at {redis_url}: {error}") from None

    def database(self) -> str:
        name = f"dd_bench_{self.run}_{len(self.names)}"
        with psycopg.connect(self.postgres, autocommit=True, connect_timeout=3) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        self.names.append(name)
        return database_url(self.postgres, name)

    def bus_prefix(self, label: str) -> str:
        return f"{self.prefix}{label}:"

    def close(self) -> None:
        """Drop every database (with its connections) and delete the prefix's keys."""
        problems = []
        try:
            with psycopg.connect(self.postgres, autocommit=True, connect_timeout=3) as admin:
                for name in self.names:
                    admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        except psycopg.Error as error:
            problems.append(f"could not drop {', '.join(self.names)}: {error}")
        try:
            client = redis.Redis.from_url(
                self.redis_url, socket_connect_timeout=3, socket_timeout=3
            )
            try:
                keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
                if keys:
                    client.delete(*keys)
            finally:
                client.close()
        except redis.RedisError as error:
            problems.append(f"could not delete the Redis keys {self.prefix}*: {error}")
        for problem in problems:
            print(f"bench_web_cluster: {problem}", file=sys.stderr)


def backend_pids(url: str) -> set[int]:
    """The PostgreSQL backends connected to the database of ``url`` (this query's aside)."""
    with psycopg.connect(url, connect_timeout=3) as db:
        rows = db.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        ).fetchall()
    return {int(row[0]) for row in rows}


# ------------------------------------------------------------------ servers


def snapshot(folder: Path) -> Build:
    """The working tree's src as it is now, copied, so that every server of the run serves
    the same code while the tree is edited; checked to import from there."""
    target = folder / "snapshot"
    shutil.copytree(REPO / "src", target / "src", ignore=shutil.ignore_patterns("__pycache__"))
    changed = git("--no-optional-locks", "status", "--porcelain", "--", "src").splitlines()
    env = clean_env()
    env["PYTHONPATH"] = str(target / "src")
    label = f"working tree (HEAD {git('rev-parse', '--short', 'HEAD')}"
    label += f", {len(changed)} files changed under src/)" if changed else ")"
    build = Build(label, target / "src", env)
    probe = "import draw_dominoes.web as w; print(w.__file__)"
    where = Path(python_output(build, ["-c", probe], folder).strip()).resolve()
    if not where.is_relative_to(build.source.resolve()):
        raise BenchError(f"the snapshot is not imported: draw_dominoes.web is {where}")
    usage = python_output(build, ["-m", "draw_dominoes.web", "--help"], folder)
    for option, value in LIMIT_OPTIONS.items():
        if lists(usage, option):
            build.options += [option, value]
    print(f"server: a copy of the {label}; imports {where}", flush=True)
    return build


def lists(usage: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", usage) is not None


def check_cluster_options(build: Build, folder: Path) -> None:
    usage = python_output(build, ["-m", "draw_dominoes.web", "--help"], folder)
    for option in ("--bus", "--bus-prefix", "--lease-seconds", "--hold-tables"):
        if not lists(usage, option):
            raise BenchError(f"{build.label}: the server has no {option} (an older build?)")


class Process:
    """One server process on a fixed port of 127.0.0.1 (a restart keeps port and name)."""

    def __init__(self, build: Build, db: str, extra: list[str], log: Path) -> None:
        self.build = build
        self.port = free_port()
        self.base = f"{HOST}:{self.port}"
        self.command = [sys.executable, "-m", "draw_dominoes.web", "--host", HOST]
        self.command += ["--port", str(self.port), "--db", db]
        self.command += COMMON_OPTIONS + build.options + extra
        self.log_path = log
        self.process: subprocess.Popen[bytes] | None = None
        self.spent = 0.0
        """CPU seconds of earlier lives of this process (before a kill)."""

    def start(self, limit: float = 60.0) -> Process:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.log_path.parent,
                env=self.build.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                preexec_fn=die_with_parent,
            )
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(
                    f"the server on port {self.port} exited with code "
                    f"{self.process.returncode}:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"http://{self.base}/api/bots", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise BenchError(f"the server on port {self.port} did not answer:\n{self.log_tail()}")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    def kill(self) -> None:
        """SIGKILL, as ``kill -9``: no shutdown code runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(text[-lines:]) or "(nothing on stderr)"


@dataclass
class Config:
    label: str
    store: str
    """"sqlite" or "postgres"."""
    processes: int
    bus: bool
    hold: bool = False
    """Tables stay at the process that created them (``--hold-tables``): relayed."""


CONFIGS = {
    "sqlite": Config("(a) SQLite, 1 process", "sqlite", 1, False),
    "postgres": Config("(b) PostgreSQL, 1 process", "postgres", 1, False),
    "cluster": Config("(c) PG+Redis, 2 processes", "postgres", 2, True),
    "held": Config("(d) (c), tables held", "postgres", 2, True, hold=True),
    "bus1": Config("PG+Redis, 1 process", "postgres", 1, True),
    "bus2": Config("PG+Redis, 2 processes", "postgres", 2, True),
}


@dataclass
class Cluster:
    """The server processes of one configuration, on a fresh database."""

    config: Config
    processes: list[Process]
    db: str
    """The PostgreSQL URL, or "" for SQLite."""
    alive: list[bool] = field(default_factory=list)

    @classmethod
    def start(
        cls, config: Config, build: Build, backing: Backing, folder: Path, lease: float | None
    ) -> Cluster:
        run = Path(tempfile.mkdtemp(prefix=f"{config.store}-", dir=folder))
        db = backing.database() if config.store == "postgres" else ""
        extra: list[str] = []
        if config.bus:
            extra += ["--bus", backing.redis_url, "--bus-prefix", backing.bus_prefix(run.name)]
            if lease is not None:
                extra += ["--lease-seconds", str(lease)]
            if config.hold:
                extra.append("--hold-tables")
        processes = [
            Process(build, db or str(run / "bench.sqlite3"), extra, run / f"server{n}.log")
            for n in range(config.processes)
        ]
        cluster = cls(config, processes, db, [True] * len(processes))
        try:
            for process in processes:
                process.start()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def cpu(self) -> float:
        return sum(p.spent + p.cpu() for p in self.processes)

    def stop(self) -> None:
        for process in self.processes:
            process.stop()

    def target(self, index: int) -> int:
        """Where a client of process ``index`` connects: there, or to a living one."""
        if self.alive[index]:
            return index
        return next((n for n, up in enumerate(self.alive) if up), index)

    def placement(self, number: int) -> tuple[int, int]:
        """Table ``number``: the process that creates (and owns) it and the one its player
        connects to; with two processes every other player is at the other one."""
        count = len(self.processes)
        owner = number % count
        relayed = count > 1 and (number // count) % 2 == 1
        return owner, (owner + 1) % count if relayed else owner

    def log_tails(self) -> str:
        return "\n".join(f"server {p.port}:\n{p.log_tail(10)}" for p in self.processes)


# ------------------------------------------------------------------ players


class Cut(Exception):
    """The server closed the player's socket."""


@dataclass
class Player(Table):
    """bench_web's player (its socket, state, timings and request ids), also noting where
    each of its actions was played, which were acknowledged and which refused (to compare
    with the store), and taking refusals and closed sockets in its stride: they are
    counted, and it tries again."""

    table_id: str = ""
    uri: str = ""
    relayed: bool = False
    """Connected to a process that does not own the table."""
    places: dict[int, Place] = field(default_factory=dict)
    """Request id to where each action not yet answered was sent."""
    sent: Counter[Place] = field(default_factory=Counter)
    acked: list[Place] = field(default_factory=list)
    refused_places: set[Place] = field(default_factory=set)
    refusals: Counter[str] = field(default_factory=Counter)
    """Error messages by code (an intent refused, or a fault reported to the table)."""
    closes: int = 0
    """Sockets the server closed."""
    refused_at: float = -math.inf
    """monotonic() of the latest refusal of one of this player's intents."""

    async def send(self, message: dict[str, Any], timed: bool = False) -> None:
        if message.get("type") == "action":
            match_number = int((self.state.get("table") or {}).get("match_number", 0))
            place = (match_number - 1, int(self.state.get("seq", 0)), str(message["action"]))
            self.places[self.next_id] = place
            self.sent[place] += 1
        try:
            await super().send(message, timed)
        except BenchError:
            raise Cut from None

    async def receive(self, deadline: float, until: float | None = None) -> bool:
        """bench_web's ``Table.receive``, but an error is counted, not fatal."""
        end = deadline if until is None else min(until, deadline)
        try:
            text = await asyncio.wait_for(self.socket.recv(), max(0.0, end - time.monotonic()))
        except TimeoutError:
            if until is not None and until < deadline:
                return False
            raise BenchError(f"table {self.number}: not done when the --limit ran out") from None
        except ConnectionClosed:
            self.closes += 1
            raise Cut from None
        received = time.perf_counter()
        message = json.loads(text)
        kind = message.get("type") if isinstance(message, dict) else None
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
            place = self.places.pop(message.get("id"), None)
            if place is not None:
                self.acked.append(place)
        elif kind == "error":
            self.refusals[str(message.get("code"))] += 1
            if self.pending.pop(message.get("id"), None) is not None:
                self.refused_at = time.monotonic()
            place = self.places.pop(message.get("id"), None)
            if place is not None:
                self.refused_places.add(place)
        return True

    async def reconnect(self, deadline: float) -> None:
        """A new socket at the same process, once it takes one; then the first state."""
        self.pending.clear()
        self.places.clear()
        self.state = {}
        while True:
            try:
                self.socket = await asyncio.wait_for(connect(self.uri, max_size=2**22), 5)
                break
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
                if time.monotonic() > deadline:
                    raise BenchError(f"table {self.number}: could not reconnect") from None
                await asyncio.sleep(0.2)
        while not self.state:
            await self.receive(deadline)


async def open_player(cluster: Cluster, number: int, seed: int, deadline: float) -> Player:
    """Create table ``number`` (a ``random`` bot at seat 1) at its owner, connect seat 0 at
    the process the placement says, and wait for its first state."""
    owner, at = cluster.placement(number)
    created = await asyncio.to_thread(
        post,
        f"http://{cluster.processes[owner].base}/api/tables",
        {"players": 2, "name": f"P{number}", "bots": {"1": BOT}, "seed": seed + number},
    )
    uri = f"ws://{cluster.processes[at].base}/ws/{created['table_id']}?token={created['token']}"
    try:
        connection = await asyncio.wait_for(
            connect(uri, max_size=2**22), max(0.1, deadline - time.monotonic())
        )
    except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
        raise BenchError(f"table {number}: could not connect: {error!r}") from None
    player = Player(
        number,
        connection,
        choice=random.Random(seed * 7919 + number),
        pace=random.Random(f"pace:{seed}:{number}"),
        table_id=created["table_id"],
        uri=uri,
        relayed=owner != at,
    )
    while not player.state:
        await player.receive(deadline)
    return player


async def start_match(player: Player, deadline: float) -> None:
    """The host deals the first match (again after a refusal) and sees it dealt."""
    while player.pending or (player.state.get("table") or {}).get("status") in (None, "lobby"):
        if not player.pending:
            await player.send({"type": "start"}, timed=True)
        await player.receive(deadline, time.monotonic() + 1.0)
    player.latencies.clear()  # the window measures only what comes after


async def play_on(player: Player, paced: bool, stop: float, deadline: float, seed: int) -> None:
    """bench_web's ``play`` with rematches: seat 0 at random, after a 1-2 s pause each turn
    (``paced``) or at once, until ``stop``; a refused intent is tried again after 0.5 s
    from the position then shown, a closed socket is opened again."""
    acted: tuple[int, int] | None = None  # (match number, seq) of the last action sent
    rematched = 0
    due: float | None = None
    while True:
        info = player.state.get("table") or {}
        view = player.state.get("view") or {}
        match_number = int(info.get("match_number", 0))
        position = (match_number, int(player.state.get("seq", 0)))
        now = time.monotonic()
        retry = player.refused_at + 0.5
        if now < retry:
            acted, rematched = None, 0
        elif not player.pending:
            if now >= stop:
                return
            if info.get("status") == "over":
                if rematched != match_number:
                    rematched = match_number
                    fresh = seed + player.number * 1000 + match_number
                    await player.send({"type": "rematch", "seed": fresh})
            elif view.get("legal_actions") and position != acted:
                if paced and due is None:
                    due = now + player.pace.uniform(*PACE)
                if due is None or now >= due:
                    action = player.choice.choice(view["legal_actions"])
                    await player.send({"type": "action", "action": action}, timed=True)
                    acted, due = position, None
                    continue
        if player.pending:
            until = None
        else:
            until = min(stop, math.inf if due is None else due, retry if now < retry else stop)
        try:
            await player.receive(deadline, until)
        except Cut:
            acted, rematched = None, 0
            await player.reconnect(deadline)


# ------------------------------------------------------------------ checking the store


@dataclass
class Check:
    """Acknowledged actions against what PostgreSQL stored."""

    acked: int = 0
    stored: int = 0
    lost: int = 0
    """Acknowledged actions not stored at their place (match, seq, action)."""
    elsewhere: int = 0
    """Of those, actions stored at a later seq of the match: applied to a position their
    player had not seen (an intent names no position)."""
    unsent: int = 0
    """A player's stored actions that no intent of it accounts for (each intent accounts
    for one row: at the place it was sent from, or later in the match)."""
    doubled_rows: int = 0
    """Places stored more than once."""
    broken: int = 0
    """Matches whose stored actions do not replay from the match's seed."""
    refused_stored: int = 0
    """Actions whose intent was refused (which must change nothing) but that are stored."""
    examples: list[str] = field(default_factory=list)

    @property
    def twice(self) -> int:
        return self.unsent + self.doubled_rows + self.broken


Books = dict[str, tuple[Counter[Place], list[Place], set[Place]]]
"""Table id to its player's intents (places, counted), acknowledged and refused places."""


def check_store(url: str, tables: Books) -> Check:
    ids = list(tables)
    with psycopg.connect(url, connect_timeout=3) as db:
        actions = db.execute(
            "SELECT table_id, number, seq, action FROM actions WHERE table_id = ANY(%s)"
            " ORDER BY table_id, number, seq",
            (ids,),
        ).fetchall()
        matches = db.execute(
            "SELECT table_id, number, record FROM matches WHERE table_id = ANY(%s)", (ids,)
        ).fetchall()
    check = Check()
    stored: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for table_id, number, seq, action in actions:
        stored.setdefault((table_id, int(number)), []).append((int(seq), str(action)))
    check.stored = len(actions)
    places = Counter((t, int(n), int(s)) for t, n, s, _ in actions)
    check.doubled_rows = sum(c - 1 for c in places.values() if c > 1)
    rows = {(t, int(n), int(s), str(a)) for t, n, s, a in actions}
    for table_id, (_, acked, refused) in tables.items():
        check.acked += len(acked)
        for n, s, a in acked:
            if (table_id, n, s, a) not in rows:
                check.lost += 1
                later = any(
                    (table_id, n, t, a) in rows for t in range(s + 1, s + 200)
                )  # a match has far fewer actions
                check.elsewhere += later
                check.examples.append(
                    f"lost: table {table_id} match {n} seq {s} {a}"
                    + (" (stored at a later seq)" if later else "")
                )
        for n, s, a in refused - set(acked):
            if (table_id, n, s, a) in rows:
                check.refused_stored += 1
                check.examples.append(f"refused but stored: table {table_id} match {n} seq {s}")
    humans: dict[str, list[Place]] = {table_id: [] for table_id in tables}
    for table_id, number, text in matches:
        started = record.loads(text)
        assert isinstance(started, Match)
        match = Match.new(started.players, seed=started.seed, first_leader=started.first_leader)
        for expected, (seq, action) in enumerate(stored.get((table_id, int(number)), [])):
            try:
                if seq != expected:
                    raise ValueError(f"seq {seq} where {expected} was due")
                player = match.current_player
                match.apply(parse_action(action))
            except Exception as error:
                check.broken += 1
                check.examples.append(f"table {table_id} match {number} seq {seq}: {error}")
                break
            if player == HUMAN_SEAT:
                humans[table_id].append((int(number), seq, action))
    for table_id, played in humans.items():
        intents = Counter(tables[table_id][0])
        unmatched = []
        for place in played:  # first every row stored where its intent was sent from
            if intents[place] > 0:
                intents[place] -= 1
            else:
                unmatched.append(place)
        for n, s, a in unmatched:  # then rows stored later than their intent's place
            earlier = [p for p, c in intents.items() if c > 0 and p[0] == n and p[2] == a]
            earlier = [p for p in earlier if p[1] < s]
            if earlier:
                intents[max(earlier)] -= 1
                continue
            check.unsent += 1
            check.examples.append(f"unsent: table {table_id} match {n} seq {s} {a} (seat 0)")
    return check


# ------------------------------------------------------------------ paced and saturated


@dataclass
class Run:
    part: str
    config: Config
    tables: int
    seconds: float
    acks: int
    actions: int
    server_cpu: float
    postgres_cpu: float
    redis_cpu: float
    client_cpu: float
    busy: float
    """Machine CPU busy over the window, in cores."""
    latencies: list[float]
    relayed_latencies: list[float]
    check: Check | None
    refusals: Counter[str]
    """Error messages the players got in the window, by code."""
    closes: int
    """Sockets the servers closed in the window."""

    def ms(self, q: float, relayed: bool = False) -> float:
        return quantile_ms(self.relayed_latencies if relayed else self.latencies, q)

    @property
    def cpu_per_ack(self) -> float:
        return self.server_cpu / self.acks * 1000 if self.acks else math.nan

    @property
    def cpu_per_action(self) -> float:
        return self.server_cpu / self.actions * 1000 if self.actions else math.nan

    def per_ack(self, seconds: float) -> float:
        return seconds / self.acks * 1000 if self.acks else math.nan


async def measure(
    cluster: Cluster, part: str, tables: int, seed: int, seconds: float, limit: float
) -> Run:
    deadline = time.monotonic() + limit
    players: list[Player] = []
    paced = part == "paced"
    try:
        for chunk in range(0, tables, 50):  # not hundreds of handshakes or deals at once
            numbers = range(chunk, min(tables, chunk + 50))
            opened = await asyncio.gather(
                *(open_player(cluster, n, seed, deadline) for n in numbers)
            )
            await asyncio.gather(*(start_match(p, deadline) for p in opened))
            players += opened
        backends = await asyncio.to_thread(backend_pids, cluster.db) if cluster.db else set()
        bus = redis_pid() if cluster.config.bus else None
        pg_before = {pid: ticks_of(pid) for pid in backends}
        bus_before = ticks_of(bus) if bus else 0.0
        actions = sum(p.actions for p in players)
        for player in players:
            player.refusals.clear()
        cpu, client, machine = cluster.cpu(), time.process_time(), machine_busy()
        start = time.monotonic()
        stop = start + seconds
        async with asyncio.TaskGroup() as group:
            for player in players:
                group.create_task(play_on(player, paced, stop, deadline, seed))
        elapsed = time.monotonic() - start
        cpu, client = cluster.cpu() - cpu, time.process_time() - client
        busy = (machine_busy()[0] - machine[0]) / elapsed
        redis_spent = ticks_of(bus) - bus_before if bus else 0.0
        pg_spent = sum(ticks_of(pid) - before for pid, before in pg_before.items())
        actions = sum(p.actions for p in players) - actions
    finally:
        await asyncio.gather(*(p.socket.close() for p in players), return_exceptions=True)
    check = None
    if cluster.db:
        books = {p.table_id: (p.sent, p.acked, p.refused_places) for p in players}
        check = await asyncio.to_thread(check_store, cluster.db, books)
    return Run(
        part,
        cluster.config,
        tables,
        elapsed,
        sum(len(p.latencies) for p in players),
        actions,
        cpu,
        pg_spent,
        redis_spent,
        client,
        busy,
        sorted(x for p in players for x in p.latencies),
        sorted(x for p in players if p.relayed for x in p.latencies),
        check,
        sum((p.refusals for p in players), Counter()),
        sum(p.closes for p in players),
    )


def run_once(
    config: Config,
    part: str,
    args: argparse.Namespace,
    build: Build,
    backing: Backing,
    folder: Path,
) -> Run:
    tables = args.tables if part == "paced" else args.saturated_tables
    seconds = args.seconds if part == "paced" else args.saturated_seconds
    cluster = Cluster.start(config, build, backing, folder, None)
    try:
        try:
            try:
                result = asyncio.run(measure(cluster, part, tables, args.seed, seconds, args.limit))
            except BaseExceptionGroup as group:
                raise first_error(group) from None
        except BenchError as error:
            raise BenchError(
                f"{config.label}, {part} run: {error}\n{cluster.log_tails()}"
            ) from None
    finally:
        cluster.stop()
    return result


def describe(run: Run) -> str:
    relayed = ""
    if run.relayed_latencies:
        relayed = (
            f" (relayed players: {len(run.relayed_latencies)} acks p50 "
            f"{run.ms(0.5, True):.1f} ms p99 {run.ms(0.99, True):.1f} ms)"
        )
    stored = ""
    if run.check is not None:
        stored = (
            f"; store: {run.check.lost} lost ({run.check.elsewhere} at a later seq), "
            f"{run.check.twice} twice, "
            f"{run.check.refused_stored} refused but stored"
        )
    if run.refusals or run.closes:
        stored += f"; refusals {dict(run.refusals)}, sockets closed {run.closes}"
    return (
        f"{run.tables} tables, {run.seconds:.1f} s: {run.acks} acks "
        f"({run.acks / run.seconds:.0f}/s), {run.actions} actions; ack p50 {run.ms(0.5):.1f} ms "
        f"p99 {run.ms(0.99):.1f} ms max {run.ms(1.0):.1f} ms{relayed}; server CPU "
        f"{run.cpu_per_ack:.3f} ms/ack ({run.server_cpu / run.seconds:.0%} of a core), "
        f"PostgreSQL {run.per_ack(run.postgres_cpu):.3f} ms/ack, Redis "
        f"{run.per_ack(run.redis_cpu):.3f} ms/ack; load generator "
        f"{run.client_cpu / run.seconds:.0%} of a core; machine busy {run.busy:.2f} cores"
        f"{stored}"
    )


ROWS: list[tuple[str, str, Callable[[Run], float]]] = [
    ("acks/s", ".0f", lambda r: r.acks / r.seconds),
    ("acks measured", ".0f", lambda r: r.acks),
    ("actions (the bots' too)", ".0f", lambda r: r.actions),
    ("ack p50 ms", ".1f", lambda r: r.ms(0.5)),
    ("ack p99 ms", ".1f", lambda r: r.ms(0.99)),
    ("ack max ms", ".1f", lambda r: r.ms(1.0)),
    ("relayed players' ack p50 ms", ".1f", lambda r: r.ms(0.5, True)),
    ("relayed players' ack p99 ms", ".1f", lambda r: r.ms(0.99, True)),
    ("server CPU ms/ack", ".3f", lambda r: r.cpu_per_ack),
    ("server CPU ms/action", ".3f", lambda r: r.cpu_per_action),
    ("server CPU % of a core", ".0f", lambda r: r.server_cpu / r.seconds * 100),
    ("PostgreSQL CPU ms/ack", ".3f", lambda r: r.per_ack(r.postgres_cpu)),
    ("Redis CPU ms/ack (whole)", ".3f", lambda r: r.per_ack(r.redis_cpu)),
    ("load generator % of a core", ".0f", lambda r: r.client_cpu / r.seconds * 100),
    ("machine busy, cores", ".2f", lambda r: r.busy),
    ("acked but not stored", ".0f", lambda r: r.check.lost if r.check else math.nan),
    ("  of which at a later seq", ".0f", lambda r: r.check.elsewhere if r.check else math.nan),
    ("stored twice", ".0f", lambda r: r.check.twice if r.check else math.nan),
    ("refused but stored", ".0f", lambda r: r.check.refused_stored if r.check else math.nan),
    ("refusals (error messages)", ".0f", lambda r: r.refusals.total()),
    ("sockets closed by a server", ".0f", lambda r: r.closes),
]

ROW_NAMES = [name for name, *_ in ROWS]


def table_of(runs: list[Run], keys: list[str], title: str) -> tuple[list[list[float]], str]:
    """The summary of one part: medians per configuration, and the printed table."""
    width = 28
    lines = [f"  {title:<30}" + "".join(f"{CONFIGS[k].label:>{width}}" for k in keys)]
    columns = []
    for key in keys:
        chosen = [r for r in runs if r.config is CONFIGS[key]]
        columns.append(
            [
                statistics.median(metric(r) for r in chosen) if chosen else math.nan
                for *_, metric in ROWS
            ]
        )
    for row, (name, form, _) in enumerate(ROWS):
        cells = [column[row] for column in columns]
        if all(math.isnan(c) for c in cells):
            continue
        text = "".join(f"{'-' if math.isnan(c) else format(c, form):>{width}}" for c in cells)
        lines.append(f"    {name:<28}{text}")
    return columns, "\n".join(lines)


def summarize_runs(runs: list[Run], args: argparse.Namespace) -> list[str]:
    """Print the paced and saturated tables and the verdicts; return the missed targets."""
    missed = []
    rounds = f"median of {args.repeat} rounds" if args.repeat > 1 else "1 round"
    paced = [r for r in runs if r.part == "paced"]
    if paced:
        keys = ["sqlite", "postgres", "cluster", "held"]
        title = f"paced, {args.tables} tables, {args.seconds:g} s"
        columns, text = table_of(paced, keys, title)
        print(f"\n{text}")
        cpu_row = ROW_NAMES.index("server CPU ms/ack")
        sqlite_cpu, cluster_cpu = columns[0][cpu_row], columns[2][cpu_row]
        ratio = cluster_cpu / sqlite_cpu
        worst = max((r.ms(0.99) for r in paced if r.config is CONFIGS["cluster"]), default=0)
        met = ratio <= CPU_RATIO_TARGET
        print(
            f"    server CPU per ack, (c) / (a): {cluster_cpu:.3f} / {sqlite_cpu:.3f} ms = "
            f"{ratio:.2f}x (target <= {CPU_RATIO_TARGET}x: {'met' if met else 'MISSED'}); "
            f"(b) / (a) = {columns[1][cpu_row] / sqlite_cpu:.2f}x; "
            f"(d) / (a) = {columns[3][cpu_row] / sqlite_cpu:.2f}x"
        )
        p99_met = worst < P99_TARGET_MS
        print(
            f"    (c) ack p99 {worst:.1f} ms in the worst round "
            f"(target < {P99_TARGET_MS:.0f} ms: {'met' if p99_met else 'MISSED'}); {rounds}"
        )
        if not met:
            missed.append(f"CPU per ack (c)/(a) {ratio:.2f}x > {CPU_RATIO_TARGET}x")
        if not p99_met:
            missed.append(f"(c) p99 {worst:.1f} ms >= {P99_TARGET_MS:.0f} ms")
    saturated = [r for r in runs if r.part == "saturated"]
    if saturated:
        keys = ["bus1", "bus2"]
        title = f"saturated, {args.saturated_tables} tables, {args.saturated_seconds:g} s"
        columns, text = table_of(saturated, keys, title)
        print(f"\n{text}")
        rate = ROW_NAMES.index("acks/s")
        one, two = columns[0][rate], columns[1][rate]
        print(f"    acks/s, 2 processes / 1: {two:.0f} / {one:.0f} = {two / one:.2f}x; {rounds}")
    for run in runs:
        if run.check is not None and run.check.lost + run.check.twice + run.check.refused_stored:
            missed.append(f"{run.config.label} {run.part}: {run.check.examples[:3]}")
        if run.refusals or run.closes:
            missed.append(
                f"{run.config.label} {run.part}: refusals {dict(run.refusals)}, "
                f"{run.closes} sockets closed"
            )
    return missed


# ------------------------------------------------------------------ fail-over


@dataclass
class Seat:
    """A fail-over player: reconnects wherever the run says when its socket breaks, takes
    refusals (the owner is gone) in its stride and tries again."""

    number: int
    table_id: str
    token: str
    at: int
    """The process it connects to (another if that one is down)."""
    choice: random.Random
    pace: random.Random
    socket: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)
    pending: dict[int, tuple[Place | None, float]] = field(default_factory=dict)
    """Request id to the action's place (None: not an action) and when it was sent."""
    sent: Counter[Place] = field(default_factory=Counter)
    acked: list[Place] = field(default_factory=list)
    refused_places: set[Place] = field(default_factory=set)
    ack_times: list[float] = field(default_factory=list)
    """monotonic() of each acknowledged action."""
    next_id: int = 1
    connects: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    acted: tuple[int, int] | None = None
    rematched: int = 0

    def acked_after(self, moment: float) -> float | None:
        return next((t for t in self.ack_times if t > moment), None)

    async def send(self, message: dict[str, Any], place: Place | None) -> None:
        assert self.socket is not None
        request_id = self.next_id
        self.next_id += 1
        self.pending[request_id] = (place, time.monotonic())
        if place is not None:
            self.sent[place] += 1
        await self.socket.send(json.dumps({**message, "id": request_id}))

    def cut(self) -> None:
        """The socket broke: what was not answered is not known to be stored."""
        self.socket = None
        self.pending.clear()
        self.acted = None
        self.rematched = 0

    async def run(self, cluster: Cluster, stop: asyncio.Event, deadline: float, seed: int) -> None:
        due: float | None = None
        while not stop.is_set():
            if time.monotonic() > deadline:
                raise BenchError(f"fail-over table {self.number}: the --limit ran out")
            if self.socket is None:
                target = cluster.target(self.at)
                base = cluster.processes[target].base
                try:
                    self.socket = await asyncio.wait_for(
                        connect(f"ws://{base}/ws/{self.table_id}?token={self.token}"), 5
                    )
                except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
                    await asyncio.sleep(0.2)
                    continue
                self.at, self.state, due = target, {}, None
                self.connects += 1
            try:
                due = await self.step(due, seed)
            except ConnectionClosed:
                self.cut()

    async def step(self, due: float | None, seed: int) -> float | None:
        """Act if it is time, then take one message (or time out); the new due time."""
        assert self.socket is not None
        info = self.state.get("table") or {}
        view = self.state.get("view") or {}
        match_number = int(info.get("match_number", 0))
        position = (match_number, int(self.state.get("seq", 0)))
        now = time.monotonic()
        if self.state and not self.pending:
            if info.get("status") == "over":
                if self.rematched != match_number:
                    self.rematched = match_number
                    fresh = seed + self.number * 1000 + match_number
                    await self.send({"type": "rematch", "seed": fresh}, None)
            elif view.get("legal_actions") and not info.get("waiting") and position != self.acted:
                if due is None:
                    due = now + self.pace.uniform(*FAILOVER_PACE)
                if now >= due:
                    action = str(self.choice.choice(view["legal_actions"]))
                    place = (match_number - 1, position[1], action)
                    await self.send({"type": "action", "action": action}, place)
                    self.acted = position
                    return None
        wait = 0.5 if due is None else min(0.5, max(0.0, due - now))
        try:
            text = await asyncio.wait_for(self.socket.recv(), wait)
        except TimeoutError:
            for request_id, (_, at) in list(self.pending.items()):
                if now - at > 15:  # no answer: as good as refused; look again
                    del self.pending[request_id]
                    self.errors["no answer"] += 1
                    self.acted, self.rematched = None, 0
            return due
        message = json.loads(text)
        kind = message.get("type")
        if kind == "state":
            self.state = message
        elif kind == "ok":
            answer = self.pending.pop(message.get("id"), None)
            if answer is not None and answer[0] is not None:
                self.acked.append(answer[0])
                self.ack_times.append(time.monotonic())
        elif kind == "error":
            self.errors[str(message.get("code"))] += 1
            answered = self.pending.pop(message.get("id"), None)
            if answered is not None and answered[0] is not None:
                self.refused_places.add(answered[0])
            if answered is not None:  # refused: nothing changed; try again shortly
                self.acted, self.rematched = None, 0
                return time.monotonic() + 0.2
        return due


@dataclass
class Kill:
    victim: int
    watched: int
    """The table whose owner was killed."""
    delays: dict[int, float]
    """Table number to seconds from the kill to its next acknowledged move (inf: none
    within RECOVERY_WAIT), for every table the killed process owned."""
    restart: float
    """Seconds the killed process took to answer again."""


@dataclass
class Failover:
    kills: list[Kill]
    check: Check
    seats: list[Seat]
    seconds: float

    def watched(self) -> list[float]:
        return sorted(k.delays[k.watched] for k in self.kills)

    def every(self) -> list[float]:
        return sorted(d for k in self.kills for d in k.delays.values())


def lease_owners(url: str, ids: list[str]) -> dict[str, str]:
    with psycopg.connect(url, connect_timeout=3) as db:
        rows = db.execute(
            "SELECT id, lease_owner FROM tables WHERE id = ANY(%s)"
            " AND lease_until > clock_timestamp()",
            (ids,),
        ).fetchall()
    return {str(i): str(o) for i, o in rows if o is not None}


def process_of(cluster: Cluster, owner: str) -> int | None:
    """The process a lease names (``<hostname>:<port>`` by default)."""
    port = owner.rpartition(":")[2]
    return next((n for n, p in enumerate(cluster.processes) if str(p.port) == port), None)


async def until(condition: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= end:
            return False
        await asyncio.sleep(0.05)
    return True


async def failover(cluster: Cluster, args: argparse.Namespace) -> Failover:
    deadline = time.monotonic() + args.limit
    seats: list[Seat] = []
    for number in range(args.failover_tables):
        owner, at = cluster.placement(number)
        created = await asyncio.to_thread(
            post,
            f"http://{cluster.processes[owner].base}/api/tables",
            {"players": 2, "name": f"F{number}", "bots": {"1": BOT}, "seed": args.seed + number},
        )
        seats.append(
            Seat(
                number,
                created["table_id"],
                created["token"],
                at,
                random.Random(args.seed * 7919 + number),
                random.Random(f"pace:{args.seed}:{number}"),
            )
        )
    stop = asyncio.Event()
    ids = [s.table_id for s in seats]
    kills: list[Kill] = []
    start = time.monotonic()
    async with asyncio.TaskGroup() as group:
        for seat in seats:
            group.create_task(seat.run(cluster, stop, deadline, args.seed))
        try:
            await seat_starts(seats)
            for k in range(args.kills):
                kills.append(await kill_once(cluster, seats, ids, k, deadline))
                print(f"  kill {k + 1}: {describe_kill(kills[-1], cluster)}", flush=True)
            # the last kill's tables play on a little, so that their moves are stored
            await until(lambda: all(len(s.ack_times) > 0 for s in seats), 2)
        finally:
            stop.set()
    for seat in seats:
        if seat.socket is not None:
            await seat.socket.close()
    elapsed = time.monotonic() - start
    books = {s.table_id: (s.sent, s.acked, s.refused_places) for s in seats}
    check = await asyncio.to_thread(check_store, cluster.db, books)
    return Failover(kills, check, seats, elapsed)


async def seat_starts(seats: list[Seat]) -> None:
    """Each host starts its match (through whichever process it is connected to)."""
    ok = await until(lambda: all(s.state for s in seats), 30)
    if not ok:
        raise BenchError("fail-over: not every player got its first state")
    for seat in seats:
        if seat.socket is not None:
            await seat.send({"type": "start"}, None)
    if not await until(lambda: all(s.ack_times for s in seats), 30):
        raise BenchError("fail-over: not every table started playing")


async def kill_once(
    cluster: Cluster, seats: list[Seat], ids: list[str], k: int, deadline: float
) -> Kill:
    watched = seats[k % len(seats)]
    # Every table has moved since the last restart, and the watched one is mid-match.
    settled = time.monotonic()
    await until(lambda: all(s.acked_after(settled - 1.0) for s in seats), 10)
    await until(
        lambda: (
            (watched.state.get("table") or {}).get("status") == "playing"
            and int(watched.state.get("seq", 0)) > 0
        ),
        10,
    )
    victim = None
    owners: dict[str, str] = {}
    for _ in range(40):
        owners = await asyncio.to_thread(lease_owners, cluster.db, ids)
        owner = owners.get(watched.table_id)
        victim = None if owner is None else process_of(cluster, owner)
        if victim is not None:
            break
        await asyncio.sleep(0.25)
    if victim is None:
        raise BenchError(f"fail-over: table {watched.table_id} has no owner among the servers")
    owned = [s for s in seats if owners.get(s.table_id) == owners[watched.table_id]]
    process = cluster.processes[victim]
    cluster.alive[victim] = False
    killed_at = time.monotonic()
    process.spent += process.cpu()
    process.kill()
    await until(lambda: all(s.acked_after(killed_at) for s in owned), RECOVERY_WAIT)
    delays = {}
    for seat in owned:
        moved = seat.acked_after(killed_at)
        delays[seat.number] = math.inf if moved is None else moved - killed_at
    if time.monotonic() > deadline:
        raise BenchError("fail-over: the --limit ran out")
    began = time.monotonic()
    await asyncio.to_thread(process.start)
    restart = time.monotonic() - began
    cluster.alive[victim] = True
    # Half the players go to the restarted process, so that both serve clients again.
    for seat in seats:
        if (seat.number + k) % 2 == 0 and seat.at != victim and seat.socket is not None:
            seat.at = victim
            await seat.socket.close()
    return Kill(victim, watched.number, delays, restart)


def describe_kill(kill: Kill, cluster: Cluster) -> str:
    delays = sorted(kill.delays.values())
    return (
        f"port {cluster.processes[kill.victim].port} owned {len(delays)} tables; the watched "
        f"table moved after {kill.delays[kill.watched]:.2f} s, all after "
        f"{delays[-1]:.2f} s (median {statistics.median(delays):.2f} s); restart took "
        f"{kill.restart:.1f} s"
    )


def run_failover(
    args: argparse.Namespace, build: Build, backing: Backing, folder: Path
) -> Failover:
    cluster = Cluster.start(CONFIGS["bus2"], build, backing, folder, args.lease_seconds)
    try:
        try:
            try:
                return asyncio.run(failover(cluster, args))
            except BaseExceptionGroup as group:
                raise first_error(group) from None
        except BenchError as error:
            raise BenchError(f"fail-over: {error}\n{cluster.log_tails()}") from None
    finally:
        cluster.stop()


def summarize_failover(result: Failover, args: argparse.Namespace) -> list[str]:
    missed = []
    watched, every = result.watched(), result.every()
    errors = sum((s.errors for s in result.seats), Counter())
    check = result.check
    lease = "default" if args.lease_seconds is None else f"{args.lease_seconds:g} s"
    print(
        f"\n  fail-over, {args.failover_tables} tables on 2 PG+Redis processes (lease "
        f"{lease}), {len(result.kills)} kills in {result.seconds:.0f} s"
    )
    print(
        f"    kill to the watched table's next ack: median {statistics.median(watched):.2f} s, "
        f"max {watched[-1]:.2f} s (target <= {FAILOVER_TARGET_S:.0f} s: "
        f"{'met' if watched[-1] <= FAILOVER_TARGET_S else 'MISSED'})"
    )
    print(
        f"    every table the killed process owned ({len(every)} samples): median "
        f"{statistics.median(every):.2f} s, max {every[-1]:.2f} s"
    )
    print(
        f"    acknowledged actions {check.acked}, stored {check.stored}: lost {check.lost} "
        f"({check.elsewhere} of them at a later seq; target 0), stored twice {check.twice} "
        f"(target 0: {check.unsent} unsent, "
        f"{check.doubled_rows} second rows, {check.broken} matches that do not replay); "
        f"refused but stored {check.refused_stored}"
    )
    restarts = [k.restart for k in result.kills]
    print(
        f"    reconnections {sum(s.connects for s in result.seats) - len(result.seats)}, "
        f"refusals seen {dict(errors.most_common())}, restart median "
        f"{statistics.median(restarts):.1f} s"
    )
    for example in check.examples[:5]:
        print(f"    {example}")
    if watched[-1] > FAILOVER_TARGET_S:
        missed.append(f"fail-over max {watched[-1]:.2f} s > {FAILOVER_TARGET_S:.0f} s")
    if check.lost or check.twice or check.refused_stored:
        missed.append(
            f"fail-over: {check.lost} lost, {check.twice} twice, "
            f"{check.refused_stored} refused but stored"
        )
    return missed


# ------------------------------------------------------------------ main


def interrupted(signum: int, frame: types.FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="paced,saturated,failover", help="what to run")
    parser.add_argument("--tables", type=int, default=200, help="paced tables")
    parser.add_argument("--seconds", type=float, default=60, help="length of a paced run")
    parser.add_argument("--saturated-tables", type=int, default=100)
    parser.add_argument("--saturated-seconds", type=float, default=30)
    parser.add_argument("--kills", type=int, default=20, help="owners killed in the fail-over")
    parser.add_argument("--failover-tables", type=int, default=10)
    parser.add_argument(
        "--lease-seconds", type=float, default=None, help="the servers' (default: theirs, 5)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="paced/saturated rounds")
    parser.add_argument(
        "--rev", default=None, help="serve this commit, not a copy of the working tree"
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get(
            "DRAW_DOMINOES_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
        ),
        help="a PostgreSQL server's URL whose user may create databases",
    )
    parser.add_argument(
        "--redis", default=os.environ.get("DRAW_DOMINOES_TEST_REDIS", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=300, help="seconds a part may take")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 20 tables, 10 s, 2 kills"
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds, args.saturated_tables = 20, 10.0, 10
        args.saturated_seconds, args.kills, args.failover_tables = 10.0, 2, 4
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if not set(parts) <= {"paced", "saturated", "failover"}:
        parser.error("--parts: paced, saturated, failover")
    if min(args.tables, args.saturated_tables, args.failover_tables) < 1 or args.repeat < 1:
        parser.error("the table counts and --repeat must be >= 1")
    if args.kills < 1 or args.seconds <= 0 or args.saturated_seconds <= 0:
        parser.error("--kills, --seconds and --saturated-seconds must be > 0")
    if max(args.seconds, args.saturated_seconds) >= args.limit:
        parser.error("--seconds and --saturated-seconds must be shorter than --limit")
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGALRM, interrupted)
    runs = 6 * args.repeat + 1  # at most 5 paced or saturated runs a round, and the fail-over
    signal.alarm(int(runs * args.limit) + 60)  # the whole run stops by itself
    began = time.monotonic()
    print(
        f"bench_web_cluster on {socket.gethostname()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the start",
        flush=True,
    )
    missed: list[str] = []
    backing = None
    try:
        backing = Backing(args.postgres, args.redis)
        with tempfile.TemporaryDirectory(prefix="bench_web_cluster-") as temporary:
            folder = Path(temporary)
            build = snapshot(folder) if args.rev is None else prepare("server", args.rev, folder)
            check_cluster_options(build, folder)
            runs: list[Run] = []
            sequence = [
                (part, keys)
                for part, keys in (
                    ("paced", ["sqlite", "postgres", "cluster", "held"]),
                    ("saturated", ["bus1", "bus2"]),
                )
                if part in parts
            ]
            for round_number in range(args.repeat):
                for part, keys in sequence:
                    order = keys if round_number % 2 == 0 else keys[::-1]
                    for key in order:
                        run = run_once(CONFIGS[key], part, args, build, backing, folder)
                        runs.append(run)
                        print(
                            f"round {round_number + 1} {part:<9} {CONFIGS[key].label}: "
                            f"{describe(run)}",
                            flush=True,
                        )
            if runs:
                missed += summarize_runs(runs, args)
            if "failover" in parts:
                print(f"\nfail-over: {args.kills} kills", flush=True)
                missed += summarize_failover(run_failover(args, build, backing, folder), args)
    except BenchError as error:
        print(f"bench_web_cluster: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:
        print(f"bench_web_cluster: stopped ({stop})", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        if backing is not None:
            backing.close()
    print(f"\n{time.monotonic() - began:.0f} s in all; targets missed: {missed or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
