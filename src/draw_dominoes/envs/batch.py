"""Many rounds stepped at once with numpy: the rules of ``round.py`` over arrays (vector env).

Each row is one round, dealt by the engine (``Round.new``) and then played here: legal
masks, placements, draws, passes and the settlement (R5-R7, R14-R17) are array
operations over every row at once, as pgx does it, instead of one Python call a round.
A test plays the same actions in both and checks every mask, observation and outcome.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..round import Round
from ..tiles import ALL_TILES, VALUE_MASKS
from .encoding import MAX_SEATS, NUM_ACTIONS, OBSERVATION_FIELDS, OBSERVATION_SIZE

__all__ = ["BatchRounds", "greedy_choice", "random_choice"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_TILES: Final = len(ALL_TILES)
_EMPTY: Final = 7
"""An end value of 7 stands for the empty line: every tile opens it, none fits end 1."""
_LAST_DRAW: Final = _TILES - 2
"""Draws stop when 26 of the 28 slots are dealt or drawn (R2)."""
_SHIFT: Final = np.arange(_TILES, dtype=np.int64)
_BIT: Final = np.int64(1) << _SHIFT
_LOW: Final = np.array([t.low for t in ALL_TILES], dtype=np.int64)
_HIGH: Final = np.array([t.high for t in ALL_TILES], dtype=np.int64)
_PIPS: Final = np.array([t.pips for t in ALL_TILES], dtype=np.int64)
_FITS0: Final = np.array(
    [[(VALUE_MASKS[v] >> k) & 1 for k in range(_TILES)] for v in range(7)] + [[1] * _TILES],
    dtype=bool,
)
"""``_FITS0[v]``: the tiles that can go at end 0 when it shows ``v`` (7: the opening)."""
_FITS1: Final = np.array(
    [[(VALUE_MASKS[v] >> k) & 1 for k in range(_TILES)] for v in range(7)] + [[0] * _TILES],
    dtype=bool,
)
_GREEDY: Final = np.array(
    [t.pips * 1000 + t.index * 2 + (1 - end) for t in ALL_TILES for end in (0, 1)] + [-1, -2],
    dtype=np.int64,
)
"""The ``greedy`` bot's order of the ids: heaviest tile, then the higher tile, then end 0;
draw above pass, both below every placement."""
_AT: Final = {field.name: field.offset for field in OBSERVATION_FIELDS}


def _bits(masks: Ints) -> Bools:
    """Tile bitmasks (any shape) as booleans with a last axis of 28."""
    return ((masks[..., None] >> _SHIFT) & 1).astype(bool)


class BatchRounds:
    """``size`` rounds of ``players`` seats; row ``i`` is loaded from a dealt ``Round``."""

    def __init__(self, players: int, size: int) -> None:
        self.players, self.size = players, size
        self.hands = np.zeros((size, MAX_SEATS), dtype=np.int64)
        self.stock = np.zeros((size, _TILES), dtype=np.int64)
        self.drawn = np.zeros(size, dtype=np.int64)
        self.ends = np.full((size, 2), _EMPTY, dtype=np.int64)
        self.current = np.zeros(size, dtype=np.int64)
        self.leader = np.zeros(size, dtype=np.int64)
        self.passes = np.zeros(size, dtype=np.int64)
        self.lacks = np.zeros((size, MAX_SEATS), dtype=np.int64)
        self.line = np.zeros(size, dtype=np.int64)
        self.draws = np.zeros((size, MAX_SEATS), dtype=np.int64)
        self.over = np.zeros(size, dtype=bool)
        self.winner = np.full(size, -1, dtype=np.int64)
        self.points = np.zeros(size, dtype=np.int64)

    def load(self, rows: Ints, games: list[Round]) -> None:
        """Rows ``rows`` become ``games``, rounds just dealt (nothing played yet)."""
        if any(game.actions for game in games):
            raise ValueError("only rounds just dealt can be loaded")
        n = self.players
        dealt = _TILES - len(games[0].boneyard) if games else 0
        hands = np.zeros((len(games), MAX_SEATS), dtype=np.int64)
        hands[:, :n] = [[game.hand_mask(seat) for seat in range(n)] for game in games]
        self.hands[rows] = hands
        self.stock[rows, :dealt] = 0
        self.stock[rows, dealt:] = [[t.index for t in game.boneyard] for game in games]
        self.drawn[rows] = dealt
        self.ends[rows] = _EMPTY
        self.current[rows] = self.leader[rows] = [game.leader for game in games]
        for state in (self.passes, self.lacks, self.line, self.draws, self.points):
            state[rows] = 0
        self.over[rows] = False
        self.winner[rows] = -1

    def legal(self, rows: Ints) -> Bools:
        """The legal-action masks (rows × 58) of the seat to move in each row (R5-R7)."""
        held = _bits(self.hands[rows, self.current[rows]])
        ends = self.ends[rows]
        mask = np.zeros((len(rows), NUM_ACTIONS), dtype=bool)
        mask[:, 0:56:2] = held & _FITS0[ends[:, 0]]
        mask[:, 1:56:2] = held & _FITS1[ends[:, 1]]
        mask[:, 56] = self.drawn[rows] < _LAST_DRAW
        mask[:, 57] = ~mask[:, :57].any(axis=1)
        return mask

    def apply(self, rows: Ints, ids: Ints) -> None:
        """Play legal id ``ids[j]`` in row ``rows[j]`` (each row at most once a call)."""
        n = self.players
        seats = self.current[rows]
        place = ids < 56
        if place.any():
            r, s, k = rows[place], seats[place], ids[place] // 2
            end = ids[place] % 2
            self.hands[r, s] &= ~_BIT[k]
            self.line[r] |= _BIT[k]
            opening = self.ends[r, 0] == _EMPTY
            low, high = _LOW[k], _HIGH[k]
            at = self.ends[r, end]
            turned = np.where(opening, low, low + high - at)
            self.ends[r, end] = turned
            self.ends[r[opening], 1] = high[opening]
            self.ends[r[opening], 0] = low[opening]
            self.passes[r] = 0
            out = self.hands[r, s] == 0
            self._settle(r[out], domino=True)
            going = r[~out]
            self.current[going] = (self.current[going] + 1) % n
        draw = ids == 56
        if draw.any():
            r, s = rows[draw], seats[draw]
            self.hands[r, s] |= _BIT[self.stock[r, self.drawn[r]]]
            self.drawn[r] += 1
            self.draws[r, s] += 1
            self.passes[r] = 0
        passing = ids == 57
        if passing.any():
            r, s = rows[passing], seats[passing]
            self.lacks[r, s] |= (np.int64(1) << self.ends[r, 0]) | (np.int64(1) << self.ends[r, 1])
            self.passes[r] += 1
            blocked = self.passes[r] >= n
            self._settle(r[blocked], domino=False)
            going = r[~blocked]
            self.current[going] = (self.current[going] + 1) % n

    def _settle(self, rows: Ints, domino: bool) -> None:
        """R15-R17: a domino scores every other hand; a block, the lowest hand alone scores
        the others less itself, and a tie for lowest scores nothing."""
        if not len(rows):
            return
        n = self.players
        totals = (_bits(self.hands[rows, :n]) * _PIPS).sum(axis=2)
        everyone = totals.sum(axis=1)
        self.over[rows] = True
        if domino:
            self.winner[rows] = self.current[rows]
            self.points[rows] = everyone
            return
        lowest = totals.min(axis=1)
        unique = (totals == lowest[:, None]).sum(axis=1) == 1
        self.winner[rows] = np.where(unique, totals.argmin(axis=1), -1)
        self.points[rows] = np.where(unique, everyone - 2 * lowest, 0)

    def relative(self, rows: Ints, seats: Ints) -> npt.NDArray[np.float64]:
        """The finished rounds' zero-sum reward for ``seats``: credit less the others' mean."""
        winner, points = self.winner[rows], self.points[rows].astype(np.float64)
        mine = np.where(winner == seats, points, 0.0)
        others = np.where((winner >= 0) & (winner != seats), points, 0.0)
        return mine - others / (self.players - 1)

    def observations(self, seats: Ints, rows: Ints | None = None) -> npt.NDArray[np.float32]:
        """Each row's observation (all rows, or ``rows``) for ``seats[j]`` (the encoding of
        ``observation(view)``, built from that seat's own hand and public facts only, R21)."""
        if rows is None:
            return self._observe(np.arange(self.size), seats)
        return self._observe(rows, seats)

    def _observe(self, rows: Ints, seats: Ints) -> npt.NDArray[np.float32]:
        size, n = len(rows), self.players
        hands, ends = self.hands[rows], self.ends[rows]
        over, winner = self.over[rows], self.winner[rows]
        every = np.arange(size)
        obs = np.zeros((size, OBSERVATION_SIZE), dtype=np.float32)
        at = _AT
        held = _bits(hands[:, :n])
        obs[:, at["hand"] : at["hand"] + 28] = held[every, seats]
        obs[:, at["line"] : at["line"] + 28] = _bits(self.line[rows])
        opened = ends[:, 0] != _EMPTY
        obs[every[opened], at["end0"] + ends[opened, 0]] = 1
        obs[every[opened], at["end1"] + ends[opened, 1]] = 1
        obs[~opened, at["line_empty"]] = 1
        obs[:, at["boneyard_size"]] = _TILES - self.drawn[rows]
        # Slot r is the seat r places clockwise of the viewer; absent seats stay zero.
        absolute = (seats[:, None] + np.arange(n)[None, :]) % n
        picked = every[:, None]
        obs[:, at["hand_sizes"] : at["hand_sizes"] + n] = held.sum(axis=2)[picked, absolute]
        obs[:, at["draws"] : at["draws"] + n] = self.draws[rows][picked, absolute]
        lacks = self.lacks[rows][picked, absolute]
        obs[:, at["lacking"] : at["lacking"] + 7 * n] = (
            (lacks[..., None] >> np.arange(7)) & 1
        ).reshape(size, -1)
        won = over & (winner >= 0)
        if won.any():
            credits = np.zeros((size, n), dtype=np.int64)
            credits[won, winner[won]] = self.points[rows][won]
            obs[:, at["scores"] : at["scores"] + n] = credits[picked, absolute]
        obs[:, at["seats"] : at["seats"] + n] = 1
        live = ~over
        obs[every[live], at["to_move"] + (self.current[rows][live] - seats[live]) % n] = 1
        obs[every, at["leader"] + (self.leader[rows] - seats) % n] = 1
        return obs


def random_choice(mask: Bools, rng: np.random.Generator) -> Ints:
    """A uniformly random legal id in each row of ``mask``."""
    keys = np.where(mask, rng.random(mask.shape), -1.0)
    chosen: Ints = keys.argmax(axis=1).astype(np.int64)
    return chosen


def greedy_choice(mask: Bools) -> Ints:
    """The ``greedy`` bot's id in each row: its heaviest placement, else draw, else pass."""
    keys = np.where(mask, _GREEDY, np.iinfo(np.int64).min)
    chosen: Ints = keys.argmax(axis=1).astype(np.int64)
    return chosen
