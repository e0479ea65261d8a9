"""The PostgreSQL store's schema: its marker and its versioned migrations."""

from __future__ import annotations

from . import ratings_sql, seeking_sql
from .accounts_sql import POSTGRES_MIGRATION
from .tables_sql import POSTGRES_MIGRATIONS

__all__ = ["MARKER", "MIGRATIONS", "SCHEMA_VERSIONS"]

MARKER = "draw-dominoes schema versions"
"""The comment on ``schema_versions`` that tells this application's database from
another one's (which may well have a table of that name)."""

SCHEMA_VERSIONS = (
    "CREATE TABLE schema_versions ("
    " version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())",
    f"COMMENT ON TABLE schema_versions IS '{MARKER}'",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    *POSTGRES_MIGRATIONS,
    POSTGRES_MIGRATION,
    ratings_sql.POSTGRES_MIGRATION,
    seeking_sql.POSTGRES_MIGRATION,
)
"""Migration ``n`` (from 1) is ``MIGRATIONS[n - 1]``; each runs in one transaction."""
