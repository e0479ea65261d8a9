"""The game behind every environment: a round or a match, played by action id, with rewards."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final, Literal, cast

import numpy as np
import numpy.typing as npt

from ..actions import Action, IllegalActionError, action_for_id
from ..game import Game, Player, take_turn
from ..match import Match
from ..round import Round, new_seed
from ..rules import RULES
from ..view import Outcome, PlayerView
from .encoding import (
    F32,
    I8,
    Tracker,
    fast_mask,
    fast_observation,
    history_rows,
    id_to_action,
    observation_and_mask,
    oracle_observation,
    private_observation,
    public_observation,
    state_vector,
)

Episode = Literal["round", "match"]
Reward = Literal["points", "relative"]
ObservationMode = Literal["vector", "dict"]

EPISODES: tuple[Episode, ...] = ("round", "match")
REWARDS: tuple[Reward, ...] = ("points", "relative")
RENDER_MODES: tuple[str | None, ...] = (None, "ansi", "human", "rgb_array")
OBSERVATION_MODES: tuple[ObservationMode, ...] = ("vector", "dict")
REWARD: Reward = "relative"
"""The default reward of every adapter: a seat's credited points less the others' average
(zero-sum). Its scale: between uniform random players a round's reward has a standard
deviation of about 21 points (20.7 with two and three players, 19.7 with four), and over
20,000 two-player rounds it ranged from -88 to +102."""
ILLEGAL_ACTION_REWARD = -10.0
"""What an action outside the mask earns by default: half a standard deviation of a
round's reward, enough to learn from, small beside a round's swing."""


def check_options(
    players: object,
    episode: object,
    reward: object,
    *,
    illegal_action_reward: object = None,
    render_mode: object = None,
    max_cycles: object = None,
    history: object = 0,
    observation: object = "vector",
    oracle: object = False,
    reward_scale: object = 1.0,
    boneyard_order: object = True,
) -> None:
    """Refuse bad environment options with a message that names the choices.

    Every environment checks its options here: the game (``players``, ``episode``,
    ``reward``) and the shared knobs (``illegal_action_reward``, ``render_mode`` and, for
    PettingZoo, ``max_cycles``).
    """
    RULES.check_players(players)
    if episode not in EPISODES:
        raise ValueError(f"episode is 'round' or 'match', not {episode!r}")
    if reward not in REWARDS:
        raise ValueError(f"reward is 'points' or 'relative', not {reward!r}")
    if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
        raise ValueError(f"max_cycles is a positive integer or None, not {max_cycles!r}")
    if illegal_action_reward is not None and not isinstance(illegal_action_reward, int | float):
        raise ValueError(
            f"illegal_action_reward is a number or None, not {illegal_action_reward!r}"
        )
    if render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode is None, 'ansi', 'human' or 'rgb_array', not {render_mode!r}"
        )
    if type(history) is not int or history < 0:
        raise ValueError(f"history is a number of rows, 0 or more, not {history!r}")
    if observation not in OBSERVATION_MODES:
        raise ValueError(f"observation is 'vector' or 'dict', not {observation!r}")
    if type(oracle) is not bool or (oracle and observation != "dict"):
        raise ValueError(f"oracle is True or False, and True needs observation='dict': {oracle!r}")
    if isinstance(reward_scale, bool) or not isinstance(reward_scale, int | float):
        raise ValueError(f"reward_scale is a number, not {reward_scale!r}")
    if type(boneyard_order) is not bool:
        raise ValueError(f"boneyard_order is True or False, not {boneyard_order!r}")


class SeedStream:
    """Seeds for successive episodes: ``episode(seed)`` restarts the sequence from
    ``seed``, ``episode(None)`` goes on (from a fresh seed if it never started).

    The sequence is SplitMix64's: a few integer operations a seed, where seeding a
    ``random.Random`` or numpy generator on every seeded reset would cost a sizeable
    part of a short episode.
    """

    __slots__ = ("_state",)

    def __init__(self) -> None:
        self._state: int | None = None

    def restart(self, seed: int) -> None:
        """Start the sequence again from ``seed`` (an integer)."""
        self._state = operator.index(seed) & _MASK64

    def episode(self, seed: int | None) -> int:
        """The next episode's seed, after restarting from ``seed`` if one is given."""
        if seed is not None:
            self.restart(seed)
        return self.next()

    def skip(self, count: int) -> None:
        """Pass over the next ``count`` numbers, as ``count`` calls of ``next`` would
        (SplitMix64 steps its state by a constant, so this is one addition)."""
        if self._state is None:
            self._state = new_seed()
        self._state = (self._state + count * _GOLDEN) & _MASK64

    def next(self) -> int:
        """The next number of the sequence, 0 to 2**63 - 1."""
        if self._state is None:
            self._state = new_seed()
        self._state = state = (self._state + _GOLDEN) & _MASK64
        state = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        state = ((state ^ (state >> 27)) * 0x94D049BB133111EB) & _MASK64
        return (state ^ (state >> 31)) >> 1


_MASK64: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


Ids = npt.NDArray[np.int64]
BatchPolicyFunction = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]
"""``policy(observations (M, 124) float32, masks (M, 58) int8) -> M action ids``."""


class BatchedPolicy:
    """An opponent that answers many games at once (made by ``batched``).

    The native vector env calls it once per opponent move for every game waiting on it,
    with the observations (M × 124, float32) and masks (M × 58, int8) of those games,
    M ≥ 1 and every mask with a legal id; the single env calls it with M = 1. A move with
    a single legal id (a forced draw or pass) is played for it unless ``ask_forced``:
    its answer could not differ, and a forced run of draws is then one array operation.
    """

    __slots__ = ("ask_forced", "name", "policy")

    def __init__(
        self, policy: BatchPolicyFunction, name: str | None = None, ask_forced: bool = False
    ) -> None:
        if not callable(policy):
            raise ValueError(f"batched() takes a callable policy, not {policy!r}")
        self.policy = policy
        self.name = name or getattr(policy, "__name__", None) or repr(policy)
        self.ask_forced = ask_forced

    def __call__(self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Ids:
        """The chosen ids, checked against ``masks``: an illegal one is an ``OpponentError``."""
        chosen = np.asarray(self.policy(observations, masks))
        rows = len(masks)
        if chosen.shape != (rows,) or not np.issubdtype(chosen.dtype, np.integer):
            raise OpponentError(
                f"batched opponent {self.name!r} returned {chosen.dtype} of shape"
                f" {chosen.shape}, not {rows} action ids",
                "opponent",
                opponent=self.name,
            )
        ids: Ids = chosen.astype(np.int64)
        return ids

    def __repr__(self) -> str:
        return f"batched({self.name})"


def batched(
    policy: BatchPolicyFunction, *, name: str | None = None, ask_forced: bool = False
) -> BatchedPolicy:
    """Mark ``policy(observations, masks) -> ids`` as an opponent that takes every
    waiting game at once (``BatchedPolicy``): the vector env then calls it once per
    opponent move, not once per game. ``name`` names it in errors."""
    return BatchedPolicy(policy, name, ask_forced)


class OpponentError(IllegalActionError):
    """An opponent chose an id that is not legal where it was to act: the message names
    the opponent and its seat (and the game, in the vector env)."""


def opponent_name(opponent: object) -> str:
    """How errors name an opponent: a bot's name, a policy's name, or its repr."""
    if isinstance(opponent, str):
        return opponent
    name = getattr(opponent, "name", None) or getattr(opponent, "__name__", None)
    return str(name) if name else repr(opponent)


def opponent_error(opponent: object, seat: int, action: object, reason: str) -> OpponentError:
    """The error for ``opponent``'s illegal ``action`` at ``seat``."""
    name = opponent_name(opponent)
    return OpponentError(
        f"opponent {name!r} at seat {seat} chose action {action!r}, which is not legal: {reason}",
        "opponent",
        opponent=name,
        seat=seat,
    )


def rewards_for(outcome: Outcome, reward: Reward) -> tuple[float, ...]:
    """Per seat: the points credited (R16, R17), or those minus the others' average (zero-sum)."""
    credits = outcome.credits
    if reward == "points":
        return tuple(float(c) for c in credits)
    total, others = sum(credits), len(credits) - 1
    return tuple(c - (total - c) / others for c in credits)


class EpisodeGame:
    """One episode: a single round or a whole match, seeded; the rules stay in the core.

    The environments check their options (``check_options``) once, before making these.
    """

    def __init__(
        self,
        players: int,
        episode: Episode,
        reward: Reward,
        seed: int,
        history: int = 0,
        reward_scale: float = 1.0,
    ) -> None:
        self.players = players
        self.reward_scale = float(reward_scale)
        """What every reward is multiplied by (1: points as credited)."""
        self.history = history
        """Decisions appended to every observation (0: none)."""
        self.reward: Reward = reward
        self.game: Game = (
            Match.new(players, seed=seed) if episode == "match" else Round.new(players, seed=seed)
        )
        """The episode: a match or a round, played alike."""
        self.round: Round = self._round_of(self.game)
        self.tracker = Tracker(self.round)
        """What the observations need of the round being played, kept step by step."""
        self.nothing = (0.0,) * players
        """What ``apply`` returns mid-round: no seat earns anything."""

    @staticmethod
    def _round_of(game: Game) -> Round:
        """The round being played (a match's current one, or the round itself)."""
        return game.current_round if isinstance(game, Match) else cast(Round, game)

    @property
    def over(self) -> bool:
        """The episode is over: the round being played is over (``play`` moves a match
        that goes on to its next round)."""
        return self.round.outcome is not None

    @property
    def mover(self) -> int:
        """The seat to act (after the end, the seat that acted last)."""
        return self.round.current_player

    def view(self, seat: int) -> PlayerView:
        return self.round.view(seat)

    def apply(self, action: int) -> tuple[float, ...]:
        """Play id ``action`` for the mover; the rewards it earns each seat (zeros mid-round).

        A malformed id is a ``ValueError`` and an illegal one an ``IllegalActionError``;
        either way nothing changes (R8).
        """
        played = self.round  # the engine refuses a move once it is over
        opening = played.is_opening
        self.game.apply(
            action_for_id(action, opening) if type(action) is int else id_to_action(action, opening)
        )
        if played.outcome is None:  # as in play: the usual step, without a call more
            return self.nothing
        return self._settled(played)

    def play(self, move: Action) -> tuple[float, ...]:
        """``apply`` for an action rather than its id (the bots' moves), the episode not over."""
        played = self.round
        self.game.apply(move)
        if played.outcome is None:
            return self.nothing
        return self._settled(played)

    def take_turn(self, player: Player) -> tuple[float, ...]:
        """The mover's turn, chosen by ``player`` from its own view (R21) as in every
        game (``game.take_turn``); the rewards it earns each seat."""
        played = self.round
        take_turn(self.game, player)
        if played.outcome is None:
            return self.nothing
        return self._settled(played)

    def _settled(self, played: Round) -> tuple[float, ...]:
        """After a move ended round ``played``: a match goes on to its next round; the
        rewards the settlement earns each seat."""
        if isinstance(self.game, Match) and not self.game.is_over:
            self.round = self.game.current_round
            self.tracker = Tracker(self.round)
        rewards = rewards_for(cast(Outcome, played.outcome), self.reward)
        scale = self.reward_scale
        return rewards if scale == 1.0 else tuple(r * scale for r in rewards)

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The encoding of ``seat``'s view (R21), without building the view; with
        ``history`` rows of the latest decisions appended when asked for."""
        if self.history:
            return np.concatenate(
                [
                    fast_observation(self.tracker, seat),
                    history_rows(self.tracker, seat, self.history),
                ]
            )
        return fast_observation(self.tracker, seat)

    def state(self, order: bool = True) -> npt.NDArray[np.float32]:
        """The whole round: every hand and the boneyard's order (``STATE_FIELDS``; with
        ``order=False`` which tiles are in the boneyard, not their order)."""
        return state_vector(self.tracker, order)

    def parts(
        self, seat: int, oracle: bool = False, order: bool = True
    ) -> dict[str, npt.NDArray[np.float32]]:
        """``seat``'s dict observation: ``public`` (the same for every seat; with the
        history rows as seat 0 sees them, seats in absolute order), ``private`` (its
        hand and seat) and, when asked for, ``oracle`` (every hand and the boneyard)."""
        public = public_observation(self.tracker)
        if self.history:
            public = np.concatenate([public, history_rows(self.tracker, 0, self.history)])
        parts = {"public": public, "private": private_observation(self.round, seat)}
        if oracle:
            parts["oracle"] = oracle_observation(self.tracker, order)
        return parts

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The legal-action mask of ``seat`` (all zeros when it is not to act)."""
        return fast_mask(self.round, seat)

    def observe(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``seat``'s observation and mask, what every environment hands out: from one
        read of the round (``observation_and_mask``) unless history rows are added."""
        if self.history:
            return self.observation(seat), self.mask(seat)
        observation, mask = observation_and_mask(self.tracker, seat)
        return np.frombuffer(observation, F32), np.frombuffer(mask, I8)
