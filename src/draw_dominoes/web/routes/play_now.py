"""Play now: one click waits for people wanting the same table; bots fill it if agreed."""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ... import bots
from ...i18n import translate
from ...rules import RULES
from ..runtime.play_now import seat_group
from ..stores.base import hash_token
from ..stores.seeking_sql import SeekRow
from ..table import UserError
from ..table.step import display_name
from .api import seat_cookie
from .deps import ServicesDep, body_of, limit_key, request_lang, signed_in

__all__ = ["router"]

router = APIRouter(prefix="/api")


def _choice(data: dict[str, Any]) -> tuple[int, bool, bool, str]:
    players, rated, with_bots = (
        data.get("players", 2),
        data.get("rated", False),
        data.get("bots", False),
    )
    if not RULES.allows(players):
        raise UserError("bad_players")
    if not isinstance(rated, bool) or not isinstance(with_bots, bool):
        raise UserError("bad_request")
    level = data.get("level", "medium")
    if not isinstance(level, str):
        raise UserError("bad_level", level=str(level)[:20])
    level = {bot: name for name, bot in bots.LEVELS.items()}.get(level, level)  # or its bot
    if level not in bots.LEVELS:
        raise UserError("bad_level", level=str(level)[:20])
    return players, rated, with_bots, str(level)


@router.post("/play-now")
async def seek(request: Request, services: ServicesDep) -> Response:
    """Start waiting: ``{"players": 2-4, "rated": bool, "bots": bool, "level": level,
    "name": str}``; the answer's ``ticket`` is asked about with ``/api/play-now/poll``
    and becomes the seat's token once the table is found."""
    data = await body_of(request, services.settings)
    players, rated, with_bots, level = _choice(data)
    account = await signed_in(request, services)
    if rated and account is None:
        raise UserError("rated_needs_account")
    unnamed = account.username if account else translate("web.default_name", request_lang(request))
    name = display_name(data.get("name") or unnamed)
    address = limit_key(request)
    if not services.budgets.creations.allow(address):
        raise UserError("rate_limited")
    ticket, now = secrets.token_urlsafe(18), time.time()
    row = SeekRow(
        hash_token(ticket), players, rated, with_bots, level, name,
        account.id if account else None, address, now, now,
    )  # fmt: skip
    store = services.runtime.store
    await services.runtime.stored(lambda: store.seek(row))
    return await _answer(request, services, ticket)


@router.post("/play-now/poll")
async def poll(request: Request, services: ServicesDep) -> Response:
    """Whether the ticket's table is found (then its seat cookie is set), and how long
    it has waited; asking now and then is what keeps the ticket waiting."""
    data = await body_of(request, services.settings)
    ticket = data.get("ticket")
    if not isinstance(ticket, str) or not 8 <= len(ticket) <= 64:
        raise UserError("unknown_ticket")
    return await _answer(request, services, ticket)


@router.post("/play-now/cancel")
async def cancel(request: Request, services: ServicesDep) -> Response:
    data = await body_of(request, services.settings)
    ticket = data.get("ticket")
    if isinstance(ticket, str):
        store = services.runtime.store
        await services.runtime.stored(lambda: store.cancel_seek(hash_token(ticket)))
    return Response(status_code=204)


async def _answer(request: Request, services: ServicesDep, ticket: str) -> Response:
    runtime, store, digest = services.runtime, services.runtime.store, hash_token(ticket)
    now, fresh, wait = time.time(), secrets.token_urlsafe(6), services.settings.bot_wait
    group = await runtime.stored(lambda: store.take_group(digest, now, wait, fresh))
    if group:
        await seat_group(runtime, group, fresh)
    row = await runtime.stored(lambda: store.seeker(digest))
    if row is None:
        raise UserError("unknown_ticket")
    table_id = row.table_id
    if table_id is not None and await runtime.stored(lambda: store.has_table(table_id)):
        response = JSONResponse(
            {
                "status": "matched",
                "ticket": ticket,
                "table_id": table_id,
                "seat": row.seat,
                "url": f"/t/{table_id}",
            }
        )
        seat_cookie(response, table_id, ticket)
        return response
    waited = round(now - row.since, 1)  # (paired, its table a moment away: still waiting)
    bots_in = round(max(0.0, wait - waited), 1) if row.bots_ok else None
    return JSONResponse(
        {"status": "waiting", "ticket": ticket, "waited": waited, "bots_in": bots_in},
        headers={"Cache-Control": "no-store"},
    )
