"""Gymnasium single-agent environment ``DrawDominoes-v0``: one learner, the other seats are bots.

``gymnasium.make("DrawDominoes-v0", opponents=["random", "greedy"])`` seats the learner
with one bot per name (from ``draw_dominoes.bots.OFFERED``), so 2–4 players.
Observations are the ``encoding`` vector of the learner's view (R21); the legal-action
mask is in ``info["action_mask"]`` and ``env.action_masks()``. Rewards are the learner's
credited points or its points minus the opponents' average (``reward="relative"``), paid
when a round ends; an episode is one round or one match. An id outside the mask changes
nothing and earns ``illegal_action_reward`` (``None``: raise ``IllegalActionError``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import bots
from ..actions import IllegalActionError
from ._table import Episode, Reward, Table, check_options
from .encoding import NUM_ACTIONS, OBSERVATION_HIGH, action_id

__all__ = ["DrawDominoesEnv"]

Observation = npt.NDArray[np.float32]


Policy = Callable[[Observation, npt.NDArray[np.int8]], int]
"""An opponent that is a policy: ``policy(observation, mask) -> action id``, given the
encoding of its own seat's view and its legal-action mask (self-play, leagues)."""


def _check_opponent(opponent: object) -> None:
    """An opponent is an offered bot's name or level, a bot that plays from a seat's view
    (R21), or a policy ``policy(observation, mask) -> action id``.

    Bots that are registered but not offered (``omniscient`` needs the whole round) are
    refused here rather than failing at the first move.
    """
    offered = ", ".join(bots.OFFERED)
    if isinstance(opponent, str):
        opponent = bots.LEVELS.get(opponent, opponent)  # a level plays its bot
        if opponent not in bots.NAMES:
            raise ValueError(f"unknown bot {opponent!r}; choose one of {offered}")
        if opponent not in bots.OFFERED:
            raise ValueError(
                f"bot {opponent!r} is not offered as an opponent (it cannot play from a "
                f"seat's view); choose one of {offered}"
            )
    elif not callable(getattr(opponent, "choose", None)) and not callable(opponent):
        raise ValueError(
            f"an opponent is a bot name, has choose(view), or is a policy"
            f" policy(observation, mask) -> action id: {opponent!r}"
        )
    elif getattr(opponent, "needs_round", False):
        raise ValueError(
            f"{opponent!r} needs the whole round and cannot play from a seat's view; "
            f"choose one of {offered}"
        )


class DrawDominoesEnv(gymnasium.Env[Observation, np.int64]):
    """The learner plays seat ``seat`` (``None``: a seeded random seat each episode)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponents: Sequence[str | bots.Bot | Policy] = ("random",),
        seat: int | None = 0,
        episode: Episode = "round",
        reward: Reward = "points",
        illegal_action_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(opponents, str) or not 1 <= len(opponents) <= 3:
            raise ValueError(f"opponents is a list of 1 to 3 bot names, not {opponents!r}")
        for opponent in opponents:
            _check_opponent(opponent)
        players = len(opponents) + 1
        check_options(
            players,
            episode,
            reward,
            illegal_action_reward=illegal_action_reward,
            render_mode=render_mode,
        )
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat is None or a seat from 0 to {players - 1}, not {seat!r}")
        self.opponent_specs = list(opponents)
        self.players, self.fixed_seat = players, seat
        self.episode, self.reward = episode, reward
        self.illegal_action_reward = illegal_action_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0.0, high=OBSERVATION_HIGH, shape=OBSERVATION_HIGH.shape, dtype=np.float32
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.table: Table | None = None
        self.seat = 0 if seat is None else seat
        self._bots: dict[int, bots.Bot | Policy] = {}

    # ----------------------------------------------------------------- helpers

    def _require_table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before step()")
        return self.table

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        table = self._require_table()
        return table.observation(self.seat), {
            "action_mask": table.mask(self.seat),
            "seat": self.seat,
        }

    def _play_opponents(self) -> float:
        """Let the opponents act until it is the learner's turn or the episode is over.

        A bot whose choice needs only the legal actions (``choose_among``: random, greedy)
        is not handed a view; a policy gets its seat's encoding and mask; any other bot
        chooses from its view (R21)."""
        table = self._require_table()
        earned = 0.0
        while not table.over and table.mover != self.seat:
            mover = table.mover
            player = self._bots[mover]
            among = getattr(player, "choose_among", None)
            if among is not None:
                move = action_id(among(table.round.legal_actions()))
            else:
                choose = getattr(player, "choose", None)
                if callable(choose):
                    move = action_id(choose(table.view(mover)))
                else:
                    policy = cast(Policy, player)
                    move = int(policy(table.observation(mover), table.mask(mover)))
            earned += table.apply(move)[self.seat]
        return earned

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (the form maskable PPO implementations ask for)."""
        return self._require_table().mask(self.seat).astype(bool)

    # ----------------------------------------------------------------- Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(2**63))
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {}
        for seat, spec in zip(others, self.opponent_specs):
            bot_seed = int(rng.integers(2**63))
            self._bots[seat] = bots.create(spec, seed=bot_seed) if isinstance(spec, str) else spec
        self.table = Table(self.players, self.episode, self.reward, game_seed)
        self._play_opponents()
        return self._observe()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        table = self._require_table()
        if table.over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            reward = table.apply(int(action) if isinstance(action, np.integer) else action)[
                self.seat
            ]
        except IllegalActionError as error:
            if self.illegal_action_reward is None:
                raise
            obs, info = self._observe()
            info["illegal_action"] = str(error)
            return obs, float(self.illegal_action_reward), False, False, info
        reward += self._play_opponents()
        obs, info = self._observe()
        return obs, float(reward), table.over, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        table = self._require_table()
        view = table.view(self.seat)
        return (
            f"line: {view.line or '(empty)'}\nhand: {' '.join(map(str, view.hand))}  "
            f"boneyard: {view.boneyard_size}  hands: {list(view.hand_sizes)}  "
            f"scores: {list(view.scores)}"
        )
