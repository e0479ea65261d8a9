"""Environment options for research: batched opponents, the episode hook, state and views,
observation modes, reward scale."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from draw_dominoes import Round
from draw_dominoes.envs import (
    GYM_ID,
    STATE_SIZE,
    OpponentError,
    batched,
    draw_v0,
)
from draw_dominoes.envs.batch import BatchRounds
from draw_dominoes.envs.encoding import (
    OBSERVATION_SIZE,
    ORACLE_SIZE,
    PRIVATE_SIZE,
    PUBLIC_FIELDS,
    PUBLIC_SIZE,
    STATE_FIELDS,
    Tracker,
    state_vector,
)
from draw_dominoes.envs.gym_env import DrawDominoesEnv, DrawDominoesVectorEnv

_WEIGHTS = np.random.default_rng(0).normal(scale=0.1, size=(OBSERVATION_SIZE, 58))


def _scores(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic linear scorer: the best legal id (draw last)."""
    scores = observations[:, :OBSERVATION_SIZE] @ _WEIGHTS
    scores[:, 56] -= 10
    return np.where(masks.astype(bool), scores, -np.inf).argmax(axis=1)


class Recorder:
    """A batched policy that records the size and masks of every call."""

    def __init__(self) -> None:
        self.calls: list[np.ndarray] = []

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.dtype == np.float32 and masks.dtype == np.int8
        assert observations.shape[0] == masks.shape[0] >= 1
        self.calls.append(masks.copy())
        return _scores(observations, masks)


def _random_actions(rng: random.Random, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


# ----------------------------------------------------------------- batched opponents


@pytest.mark.parametrize("players", [2, 3])
def test_a_batched_policy_gets_every_waiting_game_at_once_and_plays_as_the_engine(
    players: int,
) -> None:
    """Batched play and engine play call the policy once per opponent move for all the
    games waiting on it (never M = 0, never an all-zero mask) and play the same games
    as the single environment does game by game."""
    fast_policy, slow_policy = Recorder(), Recorder()
    per_game = [Recorder() for _ in range(12)]
    kwargs: dict[str, Any] = {"seat": "random"}
    fast = DrawDominoesVectorEnv(
        num_envs=12, opponents=[batched(fast_policy)] * (players - 1), **kwargs
    )
    slow = DrawDominoesVectorEnv(
        num_envs=12, opponents=[batched(slow_policy)] * (players - 1), batched=False, **kwargs
    )
    singles = [
        DrawDominoesEnv(opponents=[batched(policy)] * (players - 1), **kwargs)
        for policy in per_game
    ]
    assert fast.batched and not slow.batched
    obs, info = fast.reset(seed=4)
    obs2, info2 = slow.reset(seed=4)
    single_obs = np.stack([env.reset(seed=4 + i)[0] for i, env in enumerate(singles)])
    assert np.array_equal(obs, obs2) and np.array_equal(obs, single_obs)
    rng = random.Random(0)
    for _ in range(60):
        before, each = len(fast_policy.calls), [len(p.calls) for p in per_game]
        actions = _random_actions(rng, info["action_mask"])
        obs, rewards, terminated, _, info = fast.step(actions)
        obs2, rewards2, _, _, info2 = slow.step(actions)
        assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2)
        assert np.array_equal(info["action_mask"], info2["action_mask"])
        for i, env in enumerate(singles):
            single, reward, done, _, _ = env.step(int(actions[i]))
            assert reward == rewards[i] and done == terminated[i]
            if done:
                single, _ = env.reset()
            assert np.array_equal(single, obs[i])
        # the same decisions, and every game waiting on the policy in one call: no more
        # calls in a step than twice (the games going on, the games dealt anew) the
        # longest run of decisions one game asked of it
        asked = [len(p.calls) - e for p, e in zip(per_game, each, strict=True)]
        calls = len(fast_policy.calls) - before
        assert sum(len(m) for m in fast_policy.calls[before:]) == sum(asked)
        assert calls <= 2 * max(asked)
    for masks in fast_policy.calls + slow_policy.calls:
        assert masks.any(axis=1).all()
        assert (masks.sum(axis=1) > 1).all()  # single legal ids are played for it
    assert max(len(m) for m in fast_policy.calls) > 1


def test_a_batched_policy_asked_every_move_sees_forced_moves_too() -> None:
    policy = Recorder()
    env = DrawDominoesVectorEnv(num_envs=16, opponents=[batched(policy, ask_forced=True)])
    _, info = env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(80):
        _, _, _, _, info = env.step(_random_actions(rng, info["action_mask"]))
    assert all(masks.any(axis=1).all() for masks in policy.calls)
    assert any((masks.sum(axis=1) == 1).any() for masks in policy.calls)


@pytest.mark.parametrize("mode", [True, False])
def test_an_illegal_opponent_id_names_the_opponent_and_the_seat(mode: bool) -> None:
    def stubborn(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.full(len(masks), 57)  # pass, never legal while a tile can be drawn

    env = DrawDominoesVectorEnv(
        num_envs=4, opponents=[batched(stubborn, name="stubborn")], seat=0, batched=mode
    )
    with pytest.raises(OpponentError, match=r"opponent 'stubborn' at seat 1"):
        env.reset(seed=0)

    def lone(observation: np.ndarray, mask: np.ndarray) -> int:
        return 57

    single = gymnasium.make(GYM_ID, opponents=[lone], seat=0)
    with pytest.raises(OpponentError, match=r"opponent 'lone' at seat 1 .*no passing"):
        for seed in range(5):
            single.reset(seed=seed)
    with pytest.raises(OpponentError, match="returned"):
        DrawDominoesEnv(opponents=[batched(lambda o, m: [1, 2])], seat=0).reset(seed=3)


# ----------------------------------------------------------------- the episode hook


@pytest.mark.parametrize("vector", [False, True])
def test_the_opponent_hook_is_told_the_episode_and_the_seat(vector: bool) -> None:
    seen: list[tuple[int, int, tuple[int, ...]]] = []

    def hook(episode: int, seat: int, seats: tuple[int, ...]) -> list[str] | None:
        seen.append((episode, seat, seats))
        return ["greedy", "random"] if episode % 2 else None

    kwargs: dict[str, Any] = {
        "opponents": ["random", "random"],
        "seat": "random",
        "opponent_hook": hook,
    }
    if vector:
        env: Any = DrawDominoesVectorEnv(num_envs=3, **kwargs)
        _, info = env.reset(seed=2)
        seats = list(info["seat"])
    else:
        env = DrawDominoesEnv(**kwargs)
        seats = []
        for _ in range(6):
            _, info = env.reset(seed=len(seats))
            seats.append(info["seat"])
    assert [number for number, _, _ in seen] == list(range(len(seen)))
    assert [seat for _, seat, _ in seen] == seats
    for _, seat, seats_to_fill in seen:
        assert seats_to_fill == tuple(s for s in range(3) if s != seat)
    assert len(set(seats)) > 1  # seat="random" draws it
    if not vector:
        assert env.seating is not None
        env.set_opponents(["greedy", "greedy"])
        env.opponent_hook = None
        env.reset(seed=1)
        assert {type(o).__name__ for o in env.seating.opponents.values()} == {"GreedyBot"}
        with pytest.raises(ValueError, match="1 opponents for 2 seats"):
            env.set_opponents(["greedy"])


def test_the_batched_vector_env_refuses_a_hook_opponent_it_cannot_play() -> None:
    env = DrawDominoesVectorEnv(num_envs=2, opponent_hook=lambda *_: ["heuristic"])
    with pytest.raises(ValueError, match="batched=False"):
        env.reset(seed=0)
    slow = DrawDominoesVectorEnv(num_envs=2, opponent_hook=lambda *_: ["heuristic"], batched=False)
    slow.reset(seed=0)


# ----------------------------------------------------------------- state and views


def test_state_size_is_the_codes_and_every_adapter_gives_the_state() -> None:
    env = DrawDominoesEnv(opponents=["random"], state_in_info=True, boneyard_order=False)
    _, info = env.reset(seed=3)
    assert STATE_SIZE == 231 == env.state().shape[0] == sum(f.size for f in STATE_FIELDS)
    at = {f.name: f for f in STATE_FIELDS}
    bone = slice(at["boneyard"].offset, at["boneyard"].offset + 28)
    assert set(info["state"][bone].tolist()) == {0.0, 1.0}  # which tiles, not the order
    assert env.state(order=True)[bone].max() == len(env.table.round.boneyard)  # type: ignore[union-attr]
    assert env.state_space.contains(env.state())
    aec = draw_v0.env(players=3, boneyard_order=False)
    aec.reset(seed=1)
    assert aec.state()[bone].max() == 1 and aec.state(order=True)[bone].max() == 7


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_batched_state_is_the_engines(players: int) -> None:
    rng = random.Random(players)
    deals = [Round.new(players, seed=40 + i) for i in range(10)]
    rounds = BatchRounds(players, len(deals))
    rounds.load(np.arange(len(deals)), deals)
    while True:
        for order in (True, False):
            states = rounds.states(np.arange(len(deals)), order)
            for i, round_ in enumerate(deals):
                assert np.array_equal(states[i], state_vector(Tracker(round_), order))
        live = [i for i, r in enumerate(deals) if not r.is_over]
        if not live:
            break
        ids = []
        for i in live:
            ids.append(rng.choice(deals[i].legal_action_ids()))
            deals[i].apply_id(ids[-1])
        rounds.apply(np.array(live), np.array(ids))


@pytest.mark.parametrize("mode", [True, False])
def test_the_vector_env_state_and_final_state(mode: bool) -> None:
    env = DrawDominoesVectorEnv(num_envs=8, state_in_info=True, batched=mode)
    _, info = env.reset(seed=5)
    assert info["state"].shape == (8, STATE_SIZE) and np.array_equal(info["state"], env.state())
    rng = random.Random(5)
    for _ in range(40):
        _, _, terminated, _, info = env.step(_random_actions(rng, info["action_mask"]))
        for index in np.flatnonzero(terminated):
            final = info["final_info"]["state"][index]
            assert final[: 4 * 28].sum() > 0  # the hands at the end


def test_views_and_sampled_worlds_match_the_learners_view() -> None:
    rng = random.Random(7)
    env = DrawDominoesEnv(opponents=["random", "greedy"], seat="random")
    _, info = env.reset(seed=7)
    for _ in range(5):
        view = env.view()
        assert view.player == info["seat"]
        for _ in range(3):
            world = env.sample_hidden(rng)
            assert world.view(env.seat) == view
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if done:
            break
    aec = draw_v0.env(players=3)
    aec.reset(seed=2)
    for agent in aec.possible_agents:
        assert aec.sample_hidden(agent, rng).view(aec.view(agent).player) == aec.view(agent)
    vec = DrawDominoesVectorEnv(num_envs=2, batched=False)
    vec.reset(seed=1)
    assert vec.sample_hidden(1, rng).view(vec.view(1).player) == vec.view(1)
    fast = DrawDominoesVectorEnv(num_envs=2)
    fast.reset(seed=1)
    with pytest.raises(ValueError, match="batched=False"):
        fast.view(0)


def test_reward_scale_multiplies_every_reward() -> None:
    def total(scale: float) -> list[float]:
        env = DrawDominoesEnv(opponents=["greedy"], reward_scale=scale)
        _, info = env.reset(seed=2)
        rewards = [env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))[1]]
        done = False
        while not done:
            _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            rewards.append(float(reward))
        return rewards

    assert total(0.05) == pytest.approx([r * 0.05 for r in total(1.0)])

    def pettingzoo_total(scale: float) -> float:
        aec = draw_v0.env(players=2, reward="points", reward_scale=scale)
        aec.reset(seed=1)
        paid = 0.0
        for _agent in aec.agent_iter():
            obs, reward, done, _, _ = aec.last()
            paid += float(reward)
            aec.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))
        return paid

    assert pettingzoo_total(0.5) == pettingzoo_total(1.0) / 2 != 0


# ----------------------------------------------------------------- observation modes


def _parts_of(env: Any, agent: str) -> dict[str, np.ndarray]:
    parts: dict[str, np.ndarray] = env.observe(agent)["observation"]
    return parts


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 40),
    oracle=st.booleans(),
)
def test_every_observation_mode_hides_what_it_should(
    players: int, seed: int, moves: int, oracle: bool
) -> None:
    """``public`` is the same for every seat, ``private`` holds the seat's hand alone,
    ``oracle`` appears only when asked for; a world differing in hidden tiles changes
    neither public nor private parts (R21)."""
    env = draw_v0.env(players=players, observation="dict", oracle=oracle)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        env.step(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
    round_ = env.table.round  # type: ignore[union-attr]
    parts = [_parts_of(env, agent) for agent in env.possible_agents]
    for seat, part in enumerate(parts):
        assert set(part) == ({"public", "private", "oracle"} if oracle else {"public", "private"})
        assert part["public"].shape == (PUBLIC_SIZE,) and part["private"].shape == (PRIVATE_SIZE,)
        assert np.array_equal(part["public"], parts[0]["public"])
        assert {i for i in np.flatnonzero(part["private"][:28])} == {
            t.index for t in round_.hand(seat)
        }
        assert np.flatnonzero(part["private"][28:]).tolist() == [seat]
        assert env.observation_space(env.possible_agents[seat]).contains(
            env.observe(env.possible_agents[seat])
        )
        if oracle:
            assert part["oracle"].shape == (ORACLE_SIZE,)
            hands = part["oracle"][: 4 * 28].reshape(4, 28)
            assert {i for i in np.flatnonzero(hands[seat])} == {t.index for t in round_.hand(seat)}
    # hidden tiles change neither part
    if not round_.is_over:
        seat = round_.current_player
        twin = round_.sample_hidden(seat, random.Random(seed))
        mine = env.table.parts(seat)  # type: ignore[union-attr]
        env.table.round, env.table.tracker = twin, Tracker(twin)  # type: ignore[union-attr]
        other = env.table.parts(seat)  # type: ignore[union-attr]
        for key in ("public", "private"):
            assert np.array_equal(mine[key], other[key])
    assert "hand" not in {f.name for f in PUBLIC_FIELDS}


def test_dict_observations_in_the_gymnasium_envs() -> None:
    env = gymnasium.make(GYM_ID, opponents=["greedy"], observation="dict", oracle=True)
    check_env(env.unwrapped)
    obs, _ = env.reset(seed=1)
    assert set(obs) == {"public", "private", "oracle"}
    plain = gymnasium.make(GYM_ID, opponents=["greedy"], observation="dict")
    assert set(plain.reset(seed=1)[0]) == {"public", "private"}
    with pytest.raises(ValueError, match="oracle"):
        gymnasium.make(GYM_ID, oracle=True)
    for mode in (True, False):
        vec = DrawDominoesVectorEnv(
            num_envs=5, opponents=["greedy"], observation="dict", oracle=True, batched=mode
        )
        obs, info = vec.reset(seed=3)
        singles = [
            DrawDominoesEnv(opponents=["greedy"], observation="dict", oracle=True) for _ in range(5)
        ]
        for i, single in enumerate(singles):
            one, _ = single.reset(seed=3 + i)
            for key in one:
                assert np.array_equal(obs[key][i], one[key])
        assert vec.observation_space.contains(obs)
        rng = random.Random(2)
        for _ in range(30):
            obs, _, terminated, _, info = vec.step(_random_actions(rng, info["action_mask"]))
            for index in np.flatnonzero(terminated):
                assert set(info["final_obs"][index]) == {"public", "private", "oracle"}


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_api_test_with_dict_observations() -> None:
    api_test(draw_v0.env(players=3, observation="dict", oracle=True), num_cycles=50)
