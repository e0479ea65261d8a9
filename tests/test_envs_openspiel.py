"""The OpenSpiel adapter: random_sim_test, chance nodes, clones, observers, resampling, and
ISMCTS/MCTS play."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from draw_dominoes import ALL_TILES, IllegalActionError, Round, Tile  # noqa: E402
from draw_dominoes.envs import DRAW_ID, PASS_ID, action_id, observation  # noqa: E402
from draw_dominoes.envs._table import rewards_for  # noqa: E402
from draw_dominoes.envs.openspiel import DrawDominoesState, max_player_actions  # noqa: E402


def _game(players: int = 2) -> pyspiel.Game:  # type: ignore[name-defined]
    return pyspiel.load_game("python_draw_dominoes", {"players": players})


def _chance(state: DrawDominoesState, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(rng.choice(outcomes))


def _play_until(state: DrawDominoesState, rng: random.Random, decisions: int) -> None:
    _chance(state, rng)
    for _ in range(decisions):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
        _chance(state, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test(players: int) -> None:
    pyspiel.random_sim_test(_game(players), num_sims=5, serialize=True, verbose=False)


def test_deal_and_draws_are_chance_nodes() -> None:
    """R2, R4: a lot for the leader, the deal tile by tile, and a uniform tile per draw."""
    state = _game(2).new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2
    state.apply_action(0)
    for dealt in range(14):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 28 - dealt
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0
    assert DRAW_ID in state.legal_actions()  # R7: the leader may draw before opening
    state.apply_action(DRAW_ID)
    boneyard = {t.index for t in ALL_TILES[14:]}
    assert state.is_chance_node()
    assert {a for a, _ in state.chance_outcomes()} == boneyard
    state.apply_action(27)
    assert state.current_player() == 0  # R6: drawing keeps the turn
    assert ALL_TILES[27] in state.round.hand(0) and state.round.boneyard_size == 13


def test_legal_actions_are_the_engines() -> None:
    rng = random.Random(3)
    state = _game(3).new_initial_state()
    while not state.is_terminal():
        _chance(state, rng)
        if state.is_terminal():
            break
        engine = state.round.legal_actions()
        assert state.legal_actions() == sorted(action_id(a) for a in engine)
        state.apply_action(rng.choice(state.legal_actions()))
    outcome = state.round.outcome
    assert outcome is not None
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert returns == [c - (outcome.points - c) / 2 for c in outcome.credits]
    assert len(state.history()) <= max_player_actions(3) + 28


def test_information_state_hides_other_hands() -> None:
    """R21: two states that differ only in hidden tiles look the same to the viewer."""
    rng = random.Random(7)
    state = _game(2).new_initial_state()
    _play_until(state, rng, 6)
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_string(player) == state.observation_string(player)
    assert np.array_equal(
        other.information_state_tensor(player), state.information_state_tensor(player)
    )
    assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
    opponent_tiles = {str(t) for t in state.round.hand(1 - player)}
    assert not any(tile in state.information_state_string(player) for tile in opponent_tiles)


def test_resampling_deals_the_hidden_tiles_anew_and_plays_on() -> None:
    rng = random.Random(11)
    state = _game(2).new_initial_state()
    _play_until(state, rng, 8)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    opponent_hands = set()
    for _ in range(12):
        sampled = state.resample_from_infostate(player, sampler)
        assert sampled.round.hand(player) == state.round.hand(player)
        assert sampled.round.history == state.round.history
        opponent_hands.add(sampled.round.hand(1 - player))
        _play_until(sampled, rng, 200)  # draws in a sampled world are chance nodes too
        assert sampled.is_terminal()
    assert len(opponent_hands) > 1


def _play_with(bot: pyspiel.Bot, seat: int, seed: int, determinize: bool) -> list[float]:  # type: ignore[name-defined]
    """One round: ``bot`` at ``seat`` against uniform random play."""
    rng = random.Random(seed)
    game = _game(2)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        elif state.current_player() == seat:
            # MCTS is a perfect-information search: give it a world sampled from the
            # seat's information state, never the true one.
            world = state.resample_from_infostate(seat, sampler) if determinize else state
            action = bot.step(world)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.returns())


def test_openspiel_ismcts_bot_plays_a_round() -> None:
    game = _game(2)
    random_state = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=30.0, max_simulations=15, random_state=random_state
    )
    returns = _play_with(bot, seat=0, seed=1, determinize=False)
    assert abs(sum(returns)) < 1e-9


def test_openspiel_mcts_bot_plays_a_round_on_sampled_worlds() -> None:
    game = _game(2)
    random_state = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = mcts.MCTSBot(
        game, uct_c=30.0, max_simulations=15, evaluator=evaluator, random_state=random_state
    )
    returns = _play_with(bot, seat=1, seed=2, determinize=True)
    assert abs(sum(returns)) < 1e-9


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        pyspiel.load_game("python_draw_dominoes", {"players": 5})


def test_a_round_from_the_core_and_the_game_agree() -> None:
    """Dealing the same tiles by chance gives the engine's round (R2)."""
    state = _game(2).new_initial_state()
    core = Round.new(2, seed=3, leader=1)
    state.apply_action(1)
    for seat in range(2):
        for tile in core.hand(seat):
            state.apply_action(tile.index)
    assert state.round.hand(0) == core.hand(0) and state.round.hand(1) == core.hand(1)
    assert state.legal_actions() == sorted(action_id(a) for a in core.legal_actions())


# ----------------------------------------------------------------- refused actions (R8)


def _snapshot(state: DrawDominoesState) -> tuple[object, ...]:
    outcomes = state.chance_outcomes() if state.is_chance_node() else None
    legal = state.legal_actions() if not state.is_chance_node() else None
    return (str(state), state.history(), state.current_player(), outcomes, legal)


def _refused(state: DrawDominoesState, action: int, match: str) -> None:
    """``action`` raises a clear error and leaves ``state`` exactly as it was."""
    before = _snapshot(state)
    with pytest.raises(IllegalActionError, match=match):
        state.apply_action(action)
    assert _snapshot(state) == before


def _dealt_state(players: int, seed: int) -> DrawDominoesState:
    state = _game(players).new_initial_state()
    _chance(state, random.Random(seed))
    return state


def test_a_draw_from_a_closed_boneyard_is_refused_and_the_round_plays_on() -> None:
    """R5, R8: with two tiles left, draw is illegal; it used to open a chance node that
    every outcome failed on, leaving the state stuck."""
    rng = random.Random(4)
    state = _dealt_state(2, seed=4)
    seat = state.current_player()
    while DRAW_ID in state.legal_actions():
        state.apply_action(DRAW_ID)
        _chance(state, rng)
    assert state.current_player() == seat and state.round.boneyard_size == 2
    _refused(state, DRAW_ID, "not legal")
    assert not state.is_chance_node()
    _play_until(state, rng, 500)
    assert state.is_terminal()


def test_illegal_player_actions_are_refused() -> None:
    state = _dealt_state(3, seed=1)
    player = state.current_player()
    legal = set(state.legal_actions())
    assert PASS_ID not in legal  # R5: the boneyard is full, so no pass
    _refused(state, PASS_ID, "not legal")
    own = state.round.hand(player)[0]
    _refused(state, 2 * own.index + 1, "not legal")  # end 1 on an empty line
    foreign = state.round.hand((player + 1) % 3)[0]
    _refused(state, 2 * foreign.index, "not legal")  # another seat's tile
    assert set(state.legal_actions()) == legal
    _play_until(state, random.Random(1), 500)
    assert state.is_terminal()
    _refused(state, DRAW_ID, "over")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_leader_outside_the_table_is_refused(players: int) -> None:
    """R4: the lot picks one of the seats present."""
    state = _game(players).new_initial_state()
    for leader in (players, 4, 27):
        _refused(state, leader, "not a chance outcome")
    state.apply_action(players - 1)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 28


def test_a_tile_dealt_or_held_twice_is_refused() -> None:
    state = _game(2).new_initial_state()
    state.apply_action(0)
    state.apply_action(Tile(3, 5).index)
    _refused(state, Tile(3, 5).index, "not a chance outcome")  # dealt already
    _refused(state, 28, "not a chance outcome")  # no such tile
    _chance(state, random.Random(2))
    state.apply_action(DRAW_ID)
    assert state.is_chance_node()
    in_hand = state.round.hand(1)[0]
    _refused(state, in_hand.index, "not a chance outcome")  # a tile in a hand
    _refused(state, Tile(3, 5).index, "not a chance outcome")
    drawn = state.chance_outcomes()[0][0]
    state.apply_action(drawn)
    assert ALL_TILES[drawn] in state.round.hand(state.current_player())


# ----------------------------------------------------------------- public observation (R21)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_public_observation_never_shows_a_hand_tile(players: int) -> None:
    """R21: the public-only observer shows no tile in any hand, the deal included."""
    game = _game(players)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    rng = random.Random(players)
    for _ in range(3):
        state = game.new_initial_state()
        checked = 0
        while not state.is_terminal():
            # while dealing, every tile dealt so far is in a hand
            held = {str(t) for hand in state.all_hands() for t in hand}
            texts = {public.string_from(state, p) for p in range(players)}
            assert len(texts) == 1  # the same for every seat: nothing private in it
            text = texts.pop()
            assert not [tile for tile in held if tile in text], text
            for p in range(players):
                public.set_from(state, p)
                assert not public.dict["observation"][: len(ALL_TILES)].any()
            checked += 1
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert checked > 28


def test_openspiel_returns_are_the_shared_relative_reward() -> None:
    """The zero-sum return is the environments' ``reward="relative"``, computed in one place."""
    for players in (2, 3, 4):
        state = _dealt_state(players, seed=players)
        _play_until(state, random.Random(players), 500)
        outcome = state.round.outcome
        assert outcome is not None
        assert state.returns() == list(rewards_for(outcome, "relative"))
        assert abs(sum(state.returns())) < 1e-9


# ----------------------------------------------------------------- clones


def _everything(state: DrawDominoesState) -> tuple[object, ...]:
    """All a state shows through the OpenSpiel API, for every seat."""
    seats = range(state.num_players())
    facts: list[object] = [str(state), state.history(), state.current_player(), state.returns()]
    if state.is_chance_node():
        facts.append(state.chance_outcomes())
    elif not state.is_terminal():
        facts.append(state.legal_actions())
    facts += [state.information_state_string(p) for p in seats]
    facts += [state.observation_string(p) for p in seats]
    facts += [state.information_state_tensor(p) for p in seats]
    facts += [state.observation_tensor(p) for p in seats]
    return tuple(facts)


def _random_step(state: DrawDominoesState, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_clone_equals_its_state_and_plays_on_alone(players: int) -> None:
    """A clone shows what the state shows; playing it out leaves the state untouched."""
    game = _game(players)
    rng = random.Random(20 + players)
    for _ in range(4):
        state = game.new_initial_state()
        clones = 0
        while not state.is_terminal():
            if rng.random() < 0.15:
                before = _everything(state)
                clone = state.clone()
                assert _everything(clone) == before
                copied = copy.deepcopy(state)
                assert _everything(copied) == before
                while not clone.is_terminal():  # other chance draws, other decisions
                    _random_step(clone, rng)
                _random_step(copied, rng)
                assert _everything(state) == before
                clones += 1
            _random_step(state, rng)
        assert clones > 0 and sum(state.returns()) == pytest.approx(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_equal_the_views_encoding_through_clones(players: int) -> None:
    """The fast observation (a tracker of public facts) stays equal to the view's
    encoding on a state, on its clones and on resampled states, chance draws included."""
    game = _game(players)
    rng = random.Random(players)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)

    def check(state: DrawDominoesState) -> None:
        for p in range(players):
            assert np.array_equal(state.observation_tensor(p), observation(state.view(p)))

    state = game.new_initial_state()
    _chance(state, rng)
    while not state.is_terminal():
        check(state)
        if state.is_chance_node() or rng.random() < 0.3:
            clone = state.clone()
            _random_step(clone, rng)
            if not clone.is_chance_node():
                check(clone)
        if not state.is_chance_node():
            check(state.resample_from_infostate(state.current_player(), sampler))
        _random_step(state, rng)
    check(state)


# ----------------------------------------------------------------- all-players observer


def _observer(game: pyspiel.Game, private: object, recall: bool = False) -> Any:  # type: ignore[name-defined]
    return make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=recall, private_info=private)
    )


def _row_of(tiles: tuple[Tile, ...]) -> np.ndarray:
    """A hand as the observation's 28 one-hot values."""
    row = np.zeros(28, np.float32)
    row[[t.index for t in tiles]] = 1
    return row


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_all_players_observer_shows_every_hand(players: int) -> None:
    game = _game(players)
    everyone = _observer(game, pyspiel.PrivateInfoType.ALL_PLAYERS)
    everyone_recall = _observer(game, pyspiel.PrivateInfoType.ALL_PLAYERS, recall=True)
    single = _observer(game, pyspiel.PrivateInfoType.SINGLE_PLAYER)
    rng = random.Random(30 + players)
    state = game.new_initial_state()
    while not state.is_terminal():
        hands = state.all_hands()
        for p in range(players):
            text = everyone.string_from(state, p)
            assert all(str(t) in text for hand in hands for t in hand)
            for observer in (everyone, everyone_recall):
                observer.set_from(state, p)
                rows = observer.dict["hands"]
                for r in range(4):
                    shown = {ALL_TILES[i] for i in np.flatnonzero(rows[r])}
                    assert shown == (set(hands[(p + r) % players]) if r < players else set())
            assert "hands" not in single.dict
            if state.is_dealt:
                single.set_from(state, p)
                own = everyone.dict["observation"]
                assert np.array_equal(own, single.dict["observation"])  # the own part as before
                assert np.array_equal(own[:28], _row_of(hands[p]))
        _random_step(state, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_single_player_observers_show_only_the_own_hand(players: int) -> None:
    """R21: the default and single-player observers show the seat's hand, no other."""
    game = _game(players)
    single = _observer(game, pyspiel.PrivateInfoType.SINGLE_PLAYER)
    recall = _observer(game, pyspiel.PrivateInfoType.SINGLE_PLAYER, recall=True)
    rng = random.Random(40 + players)
    state = game.new_initial_state()
    _chance(state, rng)
    while not state.is_terminal():
        hands = state.all_hands()
        for p in range(players):
            others = {str(t) for seat, hand in enumerate(hands) if seat != p for t in hand}
            for text in (
                single.string_from(state, p),
                recall.string_from(state, p),
                state.information_state_string(p),
                state.observation_string(p),
            ):
                assert all(str(t) in text for t in hands[p])
                assert not [t for t in others if t in text], text
            for observer in (single, recall):
                observer.set_from(state, p)
                assert np.array_equal(observer.dict["observation"][:28], _row_of(hands[p]))
        _random_step(state, rng)


def test_pyspiel_evaluate_bots_plays_the_python_ismcts_bot() -> None:
    """The C++ evaluation loop works with the Python ISMCTS bot (the Python loop in
    ``evaluate_bots.py`` calls ``restart_at``, which that bot lacks)."""
    game = _game(3)
    random_state = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 30.0, 10, random_state=random_state),
        uniform_random.UniformRandomBot(1, random_state),
        uniform_random.UniformRandomBot(2, random_state),
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9


def test_a_state_gives_its_seats_view_and_worlds_consistent_with_it() -> None:
    rng = random.Random(5)
    state = _game(3).new_initial_state()
    while state.is_chance_node() or len(state.history()) < 40:
        if state.is_terminal():
            break
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for player in range(3):
        world = state.sample_hidden(player, random.Random(player))
        assert world.view(player) == state.view(player)
