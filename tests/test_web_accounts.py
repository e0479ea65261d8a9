"""Accounts over HTTP on a real server, on SQLite and PostgreSQL: sign up, sign in and out,
passwords, deleting, profiles, a guest's games kept, and what is never stored in clear."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from draw_dominoes.web.accounts import SESSION_COOKIE, check_username, username_key
from draw_dominoes.web.names import BadName, explain_reason
from draw_dominoes.web.routes.accounts import FAILURES_PER_ADDRESS, FAILURES_PER_NAME
from test_web_support import InProcessServer

PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    url: str = request.getfixturevalue("fresh_postgres")
    return url


@pytest.fixture
def server(where: str) -> Iterator[InProcessServer]:
    running = InProcessServer(Path(where) if "://" not in where else where).start()  # type: ignore[arg-type]
    yield running
    running.stop()


def browser(server: InProcessServer) -> httpx.Client:
    """A client that keeps its cookies, as a browser does."""
    return httpx.Client(base_url=server.url, timeout=20)


def sign_up(client: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/accounts", json={"username": username, "password": password})


def sign_in(client: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/session", json={"username": username, "password": password})


def rows(where: str, query: str) -> list[tuple[Any, ...]]:
    """What the database holds, read past the server."""
    if "://" in where:
        with psycopg.connect(where) as pg:
            return list(pg.execute(query).fetchall())
    with contextlib.closing(sqlite3.connect(where)) as db:
        return list(db.execute(query).fetchall())


def test_sign_up_sign_out_and_in_again(server: InProcessServer) -> None:
    with browser(server) as anna:
        assert anna.get("/api/me").status_code == 401  # a guest
        made = sign_up(anna, "Anna")
        assert made.status_code == 201 and made.json() == {"username": "Anna"}
        cookie = made.headers["set-cookie"]
        assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie
        assert "samesite=lax" in cookie.lower() and "secure" not in cookie.lower()  # plain http
        first = anna.cookies[SESSION_COOKIE]
        me = anna.get("/api/me")
        assert me.status_code == 200 and me.json()["username"] == "Anna"
        assert me.json()["games"] == [] and me.headers["cache-control"] == "no-store"
        assert anna.request("DELETE", "/api/session", json={}).status_code == 204
        assert anna.get("/api/me").status_code == 401
        with browser(server) as thief:  # the old token is gone on the server, not only here
            thief.cookies.set(SESSION_COOKIE, first)
            assert thief.get("/api/me").status_code == 401
        again = sign_in(anna, "anna")  # user names compare without case
        assert again.status_code == 200 and again.json() == {"username": "Anna"}
        assert anna.cookies[SESSION_COOKIE] != first  # a new token at every sign-in
        assert anna.get("/api/me").json()["username"] == "Anna"


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(
    server: InProcessServer,
) -> None:
    with browser(server) as anna:
        sign_up(anna, "Anna")
    with browser(server) as other:
        wrong = sign_in(other, "Anna", "not the password")
        nobody = sign_in(other, "Nobody", "not the password")
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json() and wrong.json()["error"] == "bad_credentials"
        assert SESSION_COOKIE not in other.cookies


def test_user_names_are_checked_like_display_names_and_unique_without_case(
    server: InProcessServer, where: str
) -> None:
    with browser(server) as client:
        for name, reason in [
            ("Admin", "staff"),
            ("ab", "username_length"),
            ("a b c", "username_character"),
        ]:
            refused = sign_up(client, name)
            body = refused.json()
            assert refused.status_code == 400 and body["error"] == "bad_name", body
            assert body["field"] == "username", body
            assert body["message"] == explain_reason(reason, "en")  # which rule it broke
        short = sign_up(client, "Berta", "short")
        assert short.status_code == 400 and short.json()["field"] == "password"
        assert sign_up(client, "Berta").status_code == 201
    with browser(server) as other:
        taken = sign_up(other, "BERTA")
        assert taken.status_code == 409 and taken.json()["error"] == "username_taken"
        assert taken.json()["field"] == "username"
    assert rows(where, "SELECT username FROM accounts") == [("Berta",)]  # nothing else stored


def test_usernames_are_normalised() -> None:
    assert check_username("Ｊｏｓé") == "José"  # NFKC: full-width letters are letters
    assert username_key("ANNA") == username_key("anna")
    for bad in ["x", "-anna", "anna-", "a" * 21, "anna!", "<b>", "visit evil.example"]:
        with pytest.raises(BadName):
            check_username(bad)


def test_no_password_or_token_is_stored_or_logged_in_clear(
    server: InProcessServer, where: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with browser(server) as anna:
        sign_up(anna, "Anna")
        token = anna.cookies[SESSION_COOKIE]
        sign_in(anna, "Anna", "a wrong password here")
    (stored,) = rows(where, "SELECT password_hash FROM accounts")
    assert stored[0].startswith("scrypt$16384$8$1$") and PASSWORD not in stored[0]
    sessions = rows(where, "SELECT token_hash FROM sessions")
    assert sessions and all(token not in row[0] for row in sessions)
    everything = repr(rows(where, "SELECT * FROM accounts")) + repr(
        rows(where, "SELECT * FROM sessions")
    )
    assert PASSWORD not in everything and token not in everything
    server_side = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    said = "\n".join(record.getMessage() for record in server_side)
    assert PASSWORD not in said and "a wrong password here" not in said and token not in said


def test_failed_sign_ins_are_limited_by_name_and_by_address(server: InProcessServer) -> None:
    with browser(server) as anna:
        sign_up(anna, "Anna")
    with browser(server) as guesser:
        for _ in range(FAILURES_PER_NAME):
            assert sign_in(guesser, "Anna", "guess guess").status_code == 401
        blocked = sign_in(guesser, "Anna")  # even the right password now waits
        assert blocked.status_code == 429 and blocked.json()["error"] == "sign_in_limited"
        assert int(blocked.headers["retry-after"]) > 0
    # Another address is still refused for that name: the name is protected, not the guesser.
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=server.url, transport=transport, timeout=20) as elsewhere:
        assert sign_in(elsewhere, "Anna").status_code == 429
        for number in range(FAILURES_PER_ADDRESS):
            assert sign_in(elsewhere, f"name{number}", "guess guess").status_code == 401
        assert sign_in(elsewhere, "someone", "guess guess").status_code == 429


def test_changing_the_password_ends_every_other_session(server: InProcessServer) -> None:
    with browser(server) as phone, browser(server) as laptop:
        sign_up(phone, "Anna")
        sign_in(laptop, "Anna")
        wrong = phone.put(
            "/api/me/password", json={"password": "nope nope", "new_password": "a new one!"}
        )
        assert wrong.status_code == 401 and wrong.json()["field"] == "password"
        changed = phone.put(
            "/api/me/password", json={"password": PASSWORD, "new_password": "a new one!"}
        )
        assert changed.status_code == 204
        assert phone.get("/api/me").status_code == 200  # this session stays
        assert laptop.get("/api/me").status_code == 401  # the other one ended
        assert sign_in(laptop, "Anna").status_code == 401
        assert sign_in(laptop, "Anna", "a new one!").status_code == 200


def test_a_guest_who_signs_up_keeps_the_games_of_that_browser(
    server: InProcessServer, where: str
) -> None:
    with browser(server) as anna:
        made = anna.post(
            "/api/tables", json={"players": 2, "name": "Anna", "bots": {"1": "random"}}
        )
        assert made.status_code == 201
        guest_table = made.json()["table_id"]
        sign_up(anna, "Anna")
        signed = anna.post("/api/tables", json={"players": 3, "name": "Anna", "bots": {}})
        later_table = signed.json()["table_id"]
        games = anna.get("/api/me").json()["games"]
        assert {g["table_id"] for g in games} == {guest_table, later_table}
        assert all(g["seat"] == 0 and g["url"] == f"/t/{g['table_id']}" for g in games)
    with browser(server) as bea:  # a seat joined while signed in is listed too
        sign_up(bea, "Bea")
        assert bea.post(f"/api/tables/{later_table}/join", json={"name": "Bea"}).status_code == 200
        (game,) = bea.get("/api/me").json()["games"]
        assert game["table_id"] == later_table and game["seat"] == 1
        assert game["names"][:2] == ["Anna", "Bea"]
    # A running match is nobody else's business: the public profile lists finished ones.
    profile = httpx.get(f"{server.url}/api/players/anna", timeout=10)
    assert profile.status_code == 200 and profile.json()["username"] == "Anna"
    assert profile.json()["games"] == []
    assert httpx.get(f"{server.url}/api/players/nobody", timeout=10).status_code == 404


def test_deleting_an_account_keeps_its_games_anonymised(
    server: InProcessServer, where: str
) -> None:
    with browser(server) as anna:
        sign_up(anna, "Anna")
        made = anna.post(
            "/api/tables", json={"players": 2, "name": "Anna", "bots": {"1": "random"}}
        )
        table_id = made.json()["table_id"]
        with browser(server) as guesser:
            assert sign_in(guesser, "Anna", "not it at all").status_code == 401
        refused = anna.request("DELETE", "/api/me", json={"password": "wrong password"})
        assert refused.status_code == 401 and anna.get("/api/me").status_code == 200
        assert anna.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
        assert anna.get("/api/me").status_code == 401
    assert rows(where, "SELECT count(*) FROM accounts")[0][0] == 0
    assert rows(where, "SELECT count(*) FROM sessions")[0][0] == 0
    named = "SELECT count(*) FROM sign_in_failures WHERE key LIKE 'name:%'"
    assert rows(where, named)[0][0] == 0  # the name's failed try went with it
    seats = rows(where, f"SELECT name, account_id FROM seats WHERE table_id = '{table_id}'")
    assert ("—", None) in seats and all(name != "Anna" for name, _ in seats)
    assert httpx.get(f"{server.url}/api/players/Anna", timeout=10).status_code == 404
    with browser(server) as someone:  # the name is free again
        assert sign_up(someone, "Anna").status_code == 201


def test_bad_requests_change_nothing(server: InProcessServer, where: str) -> None:
    with browser(server) as client:
        text = client.post(
            "/api/accounts", content="username=a", headers={"content-type": "text/plain"}
        )
        assert text.status_code == 415
        for body in [
            {},
            {"username": 5, "password": PASSWORD},
            {"username": "Anna"},
            {"username": "Anna", "password": "x" * 300},
        ]:
            answer = client.post("/api/accounts", json=body)
            assert answer.status_code == 400 and answer.json()["message"], body
        for body in [{}, {"username": ["Anna"]}, {"username": "Anna", "password": "x" * 300}]:
            assert client.post("/api/session", json=body).status_code == 401
        foreign = client.post(
            "/api/accounts",
            json={"username": "Anna", "password": PASSWORD},
            headers={"origin": "https://evil.example"},
        )
        assert foreign.status_code == 403
    assert rows(where, "SELECT count(*) FROM accounts")[0][0] == 0


def test_sessions_and_sign_in_limits_hold_across_processes(fresh_postgres: str) -> None:
    """Two server processes on one PostgreSQL database: a session made at one is good at
    the other, and failures counted at one refuse at the other."""
    first = InProcessServer(fresh_postgres).start()  # type: ignore[arg-type]
    second = InProcessServer(fresh_postgres).start()  # type: ignore[arg-type]
    try:
        with browser(first) as anna:
            sign_up(anna, "Anna")
            token = anna.cookies[SESSION_COOKIE]
        with browser(second) as elsewhere:
            elsewhere.cookies.set(SESSION_COOKIE, token)
            assert elsewhere.get("/api/me").json()["username"] == "Anna"
        with browser(first) as guesser:
            for _ in range(FAILURES_PER_NAME):
                assert sign_in(guesser, "Anna", "guess guess").status_code == 401
        with browser(second) as guesser:
            assert sign_in(guesser, "Anna").status_code == 429
    finally:
        first.stop()
        second.stop()
