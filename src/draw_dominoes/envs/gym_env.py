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
from ..round import Round, deal_order
from ..rules import RULES
from ..tiles import ALL_TILES, TILE_COUNT
from ..view import PlayerView
from . import render
from ._table import (
    ILLEGAL_ACTION_REWARD,
    REWARD,
    BatchedPolicy,
    Episode,
    EpisodeGame,
    ObservationMode,
    Reward,
    SeedStream,
    check_options,
    opponent_error,
    opponent_name,
)
from .batch import GREEDY_RANK, BatchRounds, greedy_choice, random_choice
from .encoding import (
    DRAW_ID,
    F32,
    HISTORY_ROW,
    I8,
    MAX_SEATS,
    NUM_ACTIONS,
    ORACLE_HIGH,
    ORACLE_SLICE,
    PRIVATE_HIGH,
    PUBLIC_HIGH,
    PUBLIC_SLICE,
    STATE_HIGH,
    STATE_SIZE,
    action_id,
    mask_bytes,
    observation_and_mask,
    observation_bytes,
    observation_high,
)

frombuffer = np.frombuffer

__all__ = ["DrawDominoesEnv", "DrawDominoesVectorEnv", "OpponentHook", "Seating"]

Observation = npt.NDArray[np.float32]
_BATCHED: Final = {"random": 1, "greedy": 2}
"""The bots the batched vector env plays itself, with numpy (``batch``)."""
_FIRST_POLICY: Final = 3
"""Batched play's code of the first batched policy (codes 1 and 2 are the bots)."""
_ONLY_GREEDY: Final = frozenset({0, 2})
_ONLY_RANDOM: Final = frozenset({0, 1})

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
encoding of its own seat's view and its legal-action mask (self-play, leagues). A policy
marked with ``batched`` takes many games' observations and masks at once instead."""


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


Opponent = str | bots.Bot | Policy | BatchedPolicy
OpponentHook = Callable[[int, int, tuple[int, ...]], Sequence[Opponent] | None]
"""``opponent_hook(episode, learner_seat, seats_to_fill) -> opponents``: called as each
episode starts (each game's, in the vector env), told the episode's number (0 first,
counted by the environment), the learner's seat and the seats the opponents fill (in
order); it returns one opponent per seat to fill, or ``None`` to keep those set."""


def _checked_opponents(opponents: object, count: int) -> list[Opponent]:
    """``opponents`` as a list of ``count`` opponents, each checked (``_check_opponent``)."""
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        raise ValueError(f"opponents is a list of {count} opponents, not {opponents!r}")
    if len(opponents) != count:
        raise ValueError(f"{len(opponents)} opponents for {count} seats: {opponents!r}")
    for opponent in opponents:
        _check_opponent(opponent)
    return list(opponents)


def _check_setup(
    opponents: Sequence[Opponent],
    seat: object,
    episode: object,
    reward: object,
    illegal_action_reward: object,
    render_mode: object,
    history: object = 0,
    **options: object,
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
        **options,
    )
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise ValueError(
            f"seat is 'random' (or None) or a seat from 0 to {players - 1}, not {seat!r}"
        )
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
    then each bot's seed, in that order). An ``opponent_hook`` is asked for the opponents
    once the seat is drawn (``OpponentHook``); it draws nothing from ``seeds``."""

    __slots__ = ("opponents", "seat", "table", "waiting")

    def __init__(
        self,
        players: int,
        episode: Episode,
        reward: Reward,
        opponents: Sequence[Opponent],
        fixed_seat: int | None,
        seeds: SeedStream,
        history: int = 0,
        hook: OpponentHook | None = None,
        number: int = 0,
        reward_scale: float = 1.0,
    ) -> None:
        game_seed = seeds.next()
        self.seat = seeds.next() % players if fixed_seat is None else fixed_seat
        self.opponents: dict[int, bots.Bot | Policy | BatchedPolicy] = {}
        """Who plays each other seat."""
        others = [s for s in range(players) if s != self.seat]
        if hook is not None:
            chosen = hook(number, self.seat, tuple(others))
            if chosen is not None:
                opponents = _checked_opponents(chosen, len(others))
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
        self.table = EpisodeGame(players, episode, reward, game_seed, history, reward_scale)
        self.waiting: BatchedPolicy | None = None
        """The batched policy whose choice ``play_opponents(defer=True)`` stopped for."""

    def answer(self, opponent: object, action: int) -> float:
        """Play ``opponent``'s id ``action`` for the seat to act; what the learner earns.
        An id that is not legal there is an ``OpponentError`` naming it and its seat."""
        table = self.table
        mover = table.mover
        try:
            return table.apply(action)[self.seat]
        except (IllegalActionError, ValueError) as error:
            raise opponent_error(opponent, mover, action, str(error)) from error

    def play_opponents(self, defer: bool = False) -> float:
        """Let the opponents act until it is the learner's turn or the episode is over;
        what the learner earned meanwhile (a round the opponents finish is settled too).

        A bot whose choice needs only the legal actions (``choose_among``: random, greedy)
        is not handed a view, which would cost more than its choice; a policy gets its
        seat's encoding and mask; any other bot takes its turn as in every game
        (``game.take_turn``: from its view, R21). With ``defer``, a batched policy's
        choice is left to the caller (``waiting`` names the policy), which gathers it
        for many games at once."""
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
            if kind is BatchedPolicy:
                batch = cast(BatchedPolicy, player)
                mask = table.mask(mover)
                if not batch.ask_forced and int(mask.sum()) == 1:  # played for it
                    earned += table.apply(int(mask.argmax()))[me]
                    continue
                if defer:
                    self.waiting = batch
                    break
                chosen = batch(table.observation(mover)[None], mask[None])
                earned += self.answer(batch, int(chosen[0]))
                continue
            among = getattr(player, "choose_among", None)
            if among is not None:
                earned += table.apply(action_id(among(played.legal_actions())))[me]
            elif callable(getattr(player, "choose", None)):
                try:
                    earned += table.take_turn(cast(bots.Bot, player))[me]
                except IllegalActionError as error:
                    raise opponent_error(player, mover, "its choice", str(error)) from error
            else:
                policy = cast(Policy, player)
                action = policy(table.observation(mover), table.mask(mover))
                earned += self.answer(policy, int(action))
        return earned


def _box(high: npt.NDArray[np.float32]) -> spaces.Box:
    return spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)


def parts_space(history: int = 0, oracle: bool = False) -> spaces.Dict:
    """The space of a dict observation (``observation="dict"``): ``public``, ``private``
    and, with ``oracle``, ``oracle``; the public part holds the ``history`` rows."""
    public = np.concatenate([PUBLIC_HIGH, np.ones(history * HISTORY_ROW, dtype=np.float32)])
    parts: dict[str, spaces.Space[Any]] = {"public": _box(public), "private": _box(PRIVATE_HIGH)}
    if oracle:
        parts["oracle"] = _box(ORACLE_HIGH)
    return spaces.Dict(parts)


Parts = dict[str, Observation]
"""A dict observation (``observation="dict"``): ``public``, ``private``, maybe ``oracle``."""
EnvObservation = Any
"""What the single env hands out: an ``Observation`` or, with ``observation="dict"``,
``Parts`` (``Any``, so that callers of either mode need no narrowing)."""


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
    observation_mode: ObservationMode
    oracle: bool
    reward_scale: float
    boneyard_order: bool
    state_in_info: bool
    opponent_hook: OpponentHook | None
    episodes: int

    def _set_up(
        self,
        opponents: Sequence[Opponent],
        seat: int | str | None,
        episode: Episode,
        reward: Reward,
        illegal_action_reward: float | None,
        render_mode: str | None,
        history: int,
        *,
        observation: ObservationMode = "vector",
        oracle: bool = False,
        reward_scale: float = 1.0,
        boneyard_order: bool = True,
        state_in_info: bool = False,
        opponent_hook: OpponentHook | None = None,
    ) -> None:
        if seat == "random":
            seat = None
        self.players = _check_setup(
            opponents,
            seat,
            episode,
            reward,
            illegal_action_reward,
            render_mode,
            history,
            observation=observation,
            oracle=oracle,
            reward_scale=reward_scale,
            boneyard_order=boneyard_order,
        )
        if type(state_in_info) is not bool:
            raise ValueError(f"state_in_info is True or False, not {state_in_info!r}")
        if opponent_hook is not None and not callable(opponent_hook):
            raise ValueError(f"opponent_hook is a callable or None, not {opponent_hook!r}")
        self.history = history
        self.opponent_specs = list(opponents)
        self.fixed_seat, self.episode, self.reward = cast(int | None, seat), episode, reward
        self.illegal_action_reward = illegal_action_reward
        self.observation_mode, self.oracle = observation, oracle
        self.reward_scale, self.boneyard_order = float(reward_scale), boneyard_order
        self.state_in_info = state_in_info
        self.opponent_hook = opponent_hook
        self.episodes = 0
        """Episodes started so far (each game's, in the vector env): the hook's number."""

    def set_opponents(self, opponents: Sequence[Opponent]) -> None:
        """Who plays the other seats from the next episode on (each game's next, in the
        vector env): as many opponents as before, each checked as the option is. An
        ``opponent_hook`` still has the last word, episode by episode."""
        self.opponent_specs = _checked_opponents(opponents, self.players - 1)

    def single_spaces(self) -> tuple[spaces.Space[Any], spaces.Discrete]:
        """One game's observation space (with the history rows) and action space."""
        if self.observation_mode == "dict":
            return parts_space(self.history, self.oracle), spaces.Discrete(NUM_ACTIONS)
        high = observation_high(self.history)
        box: spaces.Space[Observation] = spaces.Box(
            low=0.0, high=high, shape=high.shape, dtype=np.float32
        )
        return box, spaces.Discrete(NUM_ACTIONS)

    @property
    def state_space(self) -> spaces.Box:
        """The full state's space (``encoding.STATE_FIELDS``), as PettingZoo's."""
        return spaces.Box(low=0.0, high=STATE_HIGH, shape=STATE_HIGH.shape, dtype=np.float32)

    def _illegal_paid(self) -> float:
        """What an illegal learner action earns, scaled as every reward is."""
        return float(self.illegal_action_reward or 0.0) * self.reward_scale

    def _seating(self, seeds: SeedStream) -> Seating:
        """A new episode drawn from ``seeds`` (the opponents not yet played)."""
        number = self.episodes
        self.episodes += 1
        return Seating(
            self.players,
            self.episode,
            self.reward,
            self.opponent_specs,
            self.fixed_seat,
            seeds,
            self.history,
            self.opponent_hook,
            number,
            self.reward_scale,
        )

    def _seated(self, seeds: SeedStream) -> Seating:
        """A new episode drawn from ``seeds``, the opponents played up to the learner's turn."""
        seating = self._seating(seeds)
        seating.play_opponents()
        return seating


class DrawDominoesEnv(_Setup, gymnasium.Env[EnvObservation, np.int64]):
    """The learner plays seat ``seat`` (``"random"`` or ``None``: a seat drawn from the
    seeded sequence each episode).

    Options beyond the game's: ``opponent_hook`` (``OpponentHook``) picks the opponents
    of each episode, ``set_opponents`` changes them between episodes; ``observation=
    "dict"`` hands out ``{"public", "private"}`` parts (``"oracle"`` too with ``oracle=
    True``); ``reward_scale`` multiplies every reward paid (the illegal-action one too);
    ``state_in_info`` adds ``info["state"]`` (``state()``), whose boneyard field holds
    the draw order unless ``boneyard_order=False``. ``view()`` is the learner's
    ``PlayerView`` and ``sample_hidden(rng)`` a full round consistent with it.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 4,
    }

    def __init__(
        self,
        opponents: Sequence[Opponent] = ("random",),
        seat: int | str | None = 0,
        episode: Episode = "round",
        reward: Reward = REWARD,
        illegal_action_reward: float | None = ILLEGAL_ACTION_REWARD,
        render_mode: str | None = None,
        history: int = 0,
        observation: ObservationMode = "vector",
        oracle: bool = False,
        reward_scale: float = 1.0,
        boneyard_order: bool = True,
        state_in_info: bool = False,
        opponent_hook: OpponentHook | None = None,
    ) -> None:
        self._set_up(
            opponents,
            seat,
            episode,
            reward,
            illegal_action_reward,
            render_mode,
            history,
            observation=observation,
            oracle=oracle,
            reward_scale=reward_scale,
            boneyard_order=boneyard_order,
            state_in_info=state_in_info,
            opponent_hook=opponent_hook,
        )
        self.render_mode = render_mode
        self.observation_space, self.action_space = self.single_spaces()
        self.seating: Seating | None = None
        self.seat = self.fixed_seat or 0
        self._plain = observation == "vector" and not history and not state_in_info
        """The step hands out the plain vector and mask (the quick path)."""
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

    def _observe(self) -> tuple[EnvObservation, dict[str, Any]]:
        table, seat = self._require_seating().table, self.seat
        observation: EnvObservation
        if self.observation_mode == "dict":
            observation = table.parts(seat, self.oracle, self.boneyard_order)
            mask = table.mask(seat)
        else:
            observation, mask = table.observe(seat)
        info: dict[str, Any] = {"action_mask": mask, "seat": seat}
        if self.state_in_info:
            info["state"] = table.state(self.boneyard_order)
        return observation, info

    def state(self, order: bool | None = None) -> npt.NDArray[np.float32]:
        """The full state (``encoding.STATE_FIELDS``, ``STATE_SIZE`` values): every hand
        and the boneyard's draw order, as PettingZoo's ``state()``; ``order=False`` (or
        the env's ``boneyard_order=False``) leaves the order out. For centralised
        critics and perfect-information baselines, never the learner's input (R21)."""
        table = self._require_seating().table
        return table.state(self.boneyard_order if order is None else order)

    def view(self) -> PlayerView:
        """The learner's ``PlayerView``: what it may see (R21), for search and analysis."""
        return self._require_seating().table.view(self.seat)

    def sample_hidden(self, rng: random.Random) -> Round:
        """A full round consistent with ``view()``, the hidden tiles dealt anew from ``rng``
        (``Round.sample_hidden``, a ``ViewSampler``): a determinization for search."""
        return self._require_seating().table.round.sample_hidden(self.seat, rng)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (the form maskable PPO implementations ask for)."""
        return self._require_seating().table.mask(self.seat).astype(bool)

    # ----------------------------------------------------------------- Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[EnvObservation, dict[str, Any]]:
        if seed is not None:
            self._seeds.restart(seed)
            self._np_random, self._np_random_seed = None, seed  # made if asked for
            self._generator_seed = seed
        seating = self._seated(self._seeds)
        self.seating, self.seat = seating, seating.seat
        return self._observe()

    def step(
        self, action: np.int64 | int
    ) -> tuple[EnvObservation, float, bool, bool, dict[str, Any]]:
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
            return obs, self._illegal_paid(), False, False, info
        reward += seating.play_opponents()
        if not self._plain:
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


class DrawDominoesVectorEnv(_Setup, VectorEnv[Any, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``DrawDominoes-v0`` stepped together into numpy batches:
    observations (N × 124, float32), rewards, terminations, and the masks (N × 58, int8)
    in ``info["action_mask"]`` and ``action_masks()``.

    What ``gymnasium.make_vec("DrawDominoes-v0", num_envs=N)`` builds. A finished game is
    reset in the same step (``AutoresetMode.SAME_STEP``): the observation and mask
    returned are the next game's first, never a finished game's all-zero mask, and the
    finished game's last observation is in ``info["final_obs"]`` (with ``"_final_obs"``
    saying which).

    With single rounds, no history and ``random``/``greedy`` opponents or policies marked
    with ``batched`` (the default opponent is ``random``) the games are played by
    ``batch.BatchRounds``, every game in one numpy operation a move (``batched=None``
    chooses it when it can; ``False`` plays each game with the engine). A batched policy
    is called once per opponent move with every game waiting on it, in either mode.
    Either way sub-environment ``i`` reset with ``seed`` deals the rounds and seats that
    ``DrawDominoes-v0`` reset with ``seed + i`` deals, as ``SyncVectorEnv`` seeds them;
    unbatched, it also plays exactly the same moves, while batched random opponents draw
    their choices from one generator of their own (seeded by ``seed`` too).

    The options of ``DrawDominoesEnv`` apply to every game; ``opponent_hook`` is called
    for each game as it starts, ``state()`` is N × ``STATE_SIZE``, and ``view(i)`` and
    ``sample_hidden(i, rng)`` (engine play only: the batched rounds keep no history)
    give game ``i``'s learner's view and a round consistent with it.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": [],
        "autoreset_mode": AutoresetMode.SAME_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        opponents: Sequence[Opponent] = ("random",),
        seat: int | str | None = 0,
        episode: Episode = "round",
        reward: Reward = REWARD,
        illegal_action_reward: float | None = ILLEGAL_ACTION_REWARD,
        render_mode: str | None = None,
        history: int = 0,
        batched: bool | None = None,
        observation: ObservationMode = "vector",
        oracle: bool = False,
        reward_scale: float = 1.0,
        boneyard_order: bool = True,
        state_in_info: bool = False,
        opponent_hook: OpponentHook | None = None,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs is a positive whole number, not {num_envs!r}")
        if render_mode is not None:
            raise ValueError(f"the vector environment does not render: render_mode {render_mode!r}")
        self._set_up(
            opponents,
            seat,
            episode,
            reward,
            illegal_action_reward,
            None,
            history,
            observation=observation,
            oracle=oracle,
            reward_scale=reward_scale,
            boneyard_order=boneyard_order,
            state_in_info=state_in_info,
            opponent_hook=opponent_hook,
        )
        self.num_envs = num_envs
        self.render_mode = None
        self.single_observation_space, self.single_action_space = self.single_spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.rngs: list[SeedStream] = []
        """Each game's seeds, as ``DrawDominoes-v0`` draws them."""
        self.seatings: list[Seating] = []
        self.policies: list[BatchedPolicy] = []
        """Batched play: the batched policies met so far; policy ``k`` has code 3 + k."""
        codes = [self._code(o) for o in self.opponent_specs]
        can_batch = episode == "round" and not history and None not in codes
        if batched and not can_batch:
            raise ValueError(
                "batched play needs episode='round', no history and only random or greedy"
                " opponents or batched policies"
            )
        self.batched = can_batch if batched is None else batched
        self.kinds = [code or 0 for code in codes]
        """Per opponent: 1 plays at random, 2 greedily, 3 + k is batched policy ``k``."""
        self._kinds_met = set(self.kinds)
        """Batched play: every code a game may hold (the hook's opponents too)."""
        self._asks_forced = any(policy.ask_forced for policy in self.policies)
        self.rounds = BatchRounds(self.players, num_envs)
        self.learners = np.zeros(num_envs, dtype=np.int64)
        self.movers = np.zeros((num_envs, MAX_SEATS), dtype=np.int64)
        """Batched play: how each seat of each game chooses (0: the learner)."""
        self.choices = np.random.default_rng()
        self.openings = random.Random()
        """Batched play: the random bots' draws and openings in rounds they lead."""
        self.masks = np.zeros((num_envs, NUM_ACTIONS), dtype=bool)
        """Batched play: the legal masks handed out with the latest observations."""

    # ----------------------------------------------------------------- opponents

    def _code(self, opponent: Opponent) -> int | None:
        """How batched play plays ``opponent``: 1 random, 2 greedy, 3 + k batched policy
        ``k`` (registered on first sight); ``None`` if it cannot."""
        if isinstance(opponent, str):
            return _BATCHED.get(bots.resolve(opponent))
        if type(opponent) is BatchedPolicy:
            for k, known in enumerate(self.policies):
                if known is opponent:
                    return _FIRST_POLICY + k
            self.policies.append(opponent)
            self._asks_forced = any(policy.ask_forced for policy in self.policies)
            return _FIRST_POLICY + len(self.policies) - 1
        return None

    def _codes(self, opponents: Sequence[Opponent], source: str) -> list[int]:
        """``_code`` of each opponent; one batched play cannot play is refused by name."""
        codes = []
        for opponent in opponents:
            code = self._code(opponent)
            if code is None:
                raise ValueError(
                    f"batched play takes random, greedy and batched policies, not"
                    f" {opponent_name(opponent)!r} from {source}: make the env with batched=False"
                )
            codes.append(code)
        self._kinds_met.update(codes)
        return codes

    def set_opponents(self, opponents: Sequence[Opponent]) -> None:
        """Who plays the other seats from each game's next episode on (checked as the
        option is; batched play takes random, greedy and batched policies only)."""
        checked = _checked_opponents(opponents, self.players - 1)
        if self.batched:
            self.kinds = self._codes(checked, "set_opponents")
        self.opponent_specs = checked

    # ----------------------------------------------------------------- batched play

    def _deal(self, rows: npt.NDArray[np.int64]) -> None:
        """These games start new rounds, each drawn from its generator as ``Seating`` draws
        it (the game's seed, the seat, one seed per opponent), so both deal alike: the
        round is the one ``Round.new`` deals from that seed (``deal_order``)."""
        players, fixed, hook = self.players, self.fixed_seat, self.opponent_hook
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
            mover = chooses[seat]
            if hook is not None:
                number = self.episodes
                self.episodes += 1
                others = tuple(s for s in range(players) if s != seat)
                chosen = hook(number, seat, others)
                if chosen is not None:
                    checked = _checked_opponents(chosen, players - 1)
                    mover = [0] * MAX_SEATS
                    for other, kind in zip(
                        others, self._codes(checked, "opponent_hook"), strict=True
                    ):
                        mover[other] = kind
            else:
                self.episodes += 1
            movers.append(mover)
            learners.append(seat)
            tiles, leader = deal_order(players, game_seed)
            order = list(map(index_of, tiles))
            orders.append(order)
            leaders.append(leader)
            kind = mover[leader]
            if kind and kind < _FIRST_POLICY:  # a bot leads: its draws and opening, here
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

    def _bot_ids(self, waiting: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The random and greedy bots to act in ``waiting``: their draws are made here
        (``draw_runs``), then the id each places or passes with."""
        rounds, kinds = self.rounds, self._kinds_met
        only_greedy = kinds <= _ONLY_GREEDY
        only_random = kinds <= _ONLY_RANDOM
        if only_greedy:
            greedy = np.ones(len(waiting), dtype=bool)
        elif only_random:
            greedy = np.zeros(len(waiting), dtype=bool)
        else:
            greedy = self.movers[waiting, rounds.current[waiting]] == _BATCHED["greedy"]
        rounds.draw_runs(waiting, greedy, self.choices)  # every draw the bots make now
        mask = rounds.legal(waiting)
        mask[:, DRAW_ID] = False  # then each places or passes
        if only_random:
            return random_choice(mask, self.choices)
        if only_greedy:
            return greedy_choice(mask)
        return np.where(greedy, greedy_choice(mask), random_choice(mask, self.choices))

    def _policy_ids(
        self, waiting: npt.NDArray[np.int64], codes: npt.NDArray[np.int64], fresh: bool = False
    ) -> npt.NDArray[np.int64]:
        """The batched policies to act in ``waiting`` (``codes[j]`` says which): the
        forced draws of those that are not asked them first (``draw_runs`` as greedy
        draws: while no tile fits), a forced pass or single id played for them, then one
        call of each policy for all its games. ``fresh``: every game is at its opening,
        where any tile opens, so nothing is forced."""
        rounds, policies = self.rounds, self.policies
        if fresh:
            auto = np.zeros(len(waiting), dtype=bool)
        elif self._asks_forced:
            asks = np.array([policy.ask_forced for policy in policies], dtype=bool)
            auto = ~asks[codes - _FIRST_POLICY]
            if auto.any():
                rounds.draw_runs(waiting[auto], np.ones(int(auto.sum()), dtype=bool), self.choices)
        else:
            auto = np.ones(len(waiting), dtype=bool)
            rounds.draw_runs(waiting, auto, self.choices)
        opening = None
        if fresh:  # cheaper, from the hands alone
            opening, mask = rounds.openings(waiting)
        else:
            mask = rounds.legal(waiting)
        asked = ~auto if fresh else ~auto | (mask.sum(axis=1) > 1)
        everyone = fresh or bool(asked.all())
        ids = np.zeros(len(waiting), dtype=np.int64) if everyone else mask.argmax(axis=1)
        if not everyone and not asked.any():
            return ids
        if len(policies) == 1:
            groups = [(policies[0], asked)]
        else:
            groups = [
                (policies[code - _FIRST_POLICY], asked & (codes == code))
                for code in np.unique(codes[asked]).tolist()
            ]
        for policy, chosen_rows in groups:
            games = waiting if everyone and len(groups) == 1 else waiting[chosen_rows]
            seats = rounds.current[games]
            masks = (mask if games is waiting else mask[chosen_rows]).view(np.int8)
            observations = (
                rounds.observations(seats, games)
                if opening is None
                else opening
                if games is waiting
                else opening[chosen_rows]
            )
            chosen = policy(observations, masks)
            inside = (chosen >= 0) & (chosen < NUM_ACTIONS)
            legal = inside.all() and bool(masks[np.arange(len(games)), chosen].all())
            if not legal:
                clipped = np.where(inside, chosen, 0)
                bad = ~inside | (masks[np.arange(len(games)), clipped] == 0)
                j = int(np.flatnonzero(bad)[0])
                raise opponent_error(
                    policy,
                    int(seats[j]),
                    int(chosen[j]),
                    f"not in its mask in game {int(games[j])}",
                )
            if games is waiting:
                ids = chosen
            else:
                ids[chosen_rows] = chosen
        return ids

    def _play_batched(self, rows: npt.NDArray[np.int64], fresh: bool = False) -> None:
        """The opponents of these games move until each learner is to act (or it is over).
        ``fresh``: the rounds were just dealt (``_deal``), so a policy to act is opening."""
        rounds, learners = self.rounds, self.learners
        waiting = rows[~rounds.over[rows] & (rounds.current[rows] != learners[rows])]
        with_policies = max(self._kinds_met) >= _FIRST_POLICY
        while len(waiting):
            if not with_policies:
                ids = self._bot_ids(waiting)
            else:
                codes = self.movers[waiting, rounds.current[waiting]]
                asked = codes >= _FIRST_POLICY
                if asked.all():
                    ids = self._policy_ids(waiting, codes, fresh)
                else:
                    ids = np.empty(len(waiting), dtype=np.int64)
                    if asked.any():
                        ids[asked] = self._policy_ids(waiting[asked], codes[asked], fresh)
                    ids[~asked] = self._bot_ids(waiting[~asked])
                if fresh and bool((ids < DRAW_ID).all()):  # openings only: the cheaper call
                    rounds.open_rounds(waiting, np.zeros(len(waiting), dtype=np.int64), ids >> 1)
                    waiting = waiting[rounds.current[waiting] != learners[waiting]]
                    fresh = False
                    continue
                fresh = False
            after, ended = rounds.apply(waiting, ids)
            waiting = waiting[~ended & (after != learners[waiting])]

    def _batched_observations(
        self, rows: npt.NDArray[np.int64] | None = None
    ) -> Observations | dict[str, Observations]:
        """The learners' observations of all games (or ``rows``), in the env's mode."""
        rounds = self.rounds
        every = np.arange(self.num_envs) if rows is None else rows
        seats = self.learners[every]
        if self.observation_mode == "vector":
            return rounds.observations(seats, every)
        public = rounds.observations(np.zeros(len(every), dtype=np.int64), every)
        hands = rounds.hands[every, seats]
        private = np.zeros((len(every), PRIVATE_HIGH.shape[0]), dtype=np.float32)
        private[:, :TILE_COUNT] = (hands[:, None] >> np.arange(TILE_COUNT)) & 1
        private[np.arange(len(every)), TILE_COUNT + seats] = 1
        parts = {"public": public[:, PUBLIC_SLICE], "private": private}
        if self.oracle:
            parts["oracle"] = rounds.states(every, self.boneyard_order)[:, ORACLE_SLICE]
        return parts

    def _batched_state(self) -> tuple[Any, dict[str, Any]]:
        rounds, every = self.rounds, np.ones(self.num_envs, dtype=bool)
        self.masks = rounds.legal(np.arange(self.num_envs))
        masks = self.masks.astype(np.int8)
        info = {"action_mask": masks, "_action_mask": every, "seat": self.learners.copy()}
        info["_seat"] = every
        if self.state_in_info:
            info["state"] = rounds.states(np.arange(self.num_envs), self.boneyard_order)
            info["_state"] = every
        return self._batched_observations(), info

    def _step_batched(
        self, chosen: npt.NDArray[np.int64]
    ) -> tuple[
        Any,
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
        learners = self.learners[done]
        rewards[done] = (
            rounds.relative(done, learners)
            if self.reward == "relative"
            else rounds.credited(done, learners)
        )
        if self.reward_scale != 1.0:
            rewards *= self.reward_scale
        finished: dict[str, Any] = {}
        if len(done):
            # As SyncVectorEnv reports them: each finished game's last observation and info.
            last = self._batched_observations(done)
            final_obs = np.full(size, None, dtype=object)
            for j, index in enumerate(done.tolist()):
                final_obs[index] = (
                    {key: part[j] for key, part in last.items()}
                    if isinstance(last, dict)
                    else last[j]
                )
            seats = np.zeros(size, dtype=np.int64)
            seats[done] = self.learners[done]
            final_info: dict[str, Any] = {
                "action_mask": np.zeros((size, NUM_ACTIONS), dtype=np.int8),
                "_action_mask": terminations.copy(),
                "seat": seats,
                "_seat": terminations.copy(),
            }
            if self.state_in_info:
                states = np.zeros((size, STATE_SIZE), dtype=np.float32)
                states[done] = rounds.states(done, self.boneyard_order)
                final_info["state"], final_info["_state"] = states, terminations.copy()
            finished = {
                "final_obs": final_obs,
                "_final_obs": terminations.copy(),
                "final_info": final_info,
                "_final_info": terminations.copy(),
            }
            self._deal(done)
            self._play_batched(done, fresh=True)
        obs, infos = self._batched_state()
        infos.update(finished)
        if not all_legal:
            rewards[~legal] = self._illegal_paid()
            reasons = np.full(size, None, dtype=object)
            for bad in np.flatnonzero(~legal):
                reasons[bad] = f"action {int(chosen[bad])} is not legal here"
            infos["illegal_action"] = reasons
            infos["_illegal_action"] = ~legal
        return obs, rewards, terminations, np.zeros(size, dtype=bool), infos

    # ----------------------------------------------------------------- engine play

    def _play_engine(self, indices: Sequence[int]) -> dict[int, float]:
        """The opponents of these games move until each learner is to act (or it is
        over); what each learner earned meanwhile. A batched policy is asked once a
        round of moves, for every game then waiting on it."""
        seatings = self.seatings
        earned: dict[int, float] = {}
        pending = list(indices)
        while pending:
            groups: dict[int, tuple[BatchedPolicy, list[int]]] = {}
            for index in pending:
                seating = seatings[index]
                got = seating.play_opponents(defer=True)
                if got:
                    earned[index] = earned.get(index, 0.0) + got
                policy = seating.waiting
                if policy is not None:
                    seating.waiting = None
                    groups.setdefault(id(policy), (policy, []))[1].append(index)
            pending = []
            for policy, members in groups.values():
                tables = [seatings[index].table for index in members]
                observations = np.stack([t.observation(t.mover) for t in tables])
                masks = np.stack([t.mask(t.mover) for t in tables])
                chosen = policy(observations, masks)
                for index, action in zip(members, chosen.tolist(), strict=True):
                    got = seatings[index].answer(policy, action)
                    if got:
                        earned[index] = earned.get(index, 0.0) + got
                pending.extend(members)
        return earned

    def _observe_one(self, seating: Seating) -> Any:
        """One game's learner observation in the env's mode (engine play)."""
        table = seating.table
        if self.observation_mode == "dict":
            return table.parts(seating.seat, self.oracle, self.boneyard_order)
        return table.observation(seating.seat)

    def _batch(self) -> tuple[Any, dict[str, Any]]:
        """Every game's observation and mask, each encoded once and joined into arrays."""
        seatings = self.seatings
        obs: Any
        if self.observation_mode == "dict":
            each = [self._observe_one(s) for s in seatings]
            obs = {key: np.stack([parts[key] for parts in each]) for key in each[0]}
        elif self.history:
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
        info = {"action_mask": masks, "_action_mask": every, "seat": seats, "_seat": every}
        if self.state_in_info:
            info["state"], info["_state"] = self.state(), every
        return obs, info

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

    def state(self, order: bool | None = None) -> npt.NDArray[np.float32]:
        """Every game's full state (N × ``STATE_SIZE``, ``encoding.STATE_FIELDS``), as
        ``DrawDominoesEnv.state``: every hand and the boneyard's draw order, unless
        ``order=False`` (or the env's ``boneyard_order=False``)."""
        if not self.rngs:
            raise RuntimeError("call reset() before state()")
        keep = self.boneyard_order if order is None else order
        if self.batched:
            return self.rounds.states(np.arange(self.num_envs), keep)
        return np.stack([s.table.state(keep) for s in self.seatings])

    def _engine_seating(self, index: int) -> Seating:
        if not self.rngs:
            raise RuntimeError("call reset() first")
        if self.batched:
            raise ValueError(
                "the batched rounds keep no history to build a view from: make the env"
                " with batched=False for view() and sample_hidden()"
            )
        return self.seatings[index]

    def view(self, index: int) -> PlayerView:
        """Game ``index``'s learner's ``PlayerView`` (engine play, ``batched=False``)."""
        seating = self._engine_seating(index)
        return seating.table.view(seating.seat)

    def sample_hidden(self, index: int, rng: random.Random) -> Round:
        """A full round consistent with ``view(index)``, the hidden tiles dealt anew from
        ``rng`` (``Round.sample_hidden``), engine play only."""
        seating = self._engine_seating(index)
        return seating.table.round.sample_hidden(seating.seat, rng)

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
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
            self._play_batched(np.arange(self.num_envs), fresh=True)
            self.seatings = []
            return self._batched_state()
        self.seatings = [self._seating(stream) for stream in self.rngs]
        self._play_engine(range(self.num_envs))
        return self._batch()

    def step(
        self, actions: npt.NDArray[np.int64] | Sequence[int]
    ) -> tuple[
        Any,
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
        finals: dict[int, tuple[Any, dict[str, Any]]] = {}
        moved = []
        for index, action in enumerate(chosen.tolist()):
            seating = self.seatings[index]
            try:
                rewards[index] = seating.table.apply(action)[seating.seat]
            except IllegalActionError as error:
                if self.illegal_action_reward is None:
                    raise
                rewards[index] = self._illegal_paid()
                illegal[index] = str(error)
                continue
            moved.append(index)
        for index, earned in self._play_engine(moved).items():
            rewards[index] += earned
        anew = []
        for index in moved:
            seating = self.seatings[index]
            table = seating.table
            if table.over:
                terminations[index] = True
                final_info: dict[str, Any] = {"action_mask": table.mask(seating.seat)}
                final_info["seat"] = seating.seat
                if self.state_in_info:
                    final_info["state"] = table.state(self.boneyard_order)
                finals[index] = (self._observe_one(seating), final_info)
                self.seatings[index] = self._seating(self.rngs[index])
                anew.append(index)
        self._play_engine(anew)
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
