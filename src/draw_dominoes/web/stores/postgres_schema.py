"""The PostgreSQL store's schema: its marker and its versioned migrations."""

from __future__ import annotations

from . import ratings_sql, seeking_sql
from .accounts_sql import POSTGRES_MIGRATION

__all__ = ["MARKER", "MIGRATIONS", "SCHEMA_VERSIONS"]

MARKER = "draw-dominoes schema versions"
"""The comment on ``schema_versions`` that tells this application's database from
another one's (which may well have a table of that name)."""

SCHEMA_VERSIONS = (
    "CREATE TABLE schema_versions ("
    " version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())",
    f"COMMENT ON TABLE schema_versions IS '{MARKER}'",
)

_VERSION_1 = (
    """CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    base_seed BIGINT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    public BOOLEAN NOT NULL DEFAULT false,
    host INTEGER NOT NULL DEFAULT 0,
    hints BOOLEAN NOT NULL DEFAULT false
)""",
    """CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
)""",
    """CREATE TABLE matches (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
)""",
    """CREATE TABLE actions (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number, seq),
    FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number)
)""",
    """CREATE TABLE reviews (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    review TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, number),
    FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number)
)""",
)

_VERSION_2 = (
    """ALTER TABLE tables
    ADD COLUMN state TEXT,
    ADD COLUMN version INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN listed BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN status TEXT NOT NULL DEFAULT 'lobby',
    ADD COLUMN address TEXT,
    ADD COLUMN solo_address TEXT,
    ADD COLUMN lease_owner TEXT,
    ADD COLUMN lease_until TIMESTAMPTZ""",
    "CREATE INDEX tables_lobby ON tables (listed, created)",
    "CREATE INDEX tables_solo ON tables (solo_address, status)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    _VERSION_1,
    _VERSION_2,
    POSTGRES_MIGRATION,
    ratings_sql.POSTGRES_MIGRATION,
    seeking_sql.POSTGRES_MIGRATION,
)
"""Migration ``n`` (from 1) is ``MIGRATIONS[n - 1]``; each runs in one transaction."""
