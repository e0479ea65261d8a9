"""Copy a web server's tables from its SQLite file into PostgreSQL (``draw-dominoes migrate``).

Every table with its seats, matches, actions and reviews (and its state, version and
start-page columns, when the file has them) is copied in one transaction: either all of
it arrives or nothing does. Ids that exist in the target already are refused, never
overwritten. The source is only read (a file of an older draw-dominoes is not upgraded),
so it may be copied while a server runs on it; leases are not copied.
"""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import sys
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from .stores import StoreError, kind, redact
from .stores.sqlite import MIGRATIONS, unusable

if TYPE_CHECKING:
    from .stores.postgres import Connection

__all__ = ["AlreadyThere", "Copied", "add_arguments", "migrate", "run"]


class AlreadyThere(Exception):
    """The target holds tables with ids of the source's: nothing was copied."""


@dataclass
class Copied:
    """How many rows of each kind were copied."""

    tables: int = 0
    seats: int = 0
    matches: int = 0
    actions: int = 0
    reviews: int = 0
    accounts: int = 0
    sessions: int = 0

    def __str__(self) -> str:
        parts = []
        for field in fields(self):
            count = getattr(self, field.name)
            one = field.name.removesuffix("es" if field.name == "matches" else "s")
            parts.append(f"{count} {field.name if count != 1 else one}")
        return ", ".join(parts[:-1]) + f" and {parts[-1]}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="FILE",
        help="the SQLite database of `draw-dominoes serve` (only read)",
    )
    parser.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="the PostgreSQL database, postgresql://USER@HOST/NAME (set up if it is empty)",
    )


def run(args: argparse.Namespace) -> int:
    target = redact(args.target)
    try:
        copied = migrate(args.source, args.target)
    except (StoreError, AlreadyThere) as error:
        print(f"draw-dominoes: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "psycopg":
            raise
        print(  # as the command line says it of the other commands' extras
            "draw-dominoes migrate needs the web extra: pip install 'draw-dominoes[web]'",
            file=sys.stderr,
        )
        return 2
    print(f"draw-dominoes: copied {copied} from {args.source} to {target}", flush=True)
    return 0


# Each copied table: its columns in PostgreSQL, and what a file without one holds.
_TABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", ""),
    ("players", ""),
    ("base_seed", ""),
    ("created", ""),
    ("public", "0"),
    ("host", "0"),
    ("hints", "0"),
    ("state", "NULL"),
    ("version", "0"),
    ("listed", "0"),
    ("status", "'lobby'"),
    ("address", "NULL"),
    ("solo_address", "NULL"),
)
_BOOLEANS = ("public", "hints", "listed")
_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("accounts", ("id", "username", "username_key", "password_hash", "created")),
    ("sessions", ("token_hash", "account_id", "created", "until")),
    ("seats", ("table_id", "seat", "kind", "name", "level", "token_hash")),
    ("matches", ("table_id", "number", "seed", "record")),
    ("actions", ("table_id", "number", "seq", "action")),
    ("reviews", ("table_id", "number", "review", "created")),
)


def migrate(source: str | Path, target: str) -> Copied:
    """Copy every table of the SQLite file ``source`` into the PostgreSQL database
    ``target`` (set up first if it is empty); the counts of what was copied.

    Raises StoreError if either database cannot be used, AlreadyThere if ``target``
    holds one of ``source``'s ids already (then nothing is copied).
    """
    if kind(target) != "postgresql":
        raise StoreError(target, "the target must be a postgresql:// URL")
    import psycopg

    from .stores.postgres import PostgresStore, connect, one_line

    where = redact(target)
    with contextlib.closing(_open_source(Path(source))) as db:
        PostgresStore(target).close()  # sets the database up, or refuses it
        try:
            db.execute("BEGIN")  # one snapshot of the source, however busy its server is
            ids = [row[0] for row in db.execute("SELECT id FROM tables")]
            with connect(target, statement_timeout=None) as pg, pg.transaction():
                _refuse_existing(pg, where, ids)
                return _copy(db, pg)
        except sqlite3.DatabaseError as error:
            raise unusable(source, error) from error
        except psycopg.Error as error:
            raise StoreError(where, one_line(error)) from error


def _open_source(source: Path) -> sqlite3.Connection:
    """Read-only, by URI: a migration never creates the source, nor writes to it."""
    if not source.is_file():  # SQLite would say only "unable to open database file"
        raise StoreError(str(source), "it is a directory" if source.is_dir() else "no such file")
    try:
        db = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.DatabaseError as error:
        raise unusable(source, error) from error
    try:
        names = {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if "tables" not in names:
            raise StoreError(str(source), "it has no tables of draw-dominoes")
        if "schema_versions" in names:
            (version,) = db.execute("SELECT max(version) FROM schema_versions").fetchone()
            if (version or 0) > len(MIGRATIONS):
                raise StoreError(
                    str(source),
                    f"it has schema version {version}, this draw-dominoes knows up to"
                    f" {len(MIGRATIONS)}: upgrade draw-dominoes",
                )
    except sqlite3.DatabaseError as error:
        db.close()
        raise unusable(source, error) from error
    except StoreError:
        db.close()
        raise
    return db


def _refuse_existing(pg: Connection, where: str, ids: list[str]) -> None:
    clashing = [row[0] for row in pg.execute("SELECT id FROM tables WHERE id = ANY(%s)", (ids,))]
    if clashing:
        shown = ", ".join(sorted(clashing)[:5]) + (", …" if len(clashing) > 5 else "")
        raise AlreadyThere(
            f"{where} already holds {len(clashing)} of the tables to copy ({shown}):"
            " nothing was copied"
        )


def _copy(db: sqlite3.Connection, pg: Connection) -> Copied:
    """Every row, by COPY (fast for a large file, and streamed: little memory)."""
    copied = Copied()
    have = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    selected = ", ".join(
        name if name in have or not default else default for name, default in _TABLE_COLUMNS
    )
    names = [name for name, _ in _TABLE_COLUMNS]
    booleans = [names.index(name) for name in _BOOLEANS]
    with pg.cursor().copy(f"COPY tables ({', '.join(names)}) FROM STDIN") as copy:
        for row in db.execute(f"SELECT {selected} FROM tables"):
            values = list(row)
            for index in booleans:
                values[index] = bool(values[index])
            copy.write_row(values)
            copied.tables += 1
    present = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    seat_columns = {row[1] for row in db.execute("PRAGMA table_info(seats)")}
    for table, columns in _ROWS:
        if table not in present:  # a file from before reviews or accounts were kept
            continue
        if table == "seats" and "account_id" in seat_columns:
            columns = (*columns, "account_id")
        listed = ", ".join(columns)
        with pg.cursor().copy(f"COPY {table} ({listed}) FROM STDIN") as copy:
            for row in db.execute(f"SELECT {listed} FROM {table}"):
                copy.write_row(row)
                setattr(copied, table, getattr(copied, table) + 1)
    return copied
