"""SQLite storage for tables, seats, match records and reviews; every action is written first."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MatchRow", "SeatRow", "Store", "StoreError", "TableRow", "hash_token"]


class StoreError(Exception):
    """A database file that cannot be used: the user gets one clear line, not a traceback."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(
            f"{path} is not a usable draw-dominoes database ({reason}): restore it from a"
            " backup (draw-dominoes backup) or start with another --db"
        )

    @classmethod
    def unusable(cls, path: str | Path, error: sqlite3.DatabaseError) -> StoreError:
        """SQLite says only "unable to open database file" for a directory: say what it is."""
        return cls(path, "it is a directory" if Path(path).is_dir() else str(error))


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    base_seed INTEGER NOT NULL,
    created REAL NOT NULL,
    public INTEGER NOT NULL DEFAULT 0,
    host INTEGER NOT NULL DEFAULT 0,
    hints INTEGER NOT NULL DEFAULT 0
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
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number, seq),
    FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number)
);
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    review TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (table_id, number),
    FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number)
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
    """A match as stored: its record when it was written, then the actions played since
    (``(seq, action)`` in order; ``seq`` counts from the match's first action)."""

    number: int
    seed: int
    record: str
    actions: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    players: int
    base_seed: int
    created: float
    seats: tuple[SeatRow, ...]
    matches: tuple[MatchRow, ...]
    public: bool = False
    host: int = 0
    hints: bool = False


class Store:
    """One SQLite file in WAL mode; each write commits before the caller acknowledges anything."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.DatabaseError as error:  # a directory, or a file it may not open
            raise StoreError.unusable(path, error) from error
        try:  # a damaged file fails here, at its first read; it is left as it was
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # durable across a killed process
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._add_missing_columns()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError.unusable(path, error) from error

    def _add_missing_columns(self) -> None:
        """A file written before tables could be public, change host or allow hints gets
        the columns (the reviews table is simply created)."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        for column in ("public", "host", "hints"):
            if column not in have:
                self._db.execute(
                    f"ALTER TABLE tables ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"
                )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def journal_mode(self) -> str:
        with self._lock:
            row = self._db.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    def create_table(
        self,
        table_id: str,
        players: int,
        base_seed: int,
        created: float,
        seats: list[SeatRow],
        public: bool = False,
        hints: bool = False,
    ) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, players, base_seed, created, public, hints)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, players, base_seed, created, int(public), int(hints)),
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

    def save_table(self, table_id: str, *, public: bool, host: int) -> None:
        """Whether the table is listed, and who hosts it."""
        with self._lock:
            self._db.execute(
                "UPDATE tables SET public = ?, host = ? WHERE id = ?",
                (int(public), host, table_id),
            )

    def save_hints(self, table_id: str, hints: bool) -> None:
        """Whether the table's players may ask for hints."""
        with self._lock:
            self._db.execute("UPDATE tables SET hints = ? WHERE id = ?", (int(hints), table_id))

    def save_review(self, table_id: str, number: int, review: str, created: float) -> None:
        """The finished review of match ``number`` (JSON text); written once."""
        with self._lock:
            self._db.execute(
                "INSERT INTO reviews (table_id, number, review, created) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, number) DO NOTHING",
                (table_id, number, review, created),
            )

    def load_review(self, table_id: str, number: int) -> str | None:
        """The stored review of match ``number``, or ``None`` if there is none yet."""
        with self._lock:
            row = self._db.execute(
                "SELECT review FROM reviews WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
        return None if row is None else str(row[0])

    def save_match(self, table_id: str, number: int, seed: int, record: str) -> None:
        """Insert or replace the record of match ``number`` (written when a match is dealt)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO matches (table_id, number, seed, record) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, number) DO UPDATE SET record = excluded.record",
                (table_id, number, seed, record),
            )

    def append_action(self, table_id: str, number: int, seq: int, action: str) -> None:
        """The single write per action: one small row, never the whole record again.

        The key includes ``seq``, so a second writer of the same move fails instead of
        silently overwriting it (``sqlite3.IntegrityError``).
        """
        with self._lock:
            self._db.execute(
                "INSERT INTO actions (table_id, number, seq, action) VALUES (?, ?, ?, ?)",
                (table_id, number, seq, action),
            )

    def has_table(self, table_id: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row is not None

    def count_tables(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT count(*) FROM tables").fetchone()
        return int(row[0])

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats, matches and actions; ``None`` if there is none."""
        with self._lock:
            found = self._db.execute(
                "SELECT id, players, base_seed, created, public, host, hints FROM tables"
                " WHERE id = ?",
                (table_id,),
            ).fetchone()
            if found is None:
                return None
            seats = self._db.execute(
                "SELECT seat, kind, name, level, token_hash FROM seats"
                " WHERE table_id = ? ORDER BY seat",
                (table_id,),
            ).fetchall()
            matches = self._db.execute(
                "SELECT number, seed, record FROM matches WHERE table_id = ? ORDER BY number",
                (table_id,),
            ).fetchall()
            actions = self._db.execute(
                "SELECT number, seq, action FROM actions WHERE table_id = ? ORDER BY number, seq",
                (table_id,),
            ).fetchall()
        played: dict[int, list[tuple[int, str]]] = {}
        for number, seq, action in actions:
            played.setdefault(number, []).append((seq, action))
        _, players, base_seed, created, public, host, hints = found
        return TableRow(
            table_id,
            players,
            base_seed,
            created,
            tuple(SeatRow(*seat) for seat in seats),
            tuple(
                MatchRow(number, seed, text, tuple(played.get(number, ())))
                for number, seed, text in matches
            ),
            bool(public),
            host,
            bool(hints),
        )
