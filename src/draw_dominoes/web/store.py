"""SQLite storage for tables, seats and match records: every accepted action is written first."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MatchRow", "SeatRow", "Store", "TableRow", "hash_token"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    base_seed INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS matches (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


def hash_token(token: str) -> str:
    """Seat tokens are kept only as hashes: a copy of the database gives away no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str
    level: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class MatchRow:
    number: int
    seed: int
    record: str


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    players: int
    base_seed: int
    created: float
    seats: tuple[SeatRow, ...]
    matches: tuple[MatchRow, ...]


class Store:
    """One SQLite file in WAL mode; each write commits before the caller acknowledges anything."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # durable across a killed process
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def journal_mode(self) -> str:
        with self._lock:
            row = self._db.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    def create_table(
        self, table_id: str, players: int, base_seed: int, created: float, seats: list[SeatRow]
    ) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, players, base_seed, created) VALUES (?, ?, ?, ?)",
                (table_id, players, base_seed, created),
            )
            self._db.executemany(
                "INSERT INTO seats (table_id, seat, kind, name, level, token_hash)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.kind, s.name, s.level, s.token_hash) for s in seats],
            )

    def save_seat(self, table_id: str, seat: SeatRow) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE seats SET kind = ?, name = ?, level = ?, token_hash = ?"
                " WHERE table_id = ? AND seat = ?",
                (seat.kind, seat.name, seat.level, seat.token_hash, table_id, seat.seat),
            )

    def save_match(self, table_id: str, number: int, seed: int, record: str) -> None:
        """Insert or replace the record of match ``number``: the single write per action."""
        with self._lock:
            self._db.execute(
                "INSERT INTO matches (table_id, number, seed, record) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, number) DO UPDATE SET record = excluded.record",
                (table_id, number, seed, record),
            )

    def load_all(self) -> list[TableRow]:
        with self._lock:
            tables = self._db.execute(
                "SELECT id, players, base_seed, created FROM tables ORDER BY created"
            ).fetchall()
            seats = self._db.execute(
                "SELECT table_id, seat, kind, name, level, token_hash FROM seats ORDER BY seat"
            ).fetchall()
            matches = self._db.execute(
                "SELECT table_id, number, seed, record FROM matches ORDER BY number"
            ).fetchall()
        by_table_seats: dict[str, list[SeatRow]] = {}
        for table_id, seat, kind, name, level, token_hash in seats:
            by_table_seats.setdefault(table_id, []).append(
                SeatRow(seat, kind, name, level, token_hash)
            )
        by_table_matches: dict[str, list[MatchRow]] = {}
        for table_id, number, seed, text in matches:
            by_table_matches.setdefault(table_id, []).append(MatchRow(number, seed, text))
        return [
            TableRow(
                table_id,
                players,
                base_seed,
                created,
                tuple(by_table_seats.get(table_id, ())),
                tuple(by_table_matches.get(table_id, ())),
            )
            for table_id, players, base_seed, created in tables
        ]
