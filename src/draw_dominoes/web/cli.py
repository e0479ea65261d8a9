"""Serve the web app: play Draw in the browser (http://127.0.0.1:8000 by default)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default: %(default)s)"
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite database file (default: web.sqlite3 in $XDG_STATE_HOME/draw-dominoes)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="pause before each bot move, so people can follow the game (default: %(default)s)",
    )
    table = parser.add_argument_group("tables", "how a table waits for its people")
    table_options: list[tuple[str, float, str]] = [
        ("--round-pause", 30.0, "at most this many seconds a round's end is shown (0: not)"),
        ("--away-seconds", 60.0, "after this long away on their turn, the bot plays for one"),
        ("--host-grace", 10.0, "after this long gone from the lobby, the next person hosts"),
    ]
    for flag, seconds, text in table_options:
        table.add_argument(
            flag, type=float, default=seconds, metavar="SECONDS", help=f"{text} (default {seconds})"
        )
    parser.add_argument(
        "--rate",
        type=float,
        default=15.0,
        metavar="N",
        help="messages a second each connection may send (default: %(default)s)",
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=None,
        metavar="N",
        help="messages a connection may send at once (default: twice --rate)",
    )
    limits = parser.add_argument_group("limits", "what one client, and everyone together, may use")
    limit_options: list[tuple[str, type, object, str]] = [
        ("--max-connections", int, 1000, "open connections in total"),
        ("--max-connections-per-address", int, 50, "open connections from one client address"),
        ("--header-timeout", float, 5.0, "seconds a client has to send a request's headers"),
        ("--max-spectators", int, 200, "spectators at one table"),
        ("--create-rate", float, 10.0, "tables one client address may create a minute"),
        ("--max-bot-tables", int, 3, "running matches against bots only, per client address"),
        ("--address-rate", float, 60.0, "messages a second all of one address's sockets may send"),
        ("--idle-seconds", float, 300.0, "unused tables leave memory after this many seconds"),
        ("--stall-timeout", float, 10.0, "seconds before a socket that accepts nothing is cut"),
    ]
    for flag, kind, default, text in limit_options:
        limits.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes in which search bots think (default: the number of cores, at most 4)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin (https://example.org) that may use this server; may be repeated",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address: its X-Forwarded-For names the client; may be repeated",
    )
    parser.add_argument(
        "--analysis-iterations",
        type=int,
        default=None,
        metavar="N",
        help="iterations of each hint's and reviewed decision's analysis"
        " (default: the analysis's own, four times a search bot's move)",
    )
    parser.add_argument("--debug", action="store_true", help="serve the API documentation at /docs")
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
    import sqlite3
    import sys

    import uvicorn

    from .app import Settings, create_app
    from .server import Limits, config
    from .store import StoreError

    db = Path(args.db) if args.db else default_db()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"draw-dominoes: cannot create the folder of {db}: {error}", file=sys.stderr)
        return 2
    burst = 2 * args.rate if args.burst is None else args.burst
    try:  # a damaged or unusable file: one line saying what to do, not a traceback
        app = create_app(
            db,
            Settings(
                bot_delay=args.bot_delay,
                round_pause=args.round_pause,
                away_seconds=args.away_seconds,
                host_grace=args.host_grace,
                rate=args.rate,
                burst=burst,
                address_rate=args.address_rate,
                create_rate=args.create_rate,
                max_spectators=args.max_spectators,
                max_bot_tables=args.max_bot_tables,
                idle_seconds=args.idle_seconds,
                stall_timeout=args.stall_timeout,
                bot_workers=args.bot_workers,
                allowed_origins=tuple(args.allowed_origin),
                analysis_iterations=args.analysis_iterations,
                allow_seeds=args.allow_seeds,
                debug=args.debug,
            ),
        )
    except sqlite3.DatabaseError as error:  # any later read of a damaged file at start
        print(f"draw-dominoes: {StoreError.unusable(db, error)}", file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"draw-dominoes: {error}", file=sys.stderr)
        return 2
    print(f"draw-dominoes: http://{args.host}:{args.port}/  (database {db})", flush=True)
    limits = Limits(
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
        header_timeout=args.header_timeout,
        trusted_proxies=tuple(args.trusted_proxy),
    )
    uvicorn.Server(
        config(app, args.host, args.port, limits, access_log=False, log_level="warning")
    ).run()
    return 0
