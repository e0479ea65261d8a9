"""Serve the web app: play Draw in the browser (http://127.0.0.1:8000 by default)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
import sys
import typing
from pathlib import Path
from typing import Any

from .settings import Settings

GROUPS = {
    "tables": "how a table waits for its people",
    "limits": "what one client, and everyone together, may use",
    "processes": "many processes on one PostgreSQL database and one Redis bus",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One option per field of ``Settings`` (those meant for the command line)."""
    hints = typing.get_type_hints(Settings)
    groups: dict[str, Any] = {"": parser}
    for name, text in GROUPS.items():
        groups[name] = parser.add_argument_group(name, text)
    for field in Settings.flags():
        meta = field.metadata
        target = groups[meta.get("group", "")]
        flag = meta.get("dest_flag") or "--" + field.name.replace("_", "-")
        kind = hints[field.name]
        default = field.default if field.default is not dataclasses.MISSING else ()
        help_text = meta["help"]
        if default not in (None, "", ()) and "default" not in help_text:
            help_text = f"{help_text} (default: {default})"
        if kind is bool:
            target.add_argument(flag, dest=field.name, action="store_true", help=meta["help"])
        elif typing.get_origin(kind) is tuple:
            target.add_argument(
                flag,
                dest=field.name,
                action="append",
                default=[],
                help=meta["help"],
                metavar=meta.get("metavar"),
            )
        else:
            base = next((t for t in typing.get_args(kind) if t is not type(None)), kind)
            target.add_argument(
                flag,
                dest=field.name,
                type=base,
                default=default,
                help=help_text,
                metavar=meta.get("metavar", "N" if base in (int, float) else None),
            )


def settings_of(args: argparse.Namespace) -> Settings:
    """The one settings object, from the parsed command line."""
    values: dict[str, Any] = {}
    for field in Settings.flags():
        value = getattr(args, field.name)
        values[field.name] = tuple(value) if isinstance(value, list) else value
    return Settings(**values)


def default_db() -> Path:
    """Tables outlive the server: they are kept in the user's state folder."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "draw-dominoes" / "web.sqlite3"


def is_url(where: str) -> bool:
    return "://" in where


def run(args: argparse.Namespace) -> int:
    import sqlite3

    import uvicorn

    from .app import create_app
    from .server import Limits, config
    from .stores.base import StoreError

    settings = settings_of(args)
    db = settings.db or str(default_db())
    if not is_url(db):
        try:
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"draw-dominoes: cannot create the folder of {db}: {error}", file=sys.stderr)
            return 2
    process = settings.process or f"{socket.gethostname()}:{settings.port}"
    settings = dataclasses.replace(settings, db=db, process=process)
    if settings.bus:
        from .runtime.bus import BusError, check_bus

        if not db.startswith(("postgresql://", "postgres://")):
            print(
                "draw-dominoes: --bus needs a PostgreSQL --db: the processes share their"
                " tables through it",
                file=sys.stderr,
            )
            return 2
        try:
            check_bus(settings.bus)
        except BusError as error:
            print(f"draw-dominoes: {error}", file=sys.stderr)
            return 2
    try:  # an unusable database: one line saying what to do, not a traceback
        app = create_app(settings=settings)
    except sqlite3.DatabaseError as error:  # any later read of a damaged file at start
        print(f"draw-dominoes: {StoreError(db, str(error))}", file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"draw-dominoes: {error}", file=sys.stderr)
        return 2
    where = app.state.runtime.store.where
    print(f"draw-dominoes: http://{args.host}:{args.port}/  (database {where})", flush=True)
    limits = Limits(
        max_connections=settings.max_connections,
        max_connections_per_address=settings.max_connections_per_address,
        header_timeout=settings.header_timeout,
        trusted_proxies=settings.trusted_proxies,
    )
    uvicorn.Server(
        config(app, settings.host, settings.port, limits, access_log=False, log_level="warning")
    ).run()
    return 0
