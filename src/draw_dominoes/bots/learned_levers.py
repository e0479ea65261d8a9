"""The learned network inside the expert's search: a prior of the root's actions, the value
of a leaf instead of its playout, and playouts by the network itself. numpy is imported
only when a lever is used."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..actions import Action
from ..round import Round
from ..view import PlayerView

if TYPE_CHECKING:
    from ..learned.network import Network

__all__ = ["LEAF_SCALE", "leaf_value", "playout_values", "prior_of"]

LEAF_SCALE = 50.0
"""Points a round worth a reward of 1: a 50-point swing is 1 for the match-aware rewards."""

Evaluate = Callable[[Round], list[float] | None]


def _network() -> Network:
    try:
        from ..learned.bot import shipped_network
    except ImportError as error:
        raise ValueError(
            f"the expert's learned levers need numpy ({error}): pip install 'draw-dominoes[rl]'"
        ) from None
    return shipped_network()


def prior_of(view: PlayerView, weight: float) -> dict[Action, float]:
    """Each legal action's bias: ``weight`` times how many points (over ``LEAF_SCALE``) the
    network expects it to fall short of the best one (the best: 0)."""
    from ..learned.bot import values_of

    values = values_of(_network(), view)
    best = max(values.values())
    return {action: weight * (value - best) / LEAF_SCALE for action, value in values.items()}


def leaf_value(first: Evaluate | None) -> Evaluate:
    """An ``evaluate`` for the search: ``first``'s answer (an exact endgame) if it has one,
    else every seat's reward from the network's value of the mover's best action (the
    mover's points less the others' mean, shared out among the others)."""
    from ..learned.bot import values_of

    network = _network()

    def evaluate(round_: Round) -> list[float] | None:
        if first is not None:
            exact = first(round_)
            if exact is not None:
                return exact
        mover = round_.current_player
        best = max(values_of(network, round_.view(mover)).values())
        value = max(-1.0, min(1.0, best / LEAF_SCALE))
        n = round_.players
        out = [-value / (n - 1)] * n
        out[mover] = value
        return out

    return evaluate


def playout_values(
    worlds: Sequence[Round],
    weights: Sequence[float],
    actions: Sequence[Action],
    seat: int,
    horizon: bool = False,
) -> list[float]:
    """The points ``seat`` can expect from each of ``actions``: the weighted mean of
    ``worlds`` played out by the network after it (``learned.playouts``)."""
    from ..learned.playouts import playout_points

    points = playout_points(_network(), worlds, weights, actions, seat, horizon=horizon)
    return [float(v) for v in points]
