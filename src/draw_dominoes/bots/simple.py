"""The two simplest bots: ``random`` (uniform over legal actions) and ``greedy`` (heaviest tile)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actions import Action, Draw, Pass, Place
from ..view import PlayerView
from .options import NoOptions, options_of
from .registry import seeded, turn_actions

__all__ = ["GreedyBot", "OptionlessBot", "RandomBot"]


class OptionlessBot:
    """What the bots without options share: any option is refused, and each has its own rng."""

    name: str

    def __init__(
        self, seed: int | random.Random = 0, *, options: NoOptions | None = None, **given: Any
    ) -> None:
        options_of(self.name, NoOptions, given, options)
        self.rng = seeded(seed)


class RandomBot(OptionlessBot):
    """Chooses uniformly among the legal actions: the baseline every bot must beat."""

    name = "random"

    def choose(self, view: PlayerView) -> Action:
        return self.rng.choice(turn_actions(view))

    def choose_among(self, legal: Sequence[Action]) -> Action:
        """The choice ``choose`` makes from a view with these legal actions (in the
        engine's order), for environments that would rather not build the view."""
        if not legal:
            raise ValueError("there is no legal action to choose from")
        return self.rng.choice(legal)


class GreedyBot(OptionlessBot):
    """Places its heaviest playable tile; draws only when it must, passes only when it must.

    Ties go to the higher tile, then to end 0: deterministic, so the seed does not matter.
    """

    name = "greedy"

    def choose(self, view: PlayerView) -> Action:
        return self.choose_among(turn_actions(view))

    def choose_among(self, legal: Sequence[Action]) -> Action:
        """The choice ``choose`` makes from a view with these legal actions (it needs
        nothing else), for environments that would rather not build the view."""
        if not legal:
            raise ValueError("there is no legal action to choose from")
        places = [a for a in legal if isinstance(a, Place)]
        if places:
            return max(places, key=lambda a: (a.tile.pips, a.tile.index, -(a.end or 0)))
        for action in legal:
            if isinstance(action, Draw | Pass):
                return action
        raise AssertionError("legal actions hold a placement, a draw or a pass")
