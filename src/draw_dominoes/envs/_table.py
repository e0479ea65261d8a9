"""The game behind every environment: a round or a match, played by action id, with rewards."""

from __future__ import annotations

import operator
from typing import Final, Literal, cast

import numpy as np
import numpy.typing as npt

from ..actions import Action, action_for_id
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
    state_vector,
)

Episode = Literal["round", "match"]
Reward = Literal["points", "relative"]

EPISODES: tuple[Episode, ...] = ("round", "match")
REWARDS: tuple[Reward, ...] = ("points", "relative")
RENDER_MODES: tuple[str | None, ...] = (None, "ansi", "human", "rgb_array")
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
        self, players: int, episode: Episode, reward: Reward, seed: int, history: int = 0
    ) -> None:
        self.players = players
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
        return rewards_for(cast(Outcome, played.outcome), self.reward)

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

    def state(self) -> npt.NDArray[np.float32]:
        """The whole round: every hand and the boneyard's order (``STATE_FIELDS``)."""
        return state_vector(self.tracker)

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
