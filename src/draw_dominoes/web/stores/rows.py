"""Rows of the store built from query results, the same way for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import LobbyRow, MatchRow, SeatRow, TableRow

__all__ = [
    "LOBBY_QUERY",
    "TABLE_QUERIES",
    "lobby_rows",
    "match_rows",
    "new_table",
    "stale",
    "table_row",
]

_TABLE_INSERT = (
    "INSERT INTO tables (id, players, base_seed, created, public, host, hints, state, version,"
    " address) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, 0, {p})"
)
_SEATS_INSERT = (
    "INSERT INTO seats (table_id, seat, kind, name, level, token_hash)"
    " VALUES ({p}, {p}, {p}, {p}, {p}, {p})"
)


def new_table(
    row: TableRow, p: str, flag: Callable[[bool], Any]
) -> tuple[str, tuple[Any, ...], str, list[tuple[Any, ...]]]:
    """A new table's two writes, each with its parameters (the seats' for each seat), in
    a store's dialect: ``p`` its placeholder, ``flag`` how it keeps a boolean."""
    public, hints = flag(row.public), flag(row.hints)
    table = (row.id, row.players, row.base_seed, row.created, public, row.host, hints, row.state)
    seats = [(row.id, s.seat, s.kind, s.name, s.level, s.token_hash) for s in row.seats]
    return _TABLE_INSERT.format(p=p), (*table, row.address), _SEATS_INSERT.format(p=p), seats


def match_rows(
    matches: Sequence[tuple[int, int, str]], actions: Sequence[tuple[int, int, str]]
) -> tuple[MatchRow, ...]:
    """Each match's record with the actions stored for it, in order (``actions`` is
    ordered by match and position)."""
    played: dict[int, list[tuple[int, str]]] = {}
    for number, seq, action in actions:
        played.setdefault(number, []).append((seq, action))
    return tuple(
        MatchRow(number, seed, record, tuple(played.get(number, ())))
        for number, seed, record in matches
    )


TABLE_QUERIES = (
    "SELECT players, base_seed, created, public, host, hints, state, version, address"
    " FROM tables WHERE id = {p}",
    "SELECT seat, kind, name, level, token_hash FROM seats WHERE table_id = {p} ORDER BY seat",
    "SELECT number, seed, record FROM matches WHERE table_id = {p} ORDER BY number",
    "SELECT number, seq, action FROM actions WHERE table_id = {p} ORDER BY number, seq",
)
"""The four reads of one table (``{p}``: each store's placeholder), in one snapshot."""


def table_row(
    table_id: str,
    found: Sequence[Any],
    seats: Sequence[Sequence[Any]],
    matches: Sequence[tuple[int, int, str]],
    actions: Sequence[tuple[int, int, str]],
) -> TableRow:
    """The ``TableRow`` of the four reads of ``TABLE_QUERIES``."""
    players, base_seed, created, public, host, hints, state, version, address = found
    return TableRow(
        table_id,
        players,
        base_seed,
        created,
        tuple(SeatRow(*seat) for seat in seats),
        match_rows(matches, actions),
        public=bool(public),
        host=host,
        hints=bool(hints),
        state=state,
        version=version,
        address=address,
    )


LOBBY_QUERY = (
    "SELECT id, players, created, host, address FROM ("
    " SELECT id, players, created, host, address, row_number() OVER ("
    "  PARTITION BY coalesce(address, id) ORDER BY created DESC, id DESC) AS nth"
    " FROM tables WHERE {listed}) AS listed_tables"
    " WHERE nth <= {per_address} ORDER BY created DESC, id DESC LIMIT {limit}"
)
"""The listed tables, at most ``per_address`` of each creator's address, newest first
(``{listed}``, ``{per_address}`` and ``{limit}`` in each store's own dialect)."""


def lobby_rows(
    tables: Sequence[tuple[str, int, float, int, str | None]],
    seats: Sequence[tuple[str, int, str, str, str | None, str | None]],
) -> list[LobbyRow]:
    """Lobby rows of the listed ``tables`` (id, players, created, host, address; in
    order), with their ``seats`` (table id first, ordered by seat)."""
    by_table: dict[str, list[SeatRow]] = {}
    for table_id, seat, kind, name, level, token_hash in seats:
        by_table.setdefault(table_id, []).append(SeatRow(seat, kind, name, level, token_hash))
    return [
        LobbyRow(table_id, players, created, tuple(by_table.get(table_id, ())), host, address)
        for table_id, players, created, host, address in tables
    ]


def stale(table_id: str, version: int, owner: str | None) -> str:
    """Why a compare-and-set refused a commit."""
    lease = "" if owner is None else f", or {owner} does not hold its lease"
    return f"table {table_id} is not at version {version}{lease}"
