"""The learned bot: training end to end for a few steps, its files, its choices from views
only (R21), determinism, and the shipped weights against the same network untrained."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
import pytest

from draw_dominoes import Round, bots
from draw_dominoes.bots.expert import ExpertBot
from draw_dominoes.envs.batch import BatchRounds
from draw_dominoes.envs.encoding import observation
from draw_dominoes.learned import features as learned_features
from draw_dominoes.learned.bot import SHIPPED, LearnedBot, shipped_network, values_of
from draw_dominoes.learned.cli import run as run_cli
from draw_dominoes.learned.network import Network, WeightsError
from draw_dominoes.learned.playouts import playout_points
from draw_dominoes.learned.train import TrainingSettings, play_rounds, train
from draw_dominoes.round import ViewSampler
from test_bots import _twin_rounds

TINY = TrainingSettings(
    players=(2, 3), hidden=(16, 8), rounds=16, updates=2, batch=64, buffer=4000, seed=3
)


def trained(path: Path, steps: int = 4) -> Network:
    return train(TINY, path, steps=steps)


def test_a_few_steps_of_training_play_learn_save_and_load(tmp_path: Path) -> None:
    lines: list[dict[str, float]] = []
    network = train(
        TINY,
        tmp_path / "w.npz",
        steps=6,
        every=0.0,
        log=tmp_path / "log.jsonl",
        report=lines.append,
    )
    assert (tmp_path / "w.npz").is_file() and lines[-1]["steps"] == 6
    assert lines[-1]["decisions"] > 6 * 16 * 10  # every decision of every round is learned from
    assert (tmp_path / "log.jsonl").read_text().count("\n") == len(lines)
    loaded = Network.load(tmp_path / "w.npz")
    rows = np.random.default_rng(0).random((5, learned_features.FEATURES)).astype(np.float32)
    assert np.array_equal(loaded.value(rows), network.value(rows))
    bot = LearnedBot(0, weights=str(tmp_path / "w.npz"))
    for players in (2, 3, 4):  # one network plays every table size
        game = Round.new(players, seed=players)
        while not game.is_over:
            action = bot.choose(game.view(game.current_player))
            assert action in game.legal_actions()
            game.apply(action)


def test_the_same_seed_trains_the_same_weights(tmp_path: Path) -> None:
    first = trained(tmp_path / "a.npz")
    second = trained(tmp_path / "b.npz")
    for a, b in zip(first.parameters, second.parameters, strict=True):
        assert np.array_equal(a, b)
    other = train(TrainingSettings(**{**TINY.__dict__, "seed": 4}), tmp_path / "c.npz", steps=4)
    assert not np.array_equal(first.weights[0], other.weights[0])


def test_the_labels_are_each_seats_points_from_its_round() -> None:
    """Deep Monte-Carlo: every decision is labelled with its seat's round result, and the
    labels of a two-player round are zero-sum."""
    network = Network.new((8,), np.random.default_rng(1))
    rows, labels = play_rounds(network, 2, 32, np.random.default_rng(2), 0.1)
    assert rows.shape[1] == learned_features.FEATURES and len(rows) == len(labels)
    assert np.all(np.abs(labels) <= 168)
    assert len(set(np.round(labels, 3).tolist())) > 2


def test_features_from_a_view_match_those_of_the_batched_rules() -> None:
    """Training (batched rules) and play (one view) build the same rows (R21: the view's
    observation only)."""
    game = Round.new(3, seed=11, leader=0)
    batch = BatchRounds(3, 1)
    batch.load(np.array([0]), [game])
    rng = random.Random(5)
    for _ in range(12):
        seat = game.current_player
        view = game.view(seat)
        mask = np.zeros((1, 58), dtype=bool)
        mask[0] = batch.legal(np.array([0]))[0]
        from_view = learned_features.pair_features(observation(view)[None, :], mask)[2]
        from_batch = learned_features.pair_features(
            batch.observations(np.array([seat]), np.array([0])), mask
        )[2]
        assert np.array_equal(from_view, from_batch)
        action = rng.choice(game.legal_actions())
        game.apply(action)
        batch.apply(np.array([0]), np.array([action.id]))
        if game.is_over:
            break


def test_a_missing_or_corrupt_weights_file_is_a_clear_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.npz"
    with pytest.raises(WeightsError, match=r"nope\.npz: no such weights file"):
        Network.load(missing)
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"not a zip at all")
    with pytest.raises(WeightsError, match=r"corrupt\.npz: not a weights file"):
        Network.load(corrupt)
    good = tmp_path / "good.npz"
    Network.new((4,), np.random.default_rng(0)).save(good)
    with np.load(good) as data:
        arrays = dict(data)
    arrays["w0"] = arrays["w0"][:-1]
    np.savez(tmp_path / "shape.npz", **arrays)
    with pytest.raises(WeightsError, match=r"shape\.npz: layer 0 has the wrong shape"):
        Network.load(tmp_path / "shape.npz")
    arrays = {**dict(np.load(good)), "features_version": np.int64(0)}
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(WeightsError, match="features version 0"):
        Network.load(tmp_path / "old.npz")
    with pytest.raises(ValueError, match=r"corrupt\.npz"):
        bots.create("learned", weights=str(corrupt))


def test_the_command_line_needs_a_length(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(minutes=None, steps=None)
    assert run_cli(args) == 2
    assert "--minutes or --steps" in capsys.readouterr().err


# ------------------------------------------------------------------ the shipped weights


def test_the_shipped_weights_choose_from_the_view_alone() -> None:
    """R21: views that differ only in hidden tiles are equal, and so are the choices."""
    first, second = _twin_rounds()
    view_a, view_b = first.view(0), second.view(0)
    assert view_a == view_b
    assert bots.create("learned", 1).choose(view_a) == bots.create("learned", 2).choose(view_b)
    values = values_of(shipped_network(), view_a)
    assert set(values) == set(view_a.legal_actions)


def test_the_shipped_weights_beat_the_same_network_untrained() -> None:
    """On 60 fixed two-player deals, each played in both seat orders, the trained network
    scores more points a round than the same layers with their initial weights."""
    shipped = shipped_network()
    untrained = Network.new(shipped.hidden, np.random.default_rng(SHIPPED.stat().st_size))
    players = {"trained": shipped, "untrained": untrained}
    margin = 0.0
    for deal in range(60):
        for first in ("trained", "untrained"):
            order = [first, "untrained" if first == "trained" else "trained"]
            game = Round.new(2, seed=1000 + deal, leader=0)
            while not game.is_over:
                seat = game.current_player
                view = game.view(seat)
                values = values_of(players[order[seat]], view)
                game.apply(max(values, key=lambda a: (values[a], -a.id)))
            credits = game.outcome.credits if game.outcome is not None else (0, 0)
            mine = order.index("trained")
            margin += credits[mine] - credits[1 - mine]
    assert margin / 120 > 5, f"the trained network gained only {margin / 120:.2f} points a round"


def test_the_expert_takes_the_network_as_a_prior_and_as_a_leaf_value() -> None:
    game = Round.new(2, seed=5, leader=0)
    rng = random.Random(2)
    while len(game.legal_actions()) < 3:
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.current_player)
    for options in ({"prior": 1.0}, {"leaf": True}, {"prior": 0.5, "leaf": True}):
        bot = bots.create("expert", 1, iterations=40, playout="greedy", **options)
        assert bot.choose(view) in view.legal_actions
    # A prior that outweighs every reward makes the search follow the network.
    led = bots.create("expert", 1, iterations=30, prior=1000.0, playout="greedy").choose(view)
    assert led == bots.create("learned").choose(view)
    with pytest.raises(ValueError, match="prior"):
        bots.create("expert", prior=-1)
    with pytest.raises(ValueError, match="leaf"):
        bots.create("expert", leaf="yes")


def test_the_expert_plays_rounds_out_with_the_network() -> None:
    """``playout="learned"``: a legal choice from the view alone (R21: twin views, the same
    choice for the same seed), the same for a seed, and checked options."""
    first, second = _twin_rounds()
    view_a, view_b = first.view(0), second.view(0)
    for seed in (1, 2):
        a = bots.create("expert", seed, playout="learned", worlds=8).choose(view_a)
        b = bots.create("expert", seed, playout="learned", worlds=8).choose(view_b)
        assert a == b and a in view_a.legal_actions
    bot = ExpertBot(3, playout="learned", worlds=6)
    stats = bot.action_values(view_a)
    assert set(stats) == set(view_a.legal_actions)
    assert all(visits == 6 for visits, _, _ in stats.values())
    again = ExpertBot(3, playout="learned", worlds=6)  # the same worlds
    assert again.choose(view_a) == max(stats, key=lambda a: stats[a][2])
    with pytest.raises(ValueError, match="playout"):
        bots.create("expert", playout="network")
    with pytest.raises(ValueError, match="worlds"):
        bots.create("expert", playout="learned", worlds=0)


def test_learned_playouts_are_the_learned_bot_playing_every_seat() -> None:
    """Each action's playout on the batched rules ends as the engine's round does when the
    ``learned`` bot plays every seat from its own view after that action (R5-R7, R14-R17);
    its value is the seat's credit less the others' mean, weighted over the worlds."""
    learned = bots.create("learned")
    for players in (2, 3, 4):
        rng = random.Random(players)
        worlds = []
        for i in range(3):
            game = Round.new(players, seed=70 + i, leader=0)
            while len(game.legal_actions()) < 2 or game.current_player != 0 or not game.actions:
                game.apply(rng.choice(game.legal_actions()))
            worlds.append(game)
        # The same public position is not needed here: every world is played as it stands.
        for world in worlds:
            actions = world.legal_actions()
            points = playout_points(shipped_network(), [world], [1.0], actions, 0)
            for action, value in zip(actions, points, strict=True):
                game = world.clone()
                game.apply(action)
                while not game.is_over:
                    game.apply(learned.choose(game.view(game.current_player)))
                assert game.outcome is not None
                credits = game.outcome.credits
                expected = credits[0] - sum(credits[1:]) / (players - 1)
                assert value == pytest.approx(expected)
            # To the seat's next choice only: the network's best value there, or the end.
            near = playout_points(shipped_network(), [world], [1.0], actions, 0, horizon=True)
            for action, value in zip(actions, near, strict=True):
                game = world.clone()
                game.apply(action)
                leaf: float | None = None
                while not game.is_over:
                    view = game.view(game.current_player)
                    if view.player == 0 and len(view.legal_actions) > 1:
                        leaf = max(values_of(shipped_network(), view).values())
                        break
                    game.apply(learned.choose(view))
                if leaf is None:
                    assert game.outcome is not None
                    credits = game.outcome.credits
                    leaf = credits[0] - sum(credits[1:]) / (players - 1)
                assert value == pytest.approx(leaf, rel=1e-4, abs=1e-3)
        # Two determinizations of one view share its legal actions: the mean is weighted.
        pair = [worlds[0], ViewSampler(worlds[0].view(0)).sample(rng)]
        actions = pair[0].legal_actions()
        weighted = playout_points(shipped_network(), pair, [3.0, 1.0], actions, 0)
        alone = [playout_points(shipped_network(), [w], [1.0], actions, 0) for w in pair]
        assert weighted == pytest.approx(0.75 * alone[0] + 0.25 * alone[1])
