"""Serve the web app: play Draw in the browser (http://127.0.0.1:8000 by default)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite database file (default: web.sqlite3 in $XDG_STATE_HOME/draw-dominoes)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move, so people can follow the game",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=15.0,
        metavar="N",
        help="messages a second each connection may send",
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=None,
        metavar="N",
        help="messages a connection may send at once (default: twice --rate)",
    )
    parser.add_argument(
        "--allow-seeds",
        action="store_true",
        help="for tests only: let clients choose a table's seed, so its deal is predictable",
    )


def default_db() -> Path:
    """Tables outlive the server: they are kept in the user's state folder."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "draw-dominoes" / "web.sqlite3"


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app

    db = Path(args.db) if args.db else default_db()
    db.parent.mkdir(parents=True, exist_ok=True)
    burst = 2 * args.rate if args.burst is None else args.burst
    app = create_app(
        db,
        bot_delay=args.bot_delay,
        rate=args.rate,
        burst=burst,
        allow_seeds=args.allow_seeds,
    )
    print(f"draw-dominoes: http://{args.host}:{args.port}/  (database {db})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # compressing every state costs more than it saves
        access_log=False,
        log_level="warning",
    )
    return 0
