"""Research adapters' speed: environment steps per CPU second beside the engine's own rate.

Times are this process's CPU time, so other work on a shared machine skews them less, and
each rate is measured in turns with the one it is compared to (``--slices``), so that a
change in the machine's speed during the run falls on both alike. The floor rows are the
least a step shaped like the adapter's above them costs in Python over this engine
(``FloorTable``: the move, the seat to act, a fresh mask and observation), handing out
zeros for the observation and then this package's encoding of it: shares an adapter of
that shape cannot pass with any encoding, and with this one.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

# One BLAS thread: the batched policy's product is small, and a second thread spinning
# on the shared 2-core machine would count twice in the CPU time measured.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from draw_dominoes import Round
from draw_dominoes.actions import action_for_id
from draw_dominoes.envs.encoding import (
    F32,
    I8,
    OBSERVATION_SIZE,
    Tracker,
    mask_bytes,
    observation_and_mask,
)


def engine_steps(players: int, seconds: float) -> tuple[int, float]:
    """The engine alone, as the environments are measured: uniform random legal actions."""
    rng = random.Random(0)
    uniform = rng.random
    steps, episode = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        round_ = Round.new(players, seed=episode)
        episode += 1
        legal = round_.legal_actions()
        while legal:
            round_.apply(legal[int(uniform() * len(legal))])
            steps += 1
            legal = round_.legal_actions()
    return steps, time.process_time() - start


def masked_uniform(rng: random.Random, mask: np.ndarray) -> int:
    """A uniform legal id: as cheap as the engine loop's own pick, so the rates compare
    (``mask.nonzero()`` as a list, not ``np.flatnonzero``, whose wrappers cost more
    than the pick; the same ids in the same order, so the same games)."""
    legal = mask.nonzero()[0].tolist()
    return legal[int(rng.random() * len(legal))]


class FloorTable:
    """The least an environment step can do over the engine, for the floor rows: play the
    id, keep the seat to act and hand out a fresh mask and observation as numpy arrays.
    With ``encode`` the observation is the real one (``observation_and_mask``); without,
    a copy of zeros, so what is left is the cost of the API's shape alone: no rewards,
    terminations or infos kept per agent, no checks beyond the engine's own."""

    def __init__(self, players: int, encode: bool) -> None:
        self.players, self.encode = players, encode
        self.agents_all = [f"player_{seat}" for seat in range(players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.agents_all)}
        self.zeros = bytes(4 * OBSERVATION_SIZE)

    def reset(self, seed: int) -> None:
        self.round = Round.new(self.players, seed=seed)
        self.tracker = Tracker(self.round)
        self.agents = self.agents_all[:]
        self.done = False
        self.agent_selection = self.agents_all[self.round.current_player]

    def agent_iter(self) -> Iterator[str]:
        while self.agents:
            yield self.agent_selection

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        if self.encode:
            vector, mask = observation_and_mask(self.tracker, seat)
            return {
                "observation": np.frombuffer(vector, F32),
                "action_mask": np.frombuffer(mask, I8),
            }
        return {
            "observation": np.frombuffer(bytearray(self.zeros), F32),
            "action_mask": np.frombuffer(mask_bytes(self.round, seat), I8),
        }

    def last(self) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, object]]:
        return self.observe(self.seat_of[self.agent_selection]), 0.0, self.done, False, {}

    def step(self, action: int | None) -> None:
        if self.done:
            self.agents.remove(self.agent_selection)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        round_ = self.round
        round_.apply(action_for_id(action, round_.is_opening))
        self.done = round_.outcome is not None
        self.agent_selection = self.agents_all[round_.current_player]

    def reply(self, bot: random.Random) -> None:
        """The other seats move uniformly at random until seat 0 is to act or it is over."""
        round_ = self.round
        while not self.done and round_.current_player != 0:
            legal = round_.legal_actions()
            round_.apply(legal[int(bot.random() * len(legal))])
            self.done = round_.outcome is not None


def aec_steps(env: Any, seconds: float) -> tuple[int, float]:
    """AEC steps of ``env`` with masked uniform actions, observing the agent to act each
    step: the loop of the PettingZoo rows and of their floor."""
    rng = random.Random(0)
    steps, episode = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(masked_uniform(rng, obs["action_mask"]))
            steps += 1
    return steps, time.process_time() - start


def floor_steps(players: int, encode: bool, seconds: float) -> tuple[int, float]:
    """``pettingzoo_steps``'s loop over ``FloorTable``."""
    return aec_steps(FloorTable(players, encode), seconds)


def gymnasium_floor_steps(encode: bool, seconds: float) -> tuple[int, float]:
    """``gymnasium_steps``'s loop over ``FloorTable`` against one uniform random bot: a
    learner step is its move, the bot's moves until the learner is to act again, and the
    learner's mask and observation."""
    env = FloorTable(2, encode)
    rng, bot = random.Random(0), random.Random(1)
    steps, episode = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        env.reply(bot)
        info = env.observe(0)
        while not env.done:
            env.step(masked_uniform(rng, info["action_mask"]))
            env.reply(bot)
            info = env.observe(0)
            steps += 1
    return steps, time.process_time() - start


def pettingzoo_steps(players: int, seconds: float) -> tuple[int, float]:
    """AEC steps with masked uniform actions, observing the agent to act each step."""
    from draw_dominoes.envs import draw_v0

    return aec_steps(draw_v0.env(players=players), seconds)


def gymnasium_steps(opponents: list[str], seconds: float) -> tuple[int, float]:
    """Learner steps (each includes the bots' replies) with masked uniform actions."""
    import gymnasium

    import draw_dominoes.envs

    env = gymnasium.make(draw_dominoes.envs.GYM_ID, opponents=opponents)
    rng = random.Random(0)
    steps, episode = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, info = env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            action = masked_uniform(rng, info["action_mask"])
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
    return steps, time.process_time() - start


def vector_steps(mode: str, num_envs: int, seconds: float) -> tuple[int, float, int]:
    """Environment steps (``num_envs`` a batch step) with masked uniform actions, and how
    many masks of live games came back all zero (none should)."""
    import gymnasium

    import draw_dominoes.envs

    env = gymnasium.make_vec(draw_dominoes.envs.GYM_ID, num_envs=num_envs, vectorization_mode=mode)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps, empty = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        masks = info["action_mask"].astype(bool)
        live = masks.any(axis=1)
        empty += int((~live).sum())
        # a uniform legal id per row: the largest random key among the legal ids
        keys = np.where(masks, rng.random(masks.shape), -1.0)
        actions = keys.argmax(axis=1)
        _, _, _, _, info = env.step(actions)
        steps += num_envs
    return steps, time.process_time() - start, empty


def linear_scorer(seed: int = 0) -> tuple[Any, Any]:
    """A tiny linear policy over the observation, as a league's frozen opponent would be:
    scores ``obs @ W + b`` (``W`` seeded, small), the best legal id; its bias puts
    ``draw`` last, as any trained policy learns to (drawing while a tile fits gives
    the opponent time). Both forms: a batched one (M games at once) and a per-game one."""
    rng = np.random.default_rng(seed)
    weights = rng.normal(scale=0.1, size=(OBSERVATION_SIZE, 58)).astype(np.float32)
    bias = np.zeros(58, dtype=np.float32)
    bias[56] = -10.0
    floor = np.float32(-1e30)

    def many(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.where(masks, observations @ weights + bias, floor).argmax(axis=1)

    def one(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.where(mask, observation @ weights + bias, floor).argmax())

    return many, one


def vector_opponent_steps(opponent: str, num_envs: int, seconds: float) -> tuple[int, float, int]:
    """``vector_steps`` of the native vector env against one opponent: ``random`` (the
    built-in bot), ``batched`` (``linear_scorer`` marked with ``batched``) or ``callable``
    (the same scorer called once per game)."""
    import gymnasium

    import draw_dominoes.envs

    many, one = linear_scorer()
    chosen: Any = {"random": "random", "batched": draw_dominoes.envs.batched(many)}.get(
        opponent, one
    )
    env = gymnasium.make_vec(draw_dominoes.envs.GYM_ID, num_envs=num_envs, opponents=[chosen])
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps, empty = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        masks = info["action_mask"].astype(bool)
        empty += int((~masks.any(axis=1)).sum())
        keys = np.where(masks, rng.random(masks.shape), -1.0)
        _, _, _, _, info = env.step(keys.argmax(axis=1))
        steps += num_envs
    return steps, time.process_time() - start, empty


def opponent_rows(num_envs: int, seconds: float, slices: int) -> None:
    """The native vector env against a batched policy and a per-game callable, each
    measured side by side with the built-in ``random`` opponent."""
    for opponent in ("batched", "callable"):
        alone, other = interleaved(
            lambda s: vector_opponent_steps("random", num_envs, s),
            lambda s, o=opponent: vector_opponent_steps(o, num_envs, s),
            seconds,
            slices,
        )
        base, rate = alone[0] / alone[1], other[0] / other[1]
        print(
            f"native N={num_envs} vs {opponent} linear policy {rate:>10,.0f} env steps/s,"
            f" vs random {base:>10,.0f}: {rate / base:.0%}"
        )


def openspiel_steps(players: int, seconds: float) -> tuple[int, float]:
    """apply_action calls (chance and decisions) on uniform random games."""
    import pyspiel

    import draw_dominoes.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_draw_dominoes", {"players": players})
    rng = random.Random(0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.process_time() - start


def _clone_rounds(players: int) -> list:
    """Positions to clone: 50 seeded rounds played a seeded random number of steps."""
    rng = random.Random(1)
    rounds = []
    for seed in range(50):
        round_ = Round.new(players, seed=seed)
        for _ in range(rng.randrange(40)):
            legal = round_.legal_actions()
            if not legal:
                break
            round_.apply(rng.choice(legal))
        rounds.append(round_)
    return rounds


def engine_clones(players: int, seconds: float) -> tuple[int, float]:
    """``Round.clone`` calls on the positions of ``_clone_rounds``."""
    rounds = _clone_rounds(players)
    clones = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for round_ in rounds:
            for _ in range(20):
                round_.clone()
        clones += 20 * len(rounds)
    return clones, time.process_time() - start


def openspiel_clones(players: int, seconds: float) -> tuple[int, float]:
    """``state.clone()`` calls on OpenSpiel states at the positions of ``_clone_rounds``
    (the same deals, reached through the chance nodes, then the same actions)."""
    import pyspiel

    import draw_dominoes.envs.openspiel  # noqa: F401  (registers the game)
    from draw_dominoes.envs import action_id

    game = pyspiel.load_game("python_draw_dominoes", {"players": players})
    states = []
    for played in _clone_rounds(players):
        state = game.new_initial_state()
        hands, boneyard = played.deal
        state.apply_action(played.leader)
        for tile in (t for hand in hands for t in hand):
            state.apply_action(tile.index)
        stock = iter(boneyard)
        for _, action in played.history:
            state.apply_action(action_id(action))
            if state.is_chance_node():
                state.apply_action(next(stock).index)
        states.append(state)
    clones = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in states:
            for _ in range(20):
                state.clone()
        clones += 20 * len(states)
    return clones, time.process_time() - start


def interleaved(
    first: Callable[[float], tuple[int, ...]],
    second: Callable[[float], tuple[int, ...]],
    seconds: float,
    slices: int,
) -> tuple[tuple[int, float, int], tuple[int, float, int]]:
    """Both measurements in turns, ``seconds / slices`` each, summed per side: the rates
    then compare like with like while the shared machine's speed drifts."""
    totals = [[0, 0.0, 0], [0, 0.0, 0]]
    for _ in range(slices):
        for total, measure in zip(totals, (first, second), strict=True):
            count, elapsed, *extra = measure(seconds / slices)
            total[0] += count
            total[1] += elapsed
            total[2] += extra[0] if extra else 0
    (a, b, c), (d, e, f) = totals
    return (int(a), b, int(c)), (int(d), e, int(f))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--num-envs", type=int, default=256, help="games in a vector env")
    parser.add_argument(
        "--slices",
        type=int,
        default=6,
        help="turns each measurement is split into, alternating with the one it is compared to",
    )
    parser.add_argument(
        "--opponents-only",
        action="store_true",
        help="only the vector env's rows with policy opponents",
    )
    args = parser.parse_args()
    seconds, slices = args.seconds, args.slices
    if args.opponents_only:
        opponent_rows(args.num_envs, seconds, slices)
        return
    adapters: list[tuple[str, int, Callable[[float], tuple[int, ...]]]] = [
        ("PettingZoo AEC, 2 players", 2, lambda s: pettingzoo_steps(2, s)),
        ("PettingZoo AEC, 3 players", 3, lambda s: pettingzoo_steps(3, s)),
        ("PettingZoo AEC, 4 players", 4, lambda s: pettingzoo_steps(4, s)),
        ("  floor, 2 players", 2, lambda s: floor_steps(2, False, s)),
        ("  floor + encoding, 2 players", 2, lambda s: floor_steps(2, True, s)),
        ("Gymnasium vs random", 2, lambda s: gymnasium_steps(["random"], s)),
        ("  floor", 2, lambda s: gymnasium_floor_steps(False, s)),
        ("  floor + encoding", 2, lambda s: gymnasium_floor_steps(True, s)),
        ("Gymnasium vs 3 greedy", 4, lambda s: gymnasium_steps(["greedy"] * 3, s)),
        ("OpenSpiel, 2 players", 2, lambda s: openspiel_steps(2, s)),
        ("OpenSpiel, 4 players", 4, lambda s: openspiel_steps(4, s)),
    ]
    engine = {n: [0, 0.0] for n in (2, 3, 4)}
    rows = []
    for name, n, measure in adapters:
        alone, adapter = interleaved(
            lambda s, n=n: engine_steps(n, s),
            measure,
            seconds,
            slices,
        )
        engine[n][0] += alone[0]
        engine[n][1] += alone[1]
        rows.append((name, alone[0] / alone[1], adapter[0] / adapter[1]))
    native_run, sync_run = interleaved(
        lambda s: vector_steps("vector_entry_point", args.num_envs, s),
        lambda s: vector_steps("sync", args.num_envs, s),
        seconds,
        slices,
    )
    print(f"{'':28s} {'steps/s':>10s}  {'engine, same players':>21s}  share")
    for n, (steps, elapsed) in engine.items():
        print(f"{f'engine alone, {n} players':28s} {steps / elapsed:>10,.0f}")
    for name, alone_rate, rate in rows:
        print(f"{name:28s} {rate:>10,.0f}  {alone_rate:>21,.0f}  {rate / alone_rate:5.1%}")
    for mode, (steps, elapsed, empty) in (("vector_entry_point", native_run), ("sync", sync_run)):
        name = f"make_vec {mode}, N={args.num_envs}"
        print(
            f"{name:40s} {steps / elapsed:>10,.0f} env steps/s, {empty} all-zero masks handed out"
        )
    native, sync = (run[0] / run[1] for run in (native_run, sync_run))
    print(f"native vector env / SyncVectorEnv: {native / sync:.1f}x")
    opponent_rows(args.num_envs, seconds, slices)
    for n in (2, 4):
        (engine_count, engine_time, _), (openspiel_count, openspiel_time, _) = interleaved(
            lambda s, n=n: engine_clones(n, s),
            lambda s, n=n: openspiel_clones(n, s),
            seconds,
            slices,
        )
        engine_rate = engine_count / engine_time
        openspiel_rate = openspiel_count / openspiel_time
        print(
            f"clones/s, {n} players: engine Round.clone {engine_rate:,.0f}, "
            f"OpenSpiel state.clone {openspiel_rate:,.0f} ({openspiel_rate / engine_rate:.1%})"
        )


if __name__ == "__main__":
    main()
