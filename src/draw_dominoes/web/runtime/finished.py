"""Finished matches at the web tables: their records, replays and reviews."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...match import Match
from .. import advice, present
from ..table import UserError
from .live import LiveTable

__all__ = ["FinishedMatches"]


class FinishedMatches:
    """What the runtime answers about matches that are over (a running match's record
    would show hidden tiles)."""

    if TYPE_CHECKING:
        reviews: advice.Reviews

        async def get(self, table_id: str) -> LiveTable: ...

    async def finished_match(self, table_id: str, number: int) -> tuple[LiveTable, Match]:
        live = await self.get(table_id)
        matches = live.state.matches
        if not 0 <= number < len(matches):
            raise UserError("unknown_match")
        match = matches[number]
        if not match.is_over:
            raise UserError("match_running")
        return live, match

    async def start_review(self, table_id: str, number: int, address: str | None = None) -> bool:
        """Queue the review of a finished match unless it is stored or under way; True if
        this call queued it. ``Refused`` (``review_busy``, ``review_queue_full``) when the
        address has its review under way already or the queue is full."""
        live, match = await self.finished_match(table_id, number)
        return self.reviews.start(live.id, number, match, address)

    async def review_answer(self, table_id: str, number: int, lang: str) -> advice.Encoded | None:
        """The finished review in ``lang``, encoded once with its ETag; ``None`` while it
        is not done."""
        live, match = await self.finished_match(table_id, number)
        names = present.seat_names(live.state, lang)
        kinds = [s.kind for s in live.state.seats]
        return self.reviews.answer(live.id, number, lang, match, names, kinds)

    async def review_status(self, table_id: str, number: int) -> dict[str, Any]:
        """A review that is not done: ``none`` (not asked for), ``queued`` with its place
        (1: next), ``running`` with how many decisions are done, or ``failed``."""
        live, _ = await self.finished_match(table_id, number)
        return self.reviews.status(live.id, number)

    async def replay_step(
        self,
        table_id: str,
        number: int,
        step_number: int,
        lang: str,
        width: int,
        height: int | None = None,
        deal: bool = False,
    ) -> dict[str, Any]:
        live, match = await self.finished_match(table_id, number)
        names = list(present.seat_names(live.state, lang))
        return present.replay_step(match, names, step_number, lang, width, height, deal)
