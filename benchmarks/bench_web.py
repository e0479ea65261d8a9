"""Load benchmark of the web app: N tables at once, each a WebSocket player against a server bot.

Starts ``draw-dominoes serve`` on 127.0.0.1 with a fresh database, opens one WebSocket per
table, and lets a seeded random player play against a server-side bot until every match
is over (or the time limit is reached). Reports actions per second (all actions, the
bots' included) and the latency of the players' actions: from sending the intent to the
server's acknowledgement, which comes after the action is validated, written to SQLite
and pushed to the table.

    python benchmarks/bench_web.py --tables 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def post(url: str, data: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(data).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


async def play_table(
    base: str, number: int, bot: str, seed: int, deadline: float, latencies: list[float]
) -> int:
    """One table: create it, start, play seat 0 at random until the match is over."""
    table = await asyncio.to_thread(
        post,
        f"http://{base}/api/tables",
        {"players": 2, "name": f"P{number}", "bots": {"1": bot}, "seed": seed + number},
    )
    rng = random.Random(seed * 7919 + number)
    uri = f"ws://{base}/ws/{table['table_id']}?token={table['token']}"
    async with connect(uri, max_size=2**22) as socket_:
        await socket_.send(json.dumps({"type": "start", "id": 0}))
        state: dict[str, Any] = {}
        pending: dict[int, float] = {}
        next_id = 1
        while time.monotonic() < deadline:
            message = json.loads(await socket_.recv())
            if message["type"] == "state":
                state = message
            elif message["type"] == "ok" and message["id"] in pending:
                latencies.append(time.perf_counter() - pending.pop(message["id"]))
            elif message["type"] == "error":
                raise RuntimeError(message["message"])
            if state.get("table", {}).get("status") == "over":
                return int(state["seq"])
            view = state.get("view")
            if view and view["legal_actions"] and not pending:
                pending[next_id] = time.perf_counter()
                action = rng.choice(view["legal_actions"])
                await socket_.send(json.dumps({"type": "action", "action": action, "id": next_id}))
                next_id += 1
        return int(state.get("seq", 0))


async def run_load(base: str, tables: int, bot: str, seed: int, limit: float) -> dict[str, Any]:
    latencies: list[float] = []
    start = time.monotonic()
    deadline = start + limit
    counts = await asyncio.gather(
        *(play_table(base, n, bot, seed, deadline, latencies) for n in range(tables))
    )
    elapsed = time.monotonic() - start
    ordered = sorted(latencies)

    def quantile(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "tables": tables,
        "actions": sum(counts),
        "player_actions": len(latencies),
        "seconds": elapsed,
        "actions_per_second": sum(counts) / elapsed,
        "p50_ms": quantile(0.50),
        "p99_ms": quantile(0.99),
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--bot", default="random", help="the server-side bot at each table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=300, help="stop after this many seconds")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        command = [sys.executable, "-m", "draw_dominoes.web", "--port", str(port)]
        command += ["--db", str(db), "--bot-delay", "0", "--rate", "1000"]
        command.append("--allow-seeds")  # reproducible deals: this server serves only the benchmark
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            result = asyncio.run(
                run_load(f"127.0.0.1:{port}", args.tables, args.bot, args.seed, args.limit)
            )
        finally:
            server.terminate()
            server.wait()
    print(
        f"{result['tables']} concurrent tables, {result['actions']} actions "
        f"({result['player_actions']} from WebSocket players) in {result['seconds']:.1f} s: "
        f"{result['actions_per_second']:.0f} actions/s; player action latency "
        f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms "
        f"(mean {result['mean_ms']:.1f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
