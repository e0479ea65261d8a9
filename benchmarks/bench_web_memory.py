"""Memory and start-up of the web server with many stored tables.

Fills a database through the server's own store (each table a two-player match against
a bot with a few actions played), then starts ``draw-dominoes serve`` on it and reports:
the start-up time (until ``/healthz`` answers) and the server's resident memory (RSS) after
it has loaded ``--active`` of the tables (each asked for once, as a visitor would).

    python benchmarks/bench_web_memory.py --stored 10000 --active 1000
    python benchmarks/bench_web_memory.py --stored 100000 --active 0
"""

from __future__ import annotations

import argparse
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from draw_dominoes import Match, record
from draw_dominoes.web.stores.base import SaveAction, SaveMatch, SeatRow, TableRow
from draw_dominoes.web.stores.sqlite import SqliteStore


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fill(db: Path, tables: int, seed: int) -> list[str]:
    """``tables`` stored tables, each with a dealt match and up to 12 actions played."""
    store = SqliteStore(db)
    rng = random.Random(seed)
    ids = []
    for number in range(tables):
        table_id = f"bench{number:07d}"
        seats = [SeatRow(0, "human", f"P{number}", None, None)]
        seats.append(SeatRow(1, "bot", "Bot 2 (random)", "random", None))
        store.create_table(TableRow(table_id, 2, number, time.time(), tuple(seats), ()))
        match = Match.new(2, seed=number)
        writes: list[SaveAction | SaveMatch] = [SaveMatch(0, number, record.dumps(match))]
        for seq in range(rng.randint(0, 12)):
            action = rng.choice(match.legal_actions())
            writes.append(SaveAction(0, seq, str(action)))
            match.apply(action)
        store.commit(table_id, 0, writes)
        ids.append(table_id)
    store.close()
    return ids


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as response:
        status: int = response.status
        return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stored", type=int, default=10000)
    parser.add_argument("--active", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "memory.sqlite3"
        began = time.perf_counter()
        ids = fill(db, args.stored, args.seed)
        filled = time.perf_counter() - began
        size = db.stat().st_size + sum(p.stat().st_size for p in db.parent.glob("*-wal"))
        port = free_port()
        command = [sys.executable, "-m", "draw_dominoes.web", "--port", str(port), "--db", str(db)]
        command += ["--max-connections-per-address", "100000", "--idle-seconds", "3600"]
        started = time.perf_counter()
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            for _ in range(6000):
                try:
                    get(f"http://127.0.0.1:{port}/healthz")
                    break
                except OSError:
                    time.sleep(0.01)
            startup = time.perf_counter() - started
            idle_rss = rss_kib(server.pid)
            for table_id in random.Random(args.seed).sample(ids, args.active):
                assert get(f"http://127.0.0.1:{port}/api/tables/{table_id}") == 200
            active_rss = rss_kib(server.pid)
        finally:
            server.terminate()
            server.wait()
    print(
        f"{args.stored} stored tables ({size / 2**20:.1f} MiB, filled in {filled:.1f} s): "
        f"server up in {startup:.2f} s, RSS {idle_rss / 1024:.1f} MiB; "
        f"with {args.active} tables in memory RSS {active_rss / 1024:.1f} MiB "
        f"({(active_rss - idle_rss) / max(1, args.active):.1f} KiB a table)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
