"""Hints at the tables this process owns: worked out in the bot pool from the seat's view,
one in flight per client address and within its budget."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ... import bots
from ...view import PlayerView
from .. import advice, present
from ..limits import Budget, Refused, address_key
from ..table import AskHint, UserError
from .live import LiveTable, Socket

if TYPE_CHECKING:
    from .runtime import TableRuntime

__all__ = ["Hints"]

log = logging.getLogger(__name__)


class Hints:
    """The seat to move asked what the analysis would play. The answer, worked out in the
    bot pool from this seat's own view (R21), goes to the asking connection alone.

    Shared fairly: one hint in flight per seat (``hint_busy``) and per client address at
    every table together (``hint_address_busy``), and each address asks within its
    budget (``limits.HINTS`` unless the settings say otherwise; ``rate_limited`` with
    the seconds to wait). Asking again at the same position costs nothing."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.runtime = runtime
        settings = runtime.settings
        self.budget = Budget(settings.hints_per_minute / 60, settings.hint_burst).buckets()
        self.tasks: set[asyncio.Task[None]] = set()
        """Hints being worked out for this process's tables (for the metrics)."""

    def ask(self, live: LiveTable, conn: Socket | None, asked: AskHint) -> None:
        if conn is None:
            return
        seat = asked.seat
        match = live.state.match
        assert match is not None
        known = live.hinted.get(seat)
        if known is not None and known[:2] == (asked.number, asked.seq):  # the same answer
            line = match.view(seat).line
            text = present.encode(advice.hint_message(known[2], line, conn.lang, asked.seq))
            asyncio.get_running_loop().call_soon(conn.deliver, text)  # after the "ok"
            return
        if seat in live.hinting:
            raise UserError("hint_busy")
        address = address_key(conn.address)
        scheduler = self.runtime.scheduler
        try:
            if scheduler.hinting(address):  # refused before a token is spent
                raise Refused("hint_address_busy")
            self.budget.take(address)
            view = match.view(seat)
            seed = bots.decision_seed(live.state.seed_of(asked.number), asked.seq, seat)
            iterations = self.runtime.settings.analysis_iterations
            answer = scheduler.run_hint(
                live.id, address, advice.hint_entries, view, iterations, seed
            )
        except Refused as refusal:
            raise UserError(refusal.code, **refusal.values) from None
        live.hinting.add(seat)
        work = self._work_out(live, conn, asked, view, answer)
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _work_out(
        self,
        live: LiveTable,
        conn: Socket,
        asked: AskHint,
        view: PlayerView,
        answer: asyncio.Future[Any],
    ) -> None:
        try:
            entries: list[dict[str, Any]] = await answer
        except Exception:  # the analysis failed: say so to the one who asked
            log.exception("table %s: a hint could not be worked out", live.id)
            error = UserError("hint_failed")
            message = {"type": "error", "code": error.code, "message": error.message(conn.lang)}
            conn.deliver(present.encode(message))
            return
        finally:
            live.hinting.discard(asked.seat)
        live.hinted[asked.seat] = (asked.number, asked.seq, entries)
        state = live.state
        if (len(state.matches) - 1, state.seq) == (asked.number, asked.seq):
            message = advice.hint_message(entries, view.line, conn.lang, asked.seq)
            conn.deliver(present.encode(message))
