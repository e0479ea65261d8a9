"""The table store in PostgreSQL: one database that several server processes share.

Nothing here may hang a caller: connecting gives up after ``connect_timeout`` (3 s), a
statement after ``statement_timeout`` (5 s, enforced by the server), and TCP keepalives
and ``tcp_user_timeout`` notice a server that vanished without closing the connection.

When the server goes away, a call fails with ``StoreUnavailable`` and its transaction is
rolled back (nothing half-written); the connection is dropped, and the next call connects
anew. A connection found dead when a call begins (an idle connection the server closed:
a restart, an administrator) is replaced at once and the call goes on, since nothing of it
had reached the database. Leases are timed by the database's clock (``clock_timestamp()``),
the one clock all processes share.
"""

from __future__ import annotations

import select
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict

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
from .postgres_schema import MARKER, MIGRATIONS, SCHEMA_VERSIONS
from .rows import LOBBY_QUERY, TABLE_QUERIES, lobby_rows, new_table, stale, table_row
from .urls import redact

__all__ = ["MIGRATIONS", "Connection", "PostgresStore", "connect", "one_line"]

Connection = psycopg.Connection[tuple[Any, ...]]
T = TypeVar("T")

_MIGRATION_LOCK = 0x64726177  # an advisory lock: one process migrates, the others wait

_LEASE_HELD = "lease_owner = %s AND lease_until > clock_timestamp()"


def one_line(error: BaseException) -> str:
    """libpq's messages run over several lines ("... failed: Connection refused\\n\\tIs
    the server running ..."); the user gets one."""
    return " ".join(line.strip() for line in str(error).splitlines() if line.strip())


def connect(
    url: str, *, connect_timeout: int = 3, statement_timeout: float | None = 5.0
) -> Connection:
    """An autocommit connection (transactions are explicit) that cannot hang its caller.

    ``statement_timeout`` ``None`` lets statements run as long as they need (a copy of a
    whole database). Raises ``psycopg.Error`` if the server cannot be reached.
    """
    given = conninfo_to_dict(url)
    options = [str(given.get("options") or "")]
    if statement_timeout is not None:
        ms = max(1, round(statement_timeout * 1000))
        options += [
            f"-c statement_timeout={ms}",
            # A process that stops in the middle of a transaction must not hold its
            # tables' rows locked for ever.
            f"-c idle_in_transaction_session_timeout={4 * ms}",
        ]
    return psycopg.connect(
        url,
        autocommit=True,
        connect_timeout=connect_timeout,
        options=" ".join(o for o in options if o),
        application_name=str(given.get("application_name") or "draw-dominoes"),
        keepalives=1,
        keepalives_idle=4,
        keepalives_interval=1,
        keepalives_count=3,
        tcp_user_timeout=7000,
    )


class PostgresStore(
    accounts_sql.AccountStatements, ratings_sql.RatingStatements, seeking_sql.SeekStatements
):
    """One connection (used by one thread at a time), replaced when it breaks."""

    def __init__(
        self, url: str, *, connect_timeout: int = 3, statement_timeout: float = 5.0
    ) -> None:
        self.where = redact(url)
        self.remote = True
        self._url = url
        self._connect_timeout = connect_timeout
        self._statement_timeout = statement_timeout
        self._lock = threading.Lock()
        self._closed = False
        try:
            self._conn: Connection | None = self._connect()
        except psycopg.Error as error:
            raise StoreError(self.where, f"cannot connect: {one_line(error)}") from error
        try:
            while self._migrate_once(self._conn):
                pass
        except psycopg.Error as error:
            self.close()
            raise StoreError(self.where, one_line(error)) from error
        except StoreError:
            self.close()
            raise

    def _connect(self) -> Connection:
        return connect(
            self._url,
            connect_timeout=self._connect_timeout,
            statement_timeout=self._statement_timeout,
        )

    # ------------------------------------------------------------ migrations

    def _migrate_once(self, conn: Connection) -> bool:
        """Apply the next migration, in its own transaction; False once there is none.

        Under an advisory lock, so that of several processes starting on an empty
        database one creates the tables and the others then find them.
        """
        with conn.transaction():
            # Building an index of a large database may take longer than a request may.
            conn.execute("SET LOCAL statement_timeout = '5min'")
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            version = self._version(conn)
            if version > len(MIGRATIONS):
                raise StoreError(
                    self.where,
                    f"it has schema version {version}, this draw-dominoes knows up to"
                    f" {len(MIGRATIONS)}: upgrade draw-dominoes",
                )
            if version == len(MIGRATIONS):
                return False
            for statement in (SCHEMA_VERSIONS if version == 0 else ()) + MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_versions (version) VALUES (%s)", (version + 1,))
        return True

    def _version(self, conn: Connection) -> int:
        """The database's schema version (0: empty); refused if it holds another
        application's tables."""
        found = conn.execute(
            "SELECT c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
        ).fetchall()
        comments: dict[str, str | None] = dict(found)
        if comments.get("schema_versions") == MARKER:
            row = conn.execute("SELECT max(version) FROM schema_versions").fetchone()
            return int(row[0] or 0) if row is not None else 0
        if comments:
            shown = ", ".join(sorted(comments)[:5])
            raise StoreError(
                self.where,
                f"it holds tables of another application ({shown}); give an empty database",
            )
        return 0

    def schema_version(self) -> int:
        """The schema version the database is at (for tests and checks)."""
        row = self._run(lambda c: c.execute("SELECT max(version) FROM schema_versions").fetchone())
        return int(row[0]) if row is not None else 0

    # ------------------------------------------------------------ transactions

    def _run(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one transaction: committed if it returns, else rolled back.

        Errors of the database become the store's: a unique key's ``StaleWrite``, a
        lost connection's or a timeout's ``StoreUnavailable``; another broken constraint
        is the caller's mistake (``ValueError``).
        """
        with self._lock:
            for _ in range(2):
                conn, fresh = self._connection()
                began = False
                try:
                    with conn.transaction():
                        began = True
                        return work(conn)
                except errors.UniqueViolation as error:
                    raise StaleWrite(f"{self.where}: {one_line(error)}") from error
                except errors.IntegrityError as error:
                    raise ValueError(
                        f"{self.where}: inconsistent writes: {one_line(error)}"
                    ) from error
                except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                    if not conn.closed:  # a timeout: the connection itself is sound
                        raise StoreUnavailable(f"{self.where}: {one_line(error)}") from error
                    self._conn = None
                    if began or fresh:
                        raise StoreUnavailable(f"{self.where}: {one_line(error)}") from error
                    # Dead before the call began: nothing of it was sent; go on anew.
            raise AssertionError("unreachable")  # pragma: no cover

    def _run_statement(self, query: str, params: Sequence[Any]) -> int:
        """One statement in its own transaction (autocommit), in one round trip; the
        first column of its one row. A statement is never sent twice: a connection lost
        while it ran may have committed it, and only a compare-and-set can tell."""
        with self._lock:
            conn, _ = self._connection()
            try:
                row = conn.execute(query, params).fetchone()
            except errors.UniqueViolation as error:
                raise StaleWrite(f"{self.where}: {one_line(error)}") from error
            except errors.IntegrityError as error:
                raise ValueError(f"{self.where}: inconsistent writes: {one_line(error)}") from error
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                if conn.closed:
                    self._conn = None
                raise StoreUnavailable(f"{self.where}: {one_line(error)}") from error
            return int(row[0]) if row is not None else 0

    def _connection(self) -> tuple[Connection, bool]:
        """The connection, and whether it was made just now (a server that cannot be
        reached is ``StoreUnavailable``)."""
        if self._closed:
            raise RuntimeError(f"{self.where}: the store is closed")
        if self._conn is not None and not self._conn.closed and not _has_spoken(self._conn):
            return self._conn, False
        if self._conn is not None:  # closed by the server while idle (it said why)
            self._conn.close()
        try:
            self._conn = self._connect()
        except psycopg.Error as error:
            raise StoreUnavailable(f"{self.where}: cannot connect: {one_line(error)}") from error
        return self._conn, True

    _placeholder = "%s"

    def _in_transaction(self, work: Callable[[accounts_sql.Database], T], *, write: bool) -> T:
        return self._run(work)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # ------------------------------------------------------------ tables

    def create_table(self, row: TableRow) -> None:
        table_sql, table, seats_sql, seats = new_table(row, "%s", bool)

        def work(conn: Connection) -> None:
            conn.execute(table_sql, table)
            with conn.cursor() as cursor:
                cursor.executemany(seats_sql, seats)

        self._run(work)

    def commit(
        self, table_id: str, version: int, writes: Sequence[Write], owner: str | None = None
    ) -> None:
        # One statement: one round trip, atomic by itself (see _commit_statement).
        moved = self._run_statement(*_commit_statement(table_id, version, writes, owner))
        if moved != 1:
            raise StaleWrite(stale(table_id, version, owner))

    def load_table(self, table_id: str) -> TableRow | None:
        def work(conn: Connection) -> TableRow | None:
            # One snapshot for the four reads, however many commits happen meanwhile.
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            found, seats, matches, actions = (
                conn.execute(query.format(p="%s"), (table_id,)).fetchall()
                for query in TABLE_QUERIES
            )
            return table_row(table_id, found[0], seats, matches, actions) if found else None

        return self._run(work)

    def has_table(self, table_id: str) -> bool:
        row = self._run(
            lambda c: c.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone()
        )
        return row is not None

    def count_tables(self) -> int:
        row = self._run(lambda c: c.execute("SELECT count(*) FROM tables").fetchone())
        return int(row[0]) if row is not None else 0

    def lobby(self, limit: int = 50, per_address: int | None = None) -> list[LobbyRow]:
        query = LOBBY_QUERY.format(listed="listed", per_address="%s", limit="%s")

        def work(conn: Connection) -> list[LobbyRow]:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            tables = conn.execute(query, (per_address or limit, limit)).fetchall()
            seats = conn.execute(
                "SELECT table_id, seat, kind, name, level, token_hash FROM seats"
                " WHERE table_id = ANY(%s) ORDER BY table_id, seat",
                ([row[0] for row in tables],),
            ).fetchall()
            return lobby_rows(tables, seats)

        return self._run(work)

    def solo_running(self, address: str) -> int:
        row = self._run(
            lambda c: c.execute(
                "SELECT count(*) FROM tables WHERE solo_address = %s AND status = 'playing'",
                (address,),
            ).fetchone()
        )
        return int(row[0]) if row is not None else 0

    # ------------------------------------------------------------ reviews

    def save_review(self, table_id: str, number: int, review: str, created: float) -> None:
        self._run(
            lambda c: c.execute(
                "INSERT INTO reviews (table_id, number, review, created)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (table_id, number) DO NOTHING",
                (table_id, number, review, created),
            )
        )

    def load_review(self, table_id: str, number: int) -> str | None:
        row = self._run(
            lambda c: c.execute(
                "SELECT review FROM reviews WHERE table_id = %s AND number = %s",
                (table_id, number),
            ).fetchone()
        )
        return None if row is None else str(row[0])

    # ------------------------------------------------------------ leases

    def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        taken = self._run(
            lambda c: (
                c.execute(
                    "UPDATE tables SET lease_owner = %s,"
                    " lease_until = clock_timestamp() + make_interval(secs => %s)"
                    " WHERE id = %s AND (lease_owner IS NULL OR lease_owner = %s"
                    " OR lease_until <= clock_timestamp())",
                    (owner, seconds, table_id, owner),
                ).rowcount
            )
        )
        return taken == 1

    def renew_leases(self, owner: str, seconds: float) -> set[str]:
        rows = self._run(
            lambda c: c.execute(
                "UPDATE tables SET lease_until = clock_timestamp() + make_interval(secs => %s)"
                f" WHERE {_LEASE_HELD} RETURNING id",
                (seconds, owner),
            ).fetchall()
        )
        return {str(row[0]) for row in rows}

    def hand_lease(self, table_id: str, owner: str, to: str, seconds: float) -> bool:
        given = self._run(
            lambda c: (
                c.execute(
                    "UPDATE tables SET lease_owner = %s,"
                    " lease_until = clock_timestamp() + make_interval(secs => %s)"
                    f" WHERE id = %s AND {_LEASE_HELD}",
                    (to, seconds, table_id, owner),
                ).rowcount
            )
        )
        return given == 1

    def drop_lease(self, table_id: str, owner: str) -> None:
        self._run(
            lambda c: c.execute(
                "UPDATE tables SET lease_owner = NULL, lease_until = NULL"
                " WHERE id = %s AND lease_owner = %s",
                (table_id, owner),
            )
        )

    def lease_owner(self, table_id: str) -> str | None:
        row = self._run(
            lambda c: c.execute(
                "SELECT lease_owner FROM tables WHERE id = %s AND lease_until > clock_timestamp()",
                (table_id,),
            ).fetchone()
        )
        return None if row is None else str(row[0])


def _has_spoken(conn: Connection) -> bool:
    """Whether an idle connection has something to read: the server's last word before
    it closed it (an administrator, a restart). Nothing is sent on such a connection."""
    return bool(select.select([conn.fileno()], [], [], 0)[0])


def _commit_statement(
    table_id: str, version: int, writes: Sequence[Write], owner: str | None
) -> tuple[str, list[Any]]:
    """A commit as one statement: the compare-and-set on the table's row (fenced by the
    lease) as a common table expression, and every write depending on it, so that a
    refused compare-and-set writes nothing; it returns how many rows moved (0 or 1)."""
    table: SaveTable | None = None
    seats: dict[int, SaveSeat] = {}
    matches: dict[int, SaveMatch] = {}
    actions: list[SaveAction] = []
    dropped: list[DropActions] = []
    for write in writes:  # later writes of one row replace earlier ones, as in order
        if isinstance(write, SaveTable):
            table = write
        elif isinstance(write, SaveSeat):
            seats[write.seat.seat] = write
        elif isinstance(write, SaveMatch):
            matches[write.number] = write
        elif isinstance(write, SaveAction):
            actions.append(write)
        elif isinstance(write, DropActions):
            dropped.append(write)
        else:
            raise TypeError(f"not a write: {write!r}")
    sets, params = "version = version + 1", []
    if table is not None:
        sets += (
            ", public = %s, host = %s, hints = %s, listed = %s, status = %s, state = %s,"
            " solo_address = %s"
        )
        params += [table.public, table.host, table.hints, table.listed, table.status]
        params += [table.state, table.solo_address]
    where = "id = %s AND version = %s" + ("" if owner is None else f" AND {_LEASE_HELD}")
    params += [table_id, version] + ([] if owner is None else [owner])
    parts = [f"moved AS (UPDATE tables SET {sets} WHERE {where} RETURNING id)"]
    for n, save in enumerate(seats.values()):
        seat = save.seat
        parts.append(
            f"seat{n} AS (UPDATE seats SET kind = %s, name = %s, level = %s, token_hash = %s"
            " FROM moved WHERE seats.table_id = moved.id AND seats.seat = %s)"
        )
        params += [seat.kind, seat.name, seat.level, seat.token_hash, seat.seat]
    for n, match in enumerate(matches.values()):
        parts.append(
            f"match{n} AS (INSERT INTO matches (table_id, number, seed, record)"
            " SELECT id, %s::integer, %s::bigint, %s::text FROM moved"
            " ON CONFLICT (table_id, number) DO UPDATE SET record = excluded.record)"
        )
        params += [match.number, match.seed, match.record]
    for n, drop in enumerate(dropped):  # a take-back's commit inserts no action
        parts.append(
            f"drop{n} AS (DELETE FROM actions USING moved WHERE actions.table_id = moved.id"
            " AND actions.number = %s AND actions.seq >= %s)"
        )
        params += [drop.number, drop.seq]
    for n, action in enumerate(actions):
        parts.append(
            f"action{n} AS (INSERT INTO actions (table_id, number, seq, action)"
            " SELECT id, %s::integer, %s::integer, %s::text FROM moved)"
        )
        params += [action.number, action.seq, action.action]
    return f"WITH {', '.join(parts)} SELECT count(*) FROM moved", params
