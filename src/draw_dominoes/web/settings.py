"""The server's one settings object: the command line, the app and the runtime all read it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .limits import API_GETS, HINTS

__all__ = ["Settings", "option", "seconds"]


def option(default: Any, help: str, *, flag: bool = True, group: str = "", **more: Any) -> Any:
    """A setting with its command-line help (``flag=False``: not on the command line)."""
    meta = {"help": help, "flag": flag, "group": group, **more}
    if isinstance(default, list | tuple | dict):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


def seconds(default: float, help: str, *, group: str = "") -> Any:
    """A duration in seconds: each such option is shown as ``SECONDS``."""
    return option(default, help, group=group, metavar="SECONDS")


@dataclass(frozen=True)
class Settings:
    """Every option of ``draw-dominoes serve``, each once, with its help text."""

    host: str = option("127.0.0.1", "address to listen on")
    port: int = option(8000, "port to listen on")
    db: str = option(
        "",
        "the SQLite database file or a postgresql:// URL"
        " (default: web.sqlite3 in $XDG_STATE_HOME/draw-dominoes)",
        metavar="PATH|URL",
    )
    bus: str = option(
        "",
        "a redis:// URL: run as one process among many on one PostgreSQL database",
        metavar="URL",
    )
    bot_delay: float = seconds(0.8, "pause before each bot move, so people can follow the game")
    round_pause: float = seconds(
        30.0, "at most this many seconds a round's end is shown (0: not)", group="tables"
    )
    away_seconds: float = seconds(
        60.0, "after this long away on their turn, the bot plays for one", group="tables"
    )
    host_grace: float = seconds(
        10.0, "after this long gone from the lobby, the next person hosts", group="tables"
    )
    rate: float = option(15.0, "messages a second each connection may send", metavar="N")
    burst: float | None = option(
        None, "messages a connection may send at once (default: twice --rate)", metavar="N"
    )
    max_connections: int = option(1000, "open connections in total", group="limits")
    max_connections_per_address: int = option(
        50, "open connections from one client address", group="limits"
    )
    header_timeout: float = option(
        5.0, "seconds a client has to send a request's headers", group="limits"
    )
    max_spectators: int = option(200, "spectators at one table", group="limits")
    create_rate: float = option(
        10.0, "tables one client address may create a minute", group="limits"
    )
    create_burst: float = option(20.0, "tables one client address may create at once", flag=False)
    max_bot_tables: int = option(
        3, "running matches against bots only, per client address", group="limits"
    )
    address_rate: float = option(
        60.0, "messages a second all of one address's sockets may send", group="limits"
    )
    flood_limit: int = option(50, "refusals within flood_seconds that close a socket", flag=False)
    flood_seconds: float = option(10.0, "the window of flood_limit", flag=False)
    lookup_misses: float = option(
        20.0, "unknown table ids an address may ask for before it must wait", flag=False
    )
    api_rate: float = option(
        API_GETS.rate, "GET /api requests a second from one client address", group="limits"
    )
    api_burst: float = option(
        API_GETS.burst, "GET /api requests one client address may send at once", flag=False
    )
    hints_per_minute: float = option(
        60 * HINTS.rate, "hints one client address may ask for a minute", group="limits"
    )
    hint_burst: float = option(
        HINTS.burst, "hints one client address may ask for at once", flag=False
    )
    review_queue: int = option(
        16, "reviews that may wait at once, every client address together", group="limits"
    )
    review_workers: int = option(
        1, "processes in which reviews of finished matches are worked out", metavar="N"
    )
    listed_per_address: int = option(
        2, "public tables of one client address listed on the start page", group="limits"
    )
    idle_seconds: float = option(
        300.0, "unused tables leave memory after this many seconds", group="limits"
    )
    stall_timeout: float = option(
        10.0, "seconds before a socket that accepts nothing is cut", group="limits"
    )
    body_timeout: float = option(5.0, "seconds a request body may take", flag=False)
    bot_workers: int | None = option(
        None,
        "processes in which search bots think (default: the number of cores, at most 4)",
        metavar="N",
    )
    allowed_origins: tuple[str, ...] = option(
        (),
        "another origin (https://example.org) that may use this server; may be repeated",
        dest_flag="--allowed-origin",
        metavar="ORIGIN",
    )
    trusted_proxies: tuple[str, ...] = option(
        (),
        "a reverse proxy's address: its X-Forwarded-For names the client; may be repeated",
        dest_flag="--trusted-proxy",
        metavar="ADDRESS",
    )
    analysis_iterations: int | None = option(
        None,
        "iterations of each hint's and reviewed decision's analysis"
        " (default: the analysis's own, four times a search bot's move)",
        metavar="N",
    )
    retry_delay: float = option(1.0, "the first pause after a failed bot turn", flag=False)
    max_retry_delay: float = option(60.0, "the longest pause between bot turn retries", flag=False)
    presence_delay: float = option(0.1, "comings and goings told at most this often", flag=False)
    process: str = option(
        "",
        "this process's name among many, in leases and on the bus"
        " (default: the machine's name and --port; a restarted process takes its tables back)",
        group="processes",
        metavar="NAME",
    )
    bus_prefix: str = option(
        "draw:", "the prefix of every channel on the bus", group="processes", metavar="TEXT"
    )
    lease_seconds: float = seconds(
        5.0,
        "a table's owner must renew its lease within this time, or another takes it",
        group="processes",
    )
    hold_tables: bool = option(
        False,
        "keep a table at the process that owns it even when all its connections are at"
        " another (by default it moves there, and nothing of it crosses the bus)",
        group="processes",
    )
    bot_wait: float = seconds(
        20.0,
        "play now: seconds a person who agreed to bots waits for people before bots fill the table",
    )
    debug: bool = option(False, "serve the API documentation at /docs")
    allow_seeds: bool = option(
        False, "for tests only: let clients choose a table's seed, so its deal is predictable"
    )

    @property
    def message_burst(self) -> float:
        return 2 * self.rate if self.burst is None else self.burst

    @classmethod
    def flags(cls) -> list[Any]:
        """The fields that are command-line options."""
        return [f for f in fields(cls) if f.metadata.get("flag", False)]
