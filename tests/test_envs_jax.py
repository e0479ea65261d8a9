"""The JAX environment: move by move against the engine over thousands of random rounds,
and pgx's API checks (jit, vmap, keys, illegal actions, terminated states)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

from draw_dominoes import ALL_TILES, Round  # noqa: E402
from draw_dominoes.envs import DRAW_ID, NUM_ACTIONS, OBSERVATION_SIZE, PASS_ID  # noqa: E402
from draw_dominoes.envs import jax as draw_jax  # noqa: E402
from draw_dominoes.envs._table import ILLEGAL_ACTION_REWARD, rewards_for  # noqa: E402
from draw_dominoes.envs.batch import random_choice  # noqa: E402
from draw_dominoes.envs.encoding import (  # noqa: E402
    Tracker,
    fast_mask,
    fast_observation,
    max_decisions,
    observation,
)
from draw_dominoes.rules import RULES  # noqa: E402

PLAYERS = (2, 3, 4)
GAMES = 2000
"""Rounds a player count is checked on, all at once under vmap."""

Trace = dict[str, np.ndarray]


_COMPILED: dict[int, tuple[Any, Any]] = {}


def _functions(env: draw_jax.DrawEnv) -> tuple[Any, Any]:
    """``jit(vmap(init))`` and ``jit(vmap(step))``, compiled once a player count for the
    default options (each compilation takes seconds)."""
    default = env.reward == "relative" and env.illegal_action_reward == ILLEGAL_ACTION_REWARD
    if not default:
        return jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    if env.players not in _COMPILED:
        _COMPILED[env.players] = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    return _COMPILED[env.players]


def _rollout(env: draw_jax.DrawEnv, games: int, seed: int) -> tuple[Trace, Any]:
    """``games`` rounds played to their end with uniform random legal ids from a seeded
    numpy generator; every step's state fields stacked over time (axis 0) and the action
    sent (row ``t`` holds the state the action of row ``t`` was sent to)."""
    init, step = _functions(env)
    state = init(jax.random.split(jax.random.key(seed), games))
    first = state
    rng = np.random.default_rng(seed)
    rows: dict[str, list[np.ndarray]] = {
        k: [] for k in ("current", "mask", "obs", "terminated", "rewards", "action")
    }
    bound = max_decisions(env.players)
    for _ in range(bound + 1):
        mask = np.asarray(state.legal_action_mask)
        terminated = np.asarray(state.terminated)
        action = random_choice(mask, rng)
        rows["current"].append(np.asarray(state.current_player))
        rows["mask"].append(mask)
        rows["obs"].append(np.asarray(state.observation))
        rows["terminated"].append(terminated)
        rows["rewards"].append(np.asarray(state.rewards))
        rows["action"].append(action)
        if terminated.all():
            break
        state = step(state, jnp.asarray(action, dtype=jnp.int32))
    assert np.asarray(state.terminated).all(), "a round outlasted encoding.max_decisions"
    trace = {k: np.stack(v) for k, v in rows.items()}
    trace["deal"] = np.asarray(first.deal)
    trace["leader"] = np.asarray(first.leader)
    trace["hands"] = np.asarray(first.hands)
    return trace, state


def _engine_round(players: int, deal: np.ndarray, leader: int) -> Round:
    """The engine's round of a JAX deal: hands from the start of ``deal`` (R2), the rest
    the boneyard, drawn from its start."""
    size = RULES.hand_size(players)
    tiles = [ALL_TILES[int(i)] for i in deal]
    hands = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
    return Round.from_deal(hands, tiles[players * size :], int(leader))


def _replay(players: int, trace: Trace, game: int, views: bool) -> int:
    """Round ``game`` of ``trace`` played by the engine, every step compared; the number
    of decisions checked. ``views``: also compare with ``observation(round.view(seat))``."""
    round_ = _engine_round(players, trace["deal"][game], trace["leader"][game])
    assert round_.fields().hands == tuple(int(h) for h in trace["hands"][game])
    tracker = Tracker(round_)
    for t in range(len(trace["current"])):
        seat = int(trace["current"][t, game])
        assert seat == round_.current_player, (game, t)
        obs = trace["obs"][t, game]
        np.testing.assert_array_equal(obs, fast_observation(tracker, seat), err_msg=f"{game} {t}")
        if views:
            np.testing.assert_array_equal(obs, observation(round_.view(seat)))
        rewards = trace["rewards"][t, game]
        if trace["terminated"][t, game]:
            assert round_.outcome is not None, (game, t)
            np.testing.assert_allclose(rewards, rewards_for(round_.outcome, "relative"), rtol=1e-6)
            assert trace["mask"][t, game].all()  # pgx: any id at a terminal state
            return t
        assert round_.outcome is None, (game, t)
        assert not rewards.any()
        mask = trace["mask"][t, game]
        np.testing.assert_array_equal(mask, fast_mask(round_, seat).astype(bool))
        assert sorted(np.flatnonzero(mask).tolist()) == round_.legal_action_ids()
        round_.apply_id(int(trace["action"][t, game]))
    raise AssertionError(f"game {game} never ended")


@pytest.mark.parametrize("players", PLAYERS)
def test_every_step_agrees_with_the_engine_over_thousands_of_random_rounds(players: int) -> None:
    env = draw_jax.make(players)
    trace, _ = _rollout(env, GAMES, seed=players)
    decisions = sum(_replay(players, trace, game, views=game < 50) for game in range(GAMES))
    assert decisions > GAMES * 20
    # Both ways a round ends, and both settlements of a block, came up.
    last = trace["terminated"].argmax(axis=0)
    final = trace["action"][last - 1, np.arange(GAMES)]
    assert (final == PASS_ID).any() and (final < DRAW_ID).any()


@pytest.mark.parametrize("players", PLAYERS)
def test_observe_gives_every_seats_observation(players: int) -> None:
    env = draw_jax.make(players)
    init, step = _functions(env)
    games = 64
    state = init(jax.random.split(jax.random.key(7), games))
    observe_all = jax.jit(jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None)))
    rounds = [
        _engine_round(players, np.asarray(state.deal)[g], int(state.leader[g]))
        for g in range(games)
    ]
    rng = np.random.default_rng(7)
    seats = jnp.arange(players)
    while not bool(state.terminated.all()):
        seen = np.asarray(observe_all(state, seats))
        for g, round_ in enumerate(rounds):
            for seat in range(players):
                np.testing.assert_array_equal(seen[g, seat], observation(round_.view(seat)))
        action = random_choice(np.asarray(state.legal_action_mask), rng)
        for g, round_ in enumerate(rounds):
            if not round_.is_over:
                round_.apply_id(int(action[g]))
        state = step(state, jnp.asarray(action, dtype=jnp.int32))
    assert all(round_.is_over for round_ in rounds)


def test_points_reward_is_the_credits() -> None:
    env = draw_jax.make(3, reward="points")
    trace, state = _rollout(env, 200, seed=11)
    last = trace["terminated"].argmax(axis=0)
    for game in range(200):
        round_ = _engine_round(3, trace["deal"][game], trace["leader"][game])
        for t in range(last[game]):
            round_.apply_id(int(trace["action"][t, game]))
        assert round_.outcome is not None
        np.testing.assert_array_equal(
            trace["rewards"][last[game], game], rewards_for(round_.outcome, "points")
        )
        assert int(state.winner[game]) == (
            -1 if round_.outcome.winner is None else round_.outcome.winner
        )


@pytest.mark.parametrize("players", PLAYERS)
def test_the_deal_is_a_shuffle_dealt_as_the_rules_say(players: int) -> None:
    env = draw_jax.make(players)
    init, _ = _functions(env)
    state = init(jax.random.split(jax.random.key(3), 4000))
    deal = np.asarray(state.deal)
    assert deal.dtype == np.int8
    assert (np.sort(deal, axis=1) == np.arange(28)).all()
    size = RULES.hand_size(players)
    hands = np.asarray(state.hands)
    assert (np.bitwise_count(hands) == size).all()
    assert (np.bitwise_or.reduce(hands, axis=1) | 0).max() < 1 << 28
    boneyard = 28 - players * size
    assert (np.asarray(state.observation)[:, 71] == boneyard).all()
    # R4: the leader by a fair lot, whatever the hands hold.
    counts = np.bincount(np.asarray(state.leader), minlength=players)
    assert len(counts) == players and (abs(counts / 4000 - 1 / players) < 0.04).all()
    # Every tile is as likely in every slot of the deal (loosely: the first slot).
    assert len(set(deal[:, 0].tolist())) == 28


def test_init_with_the_same_key_gives_the_same_state() -> None:
    env = draw_jax.make(4)
    init, _ = _functions(env)
    key = jax.random.key(123)
    first, batch = jax.jit(env.init)(key), init(jnp.stack([key, key]))
    for one, two in zip(jax.tree_util.tree_leaves(first), jax.tree_util.tree_leaves(batch)):
        np.testing.assert_array_equal(np.asarray(one), np.asarray(two)[0])
        np.testing.assert_array_equal(np.asarray(one), np.asarray(two)[1])
    other = jax.jit(env.init)(jax.random.key(124))
    assert not np.array_equal(np.asarray(first.deal), np.asarray(other.deal))


def _leaves_equal(a: Any, b: Any, skip: tuple[str, ...] = ()) -> bool:
    return all(
        np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name)))
        for name in a.__dataclass_fields__
        if name not in skip
    )


@pytest.mark.parametrize("players", PLAYERS)
def test_an_illegal_id_ends_the_episode_with_the_penalty_and_changes_nothing_else(
    players: int,
) -> None:
    env = draw_jax.make(players)
    step = jax.jit(env.step)
    state = env.init(jax.random.key(5))
    rng = np.random.default_rng(5)
    for _ in range(5):  # a few legal moves first
        state = step(state, int(random_choice(np.asarray(state.legal_action_mask)[None], rng)[0]))
    assert not bool(state.terminated)
    mask = np.asarray(state.legal_action_mask)
    seat = int(state.current_player)
    others = -ILLEGAL_ACTION_REWARD / (players - 1)
    expected = np.full(players, others, dtype=np.float32)
    expected[seat] = ILLEGAL_ACTION_REWARD
    for action in [*np.flatnonzero(~mask)[:3].tolist(), -1, NUM_ACTIONS, 1000]:
        after = step(state, action)
        assert bool(after.terminated) and not bool(after.truncated)
        np.testing.assert_allclose(np.asarray(after.rewards), expected)
        assert abs(float(after.rewards.sum())) < 1e-4  # zero-sum, as the relative reward
        assert np.asarray(after.legal_action_mask).all()
        assert _leaves_equal(
            state,
            after,
            skip=("rewards", "terminated", "legal_action_mask", "observation", "step_count"),
        )
        assert int(after.step_count) == int(state.step_count) + 1
        # and then it stays as it is, with zero rewards
        again = step(after, 0)
        assert not np.asarray(again.rewards).any()
        assert _leaves_equal(after, again, skip=("rewards",))
    # The opening has one id a tile, its end-0 id: the end-1 id of a held tile is illegal.
    fresh = env.init(jax.random.key(6))
    held = np.flatnonzero(np.asarray(fresh.legal_action_mask)[:DRAW_ID])
    assert (held % 2 == 0).all()
    assert bool(step(fresh, int(held[0]) + 1).terminated)
    points_env = draw_jax.make(players, reward="points", illegal_action_reward=-1.0)
    punished = jax.jit(points_env.step)(points_env.init(jax.random.key(6)), int(held[0]) + 1)
    expected = np.zeros(players, dtype=np.float32)
    expected[int(fresh.current_player)] = -1.0
    np.testing.assert_array_equal(np.asarray(punished.rewards), expected)


@pytest.mark.parametrize("players", PLAYERS)
def test_terminated_states_stay_terminated_with_zero_rewards(players: int) -> None:
    env = draw_jax.make(players)
    _, final = _rollout(env, 100, seed=21)
    _, step = _functions(env)
    assert np.asarray(final.rewards).any()
    again = step(final, jnp.asarray(np.arange(100) % NUM_ACTIONS, dtype=jnp.int32))
    assert np.asarray(again.terminated).all()
    assert not np.asarray(again.rewards).any()
    assert _leaves_equal(final, again, skip=("rewards",))


@pytest.mark.parametrize("players", PLAYERS)
def test_pgx_api_checks(players: int) -> None:
    """What ``pgx.api_test`` checks, written out (pgx checks its own env ids): field
    shapes and dtypes, rewards zero at init and zero-sum, the seat to act in range, a
    non-empty mask while live and an all-true one once terminated, steps counted, with
    jit, vmap and a key given to every step."""
    env = draw_jax.make(players)
    assert env.num_players == players
    assert env.num_actions == NUM_ACTIONS
    assert env.observation_shape == (OBSERVATION_SIZE,)
    init, step = _functions(env)
    act = jax.jit(
        jax.vmap(lambda key, mask: jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf)))
    )
    batch = 32
    key = jax.random.key(849020)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))
    assert not np.asarray(state.rewards).any()
    assert (np.asarray(state.step_count) == 0).all()
    for _ in range(max_decisions(players)):
        assert state.current_player.dtype == jnp.int32 and state.current_player.shape == (batch,)
        assert state.terminated.dtype == jnp.bool_ and state.truncated.dtype == jnp.bool_
        assert state.rewards.dtype == jnp.float32 and state.rewards.shape == (batch, players)
        assert state.legal_action_mask.dtype == jnp.bool_
        assert state.legal_action_mask.shape == (batch, NUM_ACTIONS)
        assert state.observation.dtype == jnp.float32
        assert state.observation.shape == (batch, OBSERVATION_SIZE)
        assert state.hands.dtype == jnp.int32 and state.deal.dtype == jnp.int8
        current = np.asarray(state.current_player)
        assert ((current >= 0) & (current < players)).all()
        mask, terminated = np.asarray(state.legal_action_mask), np.asarray(state.terminated)
        assert mask[~terminated].any(axis=1).all()
        assert mask[terminated].all()
        assert not np.asarray(state.truncated).any()
        np.testing.assert_allclose(np.asarray(state.rewards).sum(axis=1), 0, atol=1e-4)
        if terminated.all():
            break
        key, choose, chance = jax.random.split(key, 3)
        count = np.asarray(state.step_count)
        action = act(jax.random.split(choose, batch), state.legal_action_mask)
        state = step(state, action, jax.random.split(chance, batch))
        assert (np.asarray(state.step_count) == count + ~terminated).all()
    assert np.asarray(state.terminated).all()


def test_bad_options_are_refused() -> None:
    for players in (1, 5, "2"):
        with pytest.raises(ValueError):
            draw_jax.make(players)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        draw_jax.make(2, reward="score")  # type: ignore[arg-type]
