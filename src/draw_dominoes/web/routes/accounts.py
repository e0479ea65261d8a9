"""Accounts: sign up, sign in and out, the signed-in player, passwords, public profiles."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..accounts import (
    SESSION_COOKIE,
    SESSION_SECONDS,
    BadPassword,
    check_password,
    check_username,
    hash_password,
    new_session_token,
    username_key,
    verify_nothing,
    verify_password,
)
from ..limits import Refused
from ..names import BadName
from ..present import seat_name
from ..stores.base import AccountRow, GameRow, hash_token
from ..table import UserError
from ..table.state import TableSeat
from .deps import ServicesDep, body_of, limit_key, request_lang, signed_in
from .ratings import history_of_account, ratings_of_account

__all__ = ["FAILURES_PER_ADDRESS", "FAILURES_PER_NAME", "FAILURE_WINDOW", "router"]

router = APIRouter(prefix="/api")

FAILURE_WINDOW: Final = 15 * 60.0
FAILURES_PER_NAME: Final = 10
"""Failed sign-ins a user name may have in ``FAILURE_WINDOW`` before it is refused for
a while (429): counted in the database, so across every process of the server."""
FAILURES_PER_ADDRESS: Final = 30
GAMES_LISTED: Final = 50


def _username(data: dict[str, Any]) -> str:
    try:
        return check_username(data.get("username"))
    except BadName as refusal:
        raise UserError("bad_name", reason=refusal.reason, field="username") from None


def _password(value: object, field: str = "password") -> str:
    try:
        return check_password(value)
    except BadPassword as refusal:
        raise UserError(f"bad_password_{refusal.reason}", field=field) from None


def _set_session(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_SECONDS),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


async def _start_session(
    services: ServicesDep, request: Request, response: Response, account: AccountRow
) -> None:
    """A new session (a new token at every sign-in), and the seats of this browser's
    tables (their ``dd_<table>`` cookies) become the account's."""
    token, now = new_session_token(), time.time()
    store = services.runtime.store
    await services.runtime.stored(
        lambda: store.add_session(hash_token(token), account.id, now, now + SESSION_SECONDS)
    )
    await _claim_seats(services, request, account.id)
    _set_session(response, request, token)


async def _claim_seats(services: ServicesDep, request: Request, account_id: str) -> None:
    store = services.runtime.store
    seats = [
        (name[3:], value)
        for name, value in request.cookies.items()
        if name.startswith("dd_") and name != SESSION_COOKIE and value
    ][:100]

    def claim_all() -> None:
        for table_id, token in seats:
            store.claim_seat(table_id, hash_token(token), account_id)

    if seats:
        await services.runtime.stored(claim_all)


async def _required(request: Request, services: ServicesDep) -> AccountRow:
    account = await signed_in(request, services)
    if account is None:
        raise UserError("signed_out")
    return account


@router.post("/accounts")
async def sign_up(request: Request, services: ServicesDep) -> Response:
    data = await body_of(request, services.settings)
    username, password = _username(data), _password(data.get("password"))
    if not services.budgets.creations.allow(limit_key(request)):
        raise UserError("rate_limited")
    hashed = await asyncio.to_thread(hash_password, password)
    account = AccountRow(secrets.token_urlsafe(12), username, hashed.text, time.time())
    store = services.runtime.store
    if not await services.runtime.stored(
        lambda: store.create_account(account, username_key(username))
    ):
        raise UserError("username_taken", field="username")
    response = JSONResponse({"username": username}, status_code=201)
    await _start_session(services, request, response, account)
    return response


def _check_failures(services: ServicesDep, keys: list[str], limits: list[int]) -> None:
    now = time.time()
    store = services.runtime.store
    for key, limit in zip(keys, limits, strict=True):
        count, oldest = store.sign_in_failures(key, now - FAILURE_WINDOW)
        if count >= limit:
            wait = (oldest or now) + FAILURE_WINDOW - now
            raise Refused("sign_in_limited", max(1, round(wait)))


@router.post("/session")
async def sign_in(request: Request, services: ServicesDep) -> Response:
    """The same refusal, after the same work, for an unknown name and a wrong password."""
    data = await body_of(request, services.settings)
    name, password = data.get("username"), data.get("password")
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > 256:
        raise UserError("bad_credentials")
    key = username_key(name.strip())[:64]
    keys = [f"name:{key}", f"address:{limit_key(request)}"]
    runtime, store = services.runtime, services.runtime.store
    await runtime.stored(
        lambda: _check_failures(services, keys, [FAILURES_PER_NAME, FAILURES_PER_ADDRESS])
    )
    account = await runtime.stored(lambda: store.account_by_key(key))
    if account is None:
        await asyncio.to_thread(verify_nothing, password)
        good = False
    else:
        good = await asyncio.to_thread(verify_password, password, account.password_hash)
    if account is None or not good:
        now = time.time()
        await runtime.stored(lambda: store.sign_in_failed(keys, now, FAILURE_WINDOW))
        raise UserError("bad_credentials")
    response = JSONResponse({"username": account.username})
    await _start_session(services, request, response, account)
    return response


@router.delete("/session")
async def sign_out(request: Request, services: ServicesDep) -> Response:
    await body_of(request, services.settings)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        store = services.runtime.store
        await services.runtime.stored(lambda: store.drop_session(hash_token(token)))
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return response


def shown_names(game: GameRow, lang: str) -> list[str]:
    """The seats' names as a table shows them: a bot by its level, in ``lang``."""
    if len(game.kinds) != len(game.names):
        return list(game.names)
    seats = zip(game.names, game.kinds, game.levels, strict=True)
    return [
        seat_name(TableSeat(number, kind, name, level), lang)
        for number, (name, kind, level) in enumerate(seats)
    ]


def game_entry(game: GameRow, lang: str = "en") -> dict[str, Any]:
    return {
        "table_id": game.table_id,
        "seat": game.seat,
        "players": game.players,
        "status": game.status,
        "created": round(game.created),
        "names": shown_names(game, lang),
        "url": f"/t/{game.table_id}",
        "bots_only": all(k == "bot" for seat, k in enumerate(game.kinds) if seat != game.seat),
    }


@router.get("/me")
async def me(request: Request, services: ServicesDep) -> Response:
    account = await _required(request, services)
    store = services.runtime.store
    games = await services.runtime.stored(lambda: store.account_games(account.id, GAMES_LISTED))
    return JSONResponse(
        {
            "username": account.username,
            "created": round(account.created),
            "ratings": await ratings_of_account(services, account.id),
            "games": [game_entry(game, request_lang(request)) for game in games],
        },
        headers={"Cache-Control": "no-store"},
    )


@router.put("/me/password")
async def change_password(request: Request, services: ServicesDep) -> Response:
    """A new password; every other session of the account ends (this one stays)."""
    data = await body_of(request, services.settings)
    account = await _required(request, services)
    old = data.get("password")
    new = _password(data.get("new_password"), "new_password")
    if not isinstance(old, str) or not await asyncio.to_thread(
        verify_password, old, account.password_hash
    ):
        raise UserError("bad_credentials", field="password")
    hashed = await asyncio.to_thread(hash_password, new)
    keep = hash_token(request.cookies.get(SESSION_COOKIE, ""))
    store = services.runtime.store
    await services.runtime.stored(lambda: store.set_password(account.id, hashed.text, keep))
    return Response(status_code=204)


@router.delete("/me")
async def delete_me(request: Request, services: ServicesDep) -> Response:
    """The account goes, after its password; its finished games stay, its seats named
    as nobody's."""
    data = await body_of(request, services.settings)
    account = await _required(request, services)
    password = data.get("password")
    if not isinstance(password, str) or not await asyncio.to_thread(
        verify_password, password, account.password_hash
    ):
        raise UserError("bad_credentials", field="password")
    store = services.runtime.store
    await services.runtime.stored(lambda: store.delete_account(account.id))
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return response


@router.get("/players/{username}")
async def profile(username: str, request: Request, services: ServicesDep) -> Response:
    """A player's public profile: finished games only (a running one is nobody else's
    business)."""
    key, lang = username_key(username)[:64], request_lang(request)
    store = services.runtime.store
    account = await services.runtime.stored(lambda: store.account_by_key(key))
    if account is None:
        raise UserError("unknown_player")
    games = await services.runtime.stored(lambda: store.account_games(account.id, GAMES_LISTED))
    return JSONResponse(
        {
            "username": account.username,
            "created": round(account.created),
            "ratings": await ratings_of_account(services, account.id),
            "history": await history_of_account(services, account.id),
            "games": [game_entry(g, lang) for g in games if g.status == "over"],
        }
    )
