"""Back up the web app's database: a consistent copy, safe while the server is writing to it.

Only an SQLite file is copied here. A PostgreSQL database is backed up with PostgreSQL's
own ``pg_dump``: ``backup`` says so, with the command line, and exits with status 2 (it
made no copy, and a cron job must not take that for success).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sqlite3
import sys
import tempfile
from pathlib import Path

from .cli import default_db
from .stores import StoreError, kind, redact
from .stores.sqlite import unusable

__all__ = ["add_arguments", "backup", "run", "use_pg_dump"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file to copy (default: the one `draw-dominoes serve` uses)",
    )
    parser.add_argument("out", metavar="OUT", help="the file to write the copy to")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")


def run(args: argparse.Namespace) -> int:
    try:
        postgres = args.db is not None and kind(args.db) == "postgresql"
    except StoreError as error:  # another database's URL
        print(f"draw-dominoes: {error}", file=sys.stderr)
        return 2
    if postgres:
        print(f"draw-dominoes: {use_pg_dump(args.db, args.out)}", file=sys.stderr)
        return 2
    source = Path(args.db) if args.db else default_db()
    try:
        tables = backup(source, args.out, force=args.force)
    except (StoreError, OSError) as error:
        print(f"draw-dominoes: {error}", file=sys.stderr)
        return 2
    noun = "table" if tables == 1 else "tables"
    print(f"draw-dominoes: wrote {args.out} ({tables} {noun}, from {source})", flush=True)
    return 0


def use_pg_dump(url: str, out: str) -> str:
    """What to do instead for a PostgreSQL database (without the URL's password, which
    pg_dump takes from ~/.pgpass or PGPASSWORD)."""
    command = shlex.join(["pg_dump", "--format=custom", f"--file={out}", redact(url)])
    return f"backup copies SQLite files; back up PostgreSQL with pg_dump: {command}"


def backup(source: str | Path, target: str | Path, *, force: bool = False) -> int:
    """Copy the database ``source`` to ``target``; the number of tables in the copy.

    The copy is one snapshot (SQLite's online backup API, in a single step), so a server
    may go on writing meanwhile. It is written to a temporary file next to ``target`` and
    renamed into place only once it passes ``PRAGMA integrity_check``: ``target`` is never
    half written. The copy is in rollback-journal mode, one self-contained file that a
    server turns back to WAL when it opens it, and readable only by its owner (it holds
    the hashes of seat tokens).

    Raises StoreError if ``source`` is not a usable database, FileExistsError if
    ``target`` exists (and ``force`` is false, or it is the database itself), and OSError
    if the copy cannot be written.
    """
    source, target = Path(source), Path(target)
    _check_target(source, target, force=force)
    with contextlib.closing(_open_source(source)) as db:
        try:
            descriptor, name = tempfile.mkstemp(
                prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
            )
            os.close(descriptor)
        except OSError as error:
            raise OSError(f"cannot write {target}: {error.strerror or error}") from error
        temporary = Path(name)
        try:
            tables = _copy(db, source, target, temporary)
            _check_target(source, target, force=force)  # it may have appeared meanwhile
            try:
                os.replace(temporary, target)
            except OSError as error:
                raise OSError(f"cannot write {target}: {error.strerror or error}") from error
        except BaseException:
            for leftover in ("", "-journal", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{temporary}{leftover}")
            raise
    _sync_folder(target.parent)
    return tables


def _check_target(source: Path, target: Path, *, force: bool) -> None:
    """Replace a file only when asked; never the database itself, nor one with a journal."""
    if target.exists() or target.is_symlink():
        if not force:
            raise FileExistsError(f"{target} exists: give --force to replace it")
        if source.exists() and os.path.samefile(source, target):
            raise FileExistsError(f"{target} is the database itself: write the copy elsewhere")
    for journal in ("-wal", "-journal"):
        # A journal left next to OUT would be replayed into the copy when it is opened.
        if Path(f"{target}{journal}").exists():
            raise FileExistsError(
                f"{target}{journal} exists: {target} is in use by a server or was not closed"
                " cleanly; write the copy elsewhere"
            )


def _open_source(source: Path) -> sqlite3.Connection:
    """Read-only, by URI: a backup never creates the source, nor writes to it."""
    if not source.exists():  # SQLite would say only "unable to open database file"
        raise StoreError(str(source), "no such file")
    uri = source.resolve().as_uri() + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.DatabaseError as error:
        raise unusable(source, error) from error
    try:  # the first read: a damaged file, or another program's database, fails here
        db.execute("SELECT count(*) FROM tables").fetchone()
    except sqlite3.DatabaseError as error:
        db.close()
        raise unusable(source, error) from error
    return db


def _copy(db: sqlite3.Connection, source: Path, target: Path, temporary: Path) -> int:
    """Copy ``db`` into the empty file ``temporary`` and check it; its number of tables."""
    try:
        copy = sqlite3.connect(temporary, isolation_level=None)
    except sqlite3.DatabaseError as error:
        raise OSError(f"cannot write {target}: {error}") from error
    with contextlib.closing(copy):
        try:
            db.backup(copy)  # all pages in one step: one consistent snapshot of the source
            copy.execute("PRAGMA journal_mode=DELETE")  # no -wal file to keep beside it
        except sqlite3.DatabaseError as error:  # the source was readable: a full disk, say
            raise OSError(f"cannot write {target}: {error}") from error
        try:
            (problem,) = copy.execute("PRAGMA integrity_check(1)").fetchone()
            if problem != "ok":  # "*** in database main ***" then the first fault found
                fault = problem.splitlines()[-1]
                raise StoreError(str(source), f"its copy fails the integrity check: {fault}")
            tables: int = copy.execute("SELECT count(*) FROM tables").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise unusable(source, error) from error
    with open(temporary, "rb") as written:  # on disk before it takes the name of OUT
        os.fsync(written.fileno())
    return tables


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every system lets a folder be synced."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
