"""PettingZoo environments for Draw: ``env()`` (turn-based AEC) and ``parallel_env()``.

``env()`` is the usual AEC form for a turn-based game: ``agent_selection`` is always the
seat to act, and since drawing keeps the turn (R6) a seat may act several times in a row.
``parallel_env()`` is the parallel form: every live agent sends an action each step and
only the seat to act is heard (the others' masks are all zero and their actions are
ignored). ``cyclic_env()`` is that parallel form seen through PettingZoo's round-robin
AEC conversion, where every agent takes a step in each cycle.

Observations are ``{"observation": vector, "action_mask": mask}`` from ``encoding``, built
from the seat's view only (R21); with ``observation="dict"`` the vector is replaced by its
parts, ``{"public", "private"}`` (and ``"oracle"``, every hand, with ``oracle=True``, for
perfect-information training only). ``view(agent)`` and ``sample_hidden(agent, rng)`` give
a seat's ``PlayerView`` and a full round consistent with it; ``reward_scale`` multiplies
every reward paid. Rewards are the points a settlement credits (``reward=
"points"``) or those minus the other seats' average (``"relative"``, zero-sum), paid when
a round ends; an episode is one round or one match (``episode=``). An id outside the mask
is refused and changes nothing: the seat gets ``illegal_action_reward`` and stays to act,
with the reason in ``infos[agent]["illegal_action"]``; with ``illegal_action_reward=None``
it raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped]

from ..actions import IllegalActionError
from ..round import Round
from ..view import PlayerView
from . import render
from ._table import (
    ILLEGAL_ACTION_REWARD,
    REWARD,
    Episode,
    EpisodeGame,
    ObservationMode,
    Reward,
    SeedStream,
    check_options,
)
from .encoding import (
    F32,
    I8,
    NUM_ACTIONS,
    STATE_HIGH,
    fast_mask,
    observation_and_mask,
    observation_high,
)
from .gym_env import parts_space

frombuffer = np.frombuffer

__all__ = ["DrawParallelEnv", "cyclic_env", "env", "parallel_env", "raw_env"]

METADATA: dict[str, Any] = {
    "name": "draw_v0",
    "render_modes": ["ansi", "human", "rgb_array"],
    "is_parallelizable": False,
}


def _box(high: npt.NDArray[np.float32]) -> spaces.Box:
    return spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)


def _spaces(
    players: int, history: int, mode: ObservationMode = "vector", oracle: bool = False
) -> tuple[list[str], spaces.Dict, spaces.Discrete]:
    agents = [f"player_{seat}" for seat in range(players)]
    observation: spaces.Space[Any] = (
        _box(observation_high(history)) if mode == "vector" else parts_space(history, oracle)
    )
    observation_space = spaces.Dict(
        {
            "observation": observation,
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )
    return agents, observation_space, spaces.Discrete(NUM_ACTIONS)


def _render(table: EpisodeGame, mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """Public information only (R21): the line, hand sizes, boneyard size and scores, as
    text (``ansi``; ``human`` prints it) or an image (``rgb_array``), hands face down."""
    if mode is None:
        return None
    view = table.view(table.mover)
    if mode == "rgb_array":
        return render.image(view, own=False)
    shown = render.text(view, own=False)
    if mode == "human":
        print(shown)
        return None
    return shown


class _DrawEnv:
    """What both PettingZoo forms share: the options, the spaces, the seeds and the table."""

    def __init__(
        self,
        players: int = 2,
        episode: Episode = "round",
        reward: Reward = REWARD,
        max_cycles: int | None = None,
        illegal_action_reward: float | None = ILLEGAL_ACTION_REWARD,
        render_mode: str | None = None,
        history: int = 0,
        observation: ObservationMode = "vector",
        oracle: bool = False,
        reward_scale: float = 1.0,
        boneyard_order: bool = True,
    ) -> None:
        super().__init__()
        check_options(
            players,
            episode,
            reward,
            illegal_action_reward=illegal_action_reward,
            render_mode=render_mode,
            max_cycles=max_cycles,
            history=history,
            observation=observation,
            oracle=oracle,
            reward_scale=reward_scale,
            boneyard_order=boneyard_order,
        )
        self.history = history
        self.observation_mode: ObservationMode = observation
        """``"vector"`` (the 124 values) or ``"dict"`` (public, private, oracle parts)."""
        self.oracle = oracle
        self.reward_scale = float(reward_scale)
        self.boneyard_order = boneyard_order
        """Whether ``state()`` and the oracle part hold the boneyard's draw order."""
        self.players, self.episode, self.reward = players, episode, reward
        self.max_cycles = max_cycles
        self.illegal_action_reward = illegal_action_reward
        self.render_mode = render_mode
        self.possible_agents, obs_space, act_space = _spaces(players, history, observation, oracle)
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.agents: list[str] = []
        self._seeds = SeedStream()
        self.table: EpisodeGame | None = None
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_table(self, seed: int | None) -> EpisodeGame:
        """A fresh episode (``seed``: restart the seed sequence); every agent is live."""
        self.table = EpisodeGame(
            self.players,
            self.episode,
            self.reward,
            self._seeds.episode(seed),
            self.history,
            self.reward_scale,
        )
        self.agents = self.possible_agents[:]
        self.steps = 0
        return self.table

    @property
    def state_space(self) -> spaces.Box:
        """The full state's space: every hand and the boneyard's order (``STATE_FIELDS``)."""
        return spaces.Box(low=0.0, high=STATE_HIGH, shape=STATE_HIGH.shape, dtype=np.float32)

    def state(self, order: bool | None = None) -> npt.NDArray[np.float32]:
        """The full state, for centralised critics and perfect-information baselines:
        every hand and the boneyard's order, which no agent's observation holds (R21).
        ``order=False`` (or the env's ``boneyard_order=False``) leaves the order out: the
        boneyard field then holds a 1 for each tile in it."""
        if self.table is None:
            raise RuntimeError("call reset() before state()")
        return self.table.state(self.boneyard_order if order is None else order)

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` may see (R21): its ``PlayerView`` of the round being played."""
        if self.table is None:
            raise RuntimeError("call reset() before view()")
        return self.table.view(self._seat_of[agent])

    def sample_hidden(self, agent: str, rng: random.Random) -> Round:
        """A full round consistent with ``view(agent)``, its hidden tiles dealt anew from
        ``rng`` (``Round.sample_hidden``): a determinization for search from that seat."""
        if self.table is None:
            raise RuntimeError("call reset() before sample_hidden()")
        return self.table.round.sample_hidden(self._seat_of[agent], rng)

    @property
    def _illegal_reward(self) -> float:
        return float(self.illegal_action_reward or 0.0) * self.reward_scale

    def _observe(self, table: EpisodeGame, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        if self.observation_mode == "dict":
            parts = table.parts(seat, self.oracle, self.boneyard_order)
            return {"observation": parts, "action_mask": fast_mask(table.round, seat)}
        observation, mask = table.observe(seat)
        return {"observation": observation, "action_mask": mask}

    def close(self) -> None:
        pass


# The lower-case class name is the PettingZoo convention for AEC environments.
class raw_env(_DrawEnv, AECEnv):  # type: ignore[misc]
    """Turn-based AEC environment for 2–4 players; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = METADATA

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        table = self._new_table(seed)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        """Whether ``rewards`` holds a value other than zero (it is replaced, never changed)."""
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[table.mover]
        self._first_done: str | None = None

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """PettingZoo's ``agent_iter``: the agent to act, until every agent is done (or
        ``max_iter`` steps), as a generator, the cheapest iterator Python has."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step for an agent that is done, in the case this game always has:
        every agent is done at once (the round ends for all, or the cycles run out), so
        the next agent is simply the next in the list."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent]
        del self.rewards[agent], self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        if self.agents:  # as PettingZoo's: the first agent done is selected once all are
            if self._first_done is None:
                self._first_done = agent
            self.agent_selection = self.agents[0]
        elif self._first_done is not None:
            self.agent_selection, self._first_done = self._first_done, None
        if self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False

    def _require_table(self) -> EpisodeGame:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observe(self._require_table(), agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``: the selected agent's observation, cumulative reward,
        termination, truncation and info."""
        agent, table = self.agent_selection, self.table
        if table is None:
            raise RuntimeError("call reset() before using the environment")
        if not observe:
            observation = None
        elif self.history or self.observation_mode == "dict":
            observation = self._observe(table, agent)
        else:  # _observe, one call fewer
            vector, mask = observation_and_mask(table.tracker, self._seat_of[agent])
            observation = {
                "observation": frombuffer(vector, F32),
                "action_mask": frombuffer(mask, I8),
            }
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent, table = self.agent_selection, self.table
        if table is None:
            raise RuntimeError("call reset() before using the environment")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # a step that earns nothing leaves every reward at zero
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if self.infos[agent]:
            self.infos[agent] = {}
        try:
            gained = table.apply(action)
        except IllegalActionError as error:
            if self.illegal_action_reward is None:
                raise
            rewards = self.rewards = dict.fromkeys(self.agents, 0.0)
            rewards[agent] = self._illegal_reward
            self._rewarded = True
            self.infos[agent] = {"illegal_action": str(error)}
            self._accumulate_rewards()
        else:
            if gained is not table.nothing:  # a round was settled
                rewards = self.rewards = dict.fromkeys(self.agents, 0.0)
                for seat, value in enumerate(gained):
                    rewards[self.possible_agents[seat]] = value
                self._rewarded = True
                self._accumulate_rewards()
        self.steps += 1
        played = table.round  # the match's next round once one ends and the match goes on
        if played.outcome is not None:  # the episode is over (EpisodeGame.over)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self.steps >= self.max_cycles * self.players:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[played.current_player]

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        return _render(self._require_table(), self.render_mode)


def env(**kwargs: Any) -> raw_env:
    """The turn-based AEC environment (the usual PettingZoo entry point)."""
    return raw_env(**kwargs)


class DrawParallelEnv(_DrawEnv, ParallelEnv):  # type: ignore[misc]
    """Parallel form: each step every live agent sends an action; only the seat to act counts."""

    metadata: ClassVar[dict[str, Any]] = {**METADATA, "name": "draw_v0_parallel"}

    def _observations(self, table: EpisodeGame) -> dict[str, dict[str, Any]]:
        return {agent: self._observe(table, agent) for agent in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        table = self._new_table(seed)
        return self._observations(table), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        if table is None or not self.agents:
            raise RuntimeError("call reset() before step(), and again after the episode ends")
        mover = self.possible_agents[table.mover]
        if mover not in actions:
            raise ValueError(f"{mover} is to act, but no action was given for it")
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        try:
            gained = table.apply(actions[mover])
        except IllegalActionError as error:
            if self.illegal_action_reward is None:
                raise
            rewards[mover] = self._illegal_reward
            infos[mover] = {"illegal_action": str(error)}
        else:
            for seat, value in enumerate(gained):
                rewards[self.possible_agents[seat]] = value
        self.steps += 1
        over = table.over
        truncated = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        observations = self._observations(table)
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self.table is None:
            return None
        return _render(self.table, self.render_mode)


def parallel_env(**kwargs: Any) -> DrawParallelEnv:
    """The parallel form (every agent acts each step; only the seat to act is heard)."""
    return DrawParallelEnv(**kwargs)


def cyclic_env(**kwargs: Any) -> AECEnv:
    """The parallel form as a round-robin AEC environment (PettingZoo's conversion)."""
    return parallel_to_aec(DrawParallelEnv(**kwargs))
