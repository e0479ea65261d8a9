"""The tables' schema (migrations 1 and 2), written once for both stores' dialects."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["POSTGRES_MIGRATIONS", "SQLITE_MIGRATIONS"]


@dataclass(frozen=True, slots=True)
class _Dialect:
    big: str
    real: str
    false: str
    """A flag column's type and default."""
    moment: str
    """A lease's end: the database's own time in PostgreSQL, seconds in SQLite."""
    create: str
    """SQLite's migration 1 also finds the tables of web/store.py, which kept no version."""


_SQLITE = _Dialect("INTEGER", "REAL", "INTEGER NOT NULL DEFAULT 0", "REAL", "IF NOT EXISTS ")
_POSTGRES = _Dialect(
    "BIGINT", "DOUBLE PRECISION", "BOOLEAN NOT NULL DEFAULT false", "TIMESTAMPTZ", ""
)


def _version_1(d: _Dialect) -> tuple[str, ...]:
    return (
        f"""CREATE TABLE {d.create}tables (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    base_seed {d.big} NOT NULL,
    created {d.real} NOT NULL,
    public {d.false},
    host INTEGER NOT NULL DEFAULT 0,
    hints {d.false}
)""",
        f"""CREATE TABLE {d.create}seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
)""",
        f"""CREATE TABLE {d.create}matches (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed {d.big} NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
)""",
        f"""CREATE TABLE {d.create}actions (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number, seq),
    FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number)
)""",
        f"""CREATE TABLE {d.create}reviews (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    review TEXT NOT NULL,
    created {d.real} NOT NULL,
    PRIMARY KEY (table_id, number),
    FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number)
)""",
    )


def _version_2(d: _Dialect) -> tuple[str, ...]:
    """What a table needs to be shared by several processes: its state and the
    compare-and-set's version, the start page's and the limits' columns, the lease."""
    columns = (
        "state TEXT",
        "version INTEGER NOT NULL DEFAULT 0",
        f"listed {d.false}",
        "status TEXT NOT NULL DEFAULT 'lobby'",
        "address TEXT",
        "solo_address TEXT",
        "lease_owner TEXT",
        f"lease_until {d.moment}",
    )
    if d is _SQLITE:  # SQLite adds one column a statement
        added = tuple(f"ALTER TABLE tables ADD COLUMN {column}" for column in columns)
    else:
        added = ("ALTER TABLE tables\n    " + ",\n    ".join(f"ADD COLUMN {c}" for c in columns),)
    return (
        *added,
        "CREATE INDEX tables_lobby ON tables (listed, created)",
        "CREATE INDEX tables_solo ON tables (solo_address, status)",
    )


SQLITE_MIGRATIONS = (_version_1(_SQLITE), _version_2(_SQLITE))
POSTGRES_MIGRATIONS = (_version_1(_POSTGRES), _version_2(_POSTGRES))
