"""Learned playouts: every legal action played out by the network, in many determinizations
at once on the batched rules (the expert's ``playout="learned"``).

A search that plays its rounds out one move at a time can afford the network only for a
few moves a decision (half a millisecond a call); here the rounds of every (world,
action) pair step together, so each step is one network call for all of them. Every seat
of a playout is played by the network from its own observation of the world, the best
valued action each time; forced moves skip the network.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..envs.batch import BatchRounds
from ..round import Round
from .features import best_pairs, pair_features
from .network import Network

__all__ = ["playout_points"]

Floats = npt.NDArray[np.float64]


def playout_points(
    network: Network,
    worlds: Sequence[Round],
    weights: Sequence[float],
    actions: Sequence[Action],
    seat: int,
    *,
    horizon: bool = False,
) -> Floats:
    """The points ``seat`` gets (its credit less the others' mean) after each of
    ``actions``, averaged over ``worlds`` (all at ``seat``'s turn) by their ``weights``,
    each world played out once for every action (the same worlds for every action, so
    their differences are measured on the same deals). With ``horizon`` a playout stops
    at ``seat``'s next choice of more than one action, valued by the network there."""
    count, width = len(worlds), len(actions)
    env = BatchRounds(worlds[0].players, count * width)
    rows = np.arange(count * width, dtype=np.int64)
    env.load(rows, [world for _ in actions for world in worlds])
    ids = np.repeat(np.array([action.id for action in actions], dtype=np.int64), count)
    _, ended = env.apply(rows, ids)
    active = rows[~ended]
    points = np.zeros(len(rows), dtype=np.float64)
    valued = np.zeros(len(rows), dtype=bool)
    while active.size:
        mask = env.legal(active)
        chosen = mask.argmax(axis=1)
        free = mask.sum(axis=1) > 1
        if horizon and free.any():
            # At the seat's next choice its own view ends the playout: the network's
            # value of its best action there stands for the rest of the round.
            mine = free & (env.current[active] == seat)
            if mine.any():
                leaves = active[mine]
                _, values = _best(network, env, leaves, mask[mine])
                points[leaves] = values
                valued[leaves] = True
                keep = ~mine
                active, mask, chosen, free = active[keep], mask[keep], chosen[keep], free[keep]
                if not active.size:
                    break
        if free.any():
            chosen[free], _ = _best(network, env, active[free], mask[free])
        _, ended = env.apply(active, chosen.astype(np.int64))
        active = active[~ended]
    finished = rows[~valued]
    points[finished] = env.relative(finished, np.full(len(finished), seat, dtype=np.int64))
    odds = np.asarray(weights, dtype=np.float64)
    result: Floats = points.reshape(width, count) @ (odds / odds.sum())
    return result


def _best(
    network: Network, env: BatchRounds, rows: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The best valued legal id of each row for its seat to act, and its value."""
    pair_rows, pair_ids, features = pair_features(env.observations(env.current[rows], rows), mask)
    values = network.value(features)
    best = best_pairs(pair_rows, values)
    return pair_ids[best], values[best]
