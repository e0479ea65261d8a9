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

import random
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Final, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import bots
from ..actions import DRAW, PASS, Action, IllegalActionError, Place
from ..bots.simple import GreedyBot, RandomBot
from ..legal import LAST_DRAW
from ..round import deal_order
from ..rules import RULES
from ..tiles import ALL_TILES
from ..view import PlayerView
from . import render
from ._table import (
    ILLEGAL_ACTION_REWARD,
    REWARD,
    Episode,
    EpisodeGame,
    Reward,
    SeedStream,
    check_options,
)
from .batch import GREEDY_RANK, BatchRounds, greedy_choice, random_choice
from .encoding import (
    DRAW_ID,
    F32,
    I8,
    MAX_SEATS,
    NUM_ACTIONS,
    action_id,
    mask_bytes,
    observation_and_mask,
    observation_bytes,
    observation_high,
)

frombuffer = np.frombuffer

__all__ = ["DrawDominoesEnv", "DrawDominoesVectorEnv", "Seating"]

Observation = npt.NDArray[np.float32]
_BATCHED: Final = {"random": 1, "greedy": 2}
"""The bots the batched vector env plays itself, with numpy (``batch``)."""
Observations = npt.NDArray[np.float32]
"""A batch: one observation a row."""
_PLACES_AND_MORE: Final[tuple[Action, ...]] = (
    *(Place(tile, end) for tile in ALL_TILES for end in (0, 1, None)),
    DRAW,
    PASS,
)
_GREEDY_RANK: Final = {action: GREEDY_RANK[action.id] for action in _PLACES_AND_MORE}.__getitem__
"""``GreedyBot.choose_among`` as a key of ``max`` (``batch.GREEDY_RANK`` by action, a
lookup cheaper than the action's id and then the table)."""


_INDEX: Final = attrgetter("index")
_GREEDY_OPENING: Final = [GREEDY_RANK[Place(tile, None).id] for tile in ALL_TILES].__getitem__
"""The greedy bot's order of openings (``batch.GREEDY_RANK``), by tile index."""

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


Opponent = str | bots.Bot | Policy


def _check_setup(
    opponents: Sequence[Opponent],
    seat: object,
    episode: object,
    reward: object,
    illegal_action_reward: object,
    render_mode: object,
    history: object = 0,
) -> int:
    """Refuse a bad setup with a message that names the choices; the number of players."""
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
        history=history,
    )
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise ValueError(f"seat is None or a seat from 0 to {players - 1}, not {seat!r}")
    return players


class UniformOpponent:
    """The ``random`` bot as an opponent: a uniform choice among the legal actions, drawn
    from a ``SeedStream`` seeded per episode (seeding a ``random.Random`` for every
    episode, as ``RandomBot`` would be, costs as much as several steps)."""

    name = "random"
    __slots__ = ("_seeds",)

    def __init__(self, seed: int) -> None:
        self._seeds = SeedStream()
        self._seeds.restart(seed)

    def choose_among(self, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (the engine's order), each as likely."""
        if not legal:
            raise ValueError("there is no legal action to choose from")
        return legal[self._seeds.next() % len(legal)]

    def choose(self, view: PlayerView) -> Action:
        return self.choose_among(bots.turn_actions(view))


_GREEDY: Final = GreedyBot()
"""The greedy bot plays every greedy seat: it is deterministic and keeps no state."""


class Seating:
    """One episode from the learner's chair: the table, the learner's seat and who plays
    each other seat, all drawn from ``seeds`` (the game's seed, the seat if not fixed,
    then each bot's seed, in that order)."""

    __slots__ = ("opponents", "seat", "table")

    def __init__(
        self,
        players: int,
        episode: Episode,
        reward: Reward,
        opponents: Sequence[Opponent],
        fixed_seat: int | None,
        seeds: SeedStream,
        history: int = 0,
    ) -> None:
        game_seed = seeds.next()
        self.seat = seeds.next() % players if fixed_seat is None else fixed_seat
        self.opponents: dict[int, bots.Bot | Policy] = {}
        """Who plays each other seat."""
        others = [s for s in range(players) if s != self.seat]
        for other, spec in zip(others, opponents, strict=True):
            bot_seed = seeds.next()
            if not isinstance(spec, str):
                self.opponents[other] = spec
                continue
            kind = bots.resolve(spec)
            self.opponents[other] = (
                UniformOpponent(bot_seed)
                if kind == "random"
                else _GREEDY
                if kind == "greedy"
                else bots.create(spec, seed=bot_seed)
            )
        self.table = EpisodeGame(players, episode, reward, game_seed, history)

    def play_opponents(self) -> float:
        """Let the opponents act until it is the learner's turn or the episode is over;
        what the learner earned meanwhile (a round the opponents finish is settled too).

        A bot whose choice needs only the legal actions (``choose_among``: random, greedy)
        is not handed a view, which would cost more than its choice; a policy gets its
        seat's encoding and mask; any other bot takes its turn as in every game
        (``game.take_turn``: from its view, R21)."""
        table, me = self.table, self.seat
        opponents = self.opponents
        earned = 0.0
        while True:
            played = table.round  # the next round's once a match goes on
            mover = played.current_player
            if mover == me or played.outcome is not None:
                break
            player = opponents[mover]
            kind = type(player)
            if kind is UniformOpponent:
                choice = cast(UniformOpponent, player).choose_among(played.legal_actions())
                earned += table.play(choice)[me]
                continue
            if kind is RandomBot:  # what its choose_among does, without the call
                choice = cast(RandomBot, player).rng.choice(played.legal_actions())
                earned += table.play(choice)[me]
                continue
            if kind is GreedyBot:
                earned += table.play(max(played.legal_actions(), key=_GREEDY_RANK))[me]
                continue
            among = getattr(player, "choose_among", None)
            if among is not None:
                earned += table.apply(action_id(among(played.legal_actions())))[me]
            elif callable(getattr(player, "choose", None)):
                earned += table.take_turn(cast(bots.Bot, player))[me]
            else:
                policy = cast(Policy, player)
                earned += table.apply(int(policy(table.observation(mover), table.mask(mover))))[me]
        return earned


class _Setup:
    """What both Gymnasium environments keep of their options (checked once, by
    ``_check_setup``) and how they seat an episode from them."""

    players: int
    history: int
    opponent_specs: list[Opponent]
    fixed_seat: int | None
    episode: Episode
    reward: Reward
    illegal_action_reward: float | None

    def _set_up(
        self,
        opponents: Sequence[Opponent],
        seat: int | None,
        episode: Episode,
        reward: Reward,
        illegal_action_reward: float | None,
        render_mode: str | None,
        history: int,
    ) -> None:
        self.players = _check_setup(
            opponents, seat, episode, reward, illegal_action_reward, render_mode, history
        )
        self.history = history
        self.opponent_specs = list(opponents)
        self.fixed_seat, self.episode, self.reward = seat, episode, reward
        self.illegal_action_reward = illegal_action_reward

    def single_spaces(self) -> tuple[spaces.Space[Observation], spaces.Discrete]:
        """One game's observation space (with the history rows) and action space."""
        high = observation_high(self.history)
        box: spaces.Space[Observation] = spaces.Box(
            low=0.0, high=high, shape=high.shape, dtype=np.float32
        )
        return box, spaces.Discrete(NUM_ACTIONS)

    def _seated(self, seeds: SeedStream) -> Seating:
        """A new episode drawn from ``seeds``, the opponents played up to the learner's turn."""
        seating = Seating(
            self.players,
            self.episode,
            self.reward,
            self.opponent_specs,
            self.fixed_seat,
            seeds,
            self.history,
        )
        seating.play_opponents()
        return seating


class DrawDominoesEnv(_Setup, gymnasium.Env[Observation, np.int64]):
    """The learner plays seat ``seat`` (``None``: a seeded random seat each episode)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 4,
    }

    def __init__(
        self,
        opponents: Sequence[Opponent] = ("random",),
        seat: int | None = 0,
        episode: Episode = "round",
        reward: Reward = REWARD,
        illegal_action_reward: float | None = ILLEGAL_ACTION_REWARD,
        render_mode: str | None = None,
        history: int = 0,
    ) -> None:
        self._set_up(opponents, seat, episode, reward, illegal_action_reward, render_mode, history)
        self.render_mode = render_mode
        self.observation_space, self.action_space = self.single_spaces()
        self.seating: Seating | None = None
        self.seat = 0 if seat is None else seat
        self._seeds = SeedStream()
        """Each episode's seeds: ``reset(seed=s)`` restarts them from ``s``."""
        self._generator: np.random.Generator | None = None
        self._generator_seed: int | None = None

    # Gymnasium keeps the generator of ``np_random`` in ``_np_random`` and makes it in
    # ``reset(seed=...)``. The episodes here are drawn from ``SeedStream`` instead (seeding
    # numpy's generator costs as much as a short episode), so the generator is made from
    # the reset's seed only when something asks for it: it is the same generator.
    @property
    def _np_random(self) -> np.random.Generator | None:
        if self._generator is None and self._generator_seed is not None:
            self._generator = seeding.np_random(self._generator_seed)[0]
        return self._generator

    @_np_random.setter
    def _np_random(self, generator: np.random.Generator | None) -> None:
        """A generator handed in (``env.np_random = ...``) decides the episodes that
        follow, as it would if the environment drew from it: the seed sequence restarts
        from a number drawn from it."""
        self._generator = generator
        self._generator_seed = None
        if generator is not None:
            self._seeds.restart(int(generator.integers(2**63)))

    @property
    def table(self) -> EpisodeGame | None:
        """The episode being played (``None`` before the first reset)."""
        return None if self.seating is None else self.seating.table

    # ----------------------------------------------------------------- helpers

    def _require_seating(self) -> Seating:
        if self.seating is None:
            raise RuntimeError("call reset() before step()")
        return self.seating

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        observation, mask = self._require_seating().table.observe(self.seat)
        return observation, {"action_mask": mask, "seat": self.seat}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (the form maskable PPO implementations ask for)."""
        return self._require_seating().table.mask(self.seat).astype(bool)

    # ----------------------------------------------------------------- Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        if seed is not None:
            self._seeds.restart(seed)
            self._np_random, self._np_random_seed = None, seed  # made if asked for
            self._generator_seed = seed
        seating = self._seated(self._seeds)
        self.seating, self.seat = seating, seating.seat
        return self._observe()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        seating = self.seating
        if seating is None:
            raise RuntimeError("call reset() before step()")
        table, seat = seating.table, self.seat
        if table.over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            if type(action) is not int and isinstance(action, np.integer):
                action = int(action)
            reward = table.apply(action)[seat]
        except IllegalActionError as error:
            if self.illegal_action_reward is None:
                raise
            obs, info = self._observe()
            info["illegal_action"] = str(error)
            return obs, float(self.illegal_action_reward), False, False, info
        reward += seating.play_opponents()
        if self.history:
            obs, info = self._observe()
        else:
            vector, mask = observation_and_mask(table.tracker, seat)
            obs = frombuffer(vector, F32)
            info = {"action_mask": frombuffer(mask, I8), "seat": seat}
        return obs, float(reward), table.over, False, info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The learner's view (R21): text (``ansi``; ``human`` prints it) or an image
        (``rgb_array``) with the learner's hand face up and the others face down."""
        if self.render_mode is None:
            return None
        view = self._require_seating().table.view(self.seat)
        if self.render_mode == "rgb_array":
            return render.image(view, own=True)
        shown = render.text(view, own=True)
        if self.render_mode == "human":
            print(shown)
            return None
        return shown


class DrawDominoesVectorEnv(
    _Setup, VectorEnv[Observations, npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` games of ``DrawDominoes-v0`` stepped together into numpy batches:
    observations (N × 124, float32), rewards, terminations, and the masks (N × 58, int8)
    in ``info["action_mask"]`` and ``action_masks()``.

    What ``gymnasium.make_vec("DrawDominoes-v0", num_envs=N)`` builds. A finished game is
    reset in the same step (``AutoresetMode.SAME_STEP``): the observation and mask
    returned are the next game's first, never a finished game's all-zero mask, and the
    finished game's last observation is in ``info["final_obs"]`` (with ``"_final_obs"``
    saying which).

    With single rounds, no history and ``random``/``greedy`` opponents (the default) the
    games are played by ``batch.BatchRounds``, every game in one numpy operation a move
    (``batched=None`` chooses it when it can; ``False`` plays each game with the engine).
    Either way sub-environment ``i`` reset with ``seed`` deals the rounds and seats that
    ``DrawDominoes-v0`` reset with ``seed + i`` deals, as ``SyncVectorEnv`` seeds them;
    unbatched, it also plays exactly the same moves, while batched random opponents draw
    their choices from one generator of their own (seeded by ``seed`` too).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": [],
        "autoreset_mode": AutoresetMode.SAME_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        opponents: Sequence[Opponent] = ("random",),
        seat: int | None = 0,
        episode: Episode = "round",
        reward: Reward = REWARD,
        illegal_action_reward: float | None = ILLEGAL_ACTION_REWARD,
        render_mode: str | None = None,
        history: int = 0,
        batched: bool | None = None,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs is a positive whole number, not {num_envs!r}")
        if render_mode is not None:
            raise ValueError(f"the vector environment does not render: render_mode {render_mode!r}")
        self._set_up(opponents, seat, episode, reward, illegal_action_reward, None, history)
        self.num_envs = num_envs
        self.render_mode = None
        self.single_observation_space, self.single_action_space = self.single_spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.rngs: list[SeedStream] = []
        """Each game's seeds, as ``DrawDominoes-v0`` draws them."""
        self.seatings: list[Seating] = []
        kinds = [bots.resolve(o) if isinstance(o, str) else None for o in self.opponent_specs]
        can_batch = episode == "round" and not history and set(kinds) <= set(_BATCHED)
        if batched and not can_batch:
            raise ValueError(
                "batched play needs episode='round', no history and only random or greedy opponents"
            )
        self.batched = can_batch if batched is None else batched
        self.kinds = [_BATCHED.get(kind or "", 0) for kind in kinds]
        """Per opponent: 1 plays at random, 2 greedily (batched play)."""
        self.rounds = BatchRounds(self.players, num_envs)
        self.learners = np.zeros(num_envs, dtype=np.int64)
        self.movers = np.zeros((num_envs, MAX_SEATS), dtype=np.int64)
        """Batched play: how each seat of each game chooses (0: the learner)."""
        self.choices = np.random.default_rng()
        self.openings = random.Random()
        """Batched play: the random bots' draws and openings in rounds they lead."""
        self.masks = np.zeros((num_envs, NUM_ACTIONS), dtype=bool)
        """Batched play: the legal masks handed out with the latest observations."""

    def _seat_anew(self, index: int) -> Seating:
        seating = self.seatings[index] = self._seated(self.rngs[index])
        return seating

    # ----------------------------------------------------------------- batched play

    def _deal(self, rows: npt.NDArray[np.int64]) -> None:
        """These games start new rounds, each drawn from its generator as ``Seating`` draws
        it (the game's seed, the seat, one seed per opponent), so both deal alike: the
        round is the one ``Round.new`` deals from that seed (``deal_order``)."""
        players, fixed = self.players, self.fixed_seat
        chooses = []  # by the learner's seat: how each seat chooses (0: the learner)
        for seat in range(players):
            row = [0] * MAX_SEATS
            for other, kind in zip(
                [s for s in range(players) if s != seat], self.kinds, strict=True
            ):
                row[other] = kind
            chooses.append(row)
        orders, leaders, learners, movers = [], [], [], []
        opened, runs, openings = [], [], []
        rngs, index_of, pick = self.rngs, _INDEX, self.openings.random
        size = RULES.hand_size(players)
        dealt = players * size
        room, greedy = LAST_DRAW - dealt, _BATCHED["greedy"]
        for index in rows.tolist():
            rng = rngs[index]
            game_seed = rng.next()  # what Seating draws, in its order
            seat = rng.next() % players if fixed is None else fixed
            rng.skip(players - 1)  # the bots' seeds
            movers.append(chooses[seat])
            learners.append(seat)
            tiles, leader = deal_order(players, game_seed)
            order = list(map(index_of, tiles))
            orders.append(order)
            leaders.append(leader)
            kind = chooses[seat][leader]
            if kind:  # a bot leads: its draws and opening, here rather than in numpy passes
                hand = order[leader * size : leader * size + size]
                run = 0
                if kind == greedy:  # the heaviest tile (then the higher), never a draw
                    tile = max(hand, key=_GREEDY_OPENING)
                else:  # a uniform choice among the openings and the draw, draw after draw
                    while run < room and pick() * (len(hand) + 1) < 1:
                        hand.append(order[dealt + run])
                        run += 1
                    tile = hand[int(pick() * len(hand))]
                opened.append(index)
                runs.append(run)
                openings.append(tile)
        self.movers[rows] = movers
        self.learners[rows] = learners
        self.rounds.deal(rows, np.array(orders, dtype=np.int64), np.array(leaders, dtype=np.int64))
        if opened:
            self.rounds.open_rounds(
                np.array(opened, dtype=np.int64),
                np.array(runs, dtype=np.int64),
                np.array(openings, dtype=np.int64),
            )

    def _play_batched(self, rows: npt.NDArray[np.int64]) -> None:
        """The opponents of these games move until each learner is to act (or it is over)."""
        rounds, learners = self.rounds, self.learners
        waiting = rows[~rounds.over[rows] & (rounds.current[rows] != learners[rows])]
        kinds = set(self.kinds)
        while len(waiting):
            if kinds == {_BATCHED["greedy"]}:
                greedy = np.ones(len(waiting), dtype=bool)
            elif kinds == {_BATCHED["random"]}:
                greedy = np.zeros(len(waiting), dtype=bool)
            else:
                greedy = self.movers[waiting, rounds.current[waiting]] == _BATCHED["greedy"]
            rounds.draw_runs(waiting, greedy, self.choices)  # every draw the bots make now
            mask = rounds.legal(waiting)
            mask[:, DRAW_ID] = False  # then each places or passes
            if kinds == {_BATCHED["random"]}:
                ids = random_choice(mask, self.choices)
            elif kinds == {_BATCHED["greedy"]}:
                ids = greedy_choice(mask)
            else:
                ids = np.where(greedy, greedy_choice(mask), random_choice(mask, self.choices))
            after, ended = rounds.apply(waiting, ids)
            waiting = waiting[~ended & (after != learners[waiting])]

    def _batched_state(self) -> tuple[Observations, dict[str, Any]]:
        rounds, every = self.rounds, np.ones(self.num_envs, dtype=bool)
        self.masks = rounds.legal(np.arange(self.num_envs))
        masks = self.masks.astype(np.int8)
        info = {"action_mask": masks, "_action_mask": every, "seat": self.learners.copy()}
        info["_seat"] = every
        return rounds.observations(self.learners), info

    def _step_batched(
        self, chosen: npt.NDArray[np.int64]
    ) -> tuple[
        Observations,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        rounds, size = self.rounds, self.num_envs
        every = np.arange(size)
        # the masks handed out with the last observations
        legal = self.masks.reshape(-1)[every * NUM_ACTIONS + chosen]
        all_legal = bool(legal.all())
        rewards = np.zeros(size, dtype=np.float64)
        if not all_legal and self.illegal_action_reward is None:
            row = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(f"action {int(chosen[row])} is not legal in game {row}")
        moving = every if all_legal else every[legal]
        rounds.apply(moving, chosen if all_legal else chosen[legal])
        self._play_batched(moving)
        terminations = rounds.over.copy()  # every game that ended is dealt anew below
        done = np.flatnonzero(terminations)
        rewards[done] = rounds.relative(done, self.learners[done])
        finished: dict[str, Any] = {}
        if len(done):
            # As SyncVectorEnv reports them: each finished game's last observation and info.
            last = rounds.observations(self.learners[done], done)
            final_obs = np.full(size, None, dtype=object)
            for j, index in enumerate(done.tolist()):
                final_obs[index] = last[j]
            seats = np.zeros(size, dtype=np.int64)
            seats[done] = self.learners[done]
            finished = {
                "final_obs": final_obs,
                "_final_obs": terminations.copy(),
                "final_info": {
                    "action_mask": np.zeros((size, NUM_ACTIONS), dtype=np.int8),
                    "_action_mask": terminations.copy(),
                    "seat": seats,
                    "_seat": terminations.copy(),
                },
                "_final_info": terminations.copy(),
            }
            self._deal(done)
            self._play_batched(done)
        obs, infos = self._batched_state()
        infos.update(finished)
        if not all_legal:
            rewards[~legal] = self.illegal_action_reward
            reasons = np.full(size, None, dtype=object)
            for bad in np.flatnonzero(~legal):
                reasons[bad] = f"action {int(chosen[bad])} is not legal here"
            infos["illegal_action"] = reasons
            infos["_illegal_action"] = ~legal
        return obs, rewards, terminations, np.zeros(size, dtype=bool), infos

    # ----------------------------------------------------------------- engine play

    def _batch(self) -> tuple[Observations, dict[str, Any]]:
        """Every game's observation and mask, each encoded once and joined into arrays."""
        seatings = self.seatings
        if self.history:
            obs = np.stack([s.table.observation(s.seat) for s in seatings])
        else:
            obs = np.frombuffer(
                bytearray(b"".join([observation_bytes(s.table.tracker, s.seat) for s in seatings])),
                dtype=np.float32,
            ).reshape(self.num_envs, -1)
        masks = np.frombuffer(
            bytearray(b"".join([mask_bytes(s.table.round, s.seat) for s in seatings])),
            dtype=np.int8,
        ).reshape(self.num_envs, NUM_ACTIONS)
        seats = np.array([s.seat for s in seatings], dtype=np.int64)
        every = np.ones(self.num_envs, dtype=bool)
        return obs, {"action_mask": masks, "_action_mask": every, "seat": seats, "_seat": every}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks as booleans, one row a game (for maskable PPO)."""
        if not self.rngs:
            raise RuntimeError("call reset() before step()")
        if self.batched:
            return self.masks.copy()
        return np.frombuffer(
            bytearray(b"".join([mask_bytes(s.table.round, s.seat) for s in self.seatings])),
            dtype=np.bool_,
        ).reshape(self.num_envs, NUM_ACTIONS)

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = (
                [None] * self.num_envs if seed is None else [seed + i for i in range(self.num_envs)]
            )
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        self.rngs = [SeedStream() for _ in seeds]
        for stream, start in zip(self.rngs, seeds, strict=True):
            if start is not None:
                stream.restart(start)
        if self.batched:
            known = [s for s in seeds if s is not None]
            self.choices = np.random.default_rng(known or None)
            self.openings = random.Random(int(self.choices.integers(2**63)))
            self._deal(np.arange(self.num_envs))
            self._play_batched(np.arange(self.num_envs))
            self.seatings = []
            return self._batched_state()
        self.seatings = [None] * self.num_envs  # type: ignore[list-item]
        for index in range(self.num_envs):
            self._seat_anew(index)
        return self._batch()

    def step(
        self, actions: npt.NDArray[np.int64] | Sequence[int]
    ) -> tuple[
        Observations,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        if not self.rngs:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(
                f"step takes {self.num_envs} integer action ids, not {chosen.dtype} of shape"
                f" {chosen.shape}"
            )
        if ((chosen < 0) | (chosen >= NUM_ACTIONS)).any():  # refused before any game moves
            raise ValueError(f"an action id is an integer from 0 to {NUM_ACTIONS - 1}")
        if self.batched:
            return self._step_batched(chosen.astype(np.int64))
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=bool)
        illegal: dict[int, str] = {}
        finals: dict[int, tuple[Observation, dict[str, Any]]] = {}
        for index, action in enumerate(chosen.tolist()):
            seating = self.seatings[index]
            table = seating.table
            try:
                earned = table.apply(action)[seating.seat]
            except IllegalActionError as error:
                if self.illegal_action_reward is None:
                    raise
                rewards[index] = self.illegal_action_reward
                illegal[index] = str(error)
                continue
            earned += seating.play_opponents()
            rewards[index] = earned
            if table.over:
                terminations[index] = True
                mask = table.mask(seating.seat)
                finals[index] = (
                    table.observation(seating.seat),
                    {"action_mask": mask, "seat": seating.seat},
                )
                self._seat_anew(index)
        obs, infos = self._batch()
        if illegal:
            reasons = np.full(self.num_envs, None, dtype=object)
            for index, reason in illegal.items():
                reasons[index] = reason
            infos["illegal_action"] = reasons
            infos["_illegal_action"] = reasons != None  # noqa: E711 (elementwise)
        for index, (final_obs, final_info) in finals.items():
            infos = self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, index)
        return obs, rewards, terminations, np.zeros(self.num_envs, dtype=bool), infos
