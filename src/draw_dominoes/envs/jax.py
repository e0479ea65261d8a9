"""Draw in JAX, in pgx's shape: pure ``init`` and ``step`` over a ``State``, jit- and vmap-able.

``make(players)`` gives an environment whose ``init(key)`` shuffles and deals a round as
``Round.new`` does (R2, R4) and whose ``step(state, action, key)`` plays one action id of
the seat to act (R5-R7, R9-R10, R13-R17). Hands, the line and the lacking values are bit
masks in int32; every branch is an array select, so ``jax.jit(jax.vmap(env.step))``
steps thousands of rounds at once. The legal-action mask, the observation (the 124
values of ``encoding.observation`` for the seat to act) and the rewards (the settlement
credits as ``_table.rewards_for`` pays them) are the other environments' own; a test
plays thousands of random rounds here and in the engine (``Round.from_deal`` of
``state.deal`` and ``state.leader``) and compares every step.

pgx's conventions, where the engine has none of its own:

- The chance is fixed at ``init``: ``state.deal`` is the 28 tiles in deal order (the
  hands, then the boneyard, drawn from its start), so a draw takes the next tile of it.
  ``step`` takes a ``key`` for pgx's signature and needs none.
- An id outside the mask ends the episode at once (``terminated``), the state otherwise
  unchanged: the seat that sent it earns ``illegal_action_reward`` and the others share
  its opposite (zero-sum) with the ``relative`` reward, or earn nothing with ``points``.
- A terminated state's mask is all ones (any id may be sent; it changes nothing), and
  ``step`` on it returns it with zero rewards.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError:  # one line that says what to install
    raise ImportError(
        "draw_dominoes.envs.jax needs jax (in the rl extra): pip install 'draw-dominoes[rl]'"
    ) from None

from ..legal import LAST_DRAW, OPEN_END
from ..rules import RULES
from ..tiles import ALL_TILES, TILE_COUNT, VALUE_MASKS, VALUES
from ._table import ILLEGAL_ACTION_REWARD, REWARD, Reward, check_options
from .encoding import DRAW_ID, MAX_SEATS, NUM_ACTIONS, OBSERVATION_FIELDS, OBSERVATION_SIZE

__all__ = ["DrawEnv", "State", "make"]

_LAYOUT: Final = (
    ("hand", TILE_COUNT),
    ("line", TILE_COUNT),
    ("end0", VALUES),
    ("end1", VALUES),
    ("line_empty", 1),
    ("boneyard_size", 1),
    ("hand_sizes", MAX_SEATS),
    ("draws", MAX_SEATS),
    ("lacking", MAX_SEATS * VALUES),
    ("scores", MAX_SEATS),
    ("seats", MAX_SEATS),
    ("to_move", MAX_SEATS),
    ("leader", MAX_SEATS),
)
"""The order ``_observe`` joins the fields in: checked against the encoding at import, so
a change of the layout there fails here at once rather than in a trained policy."""
if tuple((f.name, f.size) for f in OBSERVATION_FIELDS) != _LAYOUT:  # pragma: no cover
    raise ImportError("envs.jax: the observation layout of envs.encoding has changed")

_I32: Final = jnp.int32
_SHIFT: Final = np.arange(TILE_COUNT, dtype=np.int32)
_LOW: Final = np.array([t.low for t in ALL_TILES], dtype=np.int32)
_HIGH: Final = np.array([t.high for t in ALL_TILES], dtype=np.int32)
_PIPS: Final = np.array([t.pips for t in ALL_TILES], dtype=np.int32)
_VALUES: Final = np.arange(VALUES, dtype=np.int32)
_SLOTS: Final = np.arange(MAX_SEATS, dtype=np.int32)
_FITS_END0: Final = np.array([*VALUE_MASKS, (1 << TILE_COUNT) - 1], dtype=np.int32)
"""By end value (``OPEN_END`` last): the tiles that fit end 0; every tile opens the line."""
_FITS_END1: Final = np.array([*VALUE_MASKS, 0], dtype=np.int32)
"""By end value: the tiles that fit end 1; none before the opening."""
_ODD_ID: Final = np.arange(2 * TILE_COUNT) % 2 == 1
_TILE_OF_ID: Final = np.arange(2 * TILE_COUNT, dtype=np.int32) // 2


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    """One round (a batch of them under vmap). The first six fields are pgx's; ``deal``
    and ``leader`` say which round it is (``Round.from_deal`` rebuilds it); the rest is
    the position as the batched numpy rules (``batch.BatchRounds``) keep it."""

    current_player: jax.Array
    """int32: the seat to act; once terminated, the seat that acted last."""
    observation: jax.Array
    """float32 (124,): ``encoding.observation`` of ``current_player``'s view."""
    rewards: jax.Array
    """float32 (players,): what the last step earned each seat (nonzero when it ended)."""
    terminated: jax.Array
    truncated: jax.Array
    """Always false: a round ends by the rules within ``encoding.max_decisions`` steps."""
    legal_action_mask: jax.Array
    """bool (58,): the legal ids of ``current_player`` (all true once terminated)."""
    deal: jax.Array
    """int8 (28,): tile indices in deal order, hands first (R2), then the boneyard."""
    leader: jax.Array
    """int32: the seat that leads, by lot (R4)."""
    hands: jax.Array
    """int32 (players,): each hand as a bit mask over ``ALL_TILES``."""
    line: jax.Array
    """int32: the tiles on the line as a bit mask."""
    ends: jax.Array
    """int32 (2,): the values at end 0 and end 1 (``OPEN_END`` before the opening)."""
    drawn: jax.Array
    """int32: tiles of ``deal`` dealt or drawn; the next draw takes ``deal[drawn]``."""
    draws: jax.Array
    """int32 (players,): tiles each seat has drawn."""
    lacks: jax.Array
    """int32 (players,): the values each seat has passed on, a 7-bit mask."""
    passes: jax.Array
    """int32: passes in a row (R14)."""
    winner: jax.Array
    """int32: the credited seat once settled, else -1 (also after a tie for lowest, R17)."""
    points: jax.Array
    """int32: the credited points once settled (R16, R17)."""
    step_count: jax.Array
    """int32: steps taken before termination."""

    def replace(self, **changes: jax.Array) -> State:
        """A copy with ``changes``, as pgx's states offer it."""
        return dataclasses.replace(self, **changes)


class DrawEnv:
    """``players`` seats (2-4), one round an episode, rewards as ``reward`` says."""

    id: Final = "draw_dominoes"
    version: Final = "v0"

    def __init__(
        self,
        players: int = 2,
        reward: Reward = REWARD,
        illegal_action_reward: float = ILLEGAL_ACTION_REWARD,
    ) -> None:
        check_options(players, "round", reward, illegal_action_reward=illegal_action_reward)
        self.players = players
        self.reward: Reward = reward
        self.illegal_action_reward = float(illegal_action_reward)
        self._size = RULES.hand_size(players)
        self._seats = np.arange(players, dtype=np.int32)
        self._present = players > _SLOTS

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (OBSERVATION_SIZE,)

    def init(self, key: jax.Array) -> State:
        """A round dealt from ``key``: a shuffle of the 28 tiles, hands of 7, 7 or 6 from
        its start (R2), the rest the boneyard; the leader by lot (R4)."""
        n, size = self.players, self._size
        words = _words(key)
        deal = _shuffle(words[:TILE_COUNT])
        leader = (words[TILE_COUNT] % n).astype(_I32)
        hands = jnp.sum(jnp.left_shift(1, deal[: n * size]).reshape(n, size), axis=1, dtype=_I32)
        zeros = jnp.zeros(n, dtype=_I32)
        state = State(
            current_player=leader,
            observation=jnp.zeros(OBSERVATION_SIZE, dtype=jnp.float32),
            rewards=jnp.zeros(n, dtype=jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, dtype=jnp.bool_),
            deal=deal.astype(jnp.int8),
            leader=leader,
            hands=hands,
            line=jnp.int32(0),
            ends=jnp.full(2, OPEN_END, dtype=_I32),
            drawn=jnp.int32(n * size),
            draws=zeros,
            lacks=zeros,
            passes=jnp.int32(0),
            winner=jnp.int32(-1),
            points=jnp.int32(0),
            step_count=jnp.int32(0),
        )
        return self._finish(state)

    def step(self, state: State, action: jax.Array | int, key: jax.Array | None = None) -> State:
        """Play id ``action`` for ``state.current_player``. ``key`` is unused: every chance
        was drawn by ``init`` (the boneyard's order). An illegal id ends the episode with
        the penalty (module docstring); a terminated state stays as it is, rewards zero."""
        del key
        action = jnp.asarray(action, dtype=_I32)
        done = state.terminated
        legal = (
            (action >= 0)
            & (action < NUM_ACTIONS)
            & state.legal_action_mask[jnp.clip(action, 0, NUM_ACTIONS - 1)]
        )
        illegal = ~done & ~legal
        played = self._play(state, action)
        keep = done | illegal
        kept = jax.tree_util.tree_map(lambda old, new: jnp.where(keep, old, new), state, played)
        seat = state.current_player
        if self.reward == "relative":
            others = -self.illegal_action_reward / (self.players - 1)
        else:
            others = 0.0
        penalty = jnp.where(seat == self._seats, self.illegal_action_reward, others)
        rewards = jnp.where(
            done, 0.0, jnp.where(illegal, penalty.astype(jnp.float32), played.rewards)
        )
        return self._finish(
            kept.replace(
                rewards=rewards,
                terminated=done | illegal | played.terminated,
                step_count=state.step_count + (~done).astype(_I32),
            )
        )

    def observe(self, state: State, player: jax.Array | int) -> jax.Array:
        """``player``'s observation: ``encoding.observation`` of its view (R21)."""
        return self._observe(state, jnp.asarray(player, dtype=_I32))

    def _finish(self, state: State) -> State:
        """The mask and observation of the seat to act, for a state whose game fields are set."""
        mask = jnp.where(
            state.terminated,
            jnp.ones(NUM_ACTIONS, dtype=jnp.bool_),
            _legal_mask(self._pick(state.hands, state.current_player), state.ends, state.drawn),
        )
        state = state.replace(legal_action_mask=mask)
        return state.replace(observation=self._observe(state, state.current_player))

    def _pick(self, values: jax.Array, seat: jax.Array) -> jax.Array:
        """``values[seat]`` as a one-hot sum: cheaper than a gather in every vmapped row."""
        return jnp.sum(jnp.where(seat == self._seats, values, 0), dtype=values.dtype)

    def _play(self, state: State, action: jax.Array) -> State:
        """The rules of ``Round.apply`` for a legal id (``batch.BatchRounds.apply``): the
        placement, draw or pass, the seat to act next and, at the end, the settlement."""
        n = self.players
        seat = state.current_player
        mine = seat == self._seats
        place = action < DRAW_ID
        draw = action == DRAW_ID
        passing = action == DRAW_ID + 1
        k = jnp.where(place, action >> 1, 0)
        at1 = place & ((action & 1) == 1)
        at0 = place & ~at1
        bit = jnp.where(place, jnp.left_shift(1, k), 0)
        low, high = jnp.asarray(_LOW)[k], jnp.asarray(_HIGH)[k]
        end0, end1 = state.ends[0], state.ends[1]
        opening = end0 == OPEN_END
        new0 = jnp.where(at0, jnp.where(opening, low, low + high - end0), end0)
        new1 = jnp.where(at1, low + high - end1, jnp.where(at0 & opening, high, end1))
        next_tile = jnp.sum(
            jnp.where(jnp.minimum(state.drawn, TILE_COUNT - 1) == _SHIFT, state.deal, 0),
            dtype=_I32,
        )
        taken = jnp.where(draw, jnp.left_shift(1, next_tile), 0)
        hand = (self._pick(state.hands, seat) ^ bit) | taken
        hands = jnp.where(mine, hand, state.hands)
        passes = jnp.where(passing, state.passes + 1, 0)
        lacked = jnp.where(passing, jnp.left_shift(1, end0) | jnp.left_shift(1, end1), 0)
        out = place & (hand == 0)
        blocked = passing & (passes >= n)
        ended = out | blocked
        following = jnp.where(seat + 1 == n, 0, seat + 1)
        current = jnp.where(draw | ended, seat, following)
        # R15-R17: the dominoer takes every pip left; in a block the single lowest total
        # takes the others' less its own, and a tie for lowest scores nothing.
        held = jnp.right_shift(hands[:, None], _SHIFT) & 1
        totals = jnp.sum(held * _PIPS, axis=1, dtype=_I32)
        everyone = jnp.sum(totals)
        lowest = jnp.min(totals)
        unique = jnp.sum(totals == lowest) == 1
        winner = jnp.where(
            out, seat, jnp.where(blocked & unique, jnp.argmin(totals).astype(_I32), -1)
        )
        points = jnp.where(out, everyone, jnp.where(blocked & unique, everyone - 2 * lowest, 0))
        credited = (winner == self._seats) & (winner >= 0)
        points_f = points.astype(jnp.float32)
        if self.reward == "relative":
            lost = jnp.where(winner >= 0, -points_f / (n - 1), 0.0)
        else:
            lost = jnp.zeros((), dtype=jnp.float32)
        rewards = jnp.where(credited, points_f, lost)
        return state.replace(
            current_player=current,
            rewards=jnp.where(ended, rewards, 0.0).astype(jnp.float32),
            terminated=ended,
            hands=hands,
            line=state.line | bit,
            ends=jnp.stack([new0, new1]),
            drawn=state.drawn + draw.astype(_I32),
            draws=state.draws + (mine & draw).astype(_I32),
            lacks=state.lacks | jnp.where(mine, lacked, 0),
            passes=passes,
            winner=jnp.where(ended, winner, -1),
            points=jnp.where(ended, points, 0),
        )

    def _observe(self, state: State, me: jax.Array) -> jax.Array:
        """The 124 values of ``encoding.observation`` for seat ``me``: its own hand and
        public facts only (R21); slot ``r`` of a seat field is the seat ``r`` places
        clockwise of ``me``, absent seats zero. Once terminated, no seat is to move and
        the scores show the round's credits (a single round: scores start at 0)."""
        n = self.players
        absolute = (me + _SLOTS) % n
        present = self._present
        which = absolute[:, None] == self._seats[None, :]  # (slot, seat)

        def by_slot(values: jax.Array) -> jax.Array:
            """Seat values (players,) as slot values (4,), zero at absent slots."""
            return jnp.where(
                present, jnp.sum(jnp.where(which, values[None, :], 0), axis=1, dtype=_I32), 0
            )

        hands = by_slot(state.hands)
        end0, end1 = state.ends[0], state.ends[1]
        over = state.terminated
        lacking = jnp.right_shift(by_slot(state.lacks)[:, None], _VALUES) & 1
        credited = (absolute == state.winner) & present
        relative_leader = (state.leader - me) % n
        relative_mover = (state.current_player - me) % n
        parts = (
            jnp.right_shift(hands[0], _SHIFT) & 1,
            jnp.right_shift(state.line, _SHIFT) & 1,
            end0 == _VALUES,
            end1 == _VALUES,
            (end0 == OPEN_END)[None],
            (TILE_COUNT - state.drawn)[None],
            jax.lax.population_count(hands),
            by_slot(state.draws),
            lacking.reshape(MAX_SEATS * VALUES),
            jnp.where(credited, state.points, 0),
            present,
            (relative_mover == _SLOTS) & ~over,
            relative_leader == _SLOTS,
        )
        return jnp.concatenate([part.astype(jnp.float32) for part in parts])


def _mix(word: jax.Array) -> jax.Array:
    """MurmurHash3's 32-bit finaliser: a bijection of uint32 whose every output bit
    depends on every input bit."""
    word = word ^ (word >> 16)
    word = word * jnp.uint32(0x85EBCA6B)
    word = word ^ (word >> 13)
    word = word * jnp.uint32(0xC2B2AE35)
    return word ^ (word >> 16)


def _words(key: jax.Array) -> jax.Array:
    """29 distinct random uint32 words from ``key``: 64 bits from JAX's generator, spread
    by ``_mix`` over a counter. Drawing all 29 from the generator costs six times as much
    (it is most of ``init``); 2**64 deals are as many as the engine's 63-bit seeds give."""
    seed = jax.random.bits(key, (2,), dtype=jnp.uint32)
    counter = jnp.arange(TILE_COUNT + 1, dtype=jnp.uint32) * jnp.uint32(0x9E3779B9)
    return _mix(_mix(seed[0] ^ counter) ^ seed[1])


def _shuffle(words: jax.Array) -> jax.Array:
    """The 28 tile indices in random order: each tile's rank among 28 distinct random
    words. That is the inverse of the order a sort of the words gives, as uniform;
    comparing every pair costs a few hundred vector operations where XLA's sort on a
    CPU costs several times that."""
    below = words[None, :] < words[:, None]
    return jnp.sum(below, axis=1, dtype=_I32)


def _legal_mask(hand: jax.Array, ends: jax.Array, drawn: jax.Array) -> jax.Array:
    """The mover's legal ids (R5-R7): each held tile at each end it fits (every tile opens
    the empty line at end 0, none fits its end 1), a draw while more than two tiles are
    in the boneyard, else a pass when nothing fits. The placements are bit masks first
    (the hand and the tiles that fit each end), then one bit an id."""
    at0 = hand & jnp.asarray(_FITS_END0)[ends[0]]
    at1 = hand & jnp.asarray(_FITS_END1)[ends[1]]
    placements = (jnp.where(_ODD_ID, at1, at0) >> _TILE_OF_ID) & 1 == 1
    can_draw = drawn < LAST_DRAW
    can_pass = (at0 | at1 == 0) & ~can_draw
    return jnp.concatenate([placements, can_draw[None], can_pass[None]])


def make(
    players: int = 2,
    reward: Reward = REWARD,
    illegal_action_reward: float = ILLEGAL_ACTION_REWARD,
) -> DrawEnv:
    """The JAX environment for ``players`` seats (2, 3 or 4), one round an episode, with
    the other environments' default reward (``relative``: credits less the others' mean)."""
    return DrawEnv(players, reward, illegal_action_reward)
