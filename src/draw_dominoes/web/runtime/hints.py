"""Hints at the tables this process owns: worked out in the bot pool from the seat's view."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ... import bots
from ...match import Match
from .. import advice, present
from ..table import AskHint, UserError
from .live import Connection, LiveTable

if TYPE_CHECKING:
    from .runtime import TableRuntime

__all__ = ["Hints"]

log = logging.getLogger(__name__)


class Hints:
    """The seat to move asked what the analysis would play. The answer, worked out in the
    bot pool from this seat's own view (R21), goes to the asking connection alone."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.runtime = runtime
        self.tasks: set[asyncio.Task[None]] = set()

    def ask(self, live: LiveTable, conn: Connection | None, asked: AskHint) -> None:
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
        live.hinting.add(seat)
        task = asyncio.get_running_loop().create_task(self._work_out(live, conn, asked, match))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _work_out(
        self, live: LiveTable, conn: Connection, asked: AskHint, match: Match
    ) -> None:
        runtime = self.runtime
        view = match.view(asked.seat)
        try:
            seed = bots.decision_seed(live.state.seed_of(asked.number), asked.seq, asked.seat)
            entries = await runtime.scheduler.run(
                live.id, advice.hint_entries, view, runtime.settings.analysis_iterations, seed
            )
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
