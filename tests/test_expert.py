"""The expert bot: known right choices, views only (R21), seeds, time budgets, its two levers."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from conftest import DATA
from draw_dominoes import ALL_TILES, DRAW, Place, Round, Tile, ViewSampler, bots
from draw_dominoes.actions import parse_action
from draw_dominoes.bots.endgame import Solver
from draw_dominoes.bots.expert import (
    DEFAULT_EXPLOIT,
    DEFAULT_HEAVY,
    DEFAULT_POOL,
    DEFAULT_SOLVE,
    EXPLORATION,
    HEAVIES,
    PLAYOUTS,
    POOLS,
    SOLVES,
    WORLDS,
    ExpertBot,
    Inference,
)
from draw_dominoes.bots.ismcts import DEFAULT_ITERATIONS, DEFAULT_OPPONENTS, ISMCTSBot
from draw_dominoes.bots.search import match_odds, match_rewards, point_rewards, rewards
from draw_dominoes.view import Outcome, PlayerView, Termination

POSITIONS: list[dict[str, Any]] = json.loads((DATA / "expert_positions.json").read_text())
"""Two-player positions, each with the one action that is best in every deal the seat to
move cannot rule out, by exact solution (tests/make_expert_positions.py finds them):
``domino`` the last tile goes out; ``lacking`` the boneyard is closed and the opponent
has passed on a value; ``no_draw`` a draw is allowed but every deal punishes it."""


def position(case: dict[str, Any]) -> Round:
    game = Round.new(2, seed=case["seed"], leader=case["leader"])
    for text in case["actions"]:
        game.apply(parse_action(text))
    assert game.current_player == case["player"]
    assert [str(a) for a in game.legal_actions()] == case["legal"]
    return game


@pytest.mark.parametrize("case", POSITIONS, ids=lambda c: f"{c['kind']}-seed{c['seed']}")
def test_the_expert_finds_the_known_right_choice(case: dict[str, Any]) -> None:
    """Take the domino (R16), block a value the opponent lacks (R5, R14), and do not draw
    voluntarily (R7) into a round that every deal says is lost by drawing."""
    game = position(case)
    view = game.view(case["player"])
    for seed in range(3):
        choice = ExpertBot(seed).choose(view)
        if case["kind"] == "domino":  # either end, when the last tile fits both
            after = game.clone()
            after.apply(choice)
            assert after.outcome is not None and after.outcome.kind is Termination.DOMINO
        else:
            assert str(choice) == case["best"], seed


def test_the_known_positions_cover_each_kind() -> None:
    kinds = {case["kind"] for case in POSITIONS}
    assert kinds == {"domino", "lacking", "no_draw"}
    assert all(DRAW in position(c).legal_actions() for c in POSITIONS if c["kind"] == "no_draw")


def twin_views(seed: int) -> tuple[PlayerView, PlayerView, Round, Round]:
    """Two rounds that seat 0 cannot tell apart: the same public play and the same hand,
    the opponent's tiles and the boneyard dealt differently."""
    game = Round.new(2, seed=seed)
    rng = random.Random(seed)
    while game.current_player != 0 or len(game.actions) < 6:
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(0)
    other = game.sample_hidden(0, random.Random(seed + 1))
    while other.hand_mask(1) == game.hand_mask(1):
        other = game.sample_hidden(0, random.Random(seed + 7))
    return view, other.view(0), game, other


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_choice_depends_on_the_view_only(seed: int) -> None:
    """R21: hidden tiles that differ make no difference to the bot's choice."""
    view, twin, game, other = twin_views(seed)
    assert view == twin and game.hand_mask(1) != other.hand_mask(1)
    assert ExpertBot(5).choose(view) == ExpertBot(5).choose(twin)


def test_the_same_seed_gives_the_same_choices() -> None:
    game = Round.new(2, seed=11)
    rng = random.Random(3)
    for _ in range(12):
        if game.is_over:
            break
        view = game.view(game.current_player)
        first, second = ExpertBot(9, iterations=300), ExpertBot(9, iterations=300)
        assert first.choose(view) == second.choose(view)
        game.apply(rng.choice(game.legal_actions()))


class FakeClock:
    """A clock that moves on by ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def opening_view() -> PlayerView:
    game = Round.new(2, seed=4)
    return game.view(game.current_player)


def test_a_time_budget_stops_the_search_by_the_clock() -> None:
    """0.1 s on a clock that moves 1 ms a read: the clock is read every 16 iterations,
    so about 100 reads, whatever the machine's speed."""
    clock = FakeClock(0.001)
    bot = ExpertBot(1, time_per_move=0.1, clock=clock, playout="greedy")
    bot.choose(opening_view())
    assert 95 * 16 <= bot.last_iterations <= 101 * 16
    assert clock.reads <= 102


def test_a_time_cap_keeps_the_default_iterations_when_time_is_plenty() -> None:
    slow = ExpertBot(1, max_seconds=1.0, clock=FakeClock(0.2), playout="greedy")
    fast = ExpertBot(1, max_seconds=1.0, clock=FakeClock(1e-9), playout="greedy")
    view = opening_view()
    slow.choose(view)
    fast.choose(view)
    assert slow.last_iterations == 5 * 16  # the cap reached first
    assert fast.last_iterations == 1200  # the default reached first (two players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_expert_searches_as_ismcts_does_at_every_table_size(players: int) -> None:
    """The same iterations and opponent mode as ``ismcts`` by default at every size; the
    lower exploration only with the match-aware rewards (two players), which are smaller."""
    expert = ExpertBot(1).settings_at(players)
    ismcts = ISMCTSBot(1).options.settings_at(players)
    assert expert["iterations"] == ismcts["iterations"] == DEFAULT_ITERATIONS[players]
    assert expert["opponents"] == ismcts["opponents"] == DEFAULT_OPPONENTS[players]
    assert expert["exploration"] == (EXPLORATION if players == 2 else ismcts["exploration"])
    assert expert["pool"] == POOLS[players]
    assert expert["solve"] == SOLVES[players] == (DEFAULT_SOLVE if players == 2 else 0)
    assert expert["heavy"] == HEAVIES[players] == (0.1 if players == 3 else DEFAULT_HEAVY)
    assert POOLS[2] == DEFAULT_POOL and POOLS[players] >= DEFAULT_POOL
    game = Round.new(players, seed=3)
    bot = ExpertBot(1, playout="greedy")
    bot.choose(game.view(game.current_player))
    assert bot.last_iterations == DEFAULT_ITERATIONS[players]
    # By default two players get the learned playouts instead: every action in every world.
    view = game.view(game.current_player)
    default = ExpertBot(1)
    default.choose(view)
    played_out = PLAYOUTS[players] == "learned"
    assert played_out == (players == 2)
    expected = WORLDS * len(view.legal_actions) if played_out else DEFAULT_ITERATIONS[players]
    assert default.last_iterations == expected


def test_the_expert_keeps_the_settings_it_is_given() -> None:
    given = ExpertBot(
        1, exploration=0.4, pool=64, solve=6, heavy=0.5, iterations=300, opponents="search"
    )
    settings = given.settings_at(4)
    assert (settings["exploration"], settings["pool"], settings["solve"]) == (0.4, 64, 6)
    assert given.settings_at(3)["heavy"] == settings["heavy"] == 0.5
    assert (settings["iterations"], settings["opponents"]) == (300, "search")
    # With the round rewards the two-player exploration is ismcts's, as at larger tables.
    assert ExpertBot(1, reward="round").settings_at(2)["exploration"] == 0.7
    with pytest.raises(ValueError):
        ExpertBot(1, pool=0)


@pytest.mark.parametrize(("name", "per_read"), [("ismcts", 16), ("pimc", 1), ("expert", 16)])
def test_every_search_bot_takes_a_time_budget_and_a_cap(name: str, per_read: int) -> None:
    """On a clock that moves 10 ms a read, 0.1 s is about ten reads, on any machine: the
    search bots read it every ``per_read`` iterations."""
    view = opening_view()
    for option in ("time_per_move", "max_seconds"):
        tree = {"playout": "greedy"} if name == "expert" else {}  # no tree, no clock
        bot: Any = bots.create(name, 1, clock=FakeClock(0.01), **{option: 0.1}, **tree)
        bot.choose(view)
        assert per_read <= bot.last_iterations <= 11 * per_read, option
    play = bots.create_for_play(name, 1)
    assert play.choose(view) in view.legal_actions


def test_people_never_wait_more_than_the_play_budget() -> None:
    """The terminal and the web app create bots with ``create_for_play``."""
    clock = FakeClock(0.05)
    bot = ExpertBot(1, max_seconds=bots.PLAY_SECONDS, clock=clock)
    bot.choose(opening_view())
    assert clock.now <= bots.PLAY_SECONDS + 0.05 * 2
    assert bots.PLAY_SECONDS <= 1.0


# ---------------------------------------------------------------- the levers


def brute_force(game: Round, seat_scores: tuple[int, ...], target: int) -> list[float]:
    """Max-n without a table or cut-offs, to check the solver against."""
    if game.is_over:
        assert game.outcome is not None
        return rewards(game.outcome, seat_scores, target)
    seat = game.current_player
    best: list[float] | None = None
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        values = brute_force(child, seat_scores, target)
        if best is None or values[seat] > best[seat]:
            best = values
    assert best is not None
    return best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_solver_agrees_with_plain_max_n(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(40):
        game = Round.new(players, seed=seed)
        while not game.is_over and (game.drawable or sum(game.hand_sizes) > 9):
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        scores = (40,) + (0,) * (players - 1)
        solver = Solver(scores, game.target, 9)
        assert solver.value(game) == brute_force(game, scores, game.target)
        checked += 1
    assert checked >= 10


def test_the_solver_declines_what_it_cannot_solve_cheaply() -> None:
    game = Round.new(2, seed=1)
    assert Solver((0, 0), 100, 28).value(game) is None  # the boneyard is open
    assert Solver((0, 0), 100, 13, drawable=12).value(game) is None  # 14 tiles in hands


def test_inference_doubts_a_draw_by_a_seat_that_held_a_fitting_tile() -> None:
    """R7 allows drawing with a playable tile; players rarely do, so such deals weigh less."""
    game = Round.new(2, seed=8, leader=0)
    game.apply(game.legal_actions()[0])  # seat 0 opens
    game.apply(DRAW)  # seat 1 draws once (and is still to move)
    view = game.view(0)
    inference = Inference(view)
    ends = game.end_values
    fitting = [t for t in ALL_TILES if ends[0] in (t.low, t.high) or ends[1] in (t.low, t.high)]
    worlds = [game.sample_hidden(0, random.Random(i)) for i in range(300)]
    # It drew one tile: one fitting tile in its hand now may be that one, two may not.
    held = [w for w in worlds if sum(1 for t in w.hand(1) if t in fitting) >= 2]
    clean = [w for w in worlds if sum(1 for t in w.hand(1) if t in fitting) <= 1]
    assert held and clean
    clean_weights = {inference.weight(w) for w in clean}
    assert len(clean_weights) == 1
    assert max(inference.weight(w) for w in held) < min(clean_weights) / 3
    # It may be a random player (prior 5%), whose draws say nothing: no world is ruled
    # out, each keeps at least 5% of a third.
    assert min(inference.weight(w) for w in held) >= 0.05 / 3


def test_inference_doubts_a_light_placement_beside_a_heavy_one() -> None:
    """A seat that placed a light tile probably held no heavier one: the heavier the
    heaviest tile a world gives it, the less that world weighs."""
    hands = [
        ["[0|0]", "[0|1]", "[1|1]", "[1|2]", "[2|2]", "[0|2]", "[1|3]"],
        ["[0|3]", "[2|3]", "[3|3]", "[0|4]", "[1|4]", "[2|4]", "[3|4]"],
    ]
    dealt = {t for hand in hands for t in hand}
    game = Round.from_deal(hands, [str(t) for t in ALL_TILES if str(t) not in dealt], 1)
    game.apply(Place(Tile.parse("[0|3]"), None))  # seat 1 opens light although it holds [3|4]
    inference = Inference(game.view(0))
    worlds = [game.sample_hidden(0, random.Random(i)) for i in range(400)]
    by_heaviest: dict[int, set[float]] = {}
    for world in worlds:
        heaviest = max(t.pips for t in world.hand(1))
        by_heaviest.setdefault(heaviest, set()).add(inference.weight(world))
    assert all(len(weights) == 1 for weights in by_heaviest.values())  # the heaviest decides
    ordered = [next(iter(by_heaviest[h])) for h in sorted(by_heaviest)]
    assert len(ordered) >= 4 and ordered == sorted(set(ordered), reverse=True)
    true_world = inference.weight(game)  # it really held [3|4]: 7 pips against 3
    assert ordered[-1] < true_world <= ordered[0]


def test_heavy_sets_how_much_a_light_placement_is_doubted() -> None:
    """``heavy`` is the model's fall in odds a pip: at 0 a light placement says nothing,
    and the lower it is, the less a world with a heavier fitting tile loses."""
    hands = [
        ["[0|0]", "[0|1]", "[1|1]", "[1|2]", "[2|2]", "[0|2]", "[1|3]"],
        ["[0|3]", "[2|3]", "[3|3]", "[0|4]", "[1|4]", "[2|4]", "[3|4]"],
    ]
    dealt = {t for hand in hands for t in hand}
    game = Round.from_deal(hands, [str(t) for t in ALL_TILES if str(t) not in dealt], 1)
    game.apply(Place(Tile.parse("[0|3]"), None))
    worlds = [game.sample_hidden(0, random.Random(i)) for i in range(200)]
    view = game.view(0)
    by_heavy = [[Inference(view, heavy=h).weight(w) for w in worlds] for h in (0.0, 0.1, 1.0)]
    assert len(set(by_heavy[0])) == 1
    for world, none, some, much in zip(worlds, *by_heavy, strict=True):
        if max(t.pips for t in world.hand(1)) > 3:  # it could have opened heavier
            assert none > some > much
    # the search samples its determinizations by these weights: the same seed, another
    # heavy, other deals searched
    searched = [ExpertBot(3, heavy=h, iterations=200).action_values(view) for h in (0.0, 0.0, 0.3)]
    assert searched[0] == searched[1] != searched[2]


def test_inference_reads_the_view_only() -> None:
    """R21: two rounds that seat 0 cannot tell apart give the same weights to every world."""
    view, twin, game, _ = twin_views(4)
    worlds = [game.sample_hidden(0, random.Random(i)) for i in range(50)]
    assert [Inference(view).weight(w) for w in worlds] == [
        Inference(twin).weight(w) for w in worlds
    ]


def test_options_are_checked() -> None:
    for options in (
        {"solve": -1},
        {"inference": "yes"},
        {"heavy": -0.5},
        {"heavy": True},
        {"iterations": 0},
        {"depth": 3},
    ):
        with pytest.raises(ValueError):
            ExpertBot(0, **options)
    assert isinstance(bots.create("expert", 0, solve=0, inference=0), ExpertBot)


def test_match_odds_are_fair_and_rise_with_the_score() -> None:
    """R20: first to the target wins; between equal players the odds are symmetric."""
    odds = match_odds(100)
    assert math.isclose(odds[0][0], 0.5)
    for a, b in ((10, 40), (70, 95), (99, 0)):
        assert math.isclose(odds[a][b] + odds[b][a], 1.0)
    assert all(odds[a][30] <= odds[a + 1][30] for a in range(99))
    assert odds[100][99] == 1.0 and odds[99][100] == 0.0


def test_match_rewards_weigh_a_round_by_what_it_does_to_the_match() -> None:
    """A round that wins the match is worth 1, and points past that are worth nothing."""

    def won(points: int, scores: tuple[int, int]) -> list[float]:
        outcome = Outcome(Termination.DOMINO, 0, points, (0, points))
        return match_rewards(outcome, scores, 100)

    assert won(30, (80, 90)) == [1.0, -1.0]  # 80 + 30 wins the match
    assert won(20, (80, 90)) == won(45, (80, 90))  # both finish it
    assert 0 < won(10, (0, 0))[0] < won(20, (0, 0))[0] < won(45, (0, 0))[0] < 1.0
    assert sum(won(10, (20, 50))) == 0.0  # zero-sum, as the solver's minimax needs
    tie = Outcome(Termination.BLOCKED, None, 0, (10, 10))
    assert match_rewards(tie, (0, 0), 100) == [0.0, 0.0]  # R17: nobody scores


def last_view(opponent: str, seed: int) -> PlayerView:
    """Seat 0's view at its last choice of a round that ``greedy`` plays against ``opponent``."""
    game = Round.new(2, seed=seed, leader=1)
    seats = [bots.create("greedy"), bots.create(opponent, seed)]
    view = None
    while not game.is_over:
        player = game.current_player
        if player == 0 and len(game.legal_actions()) > 1:
            view = game.view(0)
        game.apply(seats[player].choose(game.view(player)))
    assert view is not None
    return view


def random_odds(view: PlayerView) -> float:
    sampler = ViewSampler(view)
    rng = random.Random(0)
    return Inference(view).random_odds([sampler.sample(rng) for _ in range(256)])[1]


def test_a_seat_that_plays_at_random_is_told_from_one_that_plays_by_the_model() -> None:
    """Its draws with a fitting tile and its light placements fit a random player better
    than the model, so late in a round it is mostly taken for one; sensible bots are not."""
    at_random = [random_odds(last_view("random", seed)) for seed in range(10)]
    greedy = [random_odds(last_view("greedy", seed)) for seed in range(10)]
    heuristic = [random_odds(last_view("heuristic", seed)) for seed in range(10)]
    assert sum(odds > 0.5 for odds in at_random) >= 6
    assert max(greedy) < 0.2
    assert sum(odds > 0.5 for odds in heuristic) <= 1
    assert all(0 <= odds <= 1 for odds in at_random + greedy + heuristic)


def test_a_seat_taken_for_a_random_player_is_searched_as_one() -> None:
    """``exploit`` is the odds above which it is: 1 never (the default), 0 always (every
    seat then plays uniformly in the tree and the playouts, and its choices no longer
    weight the deals)."""
    view = last_view("random", 3)
    assert random_odds(view) > 0.5
    exploiting = ExpertBot(2, iterations=300, exploit=0.5, playout="greedy")
    exploiting.choose(view)
    assert exploiting.last_random == frozenset({1})
    assert DEFAULT_EXPLOIT == 1
    never = ExpertBot(2, iterations=300, playout="greedy")
    values = never.action_values(view)
    assert never.last_random == frozenset()
    always = ExpertBot(2, iterations=300, exploit=0, playout="greedy")
    assert always.action_values(view) != values
    assert always.last_random == frozenset({1})
    quiet = last_view("greedy", 3)
    exploiting.choose(quiet)
    assert exploiting.last_random == frozenset()
    for bad in (-0.1, 1.5, "high", True):
        with pytest.raises(ValueError, match="exploit must be a probability"):
            ExpertBot(0, exploit=bad)


def test_point_rewards_count_the_round_alone() -> None:
    """``reward=points``: a round is worth its points (over 100, at most 1) whatever the match."""
    won = Outcome(Termination.DOMINO, 1, 40, (25, 0, 15))
    assert point_rewards(won, (0, 0, 0), 61) == point_rewards(won, (50, 55, 0), 61)
    assert point_rewards(won, (0, 0, 0), 61) == pytest.approx([-0.2, 0.4, -0.2])
    big = Outcome(Termination.DOMINO, 0, 130, (0, 130))
    assert point_rewards(big, (0, 0), 100) == [1.0, -1.0]
    tie = Outcome(Termination.BLOCKED, None, 0, (5, 5))
    assert point_rewards(tie, (0, 0), 100) == [0.0, 0.0]
    assert isinstance(ExpertBot(0, reward="points"), ExpertBot)
