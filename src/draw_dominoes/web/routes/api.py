"""The JSON API: create and join tables, the lobby, and finished matches' records,
replays and reviews."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ... import bots, record
from ...i18n import LANGUAGES, catalogue
from .. import present
from ..table import UserError, check_bots_fill
from .deps import ServicesDep, body_of, client_address, request_lang

__all__ = ["router"]

router = APIRouter(prefix="/api")


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


@router.get("/i18n/{lang}")
def messages_of(lang: str) -> JSONResponse:
    if lang not in LANGUAGES:
        return JSONResponse({"error": "bad_lang", "message": lang}, status_code=404)
    return JSONResponse(
        {**catalogue(lang, "web"), **present.level_messages(lang), **present.review_messages(lang)}
    )


@router.get("/bots")
def offered_bots() -> dict[str, list[str]]:
    return {"offered": list(bots.OFFERED)}


@router.post("/tables")
async def create_table(request: Request, services: ServicesDep) -> Response:
    data = await body_of(request, services.settings)
    address = client_address(request)
    start = data.get("start", False)
    if not isinstance(start, bool):
        raise UserError("bad_request")
    if start:  # refused before anything is made: every other seat must be a bot
        check_bots_fill(data.get("players"), data.get("bots"))
    if not services.budgets.creations.allow(address):
        raise UserError("rate_limited")
    runtime = services.runtime
    live, token = runtime.create_table(
        data.get("players"),
        data.get("name"),
        data.get("bots"),
        data.get("seed"),
        address,
        data.get("public", False),
        data.get("hints", False),
        start=start,
    )
    if start:
        await runtime.start(live, live.state.host)
    response = JSONResponse(
        {"table_id": live.id, "seat": 0, "token": token, "url": f"/t/{live.id}"},
        status_code=201,
    )
    seat_cookie(response, live.id, token)
    return response


@router.get("/tables")
async def public_tables(services: ServicesDep) -> dict[str, object]:
    """Public tables waiting for players, for the start page."""
    return {"tables": services.runtime.public_tables()}


@router.get("/tables/{table_id}")
async def table_info(table_id: str, request: Request, services: ServicesDep) -> Response:
    # Every route that touches the runtime is ``async``: it runs on the event loop, the
    # only thread that reads or changes tables.
    state = (await services.find(table_id, client_address(request))).state
    return JSONResponse(
        {
            "id": state.id,
            "players": state.players,
            "status": state.status,
            "public": state.public,
            "host_seat": state.host,
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in state.seats],
            "finished_matches": [n for n, m in enumerate(state.matches) if m.is_over],
        }
    )


@router.post("/tables/{table_id}/join")
async def join(table_id: str, request: Request, services: ServicesDep) -> Response:
    data = await body_of(request, services.settings)
    address = client_address(request)
    await services.find(table_id, address)
    seat, token = await services.runtime.join(table_id, data.get("name"), data.get("seat"), address)
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
    await services.find(table_id, client_address(request))
    _, match = await services.runtime.finished_match(table_id, match_number(number))
    return Response(
        record.dumps(match),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="draw-{table_id}-{int(number) + 1}.json"'
        },
    )


@router.post("/tables/{table_id}/matches/{number}/review")
async def start_review(
    table_id: str, number: str, request: Request, services: ServicesDep
) -> Response:
    """Start the review of a finished match (once: it is stored), answered like GET."""
    await body_of(request, services.settings)
    address = client_address(request)
    await services.find(table_id, address)
    lang = request_lang(request)
    runtime, n = services.runtime, match_number(number)
    status = await runtime.review_status(table_id, n, lang)
    if status["status"] in ("none", "failed"):
        if not services.budgets.reviewing.allow(address):
            raise UserError("rate_limited")
        await runtime.start_review(table_id, n)
        status = await runtime.review_status(table_id, n, lang)
    return JSONResponse(status, status_code=202 if status["status"] == "running" else 200)


@router.get("/tables/{table_id}/matches/{number}/review")
async def review_of(
    table_id: str, number: str, request: Request, services: ServicesDep
) -> Response:
    """A finished match's review: how far it is while it runs, then the review."""
    await services.find(table_id, client_address(request))
    status = await services.runtime.review_status(
        table_id, match_number(number), request_lang(request)
    )
    return JSONResponse(status)


@router.get("/tables/{table_id}/matches/{number}/replay/{step}")
async def replay(
    table_id: str, number: str, step: str, request: Request, services: ServicesDep
) -> Response:
    """One position of a finished match; ``deal`` shows a round's deal, not the end
    of the round before it."""
    await services.find(table_id, client_address(request))
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
