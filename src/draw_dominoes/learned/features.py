"""The learned bot's input: one decision's observation joined with each of its legal actions.

A row of ``pair_features`` describes one (position, action) pair as the seat to act sees
it (R21: the observation of ``envs.encoding`` and nothing else): the observation, scaled
to 0…1, and what the action leaves behind: the tile placed, the hand after it, the values
at the line's ends after it, how many of the seat's remaining tiles follow each of them,
and whether it draws or passes. Training (on ``envs.batch``) and play (on one view) build
the rows here, so the network sees the same numbers in both.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..envs.encoding import NUM_ACTIONS, OBSERVATION_FIELDS, OBSERVATION_HIGH, OBSERVATION_SIZE
from ..tiles import ALL_TILES

__all__ = ["FEATURES", "FEATURES_VERSION", "best_pairs", "pair_features"]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]

FEATURES_VERSION: Final = 1
"""Bumped whenever a feature changes: weights trained on another version are refused."""

_TILES: Final = len(ALL_TILES)
_AT: Final = {field.name: field.offset for field in OBSERVATION_FIELDS}
_LOW: Final = np.array([t.low for t in ALL_TILES], dtype=np.int64)
_HIGH: Final = np.array([t.high for t in ALL_TILES], dtype=np.int64)
_PIPS: Final = np.array([t.pips for t in ALL_TILES], dtype=np.float32) / 12
_DOUBLE: Final = (_LOW == _HIGH).astype(np.float32)
_HAS: Final = np.array([[v in (t.low, t.high) for v in range(7)] for t in ALL_TILES], np.float32)
"""``_HAS[k, v]``: tile ``k`` shows value ``v``."""
_SCALE: Final = np.where(OBSERVATION_HIGH > 0, 1 / OBSERVATION_HIGH, 0).astype(np.float32)
_SCORES: Final = slice(_AT["scores"], _AT["scores"] + 4)
_EXTRA: Final = _TILES + _TILES + 7 + 2 + 2 + 2
FEATURES: Final = OBSERVATION_SIZE + _EXTRA
"""The width of a row: the observation, then tile, hand after, ends after, follow-ups
(two), draw and pass, pips and double."""
_DRAW: Final = NUM_ACTIONS - 2


def pair_features(obs: Floats, mask: npt.NDArray[np.bool_]) -> tuple[Ints, Ints, Floats]:
    """Every legal (row, action id) of ``mask`` (rows × 58) with its features: the rows,
    the ids and the feature rows, in row-major order of ``mask``.

    ``obs`` holds the raw observations (rows × ``OBSERVATION_SIZE``). The match scores are
    left out: the network values a round, whatever the match stands at."""
    rows, ids = np.nonzero(mask)
    rows, ids = rows.astype(np.int64), ids.astype(np.int64)
    base = obs[rows] * _SCALE
    base[:, _SCORES] = 0
    count = len(rows)
    out = np.zeros((count, FEATURES), dtype=np.float32)
    out[:, :OBSERVATION_SIZE] = base
    place = ids < _DRAW
    tile = np.where(place, ids >> 1, 0)
    at = OBSERVATION_SIZE
    hand = base[:, _AT["hand"] : _AT["hand"] + _TILES]
    out[place, at + tile[place]] = 1
    after = hand.copy()
    after[place, tile[place]] = 0
    out[:, at + _TILES : at + 2 * _TILES] = after
    at += 2 * _TILES
    empty = base[:, _AT["line_empty"]] > 0
    end0 = np.argmax(base[:, _AT["end0"] : _AT["end0"] + 7], axis=1)
    end1 = np.argmax(base[:, _AT["end1"] : _AT["end1"] + 7], axis=1)
    low, high = _LOW[tile], _HIGH[tile]
    odd = (ids & 1).astype(bool)
    new0 = np.where(place & ~odd, np.where(empty, low, low + high - end0), end0)
    new1 = np.where(place & odd, low + high - end1, np.where(place & empty, high, end1))
    open_after = place | ~empty
    index = np.arange(count)
    ends = np.zeros((count, 7), dtype=np.float32)
    np.add.at(ends, (index[open_after], new0[open_after]), 1)
    np.add.at(ends, (index[open_after], new1[open_after]), 1)
    out[:, at : at + 7] = ends
    at += 7
    follows = after @ _HAS  # per value: the seat's remaining tiles showing it
    out[:, at] = np.where(open_after, follows[index, new0], 0) / 7
    out[:, at + 1] = np.where(open_after, follows[index, new1], 0) / 7
    out[:, at + 2] = ids == _DRAW
    out[:, at + 3] = ids == _DRAW + 1
    out[:, at + 4] = np.where(place, _PIPS[tile], 0)
    out[:, at + 5] = np.where(place, _DOUBLE[tile], 0)
    return rows, ids, out


def best_pairs(rows: Ints, values: npt.NDArray[np.float32]) -> Ints:
    """For ``pair_features``'s rows (sorted) and the network's values of them, the index
    of each row's best valued pair (ties: the lowest action id, the first listed)."""
    order = np.lexsort((-values, rows))
    firsts: Ints = order[np.flatnonzero(np.r_[True, rows[order][1:] != rows[order][:-1]])]
    return firsts
