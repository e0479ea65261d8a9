"""Rated matches: when one ends, its signed-in players' ratings move (Glicko-2 by pairs)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from ... import bots
from ..ratings import Rating
from ..ratings import rate_match as rate_by_pairs
from ..ratings.levels import LEVEL_RATINGS
from ..stores.base import StoreUnavailable
from ..stores.ratings_sql import RatingChange
from ..table import TableState

if TYPE_CHECKING:
    from .live import LiveTable
    from .runtime import TableRuntime

__all__ = ["NEWCOMER", "level_of_bot", "newly_finished", "rate_match", "rated_bots"]

log = logging.getLogger(__name__)

NEWCOMER = Rating()
"""A player's rating before their first rated match: 1500, deviation 350."""


def newly_finished(old: TableState, new: TableState) -> list[int]:
    """The matches that are over in ``new`` (by the rules or given up, W3) but were not
    in ``old``."""
    return [
        number
        for number in range(len(new.matches))
        if new.match_over(number) and (number >= len(old.matches) or not old.match_over(number))
    ]


def level_of_bot(bot: str | None) -> str | None:
    """The level a seat's bot plays (``heuristic`` → ``medium``); ``None`` for another."""
    for level, name in bots.LEVELS.items():
        if name == bot:
            return level
    return None


def rated_bots(levels: object) -> bool:
    """Whether every bot asked for plays a level: only the levels have ratings."""
    if not isinstance(levels, dict):
        return True  # refused later, as for any table
    try:
        return all(bots.resolve(str(level)) in bots.LEVELS.values() for level in levels.values())
    except ValueError:
        return True  # an unknown level: refused later with its own reason


async def rate_match(runtime: TableRuntime, live: LiveTable, number: int) -> None:
    """Rate match ``number`` of a rated table: every seat held by an account moves, the
    bots' levels keep their fixed ratings. Not rated (and said in the log) when a person's
    seat has no account. Stored once, whichever process tries again."""
    state = live.state
    match = state.matches[number]
    store = runtime.store
    try:
        accounts = {a.seat: a for a in await runtime.stored(lambda: store.table_accounts(live.id))}
        ids = [a.account_id for a in accounts.values()]
        known = await runtime.stored(lambda: store.ratings_of(ids, state.players))
    except StoreUnavailable:
        log.warning("table %s: match %d could not be rated (the store is away)", live.id, number)
        return
    before: list[Rating] = []
    fixed: list[bool] = []
    for seat in state.seats:
        if seat.kind == "bot":
            level = level_of_bot(seat.level)
            if level is None:
                return
            before.append(LEVEL_RATINGS[level])
            fixed.append(True)
        elif seat.seat in accounts:
            row = known.get(accounts[seat.seat].account_id)
            before.append(
                NEWCOMER if row is None else Rating(row.rating, row.deviation, row.volatility)
            )
            fixed.append(False)
        else:
            log.info(
                "table %s: match %d is not rated: seat %d has no account",
                live.id,
                number,
                seat.seat,
            )
            return
    gave_up = state.resigned_in(number)  # last, whatever the score (W4)
    after = rate_by_pairs(before, match.scores, fixed, [s in gave_up for s in range(state.players)])
    now = time.time()
    changes = [
        RatingChange(
            seat,
            accounts[seat].account_id,
            accounts[seat].username,
            before[seat].rating,
            after[seat].rating,
            after[seat].deviation,
            after[seat].volatility,
            now,
        )
        for seat in sorted(accounts)
    ]
    try:
        await runtime.stored(lambda: store.record_ratings(live.id, number, state.players, changes))
    except StoreUnavailable:
        log.warning("table %s: match %d's ratings could not be stored", live.id, number)
