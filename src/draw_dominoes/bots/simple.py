"""The two simplest bots: ``random`` (uniform over legal actions) and ``greedy`` (heaviest tile)."""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action, Draw, Pass, Place
from ..view import PlayerView
from . import _rng, register


def _no_options(name: str, options: dict[str, Any]) -> None:
    if options:
        raise ValueError(f"the {name} bot takes no options, got {', '.join(sorted(options))}")


class RandomBot:
    """Chooses uniformly among the legal actions: the baseline every bot must beat."""

    name = "random"

    def __init__(self, seed: int | random.Random = 0, **options: Any) -> None:
        _no_options(self.name, options)
        self.rng = _rng(seed)

    def choose(self, view: PlayerView) -> Action:
        if not view.legal_actions:
            raise ValueError(f"it is not player {view.player}'s turn")
        return self.rng.choice(view.legal_actions)


class GreedyBot:
    """Places its heaviest playable tile; draws only when it must, passes only when it must.

    Ties go to the higher tile, then to end 0: deterministic, so the seed does not matter.
    """

    name = "greedy"

    def __init__(self, seed: int | random.Random = 0, **options: Any) -> None:
        _no_options(self.name, options)
        self.rng = _rng(seed)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"it is not player {view.player}'s turn")
        places = [a for a in legal if isinstance(a, Place)]
        if places:
            return max(places, key=lambda a: (a.tile.pips, a.tile.index, -(a.end or 0)))
        for action in legal:
            if isinstance(action, Draw | Pass):
                return action
        raise AssertionError("legal actions hold a placement, a draw or a pass")


register("random", RandomBot)
register("greedy", GreedyBot)
