"""Bots: legal choices only, views only (R21), seeded, options checked, ISMCTS within its budget."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import pytest

from draw_dominoes import (
    Draw,
    Match,
    Pass,
    Place,
    Round,
    Tile,
    ViewSampler,
    bots,
    sample_from_view,
)
from draw_dominoes.bots.search import play_out, rewards

# Small searches keep the tests fast; strength is measured by the tournament, not here.
FAST = {"ismcts": {"iterations": 30}, "pimc": {"iterations": 3}, "omniscient": {"iterations": 30}}


def make(name: str, seed: int = 0) -> bots.Bot:
    return bots.create(name, seed, **FAST.get(name, {}))


def choose(bot: bots.Bot, game: Round) -> object:
    if getattr(bot, "needs_round", False):
        return bot.choose_with_round(game)  # type: ignore[attr-defined]
    return bot.choose(game.view(game.current_player))


def test_every_level_has_a_bot_a_name_and_a_description_in_every_language() -> None:
    """``bots.LEVELS`` is the one mapping; the docs table repeats the English words."""
    from draw_dominoes.i18n import LANGUAGES, translate

    docs = (Path(__file__).parent.parent / "docs" / "bots.md").read_text()
    assert list(bots.LEVELS) == ["beginner", "easy", "medium", "strong", "expert"]
    for level, bot in bots.LEVELS.items():
        assert bot in bots.OFFERED and bots.resolve(level) == bot
        assert bots.create(level, seed=1).name == bot
        for lang in LANGUAGES:
            assert translate(f"common.level_{level}", lang)
            assert translate(f"common.level_{level}_about", lang)
        about = translate(f"common.level_{level}_about", "en")
        assert f"| {level} | `{bot}` | {about} |" in docs
    with pytest.raises(ValueError, match=r"choose a level \(beginner, .*\) or a bot \(random, "):
        bots.create("grandmaster")


def test_registry_lists_every_bot_and_hides_the_omniscient_one() -> None:
    for name in ("random", "greedy", "heuristic", "pimc", "ismcts", "omniscient"):
        assert name in bots.NAMES
    assert "omniscient" not in bots.OFFERED
    assert {"random", "greedy", "heuristic", "pimc", "ismcts"} <= set(bots.OFFERED)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "name", ["random", "greedy", "heuristic", "pimc", "ismcts", "omniscient", "learned"]
)
def test_every_choice_is_legal_through_whole_rounds(name: str, players: int) -> None:
    """R5–R7: in every position (openings, draws, passes, blocks) the bot picks a legal action."""
    rng = random.Random(players)
    for number in range(2):
        game = Round.new(players, seed=100 * players + number)
        seat_bots = [make(name, seed) for seed in range(players)]
        while not game.is_over:
            seat = game.current_player
            if seat == 0:
                action = choose(seat_bots[seat], game)
                assert action in game.legal_actions()
            else:
                action = rng.choice(game.legal_actions())
            game.apply(action)  # type: ignore[arg-type]


def _twin_rounds() -> tuple[Round, Round]:
    """Two rounds with the same public history and seat 0's hand, but other hidden tiles (R21)."""
    mine = ["[0|0]", "[0|1]", "[1|1]", "[2|6]", "[3|4]", "[5|5]", "[0|6]"]
    others = [
        str(t) for t in _all_tiles() if str(t) not in mine and str(t) not in ("[1|6]", "[6|6]")
    ]
    # Seat 1 holds [1|6] and [6|6] in both deals; its other five tiles and the boneyard differ.
    rng_a, rng_b = random.Random(1), random.Random(2)
    shuffled_a, shuffled_b = others[:], others[:]
    rng_a.shuffle(shuffled_a)
    rng_b.shuffle(shuffled_b)
    rounds = []
    for shuffled in (shuffled_a, shuffled_b):
        hand1 = ["[1|6]", "[6|6]", *shuffled[:5]]
        rounds.append(Round.from_deal([mine, hand1], shuffled[5:], leader=0))
    for game in rounds:
        for action in ("[2|6]", "draw", "draw", "[6|6]@1"):
            game.apply(_parse(action))
    return rounds[0], rounds[1]


def _all_tiles() -> list[Tile]:
    from draw_dominoes import ALL_TILES

    return list(ALL_TILES)


def _parse(text: str) -> Draw | Pass | Place:
    from draw_dominoes import parse_action

    return parse_action(text)


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "pimc", "ismcts", "learned"])
def test_bots_see_only_the_view_and_choose_alike_when_only_hidden_tiles_differ(name: str) -> None:
    """R21: two views that differ only in hidden tiles are equal, and so is the choice."""
    first, second = _twin_rounds()
    assert first.hand(1) != second.hand(1) and first.boneyard != second.boneyard
    assert first.current_player == second.current_player == 0
    view_a, view_b = first.view(0), second.view(0)
    assert view_a == view_b
    for seed in range(3):
        assert make(name, seed).choose(view_a) == make(name, seed).choose(view_b)


def test_search_bots_are_reproducible_by_seed() -> None:
    game = Round.new(3, seed=4, leader=0)
    view = game.view(0)
    for name in ("pimc", "ismcts"):
        choices = {str(make(name, 7).choose(view)) for _ in range(3)}
        assert len(choices) == 1


def test_bots_refuse_to_move_out_of_turn() -> None:
    game = Round.new(2, seed=3, leader=0)
    for name in ("random", "greedy", "heuristic", "pimc", "ismcts", "learned"):
        with pytest.raises(ValueError, match="turn"):
            make(name).choose(game.view(1))


def test_omniscient_needs_the_round_and_plays_from_it() -> None:
    game = Round.new(2, seed=9, leader=0)
    bot = make("omniscient")
    with pytest.raises(TypeError, match="choose_with_round"):
        bot.choose(game.view(0))
    assert bot.choose_with_round(game) in game.legal_actions()  # type: ignore[attr-defined]


def test_bad_options_are_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no option depth"):
        bots.create("ismcts", depth=3)
    with pytest.raises(ValueError, match="iterations must be a positive whole number"):
        bots.create("ismcts", iterations=0)
    with pytest.raises(ValueError, match="time_per_move"):
        bots.create("pimc", time_per_move=-1)
    with pytest.raises(ValueError, match="no option iterations"):
        bots.create("heuristic", iterations=5)
    with pytest.raises(ValueError, match="opponents must be 'search' or 'model'"):
        bots.create("ismcts", opponents="minimax")
    with pytest.raises(ValueError, match="unknown bot"):
        bots.create("deep-blue")


def test_ismcts_runs_exactly_its_iterations() -> None:
    bot = bots.create("ismcts", 1, iterations=57)
    bot.choose(Round.new(2, seed=1, leader=0).view(0))
    assert bot.last_iterations == 57  # type: ignore[attr-defined]


def test_ismcts_respects_its_time_budget() -> None:
    """With an iteration limit it never reaches, the clock stops the search: a clock that
    moves one second per look ends a 5-second search after the fifth look."""
    from draw_dominoes.bots.ismcts import _CLOCK_EVERY, search

    ticks = iter(range(10**6))
    game = Round.new(4, seed=2, leader=0)
    view = game.view(0)
    rng = random.Random(1)
    _, iterations = search(
        lambda: sample_from_view(view, rng),
        rng,
        iterations=10**9,
        time_per_move=5.0,
        clock=lambda: float(next(ticks)),
    )
    assert iterations == 5 * _CLOCK_EVERY
    # and through the bot's own options, with the real clock
    bot = bots.create("ismcts", 1, iterations=10**9, time_per_move=0.05)
    bot.choose(view)
    assert 0 < bot.last_iterations < 10**9  # type: ignore[attr-defined]


class _WatchedRound(Round):
    """A real round that notes every action applied to it, with the seat and its choices."""

    __slots__ = ()
    log: ClassVar[list[tuple[int, list[Any], object]]] = []

    def apply(self, action: object) -> None:  # type: ignore[override]
        _WatchedRound.log.append((self.current_player, self.legal_actions(), action))
        super().apply(action)  # type: ignore[arg-type]


@pytest.mark.parametrize("opponents", ["search", "model"])
def test_modelled_opponents_move_as_the_playouts_do(opponents: str) -> None:
    """``opponents="model"``: in the tree as in the playouts (epsilon 0), every other seat
    plays greedy's choice; ``search`` lets them try other moves, so the check tells them apart."""
    from draw_dominoes.bots.ismcts import search
    from draw_dominoes.bots.search import GREEDY_KEY

    game = Round.new(3, seed=8, leader=0)
    view = game.view(0)
    sampler = ViewSampler(view)
    rng = random.Random(3)

    def determinize() -> Round:
        world = sampler.sample(rng)
        world.__class__ = _WatchedRound
        return world

    _WatchedRound.log = []
    action, iterations = search(
        determinize, rng, iterations=300, time_per_move=None, epsilon=0.0, opponents=opponents
    )
    assert action in game.legal_actions() and iterations == 300
    others = [(legal, chosen) for seat, legal, chosen in _WatchedRound.log if seat != 0]
    assert len(others) > 1000
    greedy = [chosen == max(legal, key=GREEDY_KEY.__getitem__) for legal, chosen in others]
    assert all(greedy) if opponents == "model" else not all(greedy)


def test_ismcts_defaults_depend_on_the_table_size() -> None:
    """Two players: 1200 iterations searching the opponent's replies; three or four: 2000
    iterations with modelled opponents (measured stronger there, see the README)."""
    from draw_dominoes.bots.ismcts import DEFAULT_ITERATIONS, DEFAULT_OPPONENTS

    assert DEFAULT_ITERATIONS == {2: 1200, 3: 2000, 4: 2000}
    assert DEFAULT_OPPONENTS == {2: "search", 3: "model", 4: "model"}
    for players in (2, 3, 4):
        game = Round.new(players, seed=6, leader=0)
        bot = bots.create("ismcts", 1)
        bot.choose(game.view(0))
        assert bot.last_iterations == DEFAULT_ITERATIONS[players]  # type: ignore[attr-defined]
    # an explicit choice wins over the default
    explicit = bots.create("ismcts", 1, iterations=50, opponents="search")
    explicit.choose(Round.new(4, seed=6, leader=0).view(0))
    assert explicit.last_iterations == 50  # type: ignore[attr-defined]


def test_forced_moves_need_no_search() -> None:
    """R5: with only one legal action (e.g. a pass), the search bots return it at once."""
    game = Round.from_deal(
        [
            ["[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]"],
            ["[1|1]", "[1|2]", "[1|3]", "[1|4]", "[1|5]", "[1|6]", "[2|2]"],
        ],
        [str(t) for t in _all_tiles()[14:]],
        leader=0,
    )
    game.apply(_parse("[0|0]"))
    for _ in range(12):
        game.apply(Draw())
    assert game.legal_actions() == [Pass()]
    for name in ("pimc", "ismcts"):
        bot = make(name)
        assert bot.choose(game.view(1)) == Pass()
        assert bot.last_iterations == 0  # type: ignore[attr-defined]


def test_greedy_places_its_heaviest_tile_and_draws_only_when_it_must() -> None:
    game = Round.new(2, seed=5, leader=0)
    view = game.view(0)
    heaviest = max(view.hand, key=lambda t: (t.pips, t.index))
    assert bots.create("greedy").choose(view) == Place(heaviest, None)


def test_heuristic_blocks_a_value_the_opponent_is_known_to_lack() -> None:
    """R5: seat 1 passed on a 2, so keeping a 2 at an end blocks it; greedy does not care."""
    game = Round.new(2, seed=250, leader=1)
    moves = (
        "[5|6] draw [4|5]@0 draw [1|4]@0 draw [0|1]@0 draw [0|5]@0 [6|6]@1 [1|6]@1"
        " draw draw draw draw draw draw draw [1|3]@1 [5|5]@0 [3|3]@1 [0|3]@1 [0|4]@1"
        " [4|6]@1 [3|6]@1 [2|5]@0 [2|3]@1 draw pass [1|2]@1 [1|5]@1"
    )
    for text in moves.split():
        game.apply(_parse(text))
    view = game.view(0)
    assert view.lacking[1] == {2} and view.line.end_values == (2, 5)
    assert bots.create("greedy").choose(view) == _parse("[2|6]@0")
    assert bots.create("heuristic").choose(view) == _parse("[2|2]@0")


def test_play_out_finishes_the_round_and_rewards_follow_the_match() -> None:
    game = Round.new(3, seed=8)
    outcome = play_out(game.clone(), random.Random(1))
    assert outcome.kind in ("domino", "blocked")
    values = rewards(outcome, (0, 0, 0), 61)
    if outcome.winner is None:
        assert values == [0.0, 0.0, 0.0]
    else:
        assert values[outcome.winner] > 0 and sum(v < 0 for v in values) == 2
        # A round that wins the match (R20) is worth the most.
        assert (
            rewards(outcome, (60, 0, 0) if outcome.winner == 0 else (0, 60, 60), 61)[outcome.winner]
            == 1.0
        )


def test_bots_play_whole_matches_through_views() -> None:
    match = Match.new(2, seed=3)
    players = [make("ismcts", 1), make("heuristic", 2)]
    while not match.is_over:
        seat = match.current_player
        match.apply(players[seat].choose(match.view(seat)))  # type: ignore[arg-type]
    assert max(match.scores) >= 100


def test_omniscient_seeing_hands_only_ignores_the_boneyard_order() -> None:
    """``sees=hands`` searches the true hands with the boneyard shuffled: two rounds that
    differ only in the boneyard's order get the same choice from the same seed."""
    game = Round.new(2, seed=11, leader=0)
    hands, boneyard = game.deal
    reordered = Round.from_deal(hands, list(reversed(boneyard)), 0)
    for round_ in (game, reordered):
        for _ in range(3):  # placements only, so that the hands stay the same
            round_.apply(next(a for a in round_.legal_actions() if isinstance(a, Place)))
    assert game.hand_sizes == reordered.hand_sizes == (5, 6)
    assert game.boneyard != reordered.boneyard
    choices = [
        bots.create("omniscient", 5, sees="hands", iterations=300).choose_with_round(r)  # type: ignore[attr-defined]
        for r in (game, reordered)
    ]
    assert choices[0] == choices[1]
    with pytest.raises(ValueError, match="sees must be 'all' or 'hands'"):
        bots.create("omniscient", sees="boneyard")
