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

    async def start_review(self, table_id: str, number: int) -> bool:
        """Start reviewing a finished match unless it is stored or under way."""
        live, match = await self.finished_match(table_id, number)
        return self.reviews.start(live.id, number, match)

    async def review_status(self, table_id: str, number: int, lang: str) -> dict[str, Any]:
        """A finished match's review: ``none`` (not asked for), ``running`` with how many
        decisions are done, ``failed``, or ``done`` with the review in ``lang``."""
        live, match = await self.finished_match(table_id, number)
        stored = self.reviews.stored(live.id, number)
        if stored is not None:
            names = list(present.seat_names(live.state, lang))
            kinds = [s.kind for s in live.state.seats]
            answer = advice.review_answer(match, stored, names, kinds, lang)
            return {"status": "done", "review": answer}
        progress = self.reviews.progress(live.id, number)
        if progress is not None:
            return {"status": "running", "done": progress[0], "total": progress[1]}
        if (live.id, number) in self.reviews.failed:
            return {"status": "failed"}
        return {"status": "none"}

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
