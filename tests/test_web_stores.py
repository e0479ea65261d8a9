"""The table stores, SQLite and PostgreSQL: the same tests for both, on real databases."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from draw_dominoes.web.stores import open_store
from draw_dominoes.web.stores.base import (
    SaveAction,
    SaveMatch,
    SaveSeat,
    SaveTable,
    SeatRow,
    StaleWrite,
    Store,
    StoreError,
    StoreUnavailable,
    TableRow,
    Write,
)
from draw_dominoes.web.stores.postgres import PostgresStore
from draw_dominoes.web.stores.sqlite import MIGRATIONS, SqliteStore
from tcp_relay import TcpRelay

# ---------------------------------------------------------------- fixtures and helpers


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each kind: a file path, or a database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    url: str = request.getfixturevalue("fresh_postgres")
    return url


@pytest.fixture
def opened(where: str) -> Iterator[Callable[[], Store]]:
    """Opens one more store on the database (another process would); all closed after."""
    stores: list[Store] = []

    def open_one() -> Store:
        stores.append(open_store(where))
        return stores[-1]

    yield open_one
    for store in stores:
        store.close()


@pytest.fixture
def store(opened: Callable[[], Store]) -> Store:
    return opened()


def execute(where: str, *statements: str) -> None:
    """Statements run past the store, on its database, as another program would."""
    if where.startswith("postgresql://"):
        with psycopg.connect(where, autocommit=True) as pg:
            for statement in statements:
                pg.execute(statement)
    else:
        with contextlib.closing(sqlite3.connect(where, isolation_level=None)) as db:
            for statement in statements:
                db.execute(statement)


def table_names(where: str) -> set[str]:
    """The tables in the database, read past the store."""
    if where.startswith("postgresql://"):
        with psycopg.connect(where, autocommit=True) as pg:
            rows = pg.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            ).fetchall()
    else:
        with contextlib.closing(sqlite3.connect(where)) as db:
            rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


def recorded_versions(where: str) -> list[int]:
    """The migrations recorded in the database, read past the store."""
    query = "SELECT version FROM schema_versions ORDER BY version"
    if where.startswith("postgresql://"):
        with psycopg.connect(where, autocommit=True) as pg:
            rows = pg.execute(query).fetchall()
    else:
        with contextlib.closing(sqlite3.connect(where)) as db:
            rows = db.execute(query).fetchall()
    return [row[0] for row in rows]


def seats(players: int = 2) -> tuple[SeatRow, ...]:
    first = SeatRow(0, "human", "Ann", None, "a" * 64)
    return (first, *(SeatRow(n, "bot", f"Bot {n}", "random", None) for n in range(1, players)))


def table(table_id: str = "t1", created: float = 100.0, players: int = 2) -> TableRow:
    return TableRow(
        table_id,
        players,
        base_seed=7,
        created=created,
        seats=seats(players),
        matches=(),
        public=True,
        host=0,
        hints=False,
        state='{"phase": "lobby"}',
        address="203.0.113.5",
    )


def saved(state: str, *, listed: bool = True, status: str = "playing") -> SaveTable:
    return SaveTable(
        public=True,
        host=0,
        hints=True,
        listed=listed,
        status=status,
        state=state,
        solo_address="203.0.113.5",
    )


def dealt(store: Store, table_id: str = "t1") -> None:
    """A table with match 0 dealt and two actions played: version 1."""
    store.create_table(table(table_id))
    store.commit(
        table_id,
        0,
        [
            SaveMatch(0, 11, '{"record": 0}'),
            SaveAction(0, 0, "6-6"),
            SaveAction(0, 1, "draw"),
            saved('{"phase": "playing"}'),
        ],
    )


# ---------------------------------------------------------------- opening


def test_open_store_picks_the_store_from_what_it_is_given(tmp_path: Path) -> None:
    file = open_store(str(tmp_path / "tables.sqlite3"))
    assert isinstance(file, SqliteStore) and file.where == str(tmp_path / "tables.sqlite3")
    file.close()
    for url in ("mysql://ann:secret@db.example.org/draw", "sqlite:///tables.sqlite3"):
        with pytest.raises(StoreError, match="postgresql://") as refused:
            open_store(url)
        assert "secret" not in str(refused.value) and "\n" not in str(refused.value)


def test_a_postgres_url_opens_a_postgres_store_whose_where_shows_no_password(
    fresh_postgres: str,
) -> None:
    user, _, rest = fresh_postgres.partition("://")[2].partition("@")
    url = f"postgres://{user}:secret@{rest}?password=secret&application_name=dd"
    store = open_store(url)
    try:
        assert isinstance(store, PostgresStore)
        assert "secret" not in store.where and store.where.startswith("postgres://")
        assert store.count_tables() == 0
    finally:
        store.close()


def test_an_empty_database_is_set_up_and_opening_it_again_changes_nothing(
    where: str, opened: Callable[[], Store]
) -> None:
    first = opened()
    dealt(first)
    first.close()
    again = opened()
    assert isinstance(again, SqliteStore | PostgresStore)
    assert again.schema_version() == len(MIGRATIONS)
    assert recorded_versions(where) == list(range(1, len(MIGRATIONS) + 1))  # each once
    row = again.load_table("t1")
    assert row is not None and row.version == 1 and len(row.matches[0].actions) == 2


def test_several_processes_starting_on_an_empty_database_set_it_up_once(where: str) -> None:
    opened: list[Store] = []
    failed: list[BaseException] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        try:
            opened.append(open_store(where))
        except BaseException as error:
            failed.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    try:
        assert failed == [] and len(opened) == 4
        opened[0].create_table(table())
        assert all(store.has_table("t1") for store in opened)
    finally:
        for store in opened:
            store.close()
    checked = open_store(where)
    try:
        assert isinstance(checked, SqliteStore | PostgresStore)
        assert checked.schema_version() == len(MIGRATIONS)
    finally:
        checked.close()


def test_a_newer_schema_is_refused(where: str, opened: Callable[[], Store]) -> None:
    opened().close()
    if where.startswith("postgresql://"):
        execute(where, "INSERT INTO schema_versions (version) VALUES (99)")
    else:
        execute(where, "INSERT INTO schema_versions (version, applied) VALUES (99, 0)")
    with pytest.raises(StoreError, match=rf"schema version 99.*knows up to {len(MIGRATIONS)}"):
        opened()


def test_another_applications_database_is_refused_and_left_alone(where: str) -> None:
    execute(where, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    with pytest.raises(StoreError, match=r"another application.*customers") as refused:
        open_store(where)
    assert "\n" not in str(refused.value)
    execute(where, "INSERT INTO customers (id, name) VALUES (1, 'Ann')")  # still theirs
    assert table_names(where) == {"customers"}  # and nothing of ours was created


# ---------------------------------------------------------------- tables and commits


def test_a_table_round_trips(store: Store) -> None:
    dealt(store)
    store.commit("t1", 1, [SaveMatch(0, 11, '{"record": "over"}'), SaveMatch(1, 12, "{}")])
    row = store.load_table("t1")
    assert row is not None
    assert (row.id, row.players, row.base_seed, row.created) == ("t1", 2, 7, 100.0)
    assert row.seats == seats()
    assert (row.public, row.host, row.hints) == (True, 0, True)
    assert (row.state, row.version, row.address) == ('{"phase": "playing"}', 2, "203.0.113.5")
    assert [(m.number, m.seed, m.record, m.actions) for m in row.matches] == [
        (0, 11, '{"record": "over"}', ((0, "6-6"), (1, "draw"))),
        (1, 12, "{}", ()),
    ]
    assert store.has_table("t1") and not store.has_table("t2")
    assert store.load_table("t2") is None
    assert store.count_tables() == 1


def test_a_new_table_is_at_version_0_and_an_existing_id_is_refused(store: Store) -> None:
    store.create_table(table())
    other = TableRow("t1", 3, 1, 5.0, seats(3), ())
    with pytest.raises(StaleWrite):
        store.create_table(other)
    row = store.load_table("t1")
    assert row is not None and row.version == 0 and row.players == 2 and row.seats == seats()
    assert row.state == '{"phase": "lobby"}' and row.matches == ()


def test_a_seat_is_written_by_a_commit(store: Store) -> None:
    store.create_table(table())
    taken = SeatRow(1, "human", "Bea", None, "b" * 64)
    store.commit("t1", 0, [SaveSeat(taken)])
    row = store.load_table("t1")
    assert row is not None and row.seats[1] == taken and row.version == 1


def test_a_commit_at_a_stale_version_writes_nothing(store: Store) -> None:
    dealt(store)
    before = store.load_table("t1")
    for version in (0, 2, 7):
        with pytest.raises(StaleWrite, match="version"):
            store.commit(
                "t1",
                version,
                [SaveSeat(SeatRow(1, "open", "", None, None)), SaveAction(0, 2, "5-5")],
            )
    with pytest.raises(StaleWrite):
        store.commit("missing", 0, [])
    assert store.load_table("t1") == before


def test_a_commit_with_an_action_already_stored_writes_nothing(store: Store) -> None:
    dealt(store)
    before = store.load_table("t1")
    writes: list[Write] = [
        SaveSeat(SeatRow(1, "open", "", None, None)),
        saved("changed", listed=False, status="over"),
        SaveAction(0, 2, "5-5"),
        SaveAction(0, 1, "again"),  # seq 1 is stored: all of it is refused
    ]
    with pytest.raises(StaleWrite):
        store.commit("t1", 1, writes)
    assert store.load_table("t1") == before
    assert [row.id for row in store.lobby()] == ["t1"]  # still listed


def test_a_write_that_breaks_a_constraint_is_the_callers_mistake(store: Store) -> None:
    dealt(store)
    before = store.load_table("t1")
    with pytest.raises(ValueError, match="inconsistent"):  # match 5 was never dealt
        store.commit("t1", 1, [SaveAction(0, 2, "5-5"), SaveAction(5, 0, "6-6")])
    assert store.load_table("t1") == before


def test_the_lobby_lists_listed_tables_newest_first(store: Store) -> None:
    for n, created in enumerate([30.0, 10.0, 20.0, 40.0]):
        store.create_table(table(f"t{n}", created=created, players=2 + n % 3))
    assert store.lobby() == []  # none listed yet
    for table_id in ("t0", "t1", "t2"):
        store.commit(table_id, 0, [saved("{}", status="lobby")])
    store.commit("t3", 0, [saved("{}", listed=False)])
    lobby = store.lobby()
    assert [(row.id, row.created) for row in lobby] == [("t0", 30.0), ("t2", 20.0), ("t1", 10.0)]
    assert [row.players for row in lobby] == [2, 4, 3]
    assert lobby[1].seats == seats(4) and lobby[1].host == 0
    assert [row.id for row in store.lobby(limit=2)] == ["t0", "t2"]


def test_the_lobby_lists_a_few_tables_of_each_address_chosen_in_the_query(store: Store) -> None:
    """One address's many tables leave room for everybody else's, however many."""
    for n in range(6):
        row = dataclasses.replace(table(f"f{n}", created=100.0 + n), address="198.51.100.9")
        store.create_table(row)
        store.commit(row.id, 0, [saved("{}", status="lobby")])
    for table_id, created, address in (("a", 50.0, "203.0.113.5"), ("b", 40.0, None)):
        store.create_table(dataclasses.replace(table(table_id, created=created), address=address))
        store.commit(table_id, 0, [saved("{}", status="lobby")])
    assert [row.id for row in store.lobby(limit=3)] == ["f5", "f4", "f3"]
    few = store.lobby(limit=3, per_address=2)
    assert [(row.id, row.address) for row in few] == [
        ("f5", "198.51.100.9"),
        ("f4", "198.51.100.9"),
        ("a", "203.0.113.5"),
    ]
    assert [row.id for row in store.lobby(per_address=1)] == ["f5", "a", "b"]


def test_solo_running_counts_playing_tables_of_one_address(store: Store) -> None:
    for n in range(4):
        store.create_table(table(f"t{n}"))
    store.commit("t0", 0, [saved("{}", status="playing")])
    store.commit("t1", 0, [saved("{}", status="playing")])
    store.commit("t2", 0, [saved("{}", status="over")])
    store.commit("t3", 0, [SaveTable(False, 0, False, False, "playing", "{}", None)])
    assert store.solo_running("203.0.113.5") == 2
    assert store.solo_running("198.51.100.1") == 0
    store.commit("t1", 1, [saved("{}", status="over")])
    assert store.solo_running("203.0.113.5") == 1


def test_reviews_are_written_once(store: Store) -> None:
    dealt(store)
    assert store.load_review("t1", 0) is None
    store.save_review("t1", 0, '{"review": 1}', 5.0)
    store.save_review("t1", 0, '{"review": 2}', 6.0)
    assert store.load_review("t1", 0) == '{"review": 1}'
    assert store.load_review("t1", 1) is None


# ---------------------------------------------------------------- leases


def test_a_lease_is_held_by_one_owner_until_it_expires(store: Store) -> None:
    store.create_table(table())
    assert store.lease_owner("t1") is None
    assert store.take_lease("t1", "p1", 30)
    assert store.lease_owner("t1") == "p1"
    assert not store.take_lease("t1", "p2", 30)
    assert store.take_lease("t1", "p1", 0.2)  # the holder takes it again, for less time
    assert not store.take_lease("missing", "p1", 30)
    time.sleep(0.4)
    assert store.lease_owner("t1") is None  # expired: nobody holds it
    assert store.take_lease("t1", "p2", 30)
    assert store.lease_owner("t1") == "p2"
    store.drop_lease("t1", "p1")  # not p1's to drop
    assert store.lease_owner("t1") == "p2"
    store.drop_lease("t1", "p2")
    assert store.lease_owner("t1") is None
    assert store.take_lease("t1", "p1", 30)


def test_renewing_extends_the_leases_still_held_and_loses_the_expired(store: Store) -> None:
    for table_id in ("t1", "t2", "t3"):
        store.create_table(table(table_id))
    assert store.take_lease("t1", "p1", 1.0)
    assert store.take_lease("t2", "p1", 1.0)
    assert store.take_lease("t3", "p2", 30)
    assert store.renew_leases("p1", 1.0) == {"t1", "t2"}
    time.sleep(0.5)
    assert store.renew_leases("p1", 30) == {"t1", "t2"}  # still held: extended
    time.sleep(0.7)  # past the first second
    assert store.lease_owner("t1") == "p1"
    store.drop_lease("t2", "p1")
    assert store.renew_leases("p1", 0.2) == {"t1"}
    time.sleep(0.4)
    assert store.renew_leases("p1", 30) == set()  # expired meanwhile: lost
    assert store.lease_owner("t1") is None
    assert store.lease_owner("t3") == "p2"
    assert store.renew_leases("nobody", 30) == set()


def test_a_lease_is_handed_only_by_its_holder_and_fences_the_giver(store: Store) -> None:
    dealt(store)
    assert not store.hand_lease("t1", "p1", "p2", 30)  # nobody holds it
    assert store.take_lease("t1", "p1", 30)
    assert not store.hand_lease("t1", "p3", "p2", 30)  # not p3's to give
    assert store.lease_owner("t1") == "p1"
    assert store.hand_lease("t1", "p1", "p2", 30)
    assert store.lease_owner("t1") == "p2"
    assert not store.take_lease("t1", "p1", 30)  # the giver cannot take it back
    with pytest.raises(StaleWrite):  # nor write with it
        store.commit("t1", 1, [SaveAction(0, 2, "5-5")], owner="p1")
    store.commit("t1", 1, [SaveAction(0, 2, "5-5")], owner="p2")
    assert store.renew_leases("p2", 30) == {"t1"}
    assert store.take_lease("t1", "p2", 0.2)
    time.sleep(0.4)
    assert not store.hand_lease("t1", "p2", "p1", 30)  # expired: nothing to give


def test_a_commit_with_an_owner_needs_its_lease(store: Store) -> None:
    dealt(store)
    before = store.load_table("t1")
    write = [SaveAction(0, 2, "5-5")]
    with pytest.raises(StaleWrite, match="lease"):  # nobody holds it
        store.commit("t1", 1, write, owner="p1")
    assert store.take_lease("t1", "p2", 30)
    with pytest.raises(StaleWrite):  # someone else does
        store.commit("t1", 1, write, owner="p1")
    assert store.load_table("t1") == before
    store.commit("t1", 1, write, owner="p2")
    assert store.take_lease("t1", "p2", 0.2)
    time.sleep(0.4)
    with pytest.raises(StaleWrite):  # p2's lease has expired
        store.commit("t1", 2, [SaveAction(0, 3, "4-4")], owner="p2")
    row = store.load_table("t1")
    assert row is not None and row.version == 2 and row.matches[0].actions[-1] == (2, "5-5")


# ---------------------------------------------------------------- several processes


def test_of_two_stores_committing_the_same_version_exactly_one_wins(
    opened: Callable[[], Store],
) -> None:
    first, second = opened(), opened()
    dealt(first)
    for version in range(1, 11):
        barrier = threading.Barrier(2)
        outcomes: dict[str, str] = {}

        def race(
            name: str,
            store: Store,
            version: int = version,
            barrier: threading.Barrier = barrier,
            outcomes: dict[str, str] = outcomes,
        ) -> None:
            barrier.wait()
            try:
                store.commit("t1", version, [SaveAction(0, version + 1, name)])
                outcomes[name] = "won"
            except StaleWrite:
                outcomes[name] = "stale"

        threads = [
            threading.Thread(target=race, args=(name, store))
            for name, store in (("first", first), ("second", second))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(outcomes.values()) == ["stale", "won"], outcomes
        winner = next(name for name, outcome in outcomes.items() if outcome == "won")
        row = second.load_table("t1")
        assert row is not None and row.version == version + 1
        assert row.matches[0].actions[-1] == (version + 1, winner)


# ---------------------------------------------------------------- SQLite files


OLD_SCHEMA = [  # what web/store.py wrote before tables could be public or allow hints
    "CREATE TABLE tables (id TEXT PRIMARY KEY, players INTEGER NOT NULL,"
    " base_seed INTEGER NOT NULL, created REAL NOT NULL)",
    "CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,"
    " kind TEXT NOT NULL, name TEXT NOT NULL, level TEXT, token_hash TEXT,"
    " PRIMARY KEY (table_id, seat))",
    "CREATE TABLE matches (table_id TEXT NOT NULL REFERENCES tables(id),"
    " number INTEGER NOT NULL, seed INTEGER NOT NULL, record TEXT NOT NULL,"
    " PRIMARY KEY (table_id, number))",
    "CREATE TABLE actions (table_id TEXT NOT NULL, number INTEGER NOT NULL,"
    " seq INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, number, seq),"
    " FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number))",
]
OLD_ROWS = [
    "INSERT INTO tables VALUES ('old1', 2, 5, 50.0), ('old2', 3, 6, 60.0)",
    "INSERT INTO seats VALUES ('old1', 0, 'human', 'Ann', NULL, 'h'),"
    " ('old1', 1, 'bot', 'B', 'random', NULL), ('old2', 0, 'open', '', NULL, NULL),"
    " ('old2', 1, 'human', 'Bea', NULL, 'k'), ('old2', 2, 'bot', 'C', 'greedy', NULL)",
    "INSERT INTO matches VALUES ('old1', 0, 9, 'first'), ('old1', 1, 10, 'second')",
    "INSERT INTO actions VALUES ('old1', 0, 0, '6-6'), ('old1', 0, 1, 'draw'),"
    " ('old1', 1, 0, '5-5')",
]


def old_file(path: Path, *, reviews: bool) -> None:
    """A file as an older web/store.py left it: no schema_versions, perhaps no columns
    public, host and hints nor a reviews table."""
    schema = list(OLD_SCHEMA)
    if reviews:
        schema[0] = schema[0].replace(
            "created REAL NOT NULL)",
            "created REAL NOT NULL, public INTEGER NOT NULL DEFAULT 0,"
            " host INTEGER NOT NULL DEFAULT 0, hints INTEGER NOT NULL DEFAULT 0)",
        )
        schema.append(
            "CREATE TABLE reviews (table_id TEXT NOT NULL, number INTEGER NOT NULL,"
            " review TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (table_id, number),"
            " FOREIGN KEY (table_id, number) REFERENCES matches(table_id, number))"
        )
    rows = list(OLD_ROWS)
    if reviews:
        rows[0] = (
            "INSERT INTO tables VALUES ('old1', 2, 5, 50.0, 1, 1, 1), ('old2', 3, 6, 60.0, 0, 0, 0)"
        )
        rows.append("INSERT INTO reviews VALUES ('old1', 0, 'a review', 70.0)")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        for statement in schema + rows:
            db.execute(statement)
    db.close()


@pytest.mark.parametrize("reviews", [False, True], ids=["first", "with-reviews"])
def test_a_file_of_the_old_store_is_migrated_in_place(tmp_path: Path, reviews: bool) -> None:
    path = tmp_path / "web.sqlite3"
    old_file(path, reviews=reviews)
    store = SqliteStore(path)
    try:
        assert store.schema_version() == len(MIGRATIONS)
        assert store.count_tables() == 2
        old1 = store.load_table("old1")
        assert old1 is not None
        assert (old1.players, old1.base_seed, old1.created) == (2, 5, 50.0)
        assert (old1.public, old1.host, old1.hints) == (
            (True, 1, True) if reviews else (False, 0, False)
        )
        assert (old1.state, old1.version, old1.address) == (None, 0, None)
        assert old1.seats == (
            SeatRow(0, "human", "Ann", None, "h"),
            SeatRow(1, "bot", "B", "random", None),
        )
        assert [(m.number, m.seed, m.record, m.actions) for m in old1.matches] == [
            (0, 9, "first", ((0, "6-6"), (1, "draw"))),
            (1, 10, "second", ((0, "5-5"),)),
        ]
        old2 = store.load_table("old2")
        assert old2 is not None and [s.name for s in old2.seats] == ["", "Bea", "C"]
        assert store.load_review("old1", 0) == ("a review" if reviews else None)
        assert store.lobby() == [] and store.solo_running("203.0.113.5") == 0
        # and it works as a new file does
        store.commit("old1", 0, [SaveAction(1, 1, "draw"), saved("{}")])
        store.save_review("old1", 1, "another", 80.0)
        assert store.take_lease("old1", "p1", 30)
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_versions")]
    db.close()
    assert versions == list(range(1, len(MIGRATIONS) + 1))
    again = SqliteStore(path)  # opening it again migrates nothing more
    try:
        row = again.load_table("old1")
        assert row is not None and row.version == 1 and row.matches[1].actions[-1] == (1, "draw")
    finally:
        again.close()


def test_a_failed_migration_leaves_the_old_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite3"
    old_file(path, reviews=True)
    # An index of the name migration 2 creates: the migration fails part-way.
    with sqlite3.connect(path) as db:
        db.execute("CREATE INDEX tables_solo ON tables (created)")
    db.close()
    with pytest.raises(StoreError, match="tables_solo"):
        SqliteStore(path)
    with sqlite3.connect(path) as db:
        assert [row[0] for row in db.execute("SELECT version FROM schema_versions")] == [1]
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        assert "version" not in columns and "lease_owner" not in columns
        assert db.execute("SELECT count(*) FROM actions").fetchone() == (3,)
    db.close()


def test_a_damaged_file_or_a_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"tables: Ann, Bea\n" * 200)
    with pytest.raises(StoreError, match=r"not a database.*backup") as refused:
        open_store(str(damaged))
    assert "\n" not in str(refused.value)
    assert damaged.read_bytes() == b"tables: Ann, Bea\n" * 200
    with pytest.raises(StoreError, match="it is a directory"):
        open_store(str(tmp_path))


def test_an_sqlite_store_is_in_wal_mode(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "tables.sqlite3")
    try:
        assert store.journal_mode() == "wal"
    finally:
        store.close()


# ---------------------------------------------------------------- PostgreSQL going away


def test_an_unreachable_postgres_is_refused_quickly_in_one_line() -> None:
    started = time.monotonic()
    with pytest.raises(StoreError, match="cannot connect") as refused:
        open_store("postgresql://postgres:secret@127.0.0.1:1/draw")
    assert time.monotonic() - started < 5
    message = str(refused.value)
    assert "\n" not in message and "secret" not in message and "127.0.0.1:1" in message


def test_a_server_that_never_answers_is_given_up_after_the_connect_timeout() -> None:
    with socket.socket() as silent:  # accepts connections (the kernel does) and says nothing
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        started = time.monotonic()
        with pytest.raises(StoreError, match="cannot connect"):
            PostgresStore(f"postgresql://postgres@127.0.0.1:{port}/draw", connect_timeout=2)
        assert time.monotonic() - started < 8


def the_stores_backend(url: str) -> int:
    """The process id of the one connection to the test's database other than ours."""
    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        ).fetchall()
    assert len(rows) == 1, rows
    return int(rows[0][0])


def terminate(url: str, pid: int) -> None:
    """Ends the server process of a connection, as an administrator or a restart does."""
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,)).fetchone() == (True,)


def test_a_connection_the_server_closed_while_idle_is_replaced_at_once(
    fresh_postgres: str,
) -> None:
    store = PostgresStore(fresh_postgres)
    try:
        dealt(store)
        terminate(fresh_postgres, the_stores_backend(fresh_postgres))
        # Nothing of the next call had reached the server: it goes on, on a new connection.
        store.commit("t1", 1, [SaveAction(0, 2, "5-5")])
        row = store.load_table("t1")
        assert row is not None and row.version == 2 and row.matches[0].actions[-1] == (2, "5-5")
    finally:
        store.close()


def test_a_connection_lost_in_the_middle_of_a_commit_writes_nothing(fresh_postgres: str) -> None:
    store = PostgresStore(fresh_postgres)
    try:
        dealt(store)
        pid = the_stores_backend(fresh_postgres)
        outcome: list[BaseException | None] = []
        with psycopg.connect(fresh_postgres, autocommit=True) as other, other.transaction():
            # The commit moves the version, then waits to write its action...
            other.execute("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")

            def commit() -> None:
                try:
                    store.commit("t1", 1, [saved("half"), SaveAction(0, 2, "5-5")])
                    outcome.append(None)
                except BaseException as error:
                    outcome.append(error)

            writer = threading.Thread(target=commit)
            writer.start()
            waited = other.execute(
                "SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", (pid,)
            )
            deadline = time.monotonic() + 10
            while waited.fetchone() == (0,) and time.monotonic() < deadline:
                time.sleep(0.02)
                waited = other.execute(
                    "SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", (pid,)
                )
            terminate(fresh_postgres, pid)  # ... when its connection is lost
            writer.join(timeout=10)
        assert len(outcome) == 1 and isinstance(outcome[0], StoreUnavailable), outcome
        row = store.load_table("t1")  # the next call connects anew
        assert row is not None and row.version == 1 and row.state == '{"phase": "playing"}'
        assert len(row.matches[0].actions) == 2
    finally:
        store.close()


def test_a_statement_that_waits_too_long_is_given_up(fresh_postgres: str) -> None:
    store = PostgresStore(fresh_postgres, statement_timeout=0.5)
    try:
        dealt(store)
        with psycopg.connect(fresh_postgres, autocommit=True) as other, other.transaction():
            other.execute("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
            started = time.monotonic()
            with pytest.raises(StoreUnavailable, match="statement timeout"):
                store.commit("t1", 1, [saved("half"), SaveAction(0, 2, "5-5")])
            assert time.monotonic() - started < 3
        row = store.load_table("t1")
        assert row is not None and row.version == 1 and row.state == '{"phase": "playing"}'
    finally:
        store.close()


def test_while_the_server_is_away_calls_fail_quickly_and_then_it_reconnects(
    fresh_postgres: str,
) -> None:
    parts = fresh_postgres.partition("://")[2]
    user, _, rest = parts.partition("@")
    host_port, _, database = rest.partition("/")
    host, _, port = host_port.partition(":")
    relay = TcpRelay(host, int(port or 5432)).start()
    store = PostgresStore(f"postgresql://{user}@127.0.0.1:{relay.port}/{database}")
    try:
        dealt(store)
        relay.stop()
        for call in (
            lambda: store.load_table("t1"),
            lambda: store.commit("t1", 1, [SaveAction(0, 2, "5-5")]),
            lambda: store.take_lease("t1", "p1", 30),
            lambda: store.lobby(),
        ):
            started = time.monotonic()
            with pytest.raises(StoreUnavailable):
                call()
            assert time.monotonic() - started < 5
        relay.start()  # the server is back, on the same address
        row = store.load_table("t1")
        assert row is not None and row.version == 1  # the refused commit wrote nothing
        store.commit("t1", 1, [SaveAction(0, 2, "5-5")])
        assert store.take_lease("t1", "p1", 30)
    finally:
        store.close()
        relay.stop()
