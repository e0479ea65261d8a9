"""Play now: people waiting for a table of a size, paired in the database (every process)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .accounts_sql import Database

__all__ = ["POSTGRES_MIGRATION", "SQLITE_MIGRATION", "SeekRow", "SeekStatements"]


def _migration(real: str) -> tuple[str, ...]:
    return (
        "CREATE TABLE seeking (ticket_hash TEXT PRIMARY KEY, players INTEGER NOT NULL,"
        " rated INTEGER NOT NULL, bots_ok INTEGER NOT NULL, level TEXT NOT NULL,"
        " name TEXT NOT NULL, account_id TEXT, address TEXT,"
        f" since {real} NOT NULL, seen {real} NOT NULL, table_id TEXT, seat INTEGER)",
        "CREATE INDEX seeking_open ON seeking (players, rated, table_id, since)",
    )


SQLITE_MIGRATION = _migration("REAL")
"""Migration 5: the people waiting to be paired by play now."""
POSTGRES_MIGRATION = _migration("DOUBLE PRECISION")

_COLUMNS = (
    "ticket_hash, players, rated, bots_ok, level, name, account_id, address, since, seen,"
    " table_id, seat"
)


@dataclass(frozen=True, slots=True)
class SeekRow:
    """One person waiting: what they asked for, and once paired, their table and seat.
    The ticket (its hash here) is also the seat's token at the table it is paired to."""

    ticket_hash: str
    players: int
    rated: bool
    bots_ok: bool
    level: str
    name: str
    account_id: str | None
    address: str | None
    since: float
    seen: float
    table_id: str | None = None
    seat: int | None = None


def _row(row: Any) -> SeekRow:
    return SeekRow(
        str(row[0]), int(row[1]), bool(row[2]), bool(row[3]), str(row[4]), str(row[5]),
        None if row[6] is None else str(row[6]), None if row[7] is None else str(row[7]),
        float(row[8]), float(row[9]), None if row[10] is None else str(row[10]),
        None if row[11] is None else int(row[11]),
    )  # fmt: skip


T = TypeVar("T")


class SeekStatements:
    """The play-now methods of ``Store`` (see ``accounts_sql.AccountStatements``)."""

    _placeholder = "?"

    def _in_transaction(self, work: Callable[[Database], T], *, write: bool) -> T:
        raise NotImplementedError

    def seek(self, row: SeekRow) -> None:
        """Wait for a table (a new ticket); tickets not seen for a minute are swept."""
        p = self._placeholder

        def work(db: Database) -> None:
            db.execute(f"DELETE FROM seeking WHERE seen < {p}", (row.seen - 60.0,))
            db.execute(
                f"INSERT INTO seeking ({_COLUMNS}) VALUES"
                f" ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, NULL, NULL)",
                (row.ticket_hash, row.players, int(row.rated), int(row.bots_ok), row.level)
                + (row.name, row.account_id, row.address, row.since, row.seen),
            )

        self._in_transaction(work, write=True)

    def seeker(self, ticket_hash: str) -> SeekRow | None:
        p = self._placeholder

        def work(db: Database) -> SeekRow | None:
            found = db.execute(
                f"SELECT {_COLUMNS} FROM seeking WHERE ticket_hash = {p}", (ticket_hash,)
            ).fetchone()
            return None if found is None else _row(found)

        return self._in_transaction(work, write=False)

    def take_group(
        self, ticket_hash: str, now: float, bot_wait: float, table_id: str
    ) -> list[SeekRow]:
        """In one transaction: if enough people wait for the same table as this ticket
        (seen in the last ``2 × 5`` s), or this one agreed to bots and has waited
        ``bot_wait``, they are paired to ``table_id`` (seats in waiting order: the first to
        wait hosts) and returned; else the ticket is marked seen and ``[]`` comes back."""
        p = self._placeholder

        lock = " FOR UPDATE" if p == "%s" else ""  # PostgreSQL: rows others may pair too

        def work(db: Database) -> list[SeekRow]:
            found = db.execute(
                f"SELECT {_COLUMNS} FROM seeking WHERE ticket_hash = {p}{lock}", (ticket_hash,)
            ).fetchone()
            if found is None or found[10] is not None:
                return []
            me = _row(found)
            db.execute(f"UPDATE seeking SET seen = {p} WHERE ticket_hash = {p}", (now, ticket_hash))
            others = [
                _row(r)
                for r in db.execute(
                    f"SELECT {_COLUMNS} FROM seeking WHERE players = {p} AND rated = {p}"
                    f" AND table_id IS NULL AND ticket_hash <> {p} AND seen >= {p}"
                    f" ORDER BY since, ticket_hash{lock}",
                    (me.players, int(me.rated), ticket_hash, now - 10.0),
                ).fetchall()
            ][: me.players - 1]
            full = len(others) == me.players - 1
            if not full and not (me.bots_ok and now - me.since >= bot_wait):
                return []
            group = sorted([me, *others], key=lambda r: (r.since, r.ticket_hash))
            for seat, seeker in enumerate(group):
                db.execute(
                    f"UPDATE seeking SET table_id = {p}, seat = {p} WHERE ticket_hash = {p}",
                    (table_id, seat, seeker.ticket_hash),
                )
            return group

        return self._in_transaction(work, write=True)

    def cancel_seek(self, ticket_hash: str) -> bool:
        """Stop waiting (not once paired); True if the ticket was still waiting."""
        p = self._placeholder

        def work(db: Database) -> bool:
            cursor = db.execute(
                f"DELETE FROM seeking WHERE ticket_hash = {p} AND table_id IS NULL",
                (ticket_hash,),
            )
            return bool(cursor.rowcount == 1)

        return self._in_transaction(work, write=True)
