"""The JAX environment's steps a second under ``jit(vmap(step))`` beside the numpy vector env's.

JAX: ``--batches`` rounds stepped at once with uniform random legal ids, sampled inside
the compiled function from the mask and a key; a finished round is dealt anew by
``init`` from a fresh key after its last step (an auto-reset), and only the steps of
live rounds are counted. ``--scan`` steps are one compiled call (``lax.scan``), so the
Python dispatch is paid once per call; compilation is done before any timing.

numpy: the native vector env (``gymnasium.make_vec("DrawDominoes-v0", num_envs=N)``,
looped as ``bench_envs.vector_steps`` loops it: a uniform legal id per row from the
mask) at each N of ``--num-envs``, and the best N is the one compared. One of its
steps is the learner's move and the `random` opponents' replies. Beside it, the batched
numpy rules alone (``batch.BatchRounds``: mask, choice, move, observations, new deals),
one decision a row a step, as the JAX step is.

Every measurement runs in turns with the others (``--slices``), so a change in the shared
machine's speed falls on all alike. Rates are given by wall-clock time and by this
process's CPU time (XLA may use both cores where numpy uses one).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np

from draw_dominoes.envs import jax as draw_jax
from draw_dominoes.envs.batch import BatchRounds, random_choice

Measure = Callable[[float], tuple[int, float, float]]
"""Run for about ``seconds`` of wall-clock time: (steps, wall seconds, CPU seconds)."""


_LOW_IDS: Final = np.left_shift(1, np.arange(29, dtype=np.int32)).astype(np.int32)


def _choose(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A uniform legal id a row: the k-th legal id for k uniform below the legal count
    (one random number a row, where a categorical draw takes one an id). The mask is
    packed into two 29-bit words and the k-th set bit found by halving, five times
    quicker on a CPU than a cumulative sum over the 58 ids."""
    low = jnp.sum(jnp.where(mask[:, :29], _LOW_IDS, 0), axis=1, dtype=jnp.int32)
    high = jnp.sum(jnp.where(mask[:, 29:], _LOW_IDS, 0), axis=1, dtype=jnp.int32)
    in_low = jax.lax.population_count(low)
    count = in_low + jax.lax.population_count(high)
    k = jnp.floor(jax.random.uniform(key, count.shape) * count).astype(jnp.int32)
    up = k >= in_low
    word, k, at = jnp.where(up, high, low), jnp.where(up, k - in_low, k), jnp.where(up, 29, 0)
    for width in (16, 8, 4, 2, 1):
        below = jax.lax.population_count(word & ((1 << width) - 1))
        go = k >= below
        k = jnp.where(go, k - below, k)
        word = jnp.where(go, word >> width, word)
        at = at + jnp.where(go, width, 0)
    return at


def jax_runner(players: int, batch: int, scan: int) -> Measure:
    """``scan`` auto-reset steps of ``batch`` rounds a compiled call, compiled on creation.

    The rounds that ended are dealt anew after each step, at most ``batch // 8`` of them
    (one step ends about one round in fifty): ``init`` runs on that many fresh keys and
    their states are written over the ended rows, where an ``init`` of every row, kept
    only where a round ended, would cost more than the step itself. A row beyond the
    ``batch // 8`` waits, terminated, for the next step and is not counted meanwhile."""
    env = draw_jax.make(players)
    init, step = jax.vmap(env.init), jax.vmap(env.step)
    fresh_rows = max(1, batch // 8)

    def one(carry: tuple[Any, jax.Array], _: None) -> tuple[tuple[Any, jax.Array], jax.Array]:
        state, key = carry
        key, choose_key, deal_key = jax.random.split(key, 3)
        live = jnp.sum(~state.terminated, dtype=jnp.int32)
        state = step(state, _choose(choose_key, state.legal_action_mask))
        ended = jnp.nonzero(state.terminated, size=fresh_rows, fill_value=batch)[0]
        fresh = init(jax.random.split(deal_key, fresh_rows))
        state = jax.tree_util.tree_map(
            lambda old, new: old.at[ended].set(new, mode="drop"), state, fresh
        )
        return (state, key), live

    @jax.jit
    def run(state: Any, key: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        (state, key), live = jax.lax.scan(one, (state, key), None, length=scan)
        return state, key, jnp.sum(live)

    carry: list[Any] = [
        jax.jit(init)(jax.random.split(jax.random.key(0), batch)),
        jax.random.key(1),
    ]
    jax.block_until_ready(run(*carry))  # compile and warm up

    def measure(seconds: float) -> tuple[int, float, float]:
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            state, key, live = run(*carry)
            carry[:] = [state, key]
            steps += int(live)  # waits for the call
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return measure


def vector_runner(num_envs: int) -> Measure:
    """The native numpy vector env with ``num_envs`` games, as ``bench_envs`` steps it."""
    import gymnasium

    import draw_dominoes.envs

    env = gymnasium.make_vec(draw_dominoes.envs.GYM_ID, num_envs=num_envs)
    rng = np.random.default_rng(0)
    info: dict[str, Any] = env.reset(seed=0)[1]

    def measure(seconds: float) -> tuple[int, float, float]:
        nonlocal info
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            masks = info["action_mask"].astype(bool)
            keys = np.where(masks, rng.random(masks.shape), -1.0)
            info = env.step(keys.argmax(axis=1))[4]
            steps += num_envs
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return measure


def batch_rules_runner(players: int, size: int) -> Measure:
    """``BatchRounds`` alone: every row's mask, a uniform choice, the move, every row's
    observation of the seat to act, and new deals for the rounds that ended."""
    rounds = BatchRounds(players, size)
    rng = np.random.default_rng(0)
    rows = np.arange(size)

    def deal(which: np.ndarray) -> None:
        orders = rng.permuted(np.tile(np.arange(28), (len(which), 1)), axis=1)
        rounds.deal(which, orders, rng.integers(players, size=len(which)))

    deal(rows)

    def measure(seconds: float) -> tuple[int, float, float]:
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            _, ended = rounds.apply(rows, random_choice(rounds.legal(rows), rng))
            if ended.any():
                deal(rows[ended])
            rounds.observations(rounds.current)
            steps += size
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--slices", type=int, default=3, help="turns each measurement takes")
    parser.add_argument("--players", type=int, default=2, help="seats in the JAX rounds")
    parser.add_argument("--batches", type=int, nargs="+", default=[1024, 8192])
    parser.add_argument("--num-envs", type=int, nargs="+", default=[256, 1024, 4096, 16384])
    parser.add_argument("--scan", type=int, default=16, help="JAX steps a compiled call")
    args = parser.parse_args()
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}, players={args.players}")
    runs: list[tuple[str, Measure]] = [
        (f"JAX jit(vmap(step)), batch {b}", jax_runner(args.players, b, args.scan))
        for b in args.batches
    ]
    vector = [(f"numpy vector env, N={n}", vector_runner(n)) for n in args.num_envs]
    rules = [
        (f"numpy BatchRounds, N={n}", batch_rules_runner(args.players, n)) for n in args.num_envs
    ]
    runs += vector + rules
    totals = {name: [0, 0.0, 0.0] for name, _ in runs}
    for _ in range(args.slices):
        for name, measure in runs:
            for i, value in enumerate(measure(args.seconds / args.slices)):
                totals[name][i] += value
    rate = {name: (s / w, s / c) for name, (s, w, c) in totals.items()}
    print(f"{'':36s} {'steps/s (wall)':>15s} {'steps/CPU s':>12s}")
    for name, (wall, cpu) in rate.items():
        print(f"{name:36s} {wall:>15,.0f} {cpu:>12,.0f}")
    best_name = max((name for name, _ in vector), key=lambda name: rate[name][0])
    best = rate[best_name]
    for b in args.batches:
        name = f"JAX jit(vmap(step)), batch {b}"
        print(
            f"{name} / best {best_name}: {rate[name][0] / best[0]:.1f}x wall, "
            f"{rate[name][1] / best[1]:.1f}x CPU"
        )


if __name__ == "__main__":
    main()
