"""Ratings' statements, written once for both stores, and the ``Store`` methods that run them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .accounts_sql import Database

__all__ = [
    "POSTGRES_MIGRATION",
    "SQLITE_MIGRATION",
    "RatingChange",
    "RatingRow",
    "RatingStatements",
    "SeatAccount",
]


def _migration(real: str) -> tuple[str, ...]:
    return (
        "CREATE TABLE ratings (account_id TEXT NOT NULL, players INTEGER NOT NULL,"
        f" rating {real} NOT NULL, deviation {real} NOT NULL, volatility {real} NOT NULL,"
        " games INTEGER NOT NULL, PRIMARY KEY (account_id, players))",
        "CREATE TABLE rating_changes (table_id TEXT NOT NULL, number INTEGER NOT NULL,"
        " account_id TEXT NOT NULL, seat INTEGER NOT NULL, players INTEGER NOT NULL,"
        f" before {real} NOT NULL, after {real} NOT NULL, deviation {real} NOT NULL,"
        f" volatility {real} NOT NULL, at {real} NOT NULL,"
        " PRIMARY KEY (table_id, number, account_id))",
        "CREATE INDEX rating_changes_account ON rating_changes (account_id, players, at)",
        "CREATE INDEX ratings_board ON ratings (players, rating)",
    )


SQLITE_MIGRATION = _migration("REAL")
"""Migration 4: people's ratings by table size, and each rated match's changes."""
POSTGRES_MIGRATION = _migration("DOUBLE PRECISION")


@dataclass(frozen=True, slots=True)
class SeatAccount:
    seat: int
    account_id: str
    username: str


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating for one table size (Glicko-2 on the Glicko scale)."""

    username: str
    players: int
    rating: float
    deviation: float
    volatility: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's rating before and after a rated match."""

    seat: int
    account_id: str
    username: str
    before: float
    after: float
    deviation: float
    volatility: float
    at: float


T = TypeVar("T")


_RATINGS = (
    "SELECT a.username, r.players, r.rating, r.deviation, r.volatility, r.games"
    " FROM ratings r JOIN accounts a ON a.id = r.account_id"
)
_CHANGES = (
    "SELECT c.seat, c.account_id, a.username, c.before, c.after, c.deviation, c.volatility,"
    " c.at FROM rating_changes c JOIN accounts a ON a.id = c.account_id"
)


def _change(row: Any) -> RatingChange:
    return RatingChange(int(row[0]), str(row[1]), str(row[2]), *row[3:])


def _rating(row: Any) -> RatingRow:
    return RatingRow(str(row[0]), int(row[1]), row[2], row[3], row[4], int(row[5]))


class RatingStatements:
    """The rating methods of ``Store`` (see ``accounts_sql.AccountStatements``)."""

    _placeholder = "?"

    def _in_transaction(self, work: Callable[[Database], T], *, write: bool) -> T:
        raise NotImplementedError

    def table_accounts(self, table_id: str) -> list[SeatAccount]:
        p = self._placeholder

        def work(db: Database) -> list[SeatAccount]:
            found = db.execute(
                "SELECT s.seat, a.id, a.username FROM seats s JOIN accounts a"
                f" ON a.id = s.account_id WHERE s.table_id = {p} ORDER BY s.seat",
                (table_id,),
            ).fetchall()
            return [SeatAccount(int(r[0]), str(r[1]), str(r[2])) for r in found]

        return self._in_transaction(work, write=False)

    def ratings_of(self, account_ids: Sequence[str], players: int) -> dict[str, RatingRow]:
        p = self._placeholder

        def work(db: Database) -> dict[str, RatingRow]:
            found = {}
            for account_id in account_ids:
                row = db.execute(
                    _RATINGS + f" WHERE r.account_id = {p} AND r.players = {p}",
                    (account_id, players),
                ).fetchone()
                if row is not None:
                    found[account_id] = _rating(row)
            return found

        return self._in_transaction(work, write=False)

    def record_ratings(
        self, table_id: str, number: int, players: int, changes: Sequence[RatingChange]
    ) -> bool:
        """Each change once (a second call for the same match writes nothing, False)."""
        p = self._placeholder

        def work(db: Database) -> bool:
            wrote = False
            for c in changes:
                cursor = db.execute(
                    "INSERT INTO rating_changes (table_id, number, account_id, seat, players,"
                    " before, after, deviation, volatility, at)"
                    f" VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"
                    " ON CONFLICT (table_id, number, account_id) DO NOTHING",
                    (table_id, number, c.account_id, c.seat, players, c.before, c.after)
                    + (c.deviation, c.volatility, c.at),
                )
                if cursor.rowcount != 1:
                    continue
                wrote = True
                db.execute(
                    "INSERT INTO ratings (account_id, players, rating, deviation, volatility,"
                    f" games) VALUES ({p}, {p}, {p}, {p}, {p}, 1)"
                    " ON CONFLICT (account_id, players) DO UPDATE SET rating = excluded.rating,"
                    " deviation = excluded.deviation, volatility = excluded.volatility,"
                    " games = ratings.games + 1",
                    (c.account_id, players, c.after, c.deviation, c.volatility),
                )
            return wrote

        return self._in_transaction(work, write=True)

    def _found(self, query: str, params: Sequence[Any], make: Callable[[Any], T]) -> list[T]:
        """What one read finds, each row made a value (``{p}``: the store's placeholder)."""
        query = query.format(p=self._placeholder)
        return self._in_transaction(
            lambda db: [make(row) for row in db.execute(query, params).fetchall()], write=False
        )

    def match_ratings(self, table_id: str, number: int) -> list[RatingChange]:
        where = " WHERE c.table_id = {p} AND c.number = {p} ORDER BY c.seat"
        return self._found(_CHANGES + where, (table_id, number), _change)

    def account_ratings(self, account_id: str) -> list[RatingRow]:
        where = " WHERE r.account_id = {p} ORDER BY r.players"
        return self._found(_RATINGS + where, (account_id,), _rating)

    def rating_history(self, account_id: str, players: int, limit: int) -> list[RatingChange]:
        """The account's latest rated matches at one table size, oldest first."""
        where = " WHERE c.account_id = {p} AND c.players = {p} ORDER BY c.at DESC LIMIT {p}"
        return self._found(_CHANGES + where, (account_id, players, limit), _change)[::-1]

    def leaderboard(self, players: int, limit: int) -> list[RatingRow]:
        where = " WHERE r.players = {p} ORDER BY r.rating DESC, a.username LIMIT {p}"
        return self._found(_RATINGS + where, (players, limit), _rating)
