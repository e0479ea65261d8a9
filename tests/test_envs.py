"""Research adapters: the shared action ids and observations, PettingZoo and Gymnasium."""

from __future__ import annotations

import random
import types
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)

from draw_dominoes import (
    ALL_TILES,
    DRAW,
    PASS,
    IllegalActionError,
    Match,
    Place,
    Round,
    Tile,
    bots,
)
from draw_dominoes.bots.simple import GreedyBot
from draw_dominoes.envs import (
    ACTION_SPACE_VERSION,
    DRAW_ID,
    GYM_ID,
    NUM_ACTIONS,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    PASS_ID,
    action_id,
    action_mask,
    draw_v0,
    id_to_action,
    observation,
)
from draw_dominoes.envs._table import ILLEGAL_ACTION_REWARD, EpisodeGame
from draw_dominoes.envs.batch import GREEDY_RANK, BatchRounds, greedy_choice, random_choice
from draw_dominoes.envs.encoding import (
    HISTORY_ROW,
    OBSERVATION_HIGH,
    STATE_FIELDS,
    STATE_SIZE,
    Tracker,
    fast_mask,
    fast_observation,
    max_decisions,
)
from draw_dominoes.envs.gym_env import (
    _GREEDY_OPENING,
    _GREEDY_RANK,
    DrawDominoesEnv,
    DrawDominoesVectorEnv,
)

# ----------------------------------------------------------------- action ids


def test_action_id_table_is_version_1_with_58_ids() -> None:
    assert (ACTION_SPACE_VERSION, OBSERVATION_VERSION, NUM_ACTIONS) == (1, 1, 58)
    assert (action_id(DRAW), action_id(PASS), DRAW_ID, PASS_ID) == (56, 57, 56, 57)
    assert action_id(Place(Tile(0, 0), 0)) == 0
    assert action_id(Place(Tile(1, 4), 1)) == 2 * Tile(1, 4).index + 1
    assert action_id(Place(Tile(6, 6), 1)) == 55
    ids = {action_id(Place(t, end)) for t in ALL_TILES for end in (0, 1)}
    assert ids == set(range(56))


def test_opening_shares_the_end_0_id_of_its_tile() -> None:
    for tile in ALL_TILES:
        opening = Place(tile, None)
        assert action_id(opening) == action_id(Place(tile, 0))
        assert id_to_action(action_id(opening), line_is_empty=True) is opening
        assert id_to_action(action_id(opening), line_is_empty=False) is Place(tile, 0)


def test_bad_ids_are_refused_with_a_reason() -> None:
    with pytest.raises(IllegalActionError, match="line is empty"):
        id_to_action(1, line_is_empty=True)
    for bad in (-1, 58, 3.0, "draw", None):
        with pytest.raises(ValueError, match="action id"):
            id_to_action(bad, line_is_empty=False)  # type: ignore[arg-type]
    assert id_to_action(np.int64(56), line_is_empty=False) is DRAW  # type: ignore[arg-type]


# ----------------------------------------------------------------- observations


def test_observation_layout_is_documented_and_fills_the_vector() -> None:
    offset = 0
    for field in OBSERVATION_FIELDS:
        assert field.offset == offset and field.meaning
        offset += field.size
    assert offset == OBSERVATION_SIZE == OBSERVATION_HIGH.shape[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mask_and_observation_agree_with_the_engine_over_random_games(players: int) -> None:
    rng = random.Random(players)
    for game in range(6):
        round_ = Round.new(
            players, seed=100 * players + game, scores=[3 * s for s in range(players)]
        )
        while True:
            for seat in range(players):
                view = round_.view(seat)
                mask, obs = action_mask(view), observation(view)
                legal = set(view.legal_actions)
                assert {int(i) for i in np.flatnonzero(mask)} == {action_id(a) for a in legal}
                empty = not round_.end_values
                assert {id_to_action(int(i), empty) for i in np.flatnonzero(mask)} == legal
                assert obs.dtype == np.float32 and obs.shape == (OBSERVATION_SIZE,)
                assert (obs >= 0).all() and (obs <= OBSERVATION_HIGH).all()
                assert obs[:28].sum() == len(view.hand) == view.hand_sizes[seat]
            if round_.is_over:
                break
            round_.apply(rng.choice(round_.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_encoding_equals_the_views_over_random_matches(players: int) -> None:
    """The environments encode straight from the engine (R21: the seat's own hand and
    public facts only); every observation and mask equals the one built from the view,
    for every seat, at every step of whole matches (rounds change, scores carry over)."""
    rng = random.Random(players)
    for seed in range(3):
        table = EpisodeGame(players, "match", "relative", seed=seed)
        while True:
            for seat in range(players):
                view = table.view(seat)
                assert np.array_equal(table.observation(seat), observation(view))
                assert np.array_equal(table.mask(seat), action_mask(view))
            if table.over:
                break
            table.apply(rng.choice(table.round.legal_action_ids()))
    fresh = table.observation(0)
    fresh[0] = 5.0  # each observation is the caller's own array
    assert table.observation(0)[0] != 5.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_envs_legal_masks_are_the_cores_on_every_position(players: int) -> None:
    """The encoding's fast mask and the batched rules' ``legal`` are built from the core's
    legal-move table: both give exactly ``Round.legal_action_ids()`` for the seat to act
    (and the fast mask nothing for the others) at every position of random rounds."""
    rng = random.Random(10 + players)
    batch = BatchRounds(players, 1)
    row = np.array([0])
    for seed in range(25):
        round_ = Round.new(players, seed=seed)
        while not round_.is_over:
            legal = round_.legal_action_ids()
            mover = round_.current_player
            for seat in range(players):
                ids = np.flatnonzero(fast_mask(round_, seat)).tolist()
                assert ids == (legal if seat == mover else [])
            batch.load(row, [round_])
            assert np.flatnonzero(batch.legal(row)[0]).tolist() == legal
            round_.apply_id(rng.choice(legal))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_envs_greedy_order_is_the_greedy_bots(players: int) -> None:
    """One greedy order (``batch.GREEDY_RANK``) serves the Gymnasium opponents, the
    batched rules and the batched openings: on random positions each picks what
    ``GreedyBot`` picks."""
    bot = GreedyBot()
    rng = random.Random(20 + players)
    for seed in range(40):
        round_ = Round.new(players, seed=seed)
        while not round_.is_over:
            legal = round_.legal_actions()
            chosen = bot.choose_among(legal)
            assert max(legal, key=_GREEDY_RANK) is chosen
            ids = round_.legal_action_ids()
            assert max(ids, key=GREEDY_RANK.__getitem__) == chosen.id
            mask = np.zeros((1, NUM_ACTIONS), dtype=bool)
            mask[0, ids] = True
            assert greedy_choice(mask)[0] == chosen.id
            if round_.is_opening and isinstance(chosen, Place):
                hand = [t.index for t in round_.hand(round_.current_player)]
                assert ALL_TILES[max(hand, key=_GREEDY_OPENING)] is chosen.tile
            round_.apply(rng.choice(legal))


def test_bots_that_need_only_the_legal_actions_choose_alike_without_a_view() -> None:
    """``choose_among`` (random, greedy) makes the choice ``choose`` makes from the view."""
    for name in ("random", "greedy"):
        first, second = bots.create(name, seed=4), bots.create(name, seed=4)
        round_ = Round.new(3, seed=4)
        while not round_.is_over:
            view = round_.view(round_.current_player)
            action = first.choose(view)
            assert second.choose_among(round_.legal_actions()) == action  # type: ignore[attr-defined]
            round_.apply(action)
        with pytest.raises(ValueError, match="no legal action"):
            second.choose_among([])  # type: ignore[attr-defined]


def test_seats_are_relative_to_the_viewer() -> None:
    round_ = Round.new(3, seed=5, leader=2, scores=[5, 10, 20])
    obs = observation(round_.view(1))
    at = {field.name: field for field in OBSERVATION_FIELDS}
    scores = obs[at["scores"].offset : at["scores"].offset + 4]
    assert list(scores) == [10, 20, 5, 0]
    assert list(obs[at["seats"].offset : at["seats"].offset + 4]) == [1, 1, 1, 0]
    assert list(obs[at["to_move"].offset : at["to_move"].offset + 4]) == [0, 1, 0, 0]


def _two_deals_differing_in_hidden_tiles() -> tuple[Round, Round]:
    """Seat 0 holds the same tiles; seat 1's hand and the boneyard swap tiles."""
    tiles = list(ALL_TILES)
    hand0, hand1, stock = (
        tiles[0:28:4],
        tiles[1:28:4],
        [t for i, t in enumerate(tiles) if i % 4 > 1],
    )
    other1 = hand1[:3] + stock[-4:]
    other_stock = stock[:-4] + hand1[3:]
    return (
        Round.from_deal([hand0, hand1], stock, leader=0),
        Round.from_deal([hand0, other1], other_stock, leader=0),
    )


def test_hidden_tiles_never_change_observations_or_masks() -> None:
    """R21: what differs only in an opponent's hand or the boneyard is invisible."""
    a, b = _two_deals_differing_in_hidden_tiles()
    rng = random.Random(1)
    compared = 0
    while not (a.is_over or b.is_over):
        va, vb = a.view(0), b.view(0)
        assert np.array_equal(observation(va), observation(vb))
        assert np.array_equal(action_mask(va), action_mask(vb))
        compared += 1
        common = [x for x in a.legal_actions() if x in b.legal_actions() and x is not DRAW]
        if not common:
            break
        move = rng.choice(common)
        a.apply(move)
        b.apply(move)
    assert compared >= 3


# ----------------------------------------------------------------- PettingZoo


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # dict observations with a mask
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(draw_v0.env(players=players), num_cycles=100)
    api_test(draw_v0.env(players=players, episode="match", reward="relative"), num_cycles=100)
    parallel_api_test(draw_v0.parallel_env(players=players), num_cycles=100)


def test_pettingzoo_seed_test() -> None:
    seed_test(draw_v0.env, num_cycles=60)
    seed_test(lambda: draw_v0.env(players=4, episode="match"), num_cycles=60)
    parallel_seed_test(draw_v0.parallel_env, num_cycles=60)


def test_pettingzoo_max_cycles_test_on_the_cyclic_form() -> None:
    max_cycles_test(
        types.SimpleNamespace(env=draw_v0.cyclic_env, parallel_env=draw_v0.parallel_env)
    )


def test_pettingzoo_turn_based_max_cycles_truncates_after_cycles_times_players() -> None:
    env = draw_v0.env(players=3, max_cycles=2)
    env.reset(seed=1)
    steps = 0
    while not env.truncations[env.agent_selection]:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        steps += 1
    assert steps == 6


def _play_out(env: draw_v0.raw_env, seed: int) -> tuple[dict[str, float], list[int]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    actions = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert agent == env.possible_agents[env.table.mover]  # type: ignore[union-attr]
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        env.step(action)
    return totals, actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_rewards_are_the_settlement(players: int) -> None:
    """R16/R17: the points each seat is credited; the default, 'relative', is zero-sum."""
    env = draw_v0.env(players=players, reward="points")
    totals, _ = _play_out(env, seed=players)
    credits = env.table.round.outcome.credits  # type: ignore[union-attr]
    assert [totals[a] for a in env.possible_agents] == list(credits)
    relative, _ = _play_out(draw_v0.env(players=players), seed=players)
    assert abs(sum(relative.values())) < 1e-9
    others = sum(credits) - credits[0]
    assert relative["player_0"] == credits[0] - others / (players - 1)
    winner = max(range(players), key=lambda s: credits[s])
    assert relative[f"player_{winner}"] >= 0


def test_pettingzoo_match_episode_plays_to_the_target() -> None:
    env = draw_v0.env(players=2, episode="match", reward="points")
    totals, _ = _play_out(env, seed=8)
    match = env.table.game  # type: ignore[union-attr]
    assert isinstance(match, Match) and match.is_over
    assert [totals[a] for a in env.possible_agents] == list(match.scores)
    assert max(match.scores) >= 100  # R20


def test_pettingzoo_identical_seeds_give_identical_episodes() -> None:
    first = _play_out(draw_v0.env(players=3), seed=21)
    assert first == _play_out(draw_v0.env(players=3), seed=21)
    assert first != _play_out(draw_v0.env(players=3), seed=22)


def test_pettingzoo_illegal_action_changes_nothing() -> None:
    env = draw_v0.env(players=2)
    env.reset(seed=4)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    env.step(illegal)
    after = env.observe(agent)
    assert env.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert env.rewards[agent] == ILLEGAL_ACTION_REWARD and "illegal_action" in env.infos[agent]
    strict = draw_v0.env(players=2, illegal_action_reward=None)
    strict.reset(seed=4)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="action id"):
        env.step(99)
    assert np.array_equal(env.observe(agent)["observation"], before["observation"])


def test_pettingzoo_bad_options_are_refused() -> None:
    for kwargs in ({"players": 5}, {"episode": "set"}, {"reward": "wins"}, {"max_cycles": 0}):
        with pytest.raises(ValueError):
            draw_v0.env(**kwargs)


def test_pettingzoo_render_shows_only_public_facts() -> None:
    env = draw_v0.env(players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "boneyard: 14" in text
    assert not any(str(t) in text for t in env.table.round.hand(0))  # type: ignore[union-attr]


# ----------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize(
    "opponents", [["random"], ["greedy", "random"], ["random", "random", "greedy"]]
)
def test_gymnasium_check_env(opponents: list[str]) -> None:
    env = gymnasium.make(GYM_ID, opponents=opponents)
    check_env(env.unwrapped)
    check_env(gymnasium.make(GYM_ID, opponents=opponents, seat=None, episode="match").unwrapped)


def _gym_episode(seed: int, **kwargs: Any) -> tuple[list[int], float, list[float]]:
    env = gymnasium.make(GYM_ID, **kwargs)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, total, first = [], 0.0, [float(x) for x in obs]
    terminated = False
    while not terminated:
        assert np.array_equal(info["action_mask"].astype(bool), env.unwrapped.action_masks())  # type: ignore[attr-defined]
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += float(reward)
    return actions, total, first


def test_gymnasium_identical_seeds_give_identical_episodes() -> None:
    kwargs = {"opponents": ["greedy", "random"], "seat": None}
    assert _gym_episode(5, **kwargs) == _gym_episode(5, **kwargs)
    assert _gym_episode(5, **kwargs) != _gym_episode(6, **kwargs)


def test_the_seed_sequence_restarts_skips_and_seeds_gymnasiums_generator() -> None:
    """Episodes' seeds: ``restart`` repeats the sequence, ``skip(k)`` is ``k`` draws, the
    numbers are 63-bit; and ``np_random`` after ``reset(seed=s)`` is the generator
    Gymnasium would have made from ``s`` (made only when asked for)."""
    from gymnasium.utils import seeding

    from draw_dominoes.envs._table import SeedStream

    first, second = SeedStream(), SeedStream()
    first.restart(7)
    second.restart(7)
    drawn = [first.next() for _ in range(5)]
    assert drawn == [second.next() for _ in range(5)] and len(set(drawn)) == 5
    assert all(0 <= number < 2**63 for number in drawn)
    second.restart(7)
    second.skip(3)
    assert second.next() == drawn[3]
    with pytest.raises(TypeError):
        first.restart("7")  # type: ignore[arg-type]
    env = DrawDominoesEnv(opponents=["random"])
    env.reset(seed=11)
    expected = seeding.np_random(11)[0].bit_generator.state
    assert env.np_random.bit_generator.state == expected and env.np_random_seed == 11
    env.reset()
    assert env.np_random.bit_generator.state == expected  # an unseeded reset keeps it

    def next_deal(generator: np.random.Generator | None) -> Any:
        env = DrawDominoesEnv(opponents=["random"], seat=None)
        if generator is not None:
            env.np_random = generator  # a generator handed in decides the next episodes
        env.reset()
        assert env.table is not None
        return env.table.round.deal, env.seat

    assert next_deal(np.random.default_rng(5)) == next_deal(np.random.default_rng(5))
    assert next_deal(np.random.default_rng(5)) != next_deal(np.random.default_rng(6))


def test_gymnasium_reward_is_the_learners_settlement() -> None:
    env = gymnasium.make(GYM_ID, opponents=["greedy"], reward="relative")
    env.reset(seed=3)
    total, terminated = 0.0, False
    info: dict[str, Any] = {}
    rng = np.random.default_rng(3)
    while not terminated:
        mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        _, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += float(reward)
    outcome = env.unwrapped.table.round.outcome  # type: ignore[attr-defined]
    assert total == outcome.credits[0] - outcome.credits[1]
    assert not info["action_mask"].any()


def test_gymnasium_illegal_action_changes_nothing() -> None:
    env = gymnasium.make(GYM_ID, opponents=["random"])
    obs, info = env.reset(seed=9)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, _truncated, info2 = env.step(illegal)
    assert np.array_equal(obs, obs2) and reward == ILLEGAL_ACTION_REWARD and not terminated
    assert "illegal_action" in info2
    strict = gymnasium.make(GYM_ID, opponents=["random"], illegal_action_reward=None)
    strict.reset(seed=9)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_gymnasium_opponents_come_from_the_bots_registry() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make(GYM_ID, opponents=["nobody"])
    with pytest.raises(ValueError, match="1 to 3"):
        gymnasium.make(GYM_ID, opponents=[])
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make(GYM_ID, opponents=["random"], seat=2)


def test_gymnasium_refuses_bots_that_are_not_offered_at_construction() -> None:
    """``omniscient`` is registered but cannot play from a view: refused up front, not at reset."""
    hidden = [name for name in bots.NAMES if name not in bots.OFFERED]
    assert "omniscient" in hidden
    for name in hidden:
        with pytest.raises(ValueError, match=f"bot '{name}' is not offered"):
            gymnasium.make(GYM_ID, opponents=["random", name])
    with pytest.raises(ValueError, match="whole round"):
        gymnasium.make(GYM_ID, opponents=[bots.create("omniscient")])
    for name in bots.OFFERED:
        env = gymnasium.make(GYM_ID, opponents=[name])
        assert env.unwrapped.opponent_specs == [name]  # type: ignore[attr-defined]


# ----------------------------------------------------------------- shared option checks


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"illegal_action_reward": "-1"}, "illegal_action_reward is a number or None"),
        ({"render_mode": "video"}, "render_mode is None, 'ansi', 'human' or 'rgb_array'"),
        ({"history": -1}, "history is a number of rows"),
        ({"episode": "set"}, "episode is 'round' or 'match'"),
        ({"reward": "wins"}, "reward is 'points' or 'relative'"),
    ],
)
def test_every_environment_refuses_bad_options_alike(
    option: dict[str, object], message: str
) -> None:
    makers = [
        draw_v0.env,
        draw_v0.parallel_env,
        lambda **kw: DrawDominoesEnv(opponents=["random"], **kw),
    ]
    for make in makers:
        with pytest.raises(ValueError, match=message):
            make(**option)


def test_both_pettingzoo_forms_share_options_and_spaces() -> None:
    for bad in ({"players": 5}, {"max_cycles": 0}, {"max_cycles": 2.5}):
        for make in (draw_v0.env, draw_v0.parallel_env):
            with pytest.raises(ValueError):
                make(**bad)
    aec = draw_v0.raw_env(players=3, episode="match", max_cycles=4, render_mode="ansi")
    par = draw_v0.parallel_env(players=3, episode="match", max_cycles=4, render_mode="ansi")
    for attr in ("players", "episode", "reward", "max_cycles", "illegal_action_reward"):
        assert getattr(aec, attr) == getattr(par, attr)
    assert aec.possible_agents == par.possible_agents == ["player_0", "player_1", "player_2"]
    for agent in aec.possible_agents:
        assert aec.observation_space(agent) == par.observation_space(agent)
        assert aec.action_space(agent) == par.action_space(agent)
    aec.reset(seed=7)
    observations, _ = par.reset(seed=7)
    for agent in aec.possible_agents:
        assert np.array_equal(aec.observe(agent)["observation"], observations[agent]["observation"])
        assert np.array_equal(aec.observe(agent)["action_mask"], observations[agent]["action_mask"])


# ----------------------------------------------------------------- full state, render, history


def test_pettingzoo_state_test_and_the_state_shows_every_hand() -> None:
    """``state()`` is the whole round (every hand, the boneyard's order), for centralised
    critics; PettingZoo's ``state_test`` passes on both forms."""
    state_test(draw_v0.env(players=3), draw_v0.parallel_env(players=3))
    env = draw_v0.env(players=3)
    env.reset(seed=4)
    round_ = env.table.round  # type: ignore[union-attr]
    state = env.state()
    assert env.state_space.contains(state) and state.shape == (STATE_SIZE,)
    at = {f.name: f for f in STATE_FIELDS}
    hands = state[at["hands"].offset : at["hands"].offset + 4 * 28].reshape(4, 28)
    for seat in range(3):
        assert {ALL_TILES[i] for i in np.flatnonzero(hands[seat])} == set(round_.hand(seat))
    order = state[at["boneyard"].offset : at["boneyard"].offset + 28]
    assert [ALL_TILES[i] for i in np.argsort(order)[-len(round_.boneyard) :]][::-1] == sorted(
        round_.boneyard, key=lambda t: -order[t.index]
    )
    assert sorted(int(x) for x in order if x) == list(range(1, len(round_.boneyard) + 1))
    for agent in env.possible_agents:  # no observation is the state (R21)
        assert env.observe(agent)["observation"].shape != state.shape


def test_pettingzoo_render_test_and_images_show_public_facts_only() -> None:
    render_test(lambda render_mode=None: draw_v0.env(players=2, render_mode=render_mode))
    env = draw_v0.env(players=2, render_mode="rgb_array")
    env.reset(seed=2)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.shape[2] == 3
    other = draw_v0.env(players=2, render_mode="rgb_array")
    other.reset(seed=2)
    twin = other.table.round.sample_hidden(0, random.Random(5))  # type: ignore[union-attr]
    other.table.round = twin  # type: ignore[union-attr]
    other.table.tracker = Tracker(twin)  # type: ignore[union-attr]
    shown = other.render()
    assert isinstance(shown, np.ndarray)
    assert np.array_equal(shown, first)  # hidden tiles change no pixel (R21)


def test_gymnasium_renders_the_learners_view_in_every_mode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for mode in ("ansi", "human", "rgb_array"):
        env = gymnasium.make(GYM_ID, opponents=["greedy"], render_mode=mode)
        check_env(env, skip_render_check=False)
        env.reset(seed=1)
        shown = env.render()
        if mode == "ansi":
            assert isinstance(shown, str) and "hand: " in shown
        elif mode == "human":
            assert shown is None and "hand: " in capsys.readouterr().out
        else:
            assert isinstance(shown, np.ndarray) and shown.shape[2] == 3


def test_history_rows_follow_the_decisions_from_the_seats_chair() -> None:
    """With ``history=K`` the observation ends with the latest K decisions, each the acting
    seat relative to the viewer and the action id, one-hot (no drawn tile, R21)."""
    rows = max_decisions(2)
    env = gymnasium.make(GYM_ID, opponents=["greedy"], history=rows)
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBSERVATION_SIZE + rows * HISTORY_ROW,)
    check_env(env)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    round_ = env.unwrapped.table.round  # type: ignore[attr-defined]
    history = obs[OBSERVATION_SIZE:].reshape(rows, HISTORY_ROW)
    seen = [
        (int(np.flatnonzero(row[:4])[0]), int(np.flatnonzero(row[4:])[0]))
        for row in history
        if row.any()
    ]
    assert seen == [((seat - 0) % 2, action_id(action)) for seat, action in round_.history]
    short = draw_v0.env(players=3, history=2)
    short.reset(seed=1)
    for _ in range(5):
        agent = short.agent_selection
        short.step(int(np.flatnonzero(short.observe(agent)["action_mask"])[0]))
    tail = short.observe(short.agent_selection)["observation"][OBSERVATION_SIZE:].reshape(2, -1)
    assert tail.sum() == 4  # the last two decisions, one seat and one action each
    assert max_decisions(2) >= 92 and max_decisions(4) >= max_decisions(2)


def test_gymnasium_make_hands_out_the_env_itself_with_its_mask_method() -> None:
    """SB3 and sb3-contrib call ``env.action_masks()`` on what ``gymnasium.make`` gives."""
    env = gymnasium.make(GYM_ID)
    assert isinstance(env, DrawDominoesEnv)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    _, info = env.reset(seed=0)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))


def test_a_policy_can_be_an_opponent() -> None:
    """``policy(observation, mask) -> id``: self-play and leagues need no wrapper."""
    seen: list[tuple[int, int]] = []

    def lowest(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation.shape[0], int(mask.sum())))
        return int(np.flatnonzero(mask)[0])

    env = gymnasium.make(GYM_ID, opponents=[lowest, "random"])
    _, info = env.reset(seed=5)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert seen and all(size == OBSERVATION_SIZE and legal > 0 for size, legal in seen)
    with pytest.raises(ValueError, match="policy"):
        gymnasium.make(GYM_ID, opponents=[42])


# ----------------------------------------------------------------- the vector environment


def test_the_vector_env_plays_what_sync_vector_env_plays_and_never_hands_out_an_empty_mask() -> (
    None
):
    """``make_vec`` builds the native vector env; it steps exactly as SyncVectorEnv over the
    single env (same-step autoreset), and every mask it returns has a legal action."""
    kwargs: dict[str, Any] = {"opponents": ["greedy", "random"], "seat": None}
    native = gymnasium.make_vec(GYM_ID, num_envs=6, batched=False, **kwargs)
    assert isinstance(native, DrawDominoesVectorEnv)
    sync = gymnasium.make_vec(
        GYM_ID,
        num_envs=6,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
        **kwargs,
    )
    obs, info = native.reset(seed=11)
    obs2, info2 = sync.reset(seed=11)
    assert np.array_equal(obs, obs2) and np.array_equal(info["action_mask"], info2["action_mask"])
    rng = random.Random(1)
    finished = 0
    for _ in range(300):
        assert native.observation_space.contains(obs)
        assert (info["action_mask"].sum(axis=1) > 0).all()
        assert np.array_equal(native.action_masks(), info["action_mask"].astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, rewards, terminated, truncated, info = native.step(actions)
        obs2, rewards2, terminated2, _, info2 = sync.step(actions)
        assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2)
        assert np.array_equal(terminated, terminated2) and not truncated.any()
        if terminated.any():
            finished += int(terminated.sum())
            for index in np.flatnonzero(terminated):
                assert np.array_equal(info["final_obs"][index], info2["final_obs"][index])
                assert not info["final_info"]["action_mask"][index].any()  # it was over
    assert finished > 20


def test_the_vector_env_refuses_bad_actions_and_penalises_illegal_ones() -> None:
    env = DrawDominoesVectorEnv(num_envs=3, opponents=["random"])
    obs, info = env.reset(seed=2)
    with pytest.raises(ValueError, match="3 integer action ids"):
        env.step(np.array([0, 1]))
    with pytest.raises(ValueError, match="from 0 to 57"):
        env.step(np.array([0, 1, 99]))
    legal = [int(np.flatnonzero(row)[0]) for row in info["action_mask"]]
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    after, rewards, _, _, info2 = env.step(np.array([legal[0], illegal, legal[2]]))
    assert rewards[1] == ILLEGAL_ACTION_REWARD and np.array_equal(after[1], obs[1])
    assert info2["_illegal_action"].tolist() == [False, True, False]
    with pytest.raises(ValueError, match="num_envs"):
        DrawDominoesVectorEnv(num_envs=0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batched_rounds_follow_the_engine_move_by_move(players: int) -> None:
    """The numpy rules (``batch``) against the engine on the same random actions: every
    mask, the greedy bot's choice, every seat's observation, each outcome (R5-R7, R14-R17)."""
    size = 24
    rounds = BatchRounds(players, size)
    deals = [Round.new(players, seed=1000 * players + i) for i in range(size)]
    trackers = [Tracker(round_) for round_ in deals]
    rounds.load(np.arange(size), deals)
    rng = np.random.default_rng(players)
    greedy = bots.create("greedy")
    while not rounds.over.all():
        rows = np.flatnonzero(~rounds.over)
        mask = rounds.legal(rows)
        chosen = random_choice(mask, rng)
        for j, row in enumerate(rows.tolist()):
            round_ = deals[row]
            seat = round_.current_player
            assert np.array_equal(mask[j], fast_mask(round_, seat).astype(bool))
            assert greedy_choice(mask[j : j + 1])[0] == greedy.choose(round_.view(seat)).id
            round_.apply_id(int(chosen[j]))
        rounds.apply(rows, chosen)
        seats = np.arange(size) % players
        obs = rounds.observations(seats)
        for i, round_ in enumerate(deals):
            assert np.array_equal(obs[i], fast_observation(trackers[i], int(seats[i])))
            assert rounds.over[i] == round_.is_over
    for i, round_ in enumerate(deals):
        outcome = round_.outcome
        assert outcome is not None
        assert (rounds.winner[i], rounds.points[i]) == (
            -1 if outcome.winner is None else outcome.winner,
            outcome.points,
        )
        credits = outcome.credits
        expected = credits[1] - (sum(credits) - credits[1]) / (players - 1)
        assert rounds.relative(np.array([i]), np.array([1]))[0] == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rounds_loaded_part_played_go_on_as_the_engine_does(players: int) -> None:
    """A round loaded mid-play (a search's determinization: passes, lacks, draws and the
    boneyard's order as they stand) gives the engine's masks, observations and outcome."""
    rng = random.Random(players)
    deals = []
    for i in range(40):
        round_ = Round.new(players, seed=500 * players + i)
        for _ in range(rng.randrange(0, 30)):
            if round_.is_over:
                break
            round_.apply_id(rng.choice(round_.legal_action_ids()))
        if not round_.is_over:
            deals.append(round_)
    rounds = BatchRounds(players, len(deals))
    rounds.load(np.arange(len(deals)), deals)
    trackers = [Tracker(round_) for round_ in deals]
    seats = np.arange(len(deals)) % players
    while True:
        obs = rounds.observations(seats)
        for i in range(len(deals)):
            assert np.array_equal(obs[i], fast_observation(trackers[i], int(seats[i])))
        rows = np.flatnonzero(~rounds.over)
        if not rows.size:
            break
        mask = rounds.legal(rows)
        for j, row in enumerate(rows.tolist()):
            round_ = deals[row]
            assert np.array_equal(mask[j], fast_mask(round_, round_.current_player).astype(bool))
            round_.apply_id(rng.choice(round_.legal_action_ids()))
            mask[j] = False
            mask[j, round_.actions[-1].id] = True
        rounds.apply(rows, mask.argmax(axis=1))
    for i, round_ in enumerate(deals):
        assert round_.outcome is not None
        assert rounds.points[i] == round_.outcome.points
    with pytest.raises(ValueError, match="still being played"):
        rounds.load(np.array([0]), [deals[0]])


@pytest.mark.parametrize("seat", [None, 1])
def test_the_batched_vector_env_plays_as_the_engine_does_against_greedy(seat: int | None) -> None:
    """Against the deterministic greedy bot the batched and the engine-played vector envs
    deal the same rounds and answer every action alike."""
    fast = DrawDominoesVectorEnv(num_envs=16, opponents=["greedy", "easy"], seat=seat)
    slow = DrawDominoesVectorEnv(
        num_envs=16, opponents=["greedy", "greedy"], seat=seat, batched=False
    )
    assert fast.batched and not slow.batched
    obs, info = fast.reset(seed=7)
    obs2, info2 = slow.reset(seed=7)
    rng = random.Random(2)
    ended = 0
    for _ in range(200):
        assert np.array_equal(obs, obs2) and np.array_equal(
            info["action_mask"], info2["action_mask"]
        )
        assert (info["action_mask"].sum(axis=1) > 0).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, rewards, terminated, _, info = fast.step(actions)
        obs2, rewards2, terminated2, _, info2 = slow.step(actions)
        assert np.array_equal(rewards, rewards2) and np.array_equal(terminated, terminated2)
        for index in np.flatnonzero(terminated):
            assert np.array_equal(info["final_obs"][index], info2["final_obs"][index])
        ended += int(terminated.sum())
    assert ended > 30
    with pytest.raises(ValueError, match="batched play needs"):
        DrawDominoesVectorEnv(num_envs=2, opponents=["heuristic"], batched=True)


def test_the_batched_vector_env_is_seeded_and_penalises_illegal_actions() -> None:
    def run(seed: int) -> list[float]:
        env = gymnasium.make_vec(GYM_ID, num_envs=8)
        _, info = env.reset(seed=seed)
        rng = random.Random(0)
        totals = []
        for _ in range(60):
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
            _, rewards, _, _, info = env.step(actions)
            totals.append(float(rewards.sum()))
        return totals

    assert run(3) == run(3) and run(3) != run(4)
    env = DrawDominoesVectorEnv(num_envs=2)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(info["action_mask"][1])[0])
    after, rewards, _, _, info2 = env.step(np.array([illegal, legal]))
    assert rewards[0] == ILLEGAL_ACTION_REWARD and np.array_equal(after[0], obs[0])
    assert info2["_illegal_action"].tolist() == [True, False]


@pytest.mark.parametrize("players", [2, 4])
def test_the_gymnasium_envs_quick_bots_choose_as_the_bots_do(players: int) -> None:
    """The opponents' fast paths: the greedy order picks what ``GreedyBot`` picks, and a
    random opponent plays exactly the moves of the same bot asked through ``choose``."""
    greedy = GreedyBot()
    rng = random.Random(players)
    for seed in range(40):
        round_ = Round.new(players, seed=seed)
        while not round_.is_over:
            legal = round_.legal_actions()
            assert max(legal, key=_GREEDY_RANK) is greedy.choose_among(legal)
            round_.apply(rng.choice(legal))

    class Slow:
        """The random bot seen only through ``choose`` (no fast path applies)."""

        name = "slow random"

        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, view: Any) -> Any:
            return self.bot.choose(view)

    fast = DrawDominoesEnv(opponents=["random"] * (players - 1), seat=None)
    slow = DrawDominoesEnv(opponents=["random"] * (players - 1), seat=None)
    for seed in range(10):
        obs, info = fast.reset(seed=seed)
        slow.reset(seed=seed)
        assert slow.seating is not None
        slow.seating.opponents = {s: Slow(b) for s, b in slow.seating.opponents.items()}
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, reward, done, _, info = fast.step(action)
            obs2, reward2, done2, _, _ = slow.step(action)
            assert np.array_equal(obs, obs2) and (reward, done) == (reward2, done2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batched_draw_runs_draw_as_the_bots_would(players: int) -> None:
    """``BatchRounds.draw_runs`` decides a whole chain of draws at once: the same draws as
    deciding them one at a time with the engine, greedy rows while they cannot place and
    random rows with chance 1 in (placements + 1), from the same random numbers."""
    size = 40
    rounds = BatchRounds(players, size)
    deals = [Round.new(players, seed=500 * players + i) for i in range(size)]
    rounds.load(np.arange(size), deals)
    rng = random.Random(players)
    for i, round_ in enumerate(deals):  # each round some way in, the same moves in both
        for _ in range(rng.randrange(16)):
            legal = round_.legal_actions()
            if not legal:
                break
            action = rng.choice(legal)
            rounds.apply(np.array([i]), np.array([action.id]))
            round_.apply(action)
    live = np.flatnonzero(~rounds.over)
    greedy = np.arange(len(live)) % 2 == 0
    longest = int((26 - rounds.drawn[live]).max())
    rounds.draw_runs(live, greedy, np.random.default_rng(5))
    chances = np.random.default_rng(5).random((len(live), longest + 1))
    runs = 0
    for j, row in enumerate(live.tolist()):
        round_ = deals[row]
        for at in range(longest + 1):
            legal = round_.legal_actions()
            places = sum(isinstance(a, Place) for a in legal)
            if DRAW not in legal:
                break
            if places if greedy[j] else chances[j, at] * (places + 1) >= 1:
                break
            round_.apply(DRAW)
            runs += at == 0
        seat = round_.current_player
        assert np.array_equal(
            rounds.legal(np.array([row]))[0], fast_mask(round_, seat).astype(bool)
        )
        assert int(rounds.drawn[row]) == 28 - round_.boneyard_size
        drew = [sum(a is DRAW for s, a in round_.history if s == seat) for seat in range(players)]
        assert rounds.draws[row, :players].tolist() == drew
        assert [int(h) for h in rounds.hands[row, :players]] == [
            round_.hand_mask(s) for s in range(players)
        ]
    assert runs > 0 or players == 4


@pytest.mark.parametrize("players", [2, 3])
def test_the_batched_vector_env_opens_as_the_engine_would(players: int) -> None:
    """A bot that leads a new round draws and opens as it is dealt (no numpy pass): the
    state is the engine's after those actions on the same deal, and a random bot keeps
    its first tile unopened no more often than a uniform choice would (k / (k + 1))."""
    from draw_dominoes.envs._table import SeedStream

    size = 600
    env = DrawDominoesVectorEnv(num_envs=size, opponents=["random"] * (players - 1), seat=0)
    env.reset(seed=3)
    rounds, hand = env.rounds, 7
    opened = kept = 0
    for row in range(size):
        game_seed = SeedStream().episode(3 + row)
        round_ = Round.new(players, seed=game_seed)
        if (round_.leader + 1) % players:  # the learner (seat 0) leads, or acts later
            continue
        opened += 1
        draws = int(rounds.draws[row, round_.leader])
        kept += draws == 0
        for _ in range(draws):
            round_.apply(DRAW)
        tile = ALL_TILES[int(rounds.line[row]).bit_length() - 1]
        round_.apply(Place(tile, None))
        assert int(rounds.current[row]) == round_.current_player == 0
        assert [int(h) for h in rounds.hands[row, :players]] == [
            round_.hand_mask(s) for s in range(players)
        ]
        assert int(rounds.drawn[row]) == 28 - round_.boneyard_size
        assert tuple(int(e) for e in rounds.ends[row]) == round_.end_values
    assert opened > size // 4
    assert abs(kept / opened - hand / (hand + 1)) < 0.05
