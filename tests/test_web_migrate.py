"""`draw-dominoes migrate` copies an SQLite server's tables into PostgreSQL; `backup` of a
PostgreSQL database says to use pg_dump. Against a real PostgreSQL."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from draw_dominoes.cli import main
from draw_dominoes.web.backup import backup
from draw_dominoes.web.stores.base import (
    AccountRow,
    SaveAction,
    SaveMatch,
    SaveSeat,
    SeatRow,
    TableRow,
)
from draw_dominoes.web.stores.postgres import PostgresStore
from draw_dominoes.web.stores.sqlite import MIGRATIONS, SqliteStore
from test_install import hidden_run
from test_web_stores import old_file, saved, seats, table

TIMEOUT = 60


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


BEA = AccountRow("acc1", "Bea", "scrypt$16384$8$1$c2FsdA==$aGFzaA==", 45.0)


def served_file(path: Path) -> list[str]:
    """A file as a server leaves it: tables at several versions, one listed, reviews."""
    store = SqliteStore(path)
    try:
        store.create_table(table("a", created=10.0))
        store.create_table(table("b", created=20.0, players=3))
        store.create_table(TableRow("c", 4, 99, 30.0, seats(4), ()))
        store.commit(
            "a",
            0,
            [
                SaveMatch(0, 5, '{"record": 0}'),
                SaveAction(0, 0, "6-6"),
                SaveAction(0, 1, "draw"),
                saved('{"phase": "playing"}', listed=False, status="playing"),
            ],
        )
        store.commit("a", 1, [SaveAction(0, 2, "6-5"), SaveMatch(0, 5, '{"record": "over"}')])
        store.commit("b", 0, [SaveSeat(SeatRow(1, "human", "Bea", None, "b" * 64))])
        store.commit("b", 1, [saved('{"phase": "lobby"}', listed=True, status="lobby")])
        store.save_review("a", 0, '{"review": "a0"}', 40.0)
        assert store.create_account(BEA, "bea")
        store.add_session("s" * 64, BEA.id, 50.0, 4e9)
        assert store.claim_seat("b", "b" * 64, BEA.id)
        assert store.take_lease("a", "p1", 30)  # leases are not copied
    finally:
        store.close()
    return ["a", "b", "c"]


def migrate(source: Path, target: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["migrate", "--from", str(source), "--to", target])
    out, err = capsys.readouterr()
    return status, out if status == 0 else err


def test_every_table_arrives_as_it_was(
    tmp_path: Path, fresh_postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "web.sqlite3"
    ids = served_file(path)
    before = digest(path)
    status, out = migrate(path, fresh_postgres, capsys)
    assert status == 0, out
    assert out == (
        "draw-dominoes: copied 3 tables, 9 seats, 1 match, 3 actions, 1 review, 1 account"
        " and 1 session"
        f" from {path} to {fresh_postgres}\n"
    )
    assert digest(path) == before  # the source is only read
    source, target = SqliteStore(path), PostgresStore(fresh_postgres)
    try:
        for table_id in ids:
            assert target.load_table(table_id) == source.load_table(table_id)
        loaded = target.load_table("a")
        assert loaded is not None and loaded.version == 2 and loaded.state is not None
        assert target.lobby() == source.lobby() and [row.id for row in target.lobby()] == ["b"]
        assert target.solo_running("203.0.113.5") == source.solo_running("203.0.113.5") == 1
        assert target.load_review("a", 0) == '{"review": "a0"}'
        assert target.lease_owner("a") is None
        assert target.account_by_key("bea") == source.account_by_key("bea") == BEA
        assert target.session_account("s" * 64, 60.0) == BEA  # signed in as before
        assert target.account_games(BEA.id, 10) == source.account_games(BEA.id, 10)
        assert [game.table_id for game in target.account_games(BEA.id, 10)] == ["b"]
        target.commit("a", 2, [SaveAction(0, 3, "5-5")])  # and play goes on there
    finally:
        source.close()
        target.close()


def test_a_file_of_the_old_store_is_copied_and_left_as_it_was(
    tmp_path: Path, fresh_postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "web.sqlite3"
    old_file(path, reviews=False)
    before = digest(path)
    status, out = migrate(path, fresh_postgres, capsys)
    assert status == 0, out
    assert "copied 2 tables, 5 seats, 2 matches, 3 actions, 0 reviews, 0 accounts and 0" in out
    assert digest(path) == before
    with contextlib.closing(sqlite3.connect(path)) as db:  # not upgraded
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "schema_versions" not in names
    target = PostgresStore(fresh_postgres)
    try:
        row = target.load_table("old1")
        assert row is not None and (row.version, row.state, row.public) == (0, None, False)
        assert [m.actions for m in row.matches] == [((0, "6-6"), (1, "draw")), ((0, "5-5"),)]
    finally:
        target.close()


def count(url: str, table_name: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute(f"SELECT count(*) FROM {table_name}").fetchone()
    assert row is not None
    return int(row[0])


def test_tables_already_there_are_never_overwritten(
    tmp_path: Path, fresh_postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "web.sqlite3"
    served_file(path)
    target = PostgresStore(fresh_postgres)
    target.create_table(TableRow("b", 2, 1, 1.0, seats(2), ()))  # one id is taken
    target.close()
    status, err = migrate(path, fresh_postgres, capsys)
    assert status == 2
    assert err == (
        f"draw-dominoes: {fresh_postgres} already holds 1 of the tables to copy (b):"
        " nothing was copied\n"
    )
    assert [count(fresh_postgres, name) for name in ("tables", "seats", "actions")] == [1, 2, 0]


def test_a_second_migration_is_refused(
    tmp_path: Path, fresh_postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "web.sqlite3"
    served_file(path)
    assert migrate(path, fresh_postgres, capsys)[0] == 0
    status, err = migrate(path, fresh_postgres, capsys)
    assert status == 2 and "already holds 3 of the tables to copy (a, b, c)" in err
    assert count(fresh_postgres, "actions") == 3


def test_what_cannot_be_migrated_is_said_in_one_line(
    tmp_path: Path, fresh_postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "web.sqlite3"
    served_file(path)
    with psycopg.connect(fresh_postgres, autocommit=True) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    cases = [
        (tmp_path / "missing.sqlite3", fresh_postgres, "no such file"),
        (tmp_path, fresh_postgres, "it is a directory"),
        (path, str(tmp_path / "copy.sqlite3"), "must be a postgresql:// URL"),
        (path, "mysql://ann:secret@127.0.0.1/draw", "postgresql://"),
        (path, "postgresql://ann:secret@127.0.0.1:1/draw", "cannot connect"),
        (path, fresh_postgres, "another application (invoices)"),
    ]
    for source, target, reason in cases:
        status, err = migrate(source, target, capsys)
        assert status == 2, (source, target)
        assert err.startswith("draw-dominoes: ") and err.count("\n") == 1, err
        assert reason in err and "secret" not in err


def test_the_command_line_runs_it(tmp_path: Path, fresh_postgres: str) -> None:
    path = tmp_path / "web.sqlite3"
    served_file(path)
    command = [sys.executable, "-m", "draw_dominoes", "migrate", "--from", str(path)]
    result = subprocess.run(
        [*command, "--to", fresh_postgres], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("draw-dominoes: copied 3 tables,")
    again = subprocess.run(
        [*command, "--to", fresh_postgres], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert again.returncode == 2 and "nothing was copied" in again.stderr
    assert "Traceback" not in again.stderr


def test_without_psycopg_it_names_the_extra_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite3"
    served_file(path)
    done = hidden_run(
        ("psycopg",), "migrate", "--from", str(path), "--to", "postgresql://u@127.0.0.1/d"
    )
    assert done.returncode == 2
    assert done.stderr == (
        "draw-dominoes migrate needs the web extra: pip install 'draw-dominoes[web]'\n"
    )


# ---------------------------------------------------------------- backups


def run_backup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "draw_dominoes", "backup", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def test_a_backup_of_postgres_says_to_use_pg_dump(tmp_path: Path) -> None:
    out = tmp_path / "draw.dump"
    result = run_backup("--db", "postgresql://ann:secret@db.example.org/draw", str(out))
    assert result.returncode == 2  # no copy was made: a cron job must notice
    assert result.stderr == (
        "draw-dominoes: backup copies SQLite files; back up PostgreSQL with pg_dump:"
        f" pg_dump --format=custom --file={out} postgresql://ann@db.example.org/draw\n"
    )
    assert not out.exists()
    other = run_backup("--db", "mysql://ann@db.example.org/draw", str(out))
    assert other.returncode == 2 and "postgresql://" in other.stderr
    assert other.stderr.count("\n") == 1 and not out.exists()


def test_a_backup_of_a_migrated_file_opens_at_the_same_version(tmp_path: Path) -> None:
    path, out = tmp_path / "web.sqlite3", tmp_path / "copy.sqlite3"
    served_file(path)
    assert backup(path, out) == 3
    copy = SqliteStore(out)
    try:
        assert copy.schema_version() == len(MIGRATIONS)
        row = copy.load_table("a")
        assert row is not None and row.version == 2
    finally:
        copy.close()
