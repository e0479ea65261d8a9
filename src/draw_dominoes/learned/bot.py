"""The ``learned`` bot: the action whose (position, action) row the network values most."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import numpy as np

from ..actions import Action
from ..bots.learned import LearnedOptions
from ..bots.options import options_of
from ..bots.registry import turn_actions
from ..envs.encoding import NUM_ACTIONS, action_id, id_to_action, observation
from ..view import PlayerView
from .features import pair_features
from .network import Network

__all__ = ["SHIPPED", "LearnedBot", "shipped_network", "values_of"]

SHIPPED = Path(__file__).parent / "weights" / "learned.npz"
"""The weights in the package, trained by ``draw-dominoes train`` (docs/learned.md)."""


@functools.cache
def shipped_network(path: Path = SHIPPED) -> Network:
    """The network at ``path``, read once a process."""
    return Network.load(path)


def values_of(network: Network, view: PlayerView) -> dict[Action, float]:
    """The points the network expects from each legal action of the view's seat."""
    legal = turn_actions(view)
    mask = np.zeros((1, NUM_ACTIONS), dtype=bool)
    ids = {action_id(action): action for action in legal}
    mask[0, list(ids)] = True
    _, order, rows = pair_features(observation(view)[None, :], mask)
    values = network.value(rows)
    return {ids[int(i)]: float(v) for i, v in zip(order, values, strict=True)}


class LearnedBot:
    """Sees only its view (R21); deterministic: the seed is kept for the registry's sake.
    Option ``weights`` (``LearnedOptions``) names another weights file than the shipped one."""

    name = "learned"

    def __init__(
        self, seed: int | random.Random = 0, *, options: LearnedOptions | None = None, **given: Any
    ) -> None:
        self.options = options_of(self.name, LearnedOptions, given, options)
        weights = self.options.weights
        self.network = shipped_network() if weights is None else Network.load(Path(weights))

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        if len(legal) == 1:
            return legal[0]
        values = values_of(self.network, view)
        best = max(values.values())
        # Ties (rare in floats) go to the lowest id: the same choice on every machine.
        chosen = min(action_id(a) for a, v in values.items() if v == best)
        return id_to_action(chosen, view.line.is_empty)
