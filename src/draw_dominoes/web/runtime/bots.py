"""Bot turns at the tables this process owns: one task a table, moves through ``step``."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ... import bots
from ..table import intents as i
from .live import LiveTable

if TYPE_CHECKING:
    from .runtime import TableRuntime

__all__ = ["BotTurns"]

log = logging.getLogger(__name__)


class BotTurns:
    """Plays bot turns until a person is to move; search bots think in worker processes."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.runtime = runtime

    def schedule(self, live: LiveTable) -> None:
        if live.bot_task is not None or live.state.bot_to_move() is None:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._run(live))

    async def _run(self, live: LiveTable) -> None:
        """A failing turn (a bot error, a refused database write) is logged, reported to
        the table's clients and tried again after a growing pause: the table never freezes."""
        runtime = self.runtime
        settings = runtime.settings
        failures = 0
        try:
            while runtime.owns(live):
                try:
                    if not await self._turn(live):
                        return
                    failures = 0
                except Exception:  # anything a bot or the database raised: retry below
                    failures += 1
                    log.exception("table %s: bot turn failed (attempt %d)", live.id, failures)
                    runtime.report_error(live, "bot_failed")
                    pause = settings.retry_delay * 2 ** (failures - 1)
                    await asyncio.sleep(min(settings.max_retry_delay, pause))
        finally:
            live.bot_task = None

    async def _turn(self, live: LiveTable) -> bool:
        """One bot move if a bot is to move; False when it is nobody's or a person's turn."""
        runtime = self.runtime
        state = live.state
        seat = state.bot_to_move()
        match = state.match
        if seat is None or match is None:
            return False
        round_start = bool(match.rounds) and not match.current_round.history
        delay = runtime.settings.bot_delay
        if delay:
            await asyncio.sleep(delay * (2 if round_start else 1))
        now = live.state
        if now.bot_to_move() != seat or now.seq != state.seq or now.takebacks != state.takebacks:
            return True  # the person came back while the bot waited: look again
        number = len(state.matches) - 1
        decision = bots.decision_seed(state.seed_of(number), state.seq, seat)
        view = match.view(seat)
        level, owner = state.level_of(seat), state.solo_address()
        action = await runtime.scheduler.decide(live.id, level, decision, view, owner)
        await runtime.apply(live, i.BotMove(number, state.seq, action, state.takebacks), seat)
        return True
