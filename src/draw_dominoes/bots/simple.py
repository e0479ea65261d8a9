"""The two simplest bots: ``random`` (uniform over legal actions) and ``greedy`` (heaviest tile)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actions import Action, Draw, Pass, Place
from ..view import PlayerView
from . import _rng, check_options, register, turn_actions


class RandomBot:
    """Chooses uniformly among the legal actions: the baseline every bot must beat."""

    name = "random"

    def __init__(self, seed: int | random.Random = 0, **options: Any) -> None:
        check_options(self.name, options, set())
        self.rng = _rng(seed)

    def choose(self, view: PlayerView) -> Action:
        return self.rng.choice(turn_actions(view))

    def choose_among(self, legal: Sequence[Action]) -> Action:
        """The choice ``choose`` makes from a view with these legal actions (in the
        engine's order), for environments that would rather not build the view."""
        if not legal:
            raise ValueError("there is no legal action to choose from")
        return self.rng.choice(legal)


class GreedyBot:
    """Places its heaviest playable tile; draws only when it must, passes only when it must.

    Ties go to the higher tile, then to end 0: deterministic, so the seed does not matter.
    """

    name = "greedy"

    def __init__(self, seed: int | random.Random = 0, **options: Any) -> None:
        check_options(self.name, options, set())
        self.rng = _rng(seed)

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


register("random", RandomBot)
register("greedy", GreedyBot)
