"""The JSON API: create and join tables, the lobby, and finished matches' records,
replays and reviews."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ... import bots, record
from ...i18n import LANGUAGES, catalogue
from .. import present
from ..advice import Encoded
from ..limits import Refused, address_key
from ..runtime.live import LiveTable
from ..runtime.rating import rated_bots
from ..stores.base import LobbyRow, StoreUnavailable, hash_token
from ..table import UserError
from ..table import intents as i
from .deps import ServicesDep, body_of, limit_key, request_lang, signed_in

__all__ = ["router"]

router = APIRouter(prefix="/api")
"""Every ``GET`` here has taken a token of its address's ``API_GETS`` budget already
(``app.ApiGetBudget``)."""

LOBBY_ROWS = 50
"""Tables listed on the start page at most."""


def parse_size(text: str | None) -> int | None:
    """A ``width`` or ``height`` query parameter: a few ASCII digits, else ``None``."""
    if text and len(text) <= 5 and text.isascii() and text.isdecimal():
        return int(text)
    return None


def parse_width(text: str | None) -> int:
    """The ``width`` query parameter, snapped; 800 if it is missing or malformed."""
    return present.snap_width(parse_size(text))


def seat_cookie(response: Response, table_id: str, token: str) -> None:
    response.set_cookie(
        f"dd_{table_id}", token, httponly=True, samesite="strict", max_age=60 * 60 * 24 * 90
    )


async def claim_for_account(
    request: Request, services: ServicesDep, table_id: str, token: str
) -> None:
    """A signed-in player's new seat is the account's: it lists among the player's
    games on every device."""
    account = await signed_in(request, services)
    if account is not None:
        store = services.runtime.store
        await services.runtime.stored(
            lambda: store.claim_seat(table_id, hash_token(token), account.id)
        )


@router.get("/i18n/{lang}")
def messages_of(lang: str) -> JSONResponse:
    if lang not in LANGUAGES:
        return JSONResponse({"error": "bad_lang", "message": lang}, status_code=404)
    return JSONResponse(
        {**catalogue(lang, "web"), **present.level_messages(lang), **present.review_messages(lang)}
    )


@router.get("/bots")
def offered_bots() -> dict[str, list[str]]:
    """The bots a seat may have, and the levels' bots, weakest first: the one-click menu
    offers the levels only, so an algorithm's name is never a level there."""
    return {"offered": list(bots.OFFERED), "levels": list(bots.LEVELS.values())}


@router.post("/tables")
async def create_table(request: Request, services: ServicesDep) -> Response:
    data = await body_of(request, services.settings)
    address = limit_key(request)
    start = data.get("start", False)
    if not isinstance(start, bool):
        raise UserError("bad_request")
    runtime = services.runtime
    rated = data.get("rated", False)
    if rated is True:  # a rated table is for signed-in players and the bots' levels
        if await signed_in(request, services) is None:
            raise UserError("rated_needs_account")
        if not rated_bots(data.get("bots")):
            raise UserError("rated_levels_only")
    if start:  # refused before anything is made or counted
        runtime.check_start(data.get("players"), data.get("bots"), address)
    if not services.budgets.creations.allow(address):
        raise UserError("rate_limited")
    live, token = runtime.create_table(
        data.get("players"),
        data.get("name"),
        data.get("bots"),
        data.get("seed"),
        address,
        data.get("public", False),
        data.get("hints", False),
        rated,
        data.get("move_seconds", 0),
    )
    if start:
        await runtime.start(live, live.state.host)
    await claim_for_account(request, services, live.id, token)
    response = JSONResponse(
        {"table_id": live.id, "seat": 0, "token": token, "url": f"/t/{live.id}"},
        status_code=201,
    )
    seat_cookie(response, live.id, token)
    return response


@router.get("/tables")
async def public_tables(services: ServicesDep) -> dict[str, object]:
    """Public tables waiting for players, for the start page, newest first: at most
    ``--listed-per-address`` of one client address, so that nobody floods the list."""
    per_address = services.settings.listed_per_address
    try:
        rows = services.runtime.store.lobby(LOBBY_ROWS, per_address)
    except StoreUnavailable:
        raise UserError("unavailable") from None
    return {"tables": [lobby_entry(row) for row in few_per_address(rows, per_address)]}


def few_per_address(rows: list[LobbyRow], per_address: int) -> list[LobbyRow]:
    """The rows (newest first) with at most ``per_address`` of one creator's address
    (an IPv6 address counted by its /64; a row without an address counts alone)."""
    seen: dict[str, int] = {}
    kept = []
    for row in rows:
        if row.address is not None:
            key = address_key(row.address)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > per_address:
                continue
        kept.append(row)
    return kept


def lobby_entry(row: LobbyRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "players": row.players,
        "free": sum(1 for s in row.seats if s.kind == "open"),
        "host": row.seats[row.host].name,
        "names": [s.name for s in row.seats if s.kind != "open"],
        "age": max(0, round(time.time() - row.created)),
    }


@router.get("/tables/{table_id}")
async def table_info(table_id: str, request: Request, services: ServicesDep) -> Response:
    # Every route that touches the runtime is ``async``: it runs on the event loop, the
    # only thread that reads or changes tables.
    live = await services.find(table_id, limit_key(request))
    state = live.state
    return JSONResponse(
        {
            "id": state.id,
            "you": seat_of_request(live, request, {}),
            "players": state.players,
            "status": state.status,
            "public": state.public,
            "host_seat": state.host,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": present.seat_name(s, request_lang(request)),
                }
                for s in state.seats
            ],
            "finished_matches": [n for n, m in enumerate(state.matches) if m.is_over],
        }
    )


@router.post("/tables/{table_id}/join")
async def join(table_id: str, request: Request, services: ServicesDep) -> Response:
    data = await body_of(request, services.settings)
    address = limit_key(request)
    live = await services.find(table_id, address)
    if live.state.rated and await signed_in(request, services) is None:
        raise UserError("rated_needs_account")
    seat, token = await services.runtime.join(table_id, data.get("name"), data.get("seat"), address)
    await claim_for_account(request, services, table_id, token)
    response = JSONResponse({"seat": seat, "token": token, "url": f"/t/{table_id}"})
    seat_cookie(response, table_id, token)
    return response


def match_number(text: str) -> int:
    number = parse_size(text)
    if number is None:
        raise UserError("unknown_match")
    return number


@router.get("/tables/{table_id}/matches/{number}/record")
async def download(table_id: str, number: str, request: Request, services: ServicesDep) -> Response:
    await services.find(table_id, limit_key(request))
    _, match = await services.runtime.finished_match(table_id, match_number(number))
    return Response(
        record.dumps(match),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="draw-{table_id}-{int(number) + 1}.json"'
        },
    )


def seat_of_request(live: LiveTable, request: Request, data: dict[str, Any]) -> int | None:
    """The seat whose token the request carries: in the body (``token``), the query, or
    the table's seat cookie ``dd_<table>``; ``None`` for a spectator."""
    for token in (
        data.get("token"),
        request.query_params.get("token"),
        request.cookies.get(f"dd_{live.id}"),
    ):
        if isinstance(token, str) and token:
            seat = live.seat_of_token(token)
            if seat is not None:
                return seat
    return None


@router.post("/tables/{table_id}/resign")
async def resign(table_id: str, request: Request, services: ServicesDep) -> Response:
    """The asker's seat gives its running match up (W1); My games abandons a match
    against bots this way (W6). The seat is the token's (body, query or seat cookie) or,
    signed in, the account's."""
    data = await body_of(request, services.settings)
    live = await services.find(table_id, limit_key(request))
    seat = seat_of_request(live, request, data)
    account = await signed_in(request, services) if seat is None else None
    if account is not None:
        store = services.runtime.store
        seat = await services.runtime.stored(lambda: store.account_seat(table_id, account.id))
    if seat is None:
        raise UserError("not_seated")
    await services.runtime.apply(live, i.Resign(), seat)
    return JSONResponse({"table_id": table_id, "seat": seat, "resigned": True})


def encoded_response(answer: Encoded, request: Request) -> Response:
    """A finished review: its bytes with their ETag, or 304 if the client has them."""
    headers = {"ETag": answer.etag, "Cache-Control": "no-cache"}
    if answer.matches(request.headers.get("if-none-match")):
        return Response(status_code=304, headers=headers)
    return Response(answer.body, media_type="application/json", headers=headers)


def status_response(status: dict[str, Any], code: int = 200) -> Response:
    return JSONResponse(status, status_code=code, headers={"Cache-Control": "no-store"})


@router.post("/tables/{table_id}/matches/{number}/review")
async def start_review(
    table_id: str, number: str, request: Request, services: ServicesDep
) -> Response:
    """A seated player of the table starts the review of a finished match (once: it is
    stored); answered like GET, 202 while it waits or runs. One review per address at a
    time (``429 review_busy``), a capped queue (``503 review_queue_full``), both with
    ``Retry-After``."""
    data = await body_of(request, services.settings)
    address = limit_key(request)
    live = await services.find(table_id, address)
    runtime, n = services.runtime, match_number(number)
    await runtime.finished_match(table_id, n)  # a running match: refused first
    if seat_of_request(live, request, data) is None:
        raise UserError("not_seated")
    lang = request_lang(request)
    answer = await runtime.review_answer(table_id, n, lang)
    if answer is not None:
        return encoded_response(answer, request)
    status = await runtime.review_status(table_id, n)
    if status["status"] in ("none", "failed"):
        reviewing = services.budgets.reviewing
        if reviewing.empty(address):
            raise Refused("rate_limited", reviewing.retry_after(address))
        if await runtime.start_review(table_id, n, address):
            reviewing.allow(address)
        status = await runtime.review_status(table_id, n)
        if status["status"] == "none":  # done meanwhile
            answer = await runtime.review_answer(table_id, n, lang)
            if answer is not None:
                return encoded_response(answer, request)
    return status_response(status, 202 if status["status"] in ("queued", "running") else 200)


@router.get("/tables/{table_id}/matches/{number}/review")
async def review_of(
    table_id: str, number: str, request: Request, services: ServicesDep
) -> Response:
    """A finished match's review: where it is while it waits or runs, then the review
    (with an ``ETag``; ``If-None-Match`` gets 304)."""
    await services.find(table_id, limit_key(request))
    runtime, n, lang = services.runtime, match_number(number), request_lang(request)
    answer = await runtime.review_answer(table_id, n, lang)
    if answer is None:
        status = await runtime.review_status(table_id, n)
        if status["status"] != "none":
            return status_response(status)
        answer = await runtime.review_answer(table_id, n, lang)  # done meanwhile?
        if answer is None:
            return status_response(status)
    return encoded_response(answer, request)


@router.get("/tables/{table_id}/matches/{number}/replay/{step}")
async def replay(
    table_id: str, number: str, step: str, request: Request, services: ServicesDep
) -> Response:
    """One position of a finished match; ``deal`` shows a round's deal, not the end
    of the round before it."""
    await services.find(table_id, limit_key(request))
    query = request.query_params
    step_number = parse_size(step)
    if step_number is None:
        raise UserError("bad_step")
    width = parse_width(query.get("width"))
    height = parse_size(query.get("height"))
    deal = query.get("deal", "").lower() in ("1", "true", "yes", "on")
    answer = await services.runtime.replay_step(
        table_id, match_number(number), step_number, request_lang(request), width, height, deal
    )
    return JSONResponse(answer)
