"""A damaged database stops the server with one clear line; `backup` copies a live one."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from draw_dominoes.web.backup import backup
from draw_dominoes.web.stores.base import SeatRow, StoreError, TableRow
from draw_dominoes.web.stores.sqlite import SqliteStore as Store
from test_web_support import Server, free_port

TIMEOUT = 60  # seconds any one command may take; a hang fails the test instead of blocking it


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(4096))


def text_file(path: Path) -> None:
    path.write_text("tables: Ann, Bea\n")


def damaged_pages(path: Path) -> None:
    """A real database whose header is intact but whose other pages are overwritten."""
    store = Store(path)
    for n in range(20):
        seats = [SeatRow(0, "human", "Ann", None, "0" * 64), SeatRow(1, "bot", "B", "random", None)]
        store.create_table(TableRow(f"t{n}", 2, n, float(n), tuple(seats), ()))
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[:4096] + b"\xab" * (len(data) - 4096))


def directory(path: Path) -> None:
    path.mkdir()


DAMAGED = [random_bytes, text_file, damaged_pages, directory]
# The server reads a table's pages only when the table is first asked for: damage past
# the header is found then, not at start. A backup reads (and checks) every page.
UNSTARTABLE = [random_bytes, text_file, directory]


def snapshot(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)


def serve(db: Path) -> subprocess.CompletedProcess[str]:
    port = str(free_port())
    return run([sys.executable, "-m", "draw_dominoes.web", "--db", str(db), "--port", port])


def take_backup(db: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "draw_dominoes", "backup", "--db", str(db), *extra, str(out)])


def assert_one_line_naming(result: subprocess.CompletedProcess[str], name: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("draw-dominoes: ") and name in lines[0]


@pytest.mark.parametrize("damage", UNSTARTABLE, ids=lambda f: f.__name__)
def test_the_server_refuses_a_damaged_database_in_one_line(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    db = tmp_path / "tables.sqlite3"
    damage(db)
    before = snapshot(db)
    result = serve(db)
    assert_one_line_naming(result, str(db))
    assert "backup" in result.stderr  # it says what to do
    assert snapshot(db) == before  # and leaves the file for whoever can repair it


@pytest.mark.skipif(os.geteuid() == 0, reason="root may read any file")
def test_the_server_refuses_an_unreadable_file_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    Store(db).close()
    db.chmod(0)
    assert_one_line_naming(serve(db), str(db))


@pytest.mark.parametrize("damage", DAMAGED, ids=lambda f: f.__name__)
def test_a_backup_refuses_a_damaged_source_in_one_line(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    db = tmp_path / "tables.sqlite3"
    damage(db)
    before = snapshot(db)
    out = tmp_path / "copies" / "copy.sqlite3"
    out.parent.mkdir()
    assert_one_line_naming(take_backup(db, out), str(db))
    assert snapshot(db) == before
    assert list(out.parent.iterdir()) == []  # no OUT, and no temporary file left behind


def test_a_backup_of_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "missing.sqlite3"
    assert_one_line_naming(take_backup(db, tmp_path / "copy.sqlite3"), str(db))
    assert list(tmp_path.iterdir()) == []


def table_ids(path: Path) -> set[str]:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
        return {row[0] for row in copy.execute("SELECT id FROM tables")}


def test_a_backup_of_a_live_server_is_complete_and_never_overwrites_by_accident(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.sqlite3"
    out = tmp_path / "copy.sqlite3"
    server = Server(db).start()
    stop = threading.Event()
    created: list[str] = []
    try:
        before = {server.create_table(2, "Ann", {"1": "random"})["table_id"] for _ in range(3)}

        def keep_writing() -> None:  # the backup must not mind a server busy writing
            while not stop.is_set() and len(created) < 500:
                created.append(server.create_table(2, "Bea", {"1": "random"})["table_id"])

        writer = threading.Thread(target=keep_writing, daemon=True)
        writer.start()
        result = take_backup(db, out)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(f"draw-dominoes: wrote {out} (")
        stop.set()
        writer.join(timeout=TIMEOUT)
        copied = table_ids(out)
        assert before <= copied  # every table made before the backup is in it
        assert copied <= before | set(created)  # and it holds no invented ones
        assert f"({len(copied)} tables," in result.stdout

        # An existing OUT is refused, and left as it was.
        kept = out.read_bytes()
        refused = take_backup(db, out)
        assert_one_line_naming(refused, str(out))
        assert "--force" in refused.stderr
        assert out.read_bytes() == kept

        # --force replaces it with a fresh copy, once more tables were written.
        created += [server.create_table(2, "Cy", {"1": "random"})["table_id"] for _ in range(3)]
        forced = take_backup(db, out, "--force")
        assert forced.returncode == 0, forced.stderr
        assert table_ids(out) == before | set(created)
    finally:
        stop.set()
        server.stop()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []

    # The copy is a database a server starts on: every table is there.
    restored = Server(out).start()
    try:
        for table_id in before:
            assert restored.get(f"/api/tables/{table_id}").status_code == 200
    finally:
        restored.stop()


def test_backup_from_python(tmp_path: Path) -> None:
    db, out = tmp_path / "tables.sqlite3", tmp_path / "copy.sqlite3"
    store = Store(db)
    seats = [SeatRow(0, "human", "Ann", None, None), SeatRow(1, "bot", "B", "random", None)]
    store.create_table(TableRow("t1", 2, 1, 1.0, tuple(seats), ()))
    store.close()
    assert backup(db, out) == 1
    with pytest.raises(FileExistsError, match="--force"):
        backup(db, out)
    assert backup(db, out, force=True) == 1
    with pytest.raises(FileExistsError, match="itself"):
        backup(db, db, force=True)
    random_bytes(db)
    with pytest.raises(StoreError, match="not a database"):
        backup(db, out, force=True)
    assert table_ids(out) == {"t1"}
