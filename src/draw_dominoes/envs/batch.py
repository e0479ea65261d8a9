"""Many rounds stepped at once with numpy: the rules of ``round.py`` over arrays (vector env).

Each row is one round, dealt as the engine deals it (``load`` a ``Round``, or ``deal``
the tile order of ``round.deal_order``) and then played here: legal masks, placements,
draws, passes and the settlement (R5-R7, R14-R17) are array operations over every row
at once, as pgx does it, instead of one Python call a round. A test plays the same
actions in both and checks every mask, observation and outcome.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..actions import DRAW, PASS, Action, Place
from ..legal import EMPTY, LAST_DRAW, OPEN_END, PLAYABLE, ends_values
from ..round import Round
from ..rules import RULES
from ..tiles import ALL_TILES, TILE_COUNT, VALUE_MASKS, VALUES
from .encoding import (
    DRAW_ID,
    MAX_SEATS,
    NUM_ACTIONS,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    PASS_ID,
    STATE_FIELDS,
    STATE_SIZE,
)

__all__ = ["GREEDY_RANK", "BatchRounds", "greedy_choice", "random_choice"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_TILES: Final = TILE_COUNT
_SHIFT: Final = np.arange(_TILES, dtype=np.int64)
_BIT: Final = np.int64(1) << _SHIFT
_LOW: Final = np.array([t.low for t in ALL_TILES], dtype=np.int64)
_HIGH: Final = np.array([t.high for t in ALL_TILES], dtype=np.int64)
_PIPS: Final = np.array([t.pips for t in ALL_TILES], dtype=np.int64)


def _by_end_value(opened: int) -> Ints:
    """Per end value, the tiles (a bitmask) that fit an end showing it; the row of
    ``OPEN_END`` (an end of the empty line) holds ``opened``."""
    return np.array(
        [VALUE_MASKS[v] if v != OPEN_END else opened for v in range(OPEN_END + 1)],
        dtype=np.int64,
    )


# Rows keep the line's two ends apart, as end values (``OPEN_END`` for the empty line),
# where the engine keeps one code: every tile opens the line at end 0, none fits end 1.
_FITS0_MASK: Final = _by_end_value(PLAYABLE[EMPTY])
"""``_FITS0_MASK[v]``: the tiles that can go at end 0 when it shows ``v``."""
_FITS1_MASK: Final = _by_end_value(0)
_FITS0: Final = ((_FITS0_MASK[:, None] >> _SHIFT) & 1).astype(bool)
"""``_FITS0_MASK`` as booleans, a row per end value."""
_FITS1: Final = ((_FITS1_MASK[:, None] >> _SHIFT) & 1).astype(bool)
_ENDS_OF_CODE: Final = np.array(
    [ends_values(code) for code in range(EMPTY)] + [(OPEN_END, OPEN_END)], dtype=np.int64
)
"""``[ends code]``: the two end values of the engine's code."""


def _greedy_rank(action: Action) -> int:
    """Where ``action`` stands in the ``greedy`` bot's order (``GreedyBot.choose_among``):
    the heaviest tile first, then the higher tile, then end 0 before end 1; a draw and a
    pass below every placement (they are never legal together). A test checks that the
    highest legal rank is the bot's choice on random positions."""
    if isinstance(action, Place):
        tile = action.tile
        return tile.pips * 1000 + tile.index * 2 + (1 - (action.end or 0))
    return -1 if action is DRAW else -2


_BY_ID: Final[tuple[Action, ...]] = (
    *(Place(tile, end) for tile in ALL_TILES for end in (0, 1)),
    DRAW,
    PASS,
)
GREEDY_RANK: Final = tuple(map(_greedy_rank, _BY_ID))
"""``_greedy_rank`` by action id (an opening ranks as its tile's end-0 id, which is its id):
the one table of the greedy order, for the batched rules and the Gymnasium opponents."""
_GREEDY: Final = np.array(GREEDY_RANK, dtype=np.int64)
_AT: Final = {field.name: field.offset for field in OBSERVATION_FIELDS}
_STATE_AT: Final = {field.name: field.offset for field in STATE_FIELDS}
_VALUES: Final = np.arange(VALUES, dtype=np.int64)


def _bits(masks: Ints) -> Bools:
    """Tile bitmasks (any shape) as booleans with a last axis of one a tile."""
    return ((masks[..., None] >> _SHIFT) & 1).astype(bool)


class BatchRounds:
    """``size`` rounds of ``players`` seats; row ``i`` is loaded from a dealt ``Round``."""

    def __init__(self, players: int, size: int) -> None:
        self.players, self.size = players, size
        self.hands = np.zeros((size, MAX_SEATS), dtype=np.int64)
        self.stock = np.zeros((size, _TILES), dtype=np.int64)
        self.drawn = np.zeros(size, dtype=np.int64)
        self.ends = np.full((size, 2), OPEN_END, dtype=np.int64)
        self.current = np.zeros(size, dtype=np.int64)
        self.leader = np.zeros(size, dtype=np.int64)
        self.passes = np.zeros(size, dtype=np.int64)
        self.lacks = np.zeros((size, MAX_SEATS), dtype=np.int64)
        self.line = np.zeros(size, dtype=np.int64)
        self.draws = np.zeros((size, MAX_SEATS), dtype=np.int64)
        self.over = np.zeros(size, dtype=bool)
        self.winner = np.full(size, -1, dtype=np.int64)
        self.points = np.zeros(size, dtype=np.int64)
        self._hands = self.hands.reshape(-1)
        """``hands`` flat: ``row * MAX_SEATS + seat`` indexes one hand (a cheaper gather)."""
        self._draws = self.draws.reshape(-1)
        self._lacks = self.lacks.reshape(-1)
        self._stock = self.stock.reshape(-1)
        self._opening_row = self._opening()

    def load(self, rows: Ints, rounds: list[Round]) -> None:
        """Rows ``rows`` become ``rounds``: rounds just dealt or part played (not over), with
        every hand and the boneyard's order as they stand (a determinization, for search)."""
        if any(round_.is_over for round_ in rounds):
            raise ValueError("only rounds still being played can be loaded")
        n = self.players
        fields = [round_.fields() for round_ in rounds]
        hands = np.zeros((len(rounds), MAX_SEATS), dtype=np.int64)
        hands[:, :n] = [f.hands for f in fields]
        self.hands[rows] = hands
        drawn = np.array([f.drawn for f in fields], dtype=np.int64)
        stock = np.zeros((len(rounds), _TILES), dtype=np.int64)
        for j, round_ in enumerate(rounds):
            stock[j, drawn[j] :] = [t.index for t in round_.boneyard]
        self.stock[rows] = stock
        self.drawn[rows] = drawn
        self.ends[rows] = _ENDS_OF_CODE[[f.ends for f in fields]]
        self.current[rows] = [f.current for f in fields]
        self.leader[rows] = [f.leader for f in fields]
        self.passes[rows] = [round_.consecutive_passes for round_ in rounds]
        lacks = np.zeros((len(rounds), MAX_SEATS), dtype=np.int64)
        lacks[:, :n] = [f.lacks for f in fields]
        self.lacks[rows] = lacks
        self.line[rows] = [f.line for f in fields]
        draws = np.zeros((len(rounds), MAX_SEATS), dtype=np.int64)
        draws[:, :n] = [f.draws for f in fields]
        self.draws[rows] = draws
        self.points[rows] = 0
        self.over[rows] = False
        self.winner[rows] = -1

    def deal(self, rows: Ints, orders: Ints, leaders: Ints) -> None:
        """Rows ``rows`` start new rounds: ``orders[j]`` holds the 28 tile indices in deal
        order (the hands, then the boneyard, as ``round.deal_order`` gives them) and
        ``leaders[j]`` the seat that leads; what ``load`` makes of the same rounds."""
        n = self.players
        size = RULES.hand_size(n)
        hands = np.zeros((len(rows), MAX_SEATS), dtype=np.int64)
        hands[:, :n] = _BIT[orders[:, : n * size].reshape(len(rows), n, size)].sum(axis=2)
        self.hands[rows] = hands
        self.stock[rows] = orders
        self.stock[rows, : n * size] = 0
        self.drawn[rows] = n * size
        self.ends[rows] = OPEN_END
        self.current[rows] = self.leader[rows] = leaders
        for state in (self.passes, self.lacks, self.line, self.draws, self.points):
            state[rows] = 0
        self.over[rows] = False
        self.winner[rows] = -1

    def open_rounds(self, rows: Ints, runs: Ints, tiles: Ints) -> None:
        """Rows just dealt (``deal``) where the leader plays at once: it draws ``runs[j]``
        tiles, then opens the line with tile index ``tiles[j]`` (held after the draws),
        and the next seat is to act. What ``apply`` makes of the same draws and opening."""
        n = self.players
        leaders = self.current[rows]
        at = rows * MAX_SEATS + leaders
        drawn = self.drawn[rows]
        ahead = np.arange(LAST_DRAW - RULES.hand_size(n) * n)
        taken = np.where(
            ahead < runs[:, None],
            _BIT[self._stock.take((rows * _TILES + drawn)[:, None] + ahead)],
            0,
        ).sum(axis=1)
        self._hands[at] = (self._hands.take(at) | taken) ^ _BIT[tiles]
        self.drawn[rows] = drawn + runs
        self._draws[at] = runs
        self.ends[rows, 0] = _LOW[tiles]
        self.ends[rows, 1] = _HIGH[tiles]
        self.line[rows] = _BIT[tiles]
        after = leaders + 1
        after[after == n] = 0
        self.current[rows] = after

    def legal(self, rows: Ints) -> Bools:
        """The legal-action masks (rows × 58) of the seat to move in each row (R5-R7)."""
        held = _bits(self._hands.take(rows * MAX_SEATS + self.current[rows]))
        ends = self.ends[rows]
        mask = np.empty((len(rows), NUM_ACTIONS), dtype=bool)
        np.logical_and(held, _FITS0[ends[:, 0]], out=mask[:, 0:DRAW_ID:2])
        np.logical_and(held, _FITS1[ends[:, 1]], out=mask[:, 1:DRAW_ID:2])
        mask[:, DRAW_ID] = self.drawn[rows] < LAST_DRAW
        np.logical_not(mask[:, :PASS_ID].any(axis=1), out=mask[:, PASS_ID])
        return mask

    def draw_runs(self, rows: Ints, greedy: Bools, rng: np.random.Generator) -> None:
        """The seat to act in each row draws as its bot would before it places or passes:
        ``greedy`` rows draw while they have no placement; the others (``random``) draw
        with the chance a uniform choice among the legal ids gives the draw, 1 in the
        placements plus one, tile after tile. Every run is decided at once from the
        boneyard's order, so one call stands for the whole chain of draws; the bot's
        placement or pass that follows is left to ``apply`` (draw is then never chosen)."""
        drawn = self.drawn[rows]
        room = LAST_DRAW - drawn
        longest = int(room.max()) if len(rows) else 0
        if longest <= 0:
            return
        seats = self.current[rows]
        at = rows * MAX_SEATS + seats
        hands = self._hands.take(at)
        ends = self.ends[rows]
        fit0, fit1 = _FITS0_MASK[ends[:, 0]], _FITS1_MASK[ends[:, 1]]
        ahead = np.minimum(drawn[:, None] + np.arange(longest), _TILES - 1)
        tiles = self._stock.take(ahead + (rows * _TILES)[:, None])
        held = np.empty((len(rows), longest + 1), dtype=np.int64)
        held[:, 0] = hands
        np.bitwise_or.accumulate(_BIT[tiles], axis=1, out=held[:, 1:])
        held[:, 1:] |= hands[:, None]
        choices = np.bitwise_count(held & fit0[:, None]) + np.bitwise_count(held & fit1[:, None])
        can = np.arange(longest + 1) < room[:, None]
        if greedy.all():
            draws = choices == 0
        else:
            draws = rng.random(choices.shape) * (choices + 1) < 1
            if greedy.any():
                draws = np.where(greedy[:, None], choices == 0, draws)
        draws &= can
        run = draws.argmin(axis=1)
        self._hands[at] = held[np.arange(len(rows)), run]
        self.drawn[rows] = drawn + run
        self._draws[at] += run
        self.passes[rows[run > 0]] = 0

    def apply(self, rows: Ints, ids: Ints) -> tuple[Ints, Bools]:
        """Play legal id ``ids[j]`` in row ``rows[j]`` (each row at most once a call); the
        seat to act next in each of these rows, and which rounds just ended.

        Every row goes through the same array operations whatever its action (a
        placement, a draw or a pass): a few more operations than splitting the rows by
        action, but no subsets to gather and scatter, which cost more on small batches."""
        n = self.players
        seats = self.current[rows]
        at = rows * MAX_SEATS + seats
        ends = self.ends[rows]
        end0, end1 = ends[:, 0], ends[:, 1]
        place, draw, passing = ids < DRAW_ID, ids == DRAW_ID, ids == PASS_ID
        k = ids >> 1
        k[k >= _TILES] = 0  # draw and pass: any tile, unused
        odd = (ids & 1).astype(bool)
        bit = _BIT[k] * place
        low, high = _LOW[k], _HIGH[k]
        opening = end0 == OPEN_END
        at0 = place & ~odd
        ends[:, 0] = np.where(at0, np.where(opening, low, low + high - end0), end0)
        ends[:, 1] = np.where(place & odd, low + high - end1, np.where(at0 & opening, high, end1))
        self.ends[rows] = ends
        drawn = self.drawn[rows]
        taken = _BIT[self.stock[rows, np.minimum(drawn, _TILES - 1)]] * draw
        hands = (self._hands.take(at) ^ bit) | taken
        self._hands[at] = hands
        self.line[rows] |= bit
        self.drawn[rows] = drawn + draw
        self._draws[at] += draw
        passes = (self.passes[rows] + 1) * passing
        self.passes[rows] = passes
        if passing.any():
            self._lacks[at] |= ((1 << end0) | (1 << end1)) * passing
        out = place & (hands == 0)
        blocked = passing & (passes >= n)
        ended = out | blocked
        after = seats + ~(draw | ended)
        after[after == n] = 0
        self.current[rows] = after
        if ended.any():
            self._settle(rows[ended], out[ended])
        return after, ended

    def _settle(self, rows: Ints, domino: Bools) -> None:
        """R15-R17: a domino (``domino[j]``) scores every other hand; a block, the lowest
        hand alone scores the others less itself, and a tie for lowest scores nothing."""
        n = self.players
        totals = (_bits(self.hands[rows, :n]) * _PIPS).sum(axis=2)
        everyone = totals.sum(axis=1)
        lowest = totals.min(axis=1)
        unique = (totals == lowest[:, None]).sum(axis=1) == 1
        self.over[rows] = True
        blocked = np.where(unique, totals.argmin(axis=1), -1)
        self.winner[rows] = np.where(domino, self.current[rows], blocked)
        self.points[rows] = np.where(domino, everyone, np.where(unique, everyone - 2 * lowest, 0))

    def relative(self, rows: Ints, seats: Ints) -> npt.NDArray[np.float64]:
        """The finished rounds' zero-sum reward for ``seats``: credit less the others' mean."""
        winner, points = self.winner[rows], self.points[rows].astype(np.float64)
        mine = np.where(winner == seats, points, 0.0)
        others = np.where((winner >= 0) & (winner != seats), points, 0.0)
        return mine - others / (self.players - 1)

    def credited(self, rows: Ints, seats: Ints) -> npt.NDArray[np.float64]:
        """The finished rounds' points credited to ``seats`` (the ``points`` reward)."""
        mine = np.where(self.winner[rows] == seats, self.points[rows], 0)
        return mine.astype(np.float64)

    def states(self, rows: Ints, order: bool = True) -> npt.NDArray[np.float32]:
        """Each row's full state (``encoding.state_vector`` of the same round, a test checks
        it): every hand, the boneyard's draw order (``order=False``: a 1 for each tile in
        it), the line, draws, lacks, scores (the round's credits once over) and seats."""
        size, n, at = len(rows), self.players, _STATE_AT
        out = np.zeros((size, STATE_SIZE), dtype=np.float32)
        out[:, at["hands"] : at["hands"] + MAX_SEATS * _TILES] = _bits(self.hands[rows]).reshape(
            size, -1
        )
        drawn = self.drawn[rows]
        place = _SHIFT - drawn[:, None] + 1  # 1 = drawn next
        row, column = np.nonzero(place > 0)
        tiles = self.stock[rows[row], column]
        out[row, at["boneyard"] + tiles] = place[row, column] if order else 1
        out[:, at["line"] : at["line"] + _TILES] = _bits(self.line[rows])
        ends = self.ends[rows]
        opened = ends[:, 0] != OPEN_END
        index = np.arange(size)
        out[index[opened], at["end0"] + ends[opened, 0]] = 1
        out[index[opened], at["end1"] + ends[opened, 1]] = 1
        out[index[~opened], at["line_empty"]] = 1
        out[:, at["draws"] : at["draws"] + n] = self.draws[rows, :n]
        out[:, at["lacking"] : at["lacking"] + VALUES * n] = (
            (self.lacks[rows, :n, None] >> _VALUES) & 1
        ).reshape(size, -1)
        over, winner = self.over[rows], self.winner[rows]
        won = over & (winner >= 0)
        out[index[won], at["scores"] + winner[won]] = self.points[rows][won]
        out[:, at["seats"] : at["seats"] + n] = 1
        out[index[~over], at["to_move"] + self.current[rows][~over]] = 1
        out[index, at["leader"] + self.leader[rows]] = 1
        return out

    def openings(self, rows: Ints) -> tuple[npt.NDArray[np.float32], Bools]:
        """The leader's observation and mask in rows just dealt (``deal``, nothing played
        yet, no scores: single rounds), what ``observations`` and ``legal`` give there,
        from the hands alone: the rest of an opening's observation is the same in every
        round of ``players`` seats."""
        at, n = _AT, self.players
        hands = _bits(self._hands.take(rows * MAX_SEATS + self.current[rows]))
        obs = np.repeat(self._opening_row[None], len(rows), axis=0)
        obs[:, at["hand"] : at["hand"] + _TILES] = hands
        mask = np.zeros((len(rows), NUM_ACTIONS), dtype=bool)
        mask[:, 0:DRAW_ID:2] = hands
        mask[:, DRAW_ID] = RULES.hand_size(n) * n < LAST_DRAW
        return obs, mask

    def _opening(self) -> npt.NDArray[np.float32]:
        """An opening's observation from the leader's chair, without its hand."""
        at, n = _AT, self.players
        size = RULES.hand_size(n)
        row = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        row[at["line_empty"]] = 1
        row[at["boneyard_size"]] = _TILES - n * size
        row[at["hand_sizes"] : at["hand_sizes"] + n] = size
        row[at["seats"] : at["seats"] + n] = 1
        row[at["to_move"]] = row[at["leader"]] = 1
        return row

    def observations(self, seats: Ints, rows: Ints | None = None) -> npt.NDArray[np.float32]:
        """Each row's observation (all rows, or ``rows``) for ``seats[j]`` (the encoding of
        ``observation(view)``, built from that seat's own hand and public facts only, R21)."""
        if rows is None:
            return self._observe(np.arange(self.size), seats)
        return self._observe(rows, seats)

    def _observe(self, rows: Ints, seats: Ints) -> npt.NDArray[np.float32]:
        size, n = len(rows), self.players
        at = _AT
        ends = self.ends[rows]
        over = self.over[rows]
        obs = np.zeros((size, OBSERVATION_SIZE), dtype=np.float32)
        # Slot r is the seat r places clockwise of the viewer; absent seats stay zero.
        absolute = seats[:, None] + np.arange(n)
        absolute[absolute >= n] -= n
        seen = rows[:, None] * MAX_SEATS + absolute  # flat indices of (row, seat) pairs
        hands = self._hands.take(seen)
        obs[:, at["hand"] : at["hand"] + _TILES] = _bits(hands[:, 0])
        obs[:, at["line"] : at["line"] + _TILES] = _bits(self.line[rows])
        obs[:, at["boneyard_size"]] = _TILES - self.drawn[rows]
        obs[:, at["hand_sizes"] : at["hand_sizes"] + n] = np.bitwise_count(hands)
        obs[:, at["draws"] : at["draws"] + n] = self._draws.take(seen)
        obs[:, at["lacking"] : at["lacking"] + VALUES * n] = (
            (self._lacks.take(seen)[..., None] >> _VALUES) & 1
        ).reshape(size, -1)
        winner = self.winner[rows]
        won = over & (winner >= 0)
        if won.any():
            credits = np.where(absolute == winner[:, None], self.points[rows][:, None], 0)
            obs[:, at["scores"] : at["scores"] + n] = np.where(won[:, None], credits, 0)
        obs[:, at["seats"] : at["seats"] + n] = 1
        # The one-hot fields, four ones a row: the ends (or line_empty twice before the
        # opening), the seat to act (the leader's one again once over) and the leader.
        opened = ends[:, 0] != OPEN_END
        leader = self.leader[rows] - seats
        leader[leader < 0] += n
        mover = self.current[rows] - seats
        mover[mover < 0] += n
        ones = np.empty((size, 4), dtype=np.int64)
        ones[:, 0] = np.where(opened, at["end0"] + ends[:, 0], at["line_empty"])
        ones[:, 1] = np.where(opened, at["end1"] + ends[:, 1], at["line_empty"])
        ones[:, 3] = at["leader"] + leader
        ones[:, 2] = np.where(over, ones[:, 3], at["to_move"] + mover)
        ones += (np.arange(size) * OBSERVATION_SIZE)[:, None]
        obs.reshape(-1)[ones] = 1
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
