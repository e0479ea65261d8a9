"""Where tables are kept: one interface (``Store``), an SQLite file or a PostgreSQL database.

``open_store(where)`` picks the store from what ``--db`` says. The PostgreSQL store is
imported only when it is asked for: SQLite needs nothing installed. The rows and writes
a store takes are in ``stores.base``.
"""

from __future__ import annotations

from .base import Store, StoreError
from .urls import kind, redact

__all__ = ["Store", "StoreError", "kind", "open_store", "redact"]


def open_store(where: str) -> Store:
    """The store ``where`` names: a ``postgresql://`` (or ``postgres://``) URL, or the
    path of an SQLite file (whose folder must exist). A URL of any other scheme is refused
    with ``StoreError``, as is a database that cannot be used."""
    if kind(where) == "postgresql":
        try:
            from .postgres import PostgresStore
        except ModuleNotFoundError as error:
            raise StoreError(
                redact(where),
                f"PostgreSQL needs psycopg: pip install 'draw-dominoes[web]' ({error})",
            ) from error
        return PostgresStore(where)
    from .sqlite import SqliteStore

    return SqliteStore(where)
