"""Ratings: a rated match's changes, a player's ratings and history, the leaderboards."""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ...rules import RULES
from ..ratings import Rating, display, provisional
from ..ratings.levels import LEVEL_RATINGS
from ..runtime.rating import NEWCOMER, level_of_bot
from ..stores.ratings_sql import RatingChange, RatingRow
from ..table import UserError
from .api import match_number
from .deps import ServicesDep, limit_key

__all__ = ["HISTORY", "LEADERS", "rating_entry", "ratings_of_account", "router"]

router = APIRouter(prefix="/api")

LEADERS: Final = 50
HISTORY: Final = 100
"""Rated matches a profile's chart shows at most, per table size."""


def rating_entry(row: RatingRow) -> dict[str, Any]:
    rating = Rating(row.rating, row.deviation, row.volatility)
    return {
        "rating": display(rating),
        "deviation": round(row.deviation),
        "provisional": provisional(rating),
        "games": row.games,
    }


def change_entry(change: RatingChange) -> dict[str, Any]:
    after = Rating(change.after, change.deviation, change.volatility)
    return {
        "seat": change.seat,
        "username": change.username,
        "before": round(change.before),
        "after": display(after),
        "change": round(change.after) - round(change.before),
        "provisional": provisional(after),
        "at": round(change.at),
    }


async def ratings_of_account(services: ServicesDep, account_id: str) -> dict[str, Any]:
    """``{"2": {...}, "3": ..., "4": ...}``: the table sizes the player has a rating at."""
    store = services.runtime.store
    rows = await services.runtime.stored(lambda: store.account_ratings(account_id))
    return {str(row.players): rating_entry(row) for row in rows}


async def history_of_account(services: ServicesDep, account_id: str) -> dict[str, Any]:
    store = services.runtime.store

    def work() -> dict[str, Any]:
        return {
            str(n): [change_entry(c) for c in store.rating_history(account_id, n, HISTORY)]
            for n in RULES.player_counts
        }

    return await services.runtime.stored(work)


@router.get("/tables/{table_id}/ratings")
async def seat_ratings(table_id: str, request: Request, services: ServicesDep) -> Response:
    """What a rated table's seats show: each signed-in player's rating at this table size
    (a newcomer's 1500?), and each bot's level's fixed rating."""
    live = await services.find(table_id, limit_key(request))
    state, store = live.state, services.runtime.store
    if not state.rated:
        return JSONResponse({"seats": {}})
    accounts = await services.runtime.stored(lambda: store.table_accounts(table_id))
    ids = [a.account_id for a in accounts]
    known = await services.runtime.stored(lambda: store.ratings_of(ids, state.players))
    seats: dict[str, Any] = {}
    for account in accounts:
        row = known.get(account.account_id)
        rating = NEWCOMER if row is None else Rating(row.rating, row.deviation, row.volatility)
        seats[str(account.seat)] = {"rating": display(rating), "provisional": provisional(rating)}
    for seat in state.seats:
        level = level_of_bot(seat.level) if seat.kind == "bot" else None
        if level is not None:
            seats[str(seat.seat)] = {"rating": display(LEVEL_RATINGS[level]), "provisional": False}
    return JSONResponse({"seats": seats})


@router.get("/tables/{table_id}/matches/{number}/ratings")
async def match_ratings(
    table_id: str, number: str, request: Request, services: ServicesDep
) -> Response:
    """How a finished rated match moved its players' ratings (``[]``: not rated, or not
    yet: the changes are stored a moment after the match ends)."""
    await services.find(table_id, limit_key(request))
    n = match_number(number)
    store = services.runtime.store
    changes = await services.runtime.stored(lambda: store.match_ratings(table_id, n))
    return JSONResponse({"changes": [change_entry(c) for c in changes]})


def table_size(text: str | None) -> int:
    if text is None or not (text.isdecimal() and len(text) <= 2) or not RULES.allows(int(text)):
        raise UserError("bad_players")
    return int(text)


@router.get("/leaderboard")
async def leaderboard(request: Request, services: ServicesDep) -> Response:
    players = table_size(request.query_params.get("players", "2"))
    store = services.runtime.store
    rows = await services.runtime.stored(lambda: store.leaderboard(players, LEADERS))
    leaders = [
        {"rank": rank, "username": row.username, **rating_entry(row)}
        for rank, row in enumerate(rows, 1)
    ]
    return JSONResponse({"players": players, "leaders": leaders})
