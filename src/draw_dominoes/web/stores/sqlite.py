"""The table store in one SQLite file: the default, it needs nothing installed or running.

The file is in WAL mode (readers never wait for the writer) with ``synchronous=NORMAL``
(durable across a killed process); every write is one transaction, begun ``IMMEDIATE``
so that two processes on one file queue up instead of failing half-way. A lease's clock
is this machine's (``time.time()``): the processes sharing a file share a machine.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from . import accounts_sql, ratings_sql, seeking_sql
from .base import (
    DropActions,
    LobbyRow,
    SaveAction,
    SaveMatch,
    SaveSeat,
    SaveTable,
    StaleWrite,
    StoreError,
    StoreUnavailable,
    TableRow,
    Write,
)
from .rows import LOBBY_QUERY, TABLE_QUERIES, lobby_rows, new_table, stale, table_row
from .tables_sql import SQLITE_MIGRATIONS

__all__ = ["MIGRATIONS", "SqliteStore", "unusable"]

T = TypeVar("T")

ADVICE = "restore it from a backup (draw-dominoes backup) or start with another --db"

# Migration 1 is the schema web/store.py wrote (IF NOT EXISTS: a file of that store
# already has these tables, perhaps without the columns added later, see _old_columns).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    *SQLITE_MIGRATIONS,
    accounts_sql.SQLITE_MIGRATION,
    ratings_sql.SQLITE_MIGRATION,
    seeking_sql.SQLITE_MIGRATION,
)
"""Migration ``n`` (from 1) is ``MIGRATIONS[n - 1]``; each runs in one transaction."""

_OLD_COLUMNS = ("public", "host", "hints")
"""Columns web/store.py added to ``tables`` after its first files were written."""


def unusable(path: str | Path, error: sqlite3.DatabaseError) -> StoreError:
    """SQLite says only "unable to open database file" for a directory: say what it is,
    and what to do."""
    reason = "it is a directory" if Path(path).is_dir() else str(error)
    return StoreError(str(path), f"{reason}; {ADVICE}")


class SqliteStore(
    accounts_sql.AccountStatements, ratings_sql.RatingStatements, seeking_sql.SeekStatements
):
    """One SQLite file; one connection, used by one thread at a time (a lock)."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.where = str(path)
        self.remote = False
        self._clock = clock
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(
                self.where, check_same_thread=False, isolation_level=None, timeout=5.0
            )
        except sqlite3.DatabaseError as error:  # a directory, or a file it may not open
            raise unusable(path, error) from error
        try:  # a damaged file fails here, at its first read; it is left as it was
            self._write_ahead()
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            while self._migrate_once():
                pass
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise unusable(path, error) from error
        except StoreError:
            self._db.close()
            raise

    def _write_ahead(self) -> None:
        """WAL mode. Changing the journal mode does not wait for a lock as other
        statements do: a process opening the file while another sets it up tries again."""
        for attempt in range(50):
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == 49:
                    raise
                time.sleep(0.1)

    # ------------------------------------------------------------ migrations

    def _migrate_once(self) -> bool:
        """Apply the next migration, in its own transaction; False once there is none.

        ``BEGIN IMMEDIATE`` makes a second process opening the file wait, then see the
        version the first one recorded.
        """
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()
            if version > len(MIGRATIONS):
                raise StoreError(
                    self.where,
                    f"it has schema version {version}, this draw-dominoes knows up to"
                    f" {len(MIGRATIONS)}: upgrade draw-dominoes",
                )
            if version == len(MIGRATIONS):
                db.execute("COMMIT")
                return False
            if version == 0:
                db.execute(
                    "CREATE TABLE IF NOT EXISTS schema_versions"
                    " (version INTEGER PRIMARY KEY, applied REAL NOT NULL)"
                )
            for statement in MIGRATIONS[version]:
                db.execute(statement)
            if version == 0:
                self._old_columns()
            db.execute(
                "INSERT INTO schema_versions (version, applied) VALUES (?, ?)",
                (version + 1, time.time()),
            )
            db.execute("COMMIT")
            return True
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _version(self) -> int:
        """The file's schema version: 0 for an empty file or one of web/store.py (which
        kept none); refused if it holds another program's tables."""
        names = {
            row[0]
            for row in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
                " AND name NOT LIKE 'sqlite_%'"
            )
        }
        if "schema_versions" in names:
            row = self._db.execute("SELECT max(version) FROM schema_versions").fetchone()
            return int(row[0] or 0)
        if names and not self._is_old_store(names):
            shown = ", ".join(sorted(names)[:5])
            raise StoreError(
                self.where,
                f"it holds tables of another application ({shown}); give a new file",
            )
        return 0

    def _is_old_store(self, names: set[str]) -> bool:
        """A file of web/store.py: its ``tables`` table, with the columns it always had."""
        if "tables" not in names:
            return False
        have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        return {"id", "players", "base_seed", "created"} <= have

    def _old_columns(self) -> None:
        """A file written before tables could be public, change host or allow hints gets
        those columns (the reviews table was simply created)."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        for column in _OLD_COLUMNS:
            if column not in have:
                self._db.execute(
                    f"ALTER TABLE tables ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"
                )

    def schema_version(self) -> int:
        """The schema version the file is at (for tests and checks)."""
        with self._transaction(write=False) as db:
            row = db.execute("SELECT max(version) FROM schema_versions").fetchone()
        return int(row[0])

    def journal_mode(self) -> str:
        with self._transaction(write=False) as db:
            row = db.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    # ------------------------------------------------------------ transactions

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[sqlite3.Connection]:
        """One transaction, committed if the body returns, else rolled back.

        A read is a transaction too, so that it sees one snapshot even while another
        process writes. Errors of the database become the store's: a unique key's
        ``StaleWrite``, a busy or failing file's ``StoreUnavailable``; another broken
        constraint is the caller's mistake (``ValueError``).
        """
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield db
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except sqlite3.IntegrityError as error:
                if error.sqlite_errorname in (
                    "SQLITE_CONSTRAINT_PRIMARYKEY",
                    "SQLITE_CONSTRAINT_UNIQUE",
                ):
                    raise StaleWrite(f"{self.where}: {error}") from error
                raise ValueError(f"{self.where}: inconsistent writes: {error}") from error
            except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
                raise  # a closed store, a wrong query: the caller's mistake
            except sqlite3.DatabaseError as error:  # busy, disk full, I/O error, damage
                raise StoreUnavailable(f"{self.where}: {error}") from error

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _in_transaction(self, work: Callable[[accounts_sql.Database], T], *, write: bool) -> T:
        with self._transaction(write=write) as db:
            return work(db)

    def _row(self, query: str, params: Sequence[Any] = ()) -> Any:
        """The first row one read finds (``None``: none)."""
        with self._transaction(write=False) as db:
            return db.execute(query, params).fetchone()

    def _changed(self, query: str, params: Sequence[Any]) -> int:
        """How many rows one write changed."""
        with self._transaction(write=True) as db:
            return db.execute(query, params).rowcount

    # ------------------------------------------------------------ tables

    def create_table(self, row: TableRow) -> None:
        table_sql, table, seats_sql, seats = new_table(row, "?", int)
        with self._transaction(write=True) as db:
            db.execute(table_sql, table)
            db.executemany(seats_sql, seats)

    def commit(
        self, table_id: str, version: int, writes: Sequence[Write], owner: str | None = None
    ) -> None:
        with self._transaction(write=True) as db:
            if owner is None:
                moved = db.execute(
                    "UPDATE tables SET version = version + 1 WHERE id = ? AND version = ?",
                    (table_id, version),
                )
            else:
                moved = db.execute(
                    "UPDATE tables SET version = version + 1 WHERE id = ? AND version = ?"
                    " AND lease_owner = ? AND lease_until > ?",
                    (table_id, version, owner, self._clock()),
                )
            if moved.rowcount != 1:
                raise StaleWrite(stale(table_id, version, owner))
            for write in writes:
                db.execute(*_statement(table_id, write))

    def load_table(self, table_id: str) -> TableRow | None:
        with self._transaction(write=False) as db:  # one snapshot for the four reads
            found, seats, matches, actions = (
                db.execute(query.format(p="?"), (table_id,)).fetchall() for query in TABLE_QUERIES
            )
        return table_row(table_id, found[0], seats, matches, actions) if found else None

    def has_table(self, table_id: str) -> bool:
        return self._row("SELECT 1 FROM tables WHERE id = ?", (table_id,)) is not None

    def count_tables(self) -> int:
        return int(self._row("SELECT count(*) FROM tables")[0])

    def lobby(self, limit: int = 50, per_address: int | None = None) -> list[LobbyRow]:
        query = LOBBY_QUERY.format(listed="listed = 1", per_address="?", limit="?")
        with self._transaction(write=False) as db:
            tables = db.execute(query, (per_address or limit, limit)).fetchall()
            ids = [row[0] for row in tables]
            seats = db.execute(
                "SELECT table_id, seat, kind, name, level, token_hash FROM seats"
                f" WHERE table_id IN ({', '.join('?' * len(ids))}) ORDER BY table_id, seat",
                ids,
            ).fetchall()
        return lobby_rows(tables, seats)

    def solo_running(self, address: str) -> int:
        query = "SELECT count(*) FROM tables WHERE solo_address = ? AND status = 'playing'"
        return int(self._row(query, (address,))[0])

    # ------------------------------------------------------------ reviews

    def save_review(self, table_id: str, number: int, review: str, created: float) -> None:
        self._changed(
            "INSERT INTO reviews (table_id, number, review, created) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, number) DO NOTHING",
            (table_id, number, review, created),
        )

    def load_review(self, table_id: str, number: int) -> str | None:
        query = "SELECT review FROM reviews WHERE table_id = ? AND number = ?"
        row = self._row(query, (table_id, number))
        return None if row is None else str(row[0])

    # ------------------------------------------------------------ leases

    def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        now = self._clock()
        taken = self._changed(
            "UPDATE tables SET lease_owner = ?, lease_until = ? WHERE id = ?"
            " AND (lease_owner IS NULL OR lease_owner = ? OR lease_until <= ?)",
            (owner, now + seconds, table_id, owner, now),
        )
        return taken == 1

    def renew_leases(self, owner: str, seconds: float) -> set[str]:
        now = self._clock()
        with self._transaction(write=True) as db:
            rows = db.execute(
                "UPDATE tables SET lease_until = ? WHERE lease_owner = ? AND lease_until > ?"
                " RETURNING id",
                (now + seconds, owner, now),
            ).fetchall()
        return {row[0] for row in rows}

    def hand_lease(self, table_id: str, owner: str, to: str, seconds: float) -> bool:
        now = self._clock()
        given = self._changed(
            "UPDATE tables SET lease_owner = ?, lease_until = ? WHERE id = ?"
            " AND lease_owner = ? AND lease_until > ?",
            (to, now + seconds, table_id, owner, now),
        )
        return given == 1

    def drop_lease(self, table_id: str, owner: str) -> None:
        self._changed(
            "UPDATE tables SET lease_owner = NULL, lease_until = NULL"
            " WHERE id = ? AND lease_owner = ?",
            (table_id, owner),
        )

    def lease_owner(self, table_id: str) -> str | None:
        query = "SELECT lease_owner FROM tables WHERE id = ? AND lease_until > ?"
        row = self._row(query, (table_id, self._clock()))
        return None if row is None else str(row[0])


def _statement(table_id: str, write: Write) -> tuple[str, tuple[Any, ...]]:
    """The SQL of one write of a commit."""
    match write:
        case DropActions(number, seq):
            return (
                "DELETE FROM actions WHERE table_id = ? AND number = ? AND seq >= ?",
                (table_id, number, seq),
            )
        case SaveAction(number, seq, action):
            return (
                "INSERT INTO actions (table_id, number, seq, action) VALUES (?, ?, ?, ?)",
                (table_id, number, seq, action),
            )
        case SaveSeat(seat):
            return (
                "UPDATE seats SET kind = ?, name = ?, level = ?, token_hash = ?"
                " WHERE table_id = ? AND seat = ?",
                (seat.kind, seat.name, seat.level, seat.token_hash, table_id, seat.seat),
            )
        case SaveMatch(number, seed, record):
            return (
                "INSERT INTO matches (table_id, number, seed, record) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, number) DO UPDATE SET record = excluded.record",
                (table_id, number, seed, record),
            )
        case SaveTable():
            return (
                "UPDATE tables SET public = ?, host = ?, hints = ?, listed = ?, status = ?,"
                " state = ?, solo_address = ? WHERE id = ?",
                (
                    int(write.public),
                    write.host,
                    int(write.hints),
                    int(write.listed),
                    write.status,
                    write.state,
                    write.solo_address,
                    table_id,
                ),
            )
    raise TypeError(f"not a write: {write!r}")
