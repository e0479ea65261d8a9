"""The accounts' statements, written once for both stores (``p`` is the placeholder), and
the ``Store`` methods that run them (``AccountStatements``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from .base import ANONYMOUS, AccountRow, GameRow

__all__ = [
    "POSTGRES_MIGRATION",
    "SQLITE_MIGRATION",
    "AccountStatements",
    "Database",
    "account_by_key",
    "account_games",
    "account_seat",
    "add_session",
    "claim_seat",
    "create_account",
    "delete_account",
    "drop_session",
    "session_account",
    "set_password",
    "sign_in_failed",
    "sign_in_failures",
]


def _migration(real: str) -> tuple[str, ...]:
    return (
        "CREATE TABLE accounts (id TEXT PRIMARY KEY, username TEXT NOT NULL,"
        " username_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,"
        f" created {real} NOT NULL)",
        "CREATE TABLE sessions (token_hash TEXT PRIMARY KEY,"
        " account_id TEXT NOT NULL REFERENCES accounts(id),"
        f" created {real} NOT NULL, until {real} NOT NULL)",
        "CREATE INDEX sessions_account ON sessions (account_id)",
        f"CREATE TABLE sign_in_failures (key TEXT NOT NULL, at {real} NOT NULL)",
        "CREATE INDEX sign_in_failures_key ON sign_in_failures (key, at)",
        "ALTER TABLE seats ADD COLUMN account_id TEXT",
        "CREATE INDEX seats_account ON seats (account_id)",
    )


SQLITE_MIGRATION = _migration("REAL")
"""Migration 3: accounts, their sessions, failed sign-ins, and seats held by accounts."""
POSTGRES_MIGRATION = _migration("DOUBLE PRECISION")


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Database(Protocol):
    """A connection of either driver: ``execute`` returns a cursor."""

    def execute(self, query: str, params: Sequence[Any] = ...) -> Any: ...


_ACCOUNT = "SELECT id, username, password_hash, created FROM accounts"


def _account(row: Any) -> AccountRow | None:
    return None if row is None else AccountRow(str(row[0]), str(row[1]), str(row[2]), row[3])


def create_account(db: Database, p: str, row: AccountRow, key: str) -> bool:
    cursor: Cursor = db.execute(
        "INSERT INTO accounts (id, username, username_key, password_hash, created)"
        f" VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT (username_key) DO NOTHING",
        (row.id, row.username, key, row.password_hash, row.created),
    )
    return cursor.rowcount == 1


def account_by_key(db: Database, p: str, key: str) -> AccountRow | None:
    return _account(db.execute(f"{_ACCOUNT} WHERE username_key = {p}", (key,)).fetchone())


def set_password(
    db: Database, p: str, account_id: str, password_hash: str, keep_session: str
) -> None:
    db.execute(
        f"UPDATE accounts SET password_hash = {p} WHERE id = {p}", (password_hash, account_id)
    )
    db.execute(
        f"DELETE FROM sessions WHERE account_id = {p} AND token_hash <> {p}",
        (account_id, keep_session),
    )


def delete_account(db: Database, p: str, account_id: str) -> None:
    found = db.execute(f"SELECT username_key FROM accounts WHERE id = {p}", (account_id,))
    key = found.fetchone()
    db.execute(
        f"UPDATE seats SET account_id = NULL, name = {p} WHERE account_id = {p}",
        (ANONYMOUS, account_id),
    )
    db.execute(f"DELETE FROM sessions WHERE account_id = {p}", (account_id,))
    db.execute(f"DELETE FROM ratings WHERE account_id = {p}", (account_id,))
    db.execute(f"DELETE FROM rating_changes WHERE account_id = {p}", (account_id,))
    if key is not None:  # the name's failed sign-ins, counted as routes/accounts.py does
        db.execute(f"DELETE FROM sign_in_failures WHERE key = {p}", (f"name:{key[0]}",))
    db.execute(f"DELETE FROM accounts WHERE id = {p}", (account_id,))


def add_session(
    db: Database, p: str, token_hash: str, account_id: str, created: float, until: float
) -> None:
    db.execute(f"DELETE FROM sessions WHERE until <= {p}", (created,))
    db.execute(
        "INSERT INTO sessions (token_hash, account_id, created, until)"
        f" VALUES ({p}, {p}, {p}, {p})",
        (token_hash, account_id, created, until),
    )


def session_account(db: Database, p: str, token_hash: str, now: float) -> AccountRow | None:
    row = db.execute(
        "SELECT a.id, a.username, a.password_hash, a.created FROM sessions s"
        f" JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = {p} AND s.until > {p}",
        (token_hash, now),
    ).fetchone()
    return _account(row)


def drop_session(db: Database, p: str, token_hash: str) -> None:
    db.execute(f"DELETE FROM sessions WHERE token_hash = {p}", (token_hash,))


def claim_seat(db: Database, p: str, table_id: str, token_hash: str, account_id: str) -> bool:
    cursor: Cursor = db.execute(
        f"UPDATE seats SET account_id = {p} WHERE table_id = {p} AND token_hash = {p}"
        " AND account_id IS NULL",
        (account_id, table_id, token_hash),
    )
    return cursor.rowcount == 1


def account_seat(db: Database, p: str, table_id: str, account_id: str) -> int | None:
    row = db.execute(
        f"SELECT seat FROM seats WHERE table_id = {p} AND account_id = {p} ORDER BY seat",
        (table_id, account_id),
    ).fetchone()
    return None if row is None else int(row[0])


def account_games(db: Database, p: str, account_id: str, limit: int) -> list[GameRow]:
    mine = db.execute(
        "SELECT t.id, s.seat, t.players, t.status, t.created FROM seats s"
        f" JOIN tables t ON t.id = s.table_id WHERE s.account_id = {p}"
        f" ORDER BY t.created DESC, t.id LIMIT {p}",
        (account_id, limit),
    ).fetchall()
    games = []
    for table_id, seat, players, status, created in mine:
        seats = db.execute(
            f"SELECT name, kind, level FROM seats WHERE table_id = {p} ORDER BY seat",
            (table_id,),
        ).fetchall()
        games.append(
            GameRow(
                str(table_id),
                int(seat),
                int(players),
                str(status),
                float(created),
                tuple(str(n[0]) for n in seats),
                tuple(str(n[1]) for n in seats),
                tuple(None if n[2] is None else str(n[2]) for n in seats),
            )
        )
    return games


def sign_in_failed(db: Database, p: str, keys: Sequence[str], now: float, window: float) -> None:
    db.execute(f"DELETE FROM sign_in_failures WHERE at < {p}", (now - window,))
    for key in keys:
        db.execute(f"INSERT INTO sign_in_failures (key, at) VALUES ({p}, {p})", (key, now))


def sign_in_failures(db: Database, p: str, key: str, since: float) -> tuple[int, float | None]:
    row = db.execute(
        f"SELECT count(*), min(at) FROM sign_in_failures WHERE key = {p} AND at >= {p}",
        (key, since),
    ).fetchone()
    return int(row[0]), (None if row[1] is None else float(row[1]))


T = TypeVar("T")


class AccountStatements:
    """The account methods of ``Store``, for a store that says how to run a piece of work
    in one transaction (``_in_transaction``) and what its placeholder is."""

    _placeholder = "?"

    def _in_transaction(self, work: Callable[[Database], T], *, write: bool) -> T:
        raise NotImplementedError

    def create_account(self, row: AccountRow, key: str) -> bool:
        p = self._placeholder
        return self._in_transaction(lambda db: create_account(db, p, row, key), write=True)

    def account_by_key(self, key: str) -> AccountRow | None:
        p = self._placeholder
        return self._in_transaction(lambda db: account_by_key(db, p, key), write=False)

    def set_password(self, account_id: str, password_hash: str, keep_session: str) -> None:
        p = self._placeholder
        self._in_transaction(
            lambda db: set_password(db, p, account_id, password_hash, keep_session), write=True
        )

    def delete_account(self, account_id: str) -> None:
        p = self._placeholder
        self._in_transaction(lambda db: delete_account(db, p, account_id), write=True)

    def add_session(self, token_hash: str, account_id: str, created: float, until: float) -> None:
        p = self._placeholder
        self._in_transaction(
            lambda db: add_session(db, p, token_hash, account_id, created, until), write=True
        )

    def session_account(self, token_hash: str, now: float) -> AccountRow | None:
        p = self._placeholder
        return self._in_transaction(lambda db: session_account(db, p, token_hash, now), write=False)

    def drop_session(self, token_hash: str) -> None:
        p = self._placeholder
        self._in_transaction(lambda db: drop_session(db, p, token_hash), write=True)

    def claim_seat(self, table_id: str, token_hash: str, account_id: str) -> bool:
        p = self._placeholder
        return self._in_transaction(
            lambda db: claim_seat(db, p, table_id, token_hash, account_id), write=True
        )

    def account_seat(self, table_id: str, account_id: str) -> int | None:
        p = self._placeholder
        return self._in_transaction(
            lambda db: account_seat(db, p, table_id, account_id), write=False
        )

    def account_games(self, account_id: str, limit: int) -> list[GameRow]:
        p = self._placeholder
        return self._in_transaction(lambda db: account_games(db, p, account_id, limit), write=False)

    def sign_in_failed(self, keys: Sequence[str], now: float, window: float) -> None:
        p = self._placeholder
        self._in_transaction(lambda db: sign_in_failed(db, p, keys, now, window), write=True)

    def sign_in_failures(self, key: str, since: float) -> tuple[int, float | None]:
        p = self._placeholder
        return self._in_transaction(lambda db: sign_in_failures(db, p, key, since), write=False)
