"""The players of the terminal's seats: the bot of a seat, made afresh with its own seed for
every decision, so a saved match goes on as it would have without the save."""

from __future__ import annotations

from .. import bots
from ..actions import Action
from ..match import Match
from ..view import PlayerView

__all__ = ["SeededBot"]


class SeededBot:
    """A seat's bot (``draw_dominoes.game.Player``): each decision is made by a bot created
    for it with ``bots.decision_seed``, so the same position gets the same answer after a
    resume or a take-back."""

    def __init__(self, name: str, match: Match) -> None:
        self.name = name
        self.match = match

    def decider(self, seat: int) -> bots.Bot:
        """The bot for ``seat``'s decision now: made before a worker thread thinks with it,
        so a take-back meanwhile cannot change its seed."""
        seed = bots.decision_seed(self.match.seed, self.match.ply(), seat)
        return bots.create_for_play(self.name, seed=seed)

    def choose(self, view: PlayerView) -> Action:
        assert view.player is not None  # a bot plays from its own seat's view
        return self.decider(view.player).choose(view)
