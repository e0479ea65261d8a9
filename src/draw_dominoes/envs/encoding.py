"""The fixed action ids and observation tensor shared by the PettingZoo, Gymnasium and OpenSpiel
adapters.

Everything here is computed from ``round.view(seat)`` alone (R21): the encoders take a
``PlayerView``, never a ``Round``, so they cannot see an opponent's tiles or the boneyard order.

Action ids (version ``ACTION_SPACE_VERSION``):

====================  ==========================================================
id                    action
====================  ==========================================================
``2 * k``             ``ALL_TILES[k]`` at end 0, or the opening with that tile
                      when the line is empty (``Place(tile, None)``)
``2 * k + 1``         ``ALL_TILES[k]`` at end 1
``56``                ``draw``
``57``                ``pass``
====================  ==========================================================

``k`` is the tile's index in ``ALL_TILES``: [0|0]=0, [0|1]=1, … [0|6]=6, [1|1]=7, … [6|6]=27.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..actions import ACTION_IDS, DRAW, PASS, Action, Draw, Pass, Place, action_for_id
from ..legal import EMPTY, LAST_DRAW, OPENING_RUNS, RUN_MASKS, ends_values, placement_ids
from ..round import Round, RoundFields
from ..rules import RULES
from ..tiles import ALL_TILES, TILE_COUNT, UNDRAWN, VALUE_MASKS, VALUES
from ..view import PlayerView

__all__ = [
    "ACTION_SPACE_VERSION",
    "DRAW_ID",
    "F32",
    "HISTORY_ROW",
    "I8",
    "MAX_SEATS",
    "NUM_ACTIONS",
    "OBSERVATION_FIELDS",
    "OBSERVATION_HIGH",
    "OBSERVATION_SIZE",
    "OBSERVATION_VERSION",
    "ORACLE_FIELDS",
    "ORACLE_HIGH",
    "ORACLE_SIZE",
    "ORACLE_SLICE",
    "PASS_ID",
    "PRIVATE_FIELDS",
    "PRIVATE_HIGH",
    "PRIVATE_SIZE",
    "PUBLIC_FIELDS",
    "PUBLIC_HIGH",
    "PUBLIC_SIZE",
    "PUBLIC_SLICE",
    "STATE_FIELDS",
    "STATE_HIGH",
    "STATE_SIZE",
    "STATE_VERSION",
    "Field",
    "Tracker",
    "action_id",
    "action_mask",
    "action_name",
    "fast_mask",
    "fast_observation",
    "history_rows",
    "id_to_action",
    "mask_bytes",
    "max_decisions",
    "observation",
    "observation_and_mask",
    "observation_buffer",
    "observation_bytes",
    "observation_high",
    "oracle_observation",
    "private_observation",
    "public_observation",
    "state_vector",
]

ACTION_SPACE_VERSION: Final = 1
"""Bumped whenever an id changes meaning; ids of a given version never change."""
NUM_ACTIONS: Final = ACTION_IDS
"""Two ids a tile (one an end), then draw and pass: the core's action ids."""
DRAW_ID: Final = DRAW.id
PASS_ID: Final = PASS.id
MAX_SEATS: Final = 4


def action_id(action: Action) -> int:
    """The id of ``action``; an opening ``Place(tile, None)`` shares the end-0 id of its tile."""
    if isinstance(action, Place | Draw | Pass):
        return action.id
    raise ValueError(f"not an action: {action!r}")


def id_to_action(action: int, line_is_empty: bool) -> Action:
    """The action with id ``action``; on an empty line an even id is the opening with that tile.

    An odd id on an empty line names no action (the opening has only one id per tile):
    ``IllegalActionError``. An id outside 0 … 57 is a ``ValueError``.
    """
    if type(action) is not int and isinstance(action, np.integer):
        action = int(action)
    return action_for_id(action, line_is_empty)


def action_name(action: int) -> str:
    """A short name for an id, independent of the position: ``[1|4]@0``, ``draw``, ``pass``."""
    if action == DRAW_ID:
        return "draw"
    if action == PASS_ID:
        return "pass"
    return f"{ALL_TILES[action // 2]}@{action % 2}"


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """1 for each id that is legal for ``view.player`` now; all zeros when it is not its turn."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in view.legal_actions:
        mask[action_id(action)] = 1
    return mask


@dataclass(frozen=True, slots=True)
class Field:
    """One named slice of the observation vector and the largest value it can hold."""

    name: str
    offset: int
    size: int
    high: float
    meaning: str
    public: bool = True
    """Whether anyone watching the table knows it (a hand, or the boneyard's order, is not)."""


OBSERVATION_VERSION: Final = 1
"""Bumped whenever the observation layout changes."""

_SCORE_HIGH: Final = 99 + 168
"""A score stays below the target (at most 100) until the last round adds at most 168 pips."""

Layout = tuple[tuple[str, int, float, str], ...]
"""Fields as ``(name, size, largest value, meaning)``, in the vector's order."""

_LINE_LAYOUT: Final[Layout] = (
    ("line", TILE_COUNT, 1, "1 for each tile already placed on the line"),
    ("end0", VALUES, 1, "one-hot value shown at end 0 (all zero before the opening)"),
    ("end1", VALUES, 1, "one-hot value shown at end 1 (all zero before the opening)"),
    ("line_empty", 1, 1, "1 before the opening"),
)
"""The line's fields: the same in the observation and the state."""


def _seat_layout(whose: str, scores: str) -> Layout:
    """The per-seat fields the observation (``whose``: "relative seat") and the state
    ("seat") share, from the draws on; ``scores`` says what the scores hold."""
    return (
        ("draws", MAX_SEATS, 12, f"tiles each {whose} has drawn this round"),
        (
            "lacking",
            MAX_SEATS * VALUES,
            1,
            f"7 values per {whose}: 1 where that seat is known to lack the value",
        ),
        ("scores", MAX_SEATS, _SCORE_HIGH, scores),
        ("seats", MAX_SEATS, 1, f"1 for each {whose} that exists (the number of players)"),
        ("to_move", MAX_SEATS, 1, f"one-hot {whose} to act (all zero once the round is over)"),
        ("leader", MAX_SEATS, 1, f"one-hot {whose} that leads this round"),
    )


_LAYOUT: Final[Layout] = (
    ("hand", TILE_COUNT, 1, "1 for each tile in the seat's own hand (index in ALL_TILES)"),
    *_LINE_LAYOUT,
    ("boneyard_size", 1, 14, "tiles in the boneyard (the last two are never drawn)"),
    (
        "hand_sizes",
        MAX_SEATS,
        19,
        "tiles in each hand, by relative seat (0 = self, 1 = next clockwise)",
    ),
    *_seat_layout("relative seat", "match score of each relative seat at the start of the round"),
)


def _fields(
    layout: Layout = _LAYOUT, hidden: frozenset[str] = frozenset({"hand"})
) -> tuple[Field, ...]:
    """The fields of ``layout`` with their offsets; those named in ``hidden`` are not public."""
    fields, offset = [], 0
    for name, size, high, meaning in layout:
        fields.append(Field(name, offset, size, float(high), meaning, name not in hidden))
        offset += size
    return tuple(fields)


OBSERVATION_FIELDS: Final = _fields()
OBSERVATION_SIZE: Final = sum(field.size for field in OBSERVATION_FIELDS)
OBSERVATION_HIGH: Final = np.concatenate(
    [np.full(field.size, field.high, dtype=np.float32) for field in OBSERVATION_FIELDS]
)
_AT: Final = {field.name: field.offset for field in OBSERVATION_FIELDS}
_HAND, _LINE, _END0, _END1, _EMPTY = (
    _AT[k] for k in ("hand", "line", "end0", "end1", "line_empty")
)
_BONEYARD, _SIZES, _DRAWS, _LACKING = (
    _AT[k] for k in ("boneyard_size", "hand_sizes", "draws", "lacking")
)
_SCORES, _SEATS, _TO_MOVE, _LEADER = (_AT[k] for k in ("scores", "seats", "to_move", "leader"))


class Tracker:
    """What the observations of one round keep from step to step: each seat's encoded
    lacking rows, scores and seats present, which change only when someone passes and
    when the round ends. Everything else is read from the engine's state each step
    (``Round.fields``), so an environment never rebuilds a view or replays the history."""

    __slots__ = ("fixed", "round")

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.fixed: list[tuple[tuple[int, ...], bytes] | None] = [None] * round_.players
        """Per seat: the lacking masks its rows were encoded for, and those rows."""


# The observation is assembled from bytes: a float32 row for every 7-bit quarter of a
# tile mask, every one-hot value and every lacking mask is made once, and one step joins
# a handful of them. That is several times quicker than setting numpy elements one by
# one, and the tables are small enough to stay in the processor's cache between steps
# (rows for 14-bit halves, 1.5 MB, made a step slower rather than faster).
_QUARTERS: Final = tuple(
    np.array([(k >> i) & 1 for i in range(7)], dtype=np.float32).tobytes() for k in range(1 << 7)
)


def _tile_rows(mask: int) -> bytes:
    """A 28-tile bitmask as 28 float32 zeros and ones (index in ALL_TILES)."""
    rows = _QUARTERS
    return rows[mask & 127] + rows[mask >> 7 & 127] + rows[mask >> 14 & 127] + rows[mask >> 21]


_ONE_HOT: Final = tuple(np.eye(VALUES, dtype=np.float32)[v].tobytes() for v in range(VALUES))
_NO_VALUE: Final = bytes(VALUES * 4)
_LACK_ROWS: Final = tuple(
    np.array([(k >> v) & 1 for v in range(VALUES)], dtype=np.float32).tobytes()
    for k in range(1 << VALUES)
)
_ONE_HOT_SEAT: Final = tuple(np.eye(4, dtype=np.float32)[r].tobytes() for r in range(4))
_NO_SEAT: Final = bytes(4 * 4)
_NO_ACTIONS: Final = bytes(NUM_ACTIONS)
_PRESENT: Final = tuple(
    np.array([1.0] * n + [0.0] * (MAX_SEATS - n), dtype=np.float32).tobytes() for n in range(5)
)
_NO_ENDS: Final = _NO_VALUE + _NO_VALUE + np.float32(1).tobytes()
_FOUR: Final = struct.Struct("<4f").pack
_ONE: Final = struct.Struct("<f").pack
F32: Final = np.dtype(np.float32)
I8: Final = np.dtype(np.int8)
# The engine's own fields are read directly below (``Round`` keeps the line's ends as
# one code, ``legal.ends_code``, and ``EMPTY`` before the opening): the encoders run once
# a step, and a property or a checked accessor per fact would cost more than the rest.
_ENDS_BY_CODE: Final = tuple(
    _ONE_HOT[end0] + _ONE_HOT[end1] + np.float32(0).tobytes()
    for end0, end1 in map(ends_values, range(EMPTY))
) + (_NO_ENDS,)
"""``[ends code]``: both ends one-hot, then whether the line is empty."""
_ENDS_AND_BONEYARD: Final = tuple(
    tuple(ends + _ONE(TILE_COUNT - drawn) for drawn in range(TILE_COUNT + 1))
    for ends in _ENDS_BY_CODE
)
"""``[ends code][tiles dealt or drawn]``: the ends, line_empty and boneyard_size fields."""
_SEAT_PAIRS: Final = tuple(
    tuple(
        (_ONE_HOT_SEAT[mover] if mover < MAX_SEATS else _NO_SEAT) + _ONE_HOT_SEAT[leader]
        for leader in range(MAX_SEATS)
    )
    for mover in range(MAX_SEATS + 1)
)
"""``[relative mover, or 4 once over][relative leader]``: the to_move and leader fields."""


def _orders() -> tuple[tuple[Callable[[Sequence[int]], tuple[int, ...]], ...], ...]:
    """``_ORDER[n][seat](values)``: four values by relative seat from ``n`` seat values
    followed by ``4 - n`` zeros (the padding of absent seats)."""
    return tuple(
        tuple(
            operator.itemgetter(*[(seat + r) % n for r in range(n)], *range(n, MAX_SEATS))
            for seat in range(n)
        )
        if n
        else ()
        for n in range(MAX_SEATS + 1)
    )


_ORDER: Final = _orders()
_PAD: Final = tuple((0,) * (MAX_SEATS - n) for n in range(MAX_SEATS + 1))


_PAIRS: Final = tuple(
    tuple(struct.pack("<2f", first, second) for second in range(TILE_COUNT))
    for first in range(TILE_COUNT)
)
"""``[a][b]``: two counts as float32 bytes (the hand_sizes and draws fields, two seats at a
time, are joined from these without packing numbers each step)."""
_NO_PAIR: Final = _PAIRS[0][0]
_LOOK_ROUND: Final = tuple(
    tuple(
        (*((seat + r) % n for r in range(n)), *range(n, MAX_SEATS)) if n >= 2 else ()
        for seat in range(n)
    )
    for n in range(MAX_SEATS + 1)
)
"""``[n][seat]``: the four slots of the relative-seat fields, clockwise from ``seat``: the
seats present, then the absent ones (whose slots hold zeros)."""


_RELATIVE: Final = tuple(
    tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) if n else ()
    for n in range(MAX_SEATS + 1)
)
"""``_RELATIVE[n][seat][s]``: seat ``s`` as seen from ``seat`` (0 = itself)."""


def fast_observation(tracker: Tracker, seat: int) -> npt.NDArray[np.float32]:
    """``observation(round.view(seat))``, built from the engine's bitmasks and the tracker
    without a view: only the seat's own hand and public facts are read (R21), and a test
    checks it equals the view's encoding over random rounds."""
    return np.frombuffer(observation_buffer(tracker, seat), F32)


def observation_bytes(tracker: Tracker, seat: int) -> bytes:
    """``fast_observation`` as the raw float32 bytes, for batches joined into one array."""
    return bytes(observation_buffer(tracker, seat))


def observation_buffer(tracker: Tracker, seat: int) -> bytearray:
    """``fast_observation``'s float32 bytes in a new buffer of their own (writable)."""
    return observation_and_mask(tracker, seat)[0]


def observation_and_mask(tracker: Tracker, seat: int) -> tuple[bytearray, bytearray]:
    """``seat``'s observation (float32 bytes) and legal-action mask (int8 bytes), each in
    a new writable buffer, from one read of the round: what an environment hands out
    each step (``fast_observation`` and ``fast_mask`` in one call)."""
    round_ = tracker.round
    n, hands, outcome, _, lacks, ends, drawn, current, leader, line, draws = round_.fields()
    if type(seat) is not int or not 0 <= seat < n:
        round_.hand_mask(seat)  # the engine's error for a seat that does not exist
    hand = hands[seat]
    kept = tracker.fixed[seat]
    if outcome is None and kept is not None and kept[0] == lacks:
        fixed = kept[1]
    else:
        fixed = _fixed_rows(round_.fields(), seat)
        if outcome is None:
            tracker.fixed[seat] = (lacks, fixed)
    relative = _RELATIVE[n][seat]
    a, b, c, d = _LOOK_ROUND[n][seat]
    count, pairs, quarters = int.bit_count, _PAIRS, _QUARTERS
    if n == 2:  # the hand_sizes and draws fields, two seats at a time; absent seats 0
        sizes_cd = draws_cd = _NO_PAIR
    elif n == 3:
        sizes_cd, draws_cd = pairs[count(hands[c])][0], pairs[draws[c]][0]
    else:
        sizes_cd, draws_cd = pairs[count(hands[c])][count(hands[d])], pairs[draws[c]][draws[d]]
    observation = bytearray().join(
        (
            quarters[hand & 127],
            quarters[hand >> 7 & 127],
            quarters[hand >> 14 & 127],
            quarters[hand >> 21],
            quarters[line & 127],
            quarters[line >> 7 & 127],
            quarters[line >> 14 & 127],
            quarters[line >> 21],
            _ENDS_AND_BONEYARD[ends][drawn],
            pairs[count(hands[a])][count(hands[b])],
            sizes_cd,
            pairs[draws[a]][draws[b]],
            draws_cd,
            fixed,
            _SEAT_PAIRS[MAX_SEATS if outcome is not None else relative[current]][relative[leader]],
        )
    )
    if outcome is not None or current != seat:
        return observation, bytearray(_NO_ACTIONS)
    return observation, bytearray(_legal_bits(hand, ends, drawn).to_bytes(NUM_ACTIONS, "little"))


def _fixed_rows(state: RoundFields, seat: int) -> bytes:
    """The lacking rows, scores and seats present as ``seat`` sees them: they change only
    when someone passes and when the round ends, so ``Tracker.fixed`` keeps them."""
    scores, outcome = state.scores, state.outcome
    if outcome is not None:  # as the view shows them: with the round's credits
        scores = tuple(s + c for s, c in zip(scores, outcome.credits, strict=True))
    return _encoded_fixed_rows(state.players, seat, state.lacks, scores)


@functools.lru_cache(maxsize=4096)
def _encoded_fixed_rows(
    n: int, seat: int, lacks: tuple[int, ...], scores: tuple[int, ...]
) -> bytes:
    """``_fixed_rows`` for these numbers; remembered, since every new round starts with the
    same few (nothing lacked, the match's scores)."""
    order, pad = _ORDER[n][seat], _PAD[n]
    rows = _LACK_ROWS
    return (
        b"".join(rows[m] for m in order((*lacks, *pad))) + _FOUR(*order(scores + pad)) + _PRESENT[n]
    )


# The legal-action mask as an integer with one byte an id (``int.to_bytes`` makes the
# mask): the core's legal-move tables (``legal``) with each list of ids made one integer,
# so one lookup an end, by the hand's tiles that fit it, gives their bytes.
def _id_bytes(ids: list[int]) -> int:
    """The mask bytes of ``ids``: a byte of 1 at each id."""
    return sum(1 << 8 * i for i in ids)


def _by_value(end: int) -> tuple[dict[int, int], ...]:
    """``[value][hand & VALUE_MASKS[value]]``: the bytes of those tiles' ids at ``end``."""
    return tuple(
        {held: _id_bytes(ids) for held, ids in placement_ids(value, end).items()}
        for value in range(VALUES)
    )


_AT_END0: Final = _by_value(0)
_AT_END1: Final = _by_value(1)
_BY_ENDS_CODE: Final = tuple(
    (_AT_END0[end0], VALUE_MASKS[end0], _AT_END1[end1], VALUE_MASKS[end1])
    for end0, end1 in map(ends_values, range(EMPTY))
)
"""``[ends code]``: the tables and tile masks of end 0 and end 1, as ``legal.BY_ENDS``."""
_OPENINGS: Final = tuple(
    {held: _id_bytes([action.id for action in actions]) for held, actions in run.items()}
    for run in OPENING_RUNS
)
"""``[run][hand & RUN_MASKS[run]]``: the bytes of those tiles' openings (``legal.OPENING_RUNS``)."""
_RUN0, _RUN1, _RUN2, _RUN3 = RUN_MASKS
_DRAW_BYTE: Final = 1 << 8 * DRAW_ID
_PASS_BYTE: Final = 1 << 8 * PASS_ID


def _legal_bits(hand: int, ends: int, drawn: int) -> int:
    """The mover's legal ids as one byte each (R5–R7): its placements, a draw while the
    boneyard can be drawn (R2), else a pass when nothing fits."""
    if ends == EMPTY:  # the opening: any tile of the hand (its end-0 id), or a draw
        first, second, third, fourth = _OPENINGS
        bits = (
            first[hand & _RUN0] | second[hand & _RUN1] | third[hand & _RUN2] | fourth[hand & _RUN3]
        )
    else:
        at0, mask0, at1, mask1 = _BY_ENDS_CODE[ends]
        bits = at0[hand & mask0] | at1[hand & mask1]
    if drawn < LAST_DRAW:
        return bits | _DRAW_BYTE
    return bits or _PASS_BYTE


def fast_mask(round_: Round, seat: int) -> npt.NDArray[np.int8]:
    """``action_mask(round.view(seat))`` without the view."""
    return np.frombuffer(mask_bytes(round_, seat), I8)


def mask_bytes(round_: Round, seat: int) -> bytearray:
    """``fast_mask`` as raw int8 bytes, for batches."""
    state = round_.fields()
    if state.outcome is not None or state.current != seat:
        return bytearray(_NO_ACTIONS)
    return bytearray(
        _legal_bits(state.hands[seat], state.ends, state.drawn).to_bytes(NUM_ACTIONS, "little")
    )


STATE_VERSION: Final = 1
"""Bumped whenever the state layout changes."""
_STATE_LAYOUT: Final[Layout] = (
    (
        "hands",
        MAX_SEATS * TILE_COUNT,
        1,
        "28 per seat (absolute seat order): 1 for each tile in its hand",
    ),
    (
        "boneyard",
        TILE_COUNT,
        14,
        "per tile: its place in the draw order (1 = drawn next), 0 if not there",
    ),
    *_LINE_LAYOUT,
    *_seat_layout("seat", "match score of each seat (with the round's credits once over)"),
)
STATE_FIELDS: Final = _fields(_STATE_LAYOUT, frozenset({"hands", "boneyard"}))
"""The full state (every hand, the boneyard's order), for centralised critics and
perfect-information baselines; never an observation of a seat (R21)."""
STATE_SIZE: Final = sum(field.size for field in STATE_FIELDS)
STATE_HIGH: Final = np.concatenate(
    [np.full(field.size, field.high, dtype=np.float32) for field in STATE_FIELDS]
)
_STATE_AT: Final = {field.name: field.offset for field in STATE_FIELDS}


def state_vector(tracker: Tracker, order: bool = True) -> npt.NDArray[np.float32]:
    """The whole round as the float32 vector of ``STATE_FIELDS``, seats in absolute order;
    with ``order=False`` the boneyard field holds a 1 for each tile in it, not its place
    in the draw order (a critic then learns nothing a perfect draw order would tell)."""
    round_ = tracker.round
    state = np.zeros(STATE_SIZE, dtype=np.float32)
    at = _STATE_AT
    n = round_.players
    for seat in range(n):
        hand_at = at["hands"] + TILE_COUNT * seat
        state[hand_at : hand_at + TILE_COUNT] = np.frombuffer(
            _tile_rows(round_.hand_mask(seat)),
            dtype=np.float32,
        )
    for place, tile in enumerate(round_.boneyard, 1):
        state[at["boneyard"] + tile.index] = place if order else 1
    fields = round_.fields()
    state[at["line"] : at["line"] + TILE_COUNT] = np.frombuffer(
        _tile_rows(fields.line), dtype=np.float32
    )
    ends = round_.end_values
    if ends:
        state[at["end0"] + ends[0]] = 1
        state[at["end1"] + ends[1]] = 1
    else:
        state[at["line_empty"]] = 1
    outcome = round_.outcome
    scores = round_.scores
    if outcome is not None:
        scores = tuple(s + c for s, c in zip(scores, outcome.credits, strict=True))
    for seat, lacks in enumerate(round_.lack_masks):
        state[at["draws"] + seat] = fields.draws[seat]
        for value in range(VALUES):
            if lacks >> value & 1:
                state[at["lacking"] + VALUES * seat + value] = 1
        state[at["scores"] + seat] = scores[seat]
        state[at["seats"] + seat] = 1
    if outcome is None:
        state[at["to_move"] + round_.current_player] = 1
    state[at["leader"] + round_.leader] = 1
    return state


def observation_high(history: int = 0) -> npt.NDArray[np.float32]:
    """The observation's upper bounds, with ``history`` rows of ``HISTORY_ROW`` appended."""
    return np.concatenate([OBSERVATION_HIGH, np.ones(history * HISTORY_ROW, dtype=np.float32)])


HISTORY_ROW: Final = MAX_SEATS + NUM_ACTIONS
"""A row of the optional history: the acting seat relative to the viewer (4, one-hot)
and its action id (58, one-hot), the rows OpenSpiel's information-state tensor holds."""


def max_decisions(players: int) -> int:
    """An upper bound on the decisions in one round: at most 26 placements (two tiles
    stay in the boneyard), 28 - 2 - dealt draws, and fewer than ``players`` passes in a
    row between placements, then the blocking passes (R14)."""
    dealt = players * RULES.hand_size(players)
    placements, draws = TILE_COUNT - UNDRAWN, LAST_DRAW - dealt
    return placements + draws + players * (placements + 1)


def history_rows(tracker: Tracker, seat: int, rows: int) -> npt.NDArray[np.float32]:
    """The round's latest ``rows`` decisions (oldest first, then zero rows) as seen from
    ``seat``, flattened: ``rows`` x ``HISTORY_ROW`` values. Draws never name a tile (R21)."""
    out = np.zeros((rows, HISTORY_ROW), dtype=np.float32)
    decisions = [(s, action.id) for s, action in tracker.round.history[-rows:]] if rows else []
    if decisions:
        count = len(decisions)
        n = tracker.round.players
        index = np.arange(count)
        seats, ids = zip(*decisions, strict=True)
        out[index, [(s - seat) % n for s in seats]] = 1
        out[index, [MAX_SEATS + i for i in ids]] = 1
    return out.reshape(-1)


def observation(view: PlayerView) -> npt.NDArray[np.float32]:
    """The fixed-size float32 vector of what ``view.player`` may see (R21); layout above.

    Seats are relative: slot ``r`` is the seat ``r`` places clockwise of the viewer, so a
    policy sees the table from its own chair whatever its seat number.
    """
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n, me = view.players, view.player
    if me is None:
        raise ValueError("an observation is a seat's: the public view has none")
    for tile in view.hand:
        obs[_AT["hand"] + tile.index] = 1
    for tile in view.line.tiles:
        obs[_AT["line"] + tile.index] = 1
    ends = view.line.end_values
    if ends:
        obs[_AT["end0"] + ends[0]] = 1
        obs[_AT["end1"] + ends[1]] = 1
    else:
        obs[_AT["line_empty"]] = 1
    obs[_AT["boneyard_size"]] = view.boneyard_size
    lacking, draws = view.lacking, view.draws
    for seat in range(n):
        r = (seat - me) % n
        obs[_AT["hand_sizes"] + r] = view.hand_sizes[seat]
        obs[_AT["draws"] + r] = draws[seat]
        for value in lacking[seat]:
            obs[_AT["lacking"] + VALUES * r + value] = 1
        obs[_AT["scores"] + r] = view.scores[seat]
        obs[_AT["seats"] + r] = 1
    if view.outcome is None:
        obs[_AT["to_move"] + (view.current_player - me) % n] = 1
    obs[_AT["leader"] + (view.leader - me) % n] = 1
    return obs


# ----------------------------------------------------------------- observation parts
# The parts of a dict observation, cut from the encoders above rather than built anew:
# ``public`` is the observation's public fields as seat 0 sees them (so seats count in
# absolute order and every seat gets the same values), ``private`` the seat's own hand
# and which seat it is, ``oracle`` the state's hidden fields (every hand, the boneyard).


def _span(fields: Sequence[Field]) -> tuple[int, int]:
    """Where ``fields`` start and end, checked to be one run of the vector."""
    start, end = fields[0].offset, fields[-1].offset + fields[-1].size
    if sum(field.size for field in fields) != end - start:
        raise AssertionError("the fields of a part must be one run of the vector")
    return start, end


_PUBLIC_START, _PUBLIC_END = _span([f for f in OBSERVATION_FIELDS if f.public])
PUBLIC_FIELDS: Final = tuple(
    Field(f.name, f.offset - _PUBLIC_START, f.size, f.high, f.meaning)
    for f in OBSERVATION_FIELDS
    if f.public
)
"""The ``public`` part: the observation's public fields, seats in absolute order (slot
``r`` is seat ``r``), what anyone watching the table sees; the same for every seat."""
PUBLIC_SIZE: Final = _PUBLIC_END - _PUBLIC_START
PUBLIC_SLICE: Final = slice(_PUBLIC_START, _PUBLIC_END)
"""Where the ``public`` part lies in an observation of seat 0."""
PUBLIC_HIGH: Final = OBSERVATION_HIGH[_PUBLIC_START:_PUBLIC_END].copy()
PRIVATE_FIELDS: Final = _fields(
    (
        ("hand", TILE_COUNT, 1, "1 for each tile in the seat's own hand (index in ALL_TILES)"),
        ("seat", MAX_SEATS, 1, "one-hot: which seat this is (to read the public part's slots)"),
    )
)
"""The ``private`` part: what the seat knows that others do not, and which seat it is."""
PRIVATE_SIZE: Final = sum(field.size for field in PRIVATE_FIELDS)
PRIVATE_HIGH: Final = np.ones(PRIVATE_SIZE, dtype=np.float32)
_ORACLE_START, _ORACLE_END = _span([f for f in STATE_FIELDS if not f.public])
ORACLE_FIELDS: Final = tuple(f for f in STATE_FIELDS if not f.public)
"""The ``oracle`` part (only when asked for): the state's hidden fields, every hand and
the boneyard (its draw order, or which tiles are in it), for perfect-information
training (oracle guiding); never a seat's own input when it plays (R21)."""
ORACLE_SIZE: Final = _ORACLE_END - _ORACLE_START
ORACLE_SLICE: Final = slice(_ORACLE_START, _ORACLE_END)
"""Where the ``oracle`` part lies in a state vector."""
ORACLE_HIGH: Final = STATE_HIGH[_ORACLE_START:_ORACLE_END].copy()


def public_observation(tracker: Tracker) -> npt.NDArray[np.float32]:
    """The ``public`` part: seat 0's observation without its private fields."""
    buffer = observation_and_mask(tracker, 0)[0]
    return np.frombuffer(buffer, F32)[PUBLIC_SLICE]


def private_observation(round_: Round, seat: int) -> npt.NDArray[np.float32]:
    """The ``private`` part of ``seat``: its hand (as the observation's hand field) and
    its seat, one-hot."""
    return np.frombuffer(bytearray(_tile_rows(round_.hand_mask(seat)) + _ONE_HOT_SEAT[seat]), F32)


def oracle_observation(tracker: Tracker, order: bool = True) -> npt.NDArray[np.float32]:
    """The ``oracle`` part: the hidden fields of ``state_vector`` (every hand, the boneyard)."""
    return state_vector(tracker, order)[ORACLE_SLICE]
