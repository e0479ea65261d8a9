"""Ratings of rated matches: Glicko-2 against the worked example of Glickman's paper and
its properties over many ratings and results; matches of two to four seats rated by pairs;
the bot levels' fixed ratings."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from draw_dominoes import bots
from draw_dominoes.web.ratings import (
    LEVEL_RATINGS,
    MAX_DEVIATION,
    PROVISIONAL_DEVIATION,
    Rating,
    display,
    expected_score,
    pair_scores,
    provisional,
    rate_match,
    update,
)
from draw_dominoes.web.ratings.glicko2 import SCALE, _volatility


def same(a: Rating, b: Rating) -> bool:
    """Equal but for the rounding of sums taken in another order."""
    return (
        math.isclose(a.rating, b.rating, rel_tol=1e-9)
        and math.isclose(a.deviation, b.deviation, rel_tol=1e-9)
        and math.isclose(a.volatility, b.volatility, rel_tol=1e-9)
    )


# ------------------------------------------------------------------ the paper's example

PLAYER = Rating(1500, 200, 0.06)
GAMES = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_papers_worked_example() -> None:
    """The paper prints r' = 1464.06, RD' = 151.52 and σ' = 0.05999. It rounds every
    intermediate value to four places (its μ' = -0.2069 gives 1464.06); the exact
    arithmetic gives 1464.05, so each figure is checked to one unit of its last digit."""
    after = update(PLAYER, GAMES, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_values_on_the_glicko2_scale() -> None:
    """Step 8's μ' and φ' and step 5's σ' from the paper's v and Δ, to its four places."""
    after = update(PLAYER, GAMES, tau=0.5)
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert _volatility(delta=-0.4834, phi=1.1513, v=1.7785, sigma=0.06, tau=0.5) == (
        pytest.approx(0.05999, abs=0.00001)
    )


def test_the_example_does_not_depend_on_the_order_of_the_games() -> None:
    assert same(update(PLAYER, GAMES[::-1]), update(PLAYER, GAMES))


def test_with_no_games_only_the_deviation_grows() -> None:
    """Step 6 alone: φ* = √(φ² + σ²); rating and volatility stay."""
    after = update(PLAYER, [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.deviation == pytest.approx(SCALE * math.hypot(200 / SCALE, 0.06))


def test_a_deviation_never_grows_past_a_newcomers() -> None:
    assert update(Rating(), []) == Rating()
    assert update(Rating(1700, 349.9, 0.2), []).deviation == MAX_DEVIATION


def test_a_newcomer_is_rated_1500_with_deviation_350() -> None:
    assert Rating() == Rating(1500.0, 350.0, 0.06)


def test_expected_score_is_steps_e() -> None:
    assert expected_score(Rating(1500), Rating(1500, 30)) == 0.5
    # 400 points apart with no deviation: Elo's 10 to 1.
    assert expected_score(Rating(1900), Rating(1500, 1e-9)) == pytest.approx(10 / 11)
    # The opponent's deviation pulls the expectation towards a half.
    assert 0.5 < expected_score(Rating(1900), Rating(1500, 350)) < 10 / 11


@pytest.mark.parametrize(
    ("rating", "deviation", "volatility"),
    [(math.nan, 350, 0.06), (1500, 0, 0.06), (1500, -1, 0.06), (1500, 350, 0), (math.inf, 1, 1)],
)
def test_a_rating_refuses_values_that_would_spread(
    rating: float, deviation: float, volatility: float
) -> None:
    with pytest.raises(ValueError):
        Rating(rating, deviation, volatility)


def test_scores_and_tau_are_checked() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(Rating(), [(Rating(), 2.0)])
    with pytest.raises(ValueError, match="tau"):
        update(Rating(), [(Rating(), 1.0)], tau=0)


# ------------------------------------------------------------------ properties

ratings = st.builds(
    Rating,
    rating=st.floats(0, 3000),
    deviation=st.floats(30, 350),
    volatility=st.floats(0.01, 0.2),
)
scores = st.sampled_from([0.0, 0.5, 1.0])
periods = st.lists(st.tuples(ratings, scores), max_size=12)


@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(
    player: Rating, opponent: Rating
) -> None:
    assert update(player, [(opponent, 1.0)]).rating >= player.rating
    assert update(player, [(opponent, 0.0)]).rating <= player.rating


@given(ratings, st.lists(ratings, min_size=1, max_size=12))
def test_winning_every_game_raises_a_rating_and_losing_every_game_lowers_it(
    player: Rating, opponents: list[Rating]
) -> None:
    assert update(player, [(o, 1.0) for o in opponents]).rating > player.rating
    assert update(player, [(o, 0.0) for o in opponents]).rating < player.rating


@given(ratings, periods)
def test_a_deviation_never_exceeds_350_and_every_value_stays_valid(
    player: Rating, results: list[tuple[Rating, float]]
) -> None:
    after = update(player, results)  # Rating refuses a value that is not finite
    assert after.deviation <= MAX_DEVIATION


@given(ratings, periods, st.randoms(use_true_random=False))
def test_the_order_of_a_periods_games_does_not_matter(
    player: Rating, results: list[tuple[Rating, float]], rng: random.Random
) -> None:
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert same(update(player, shuffled), update(player, results))


def test_a_surprise_raises_the_volatility_and_no_surprise_lowers_it() -> None:
    """Step 5: σ grows when the results stray further from the rating than its deviation
    and the games' variance allow (Δ² > φ² + v), and shrinks otherwise."""
    settled = Rating(1500, 50, 0.06)
    upset = update(settled, [(Rating(1100, 30), 0.0)] * 10)
    assert upset.volatility > 0.06
    calm = update(settled, [(Rating(1500, 30), 0.5)] * 10)
    assert calm.volatility < 0.06 and calm.deviation < settled.deviation


@given(st.floats(0, 3000), st.floats(30, 350), st.floats(0.01, 0.2))
def test_between_equals_a_win_gains_what_a_loss_loses(
    rating: float, deviation: float, volatility: float
) -> None:
    """Two players rated alike: the winner's gain is the loser's loss, and a draw moves neither."""
    player = Rating(rating, deviation, volatility)
    won = update(player, [(player, 1.0)]).rating - rating
    lost = update(player, [(player, 0.0)]).rating - rating
    assert won == pytest.approx(-lost, abs=1e-6)
    assert update(player, [(player, 0.5)]).rating == pytest.approx(rating, abs=1e-6)


# ------------------------------------------------------------------ matches rated by pairs


def test_two_seats_are_one_game() -> None:
    anna, ben = Rating(1600, 120, 0.06), Rating(1450, 200, 0.07)
    after = rate_match([anna, ben], [104, 61], fixed=[False, False])
    assert after == (update(anna, [(ben, 1.0)]), update(ben, [(anna, 0.0)]))
    assert after[0].rating > anna.rating and after[1].rating < ben.rating


def test_three_seats_each_play_the_other_two() -> None:
    """Second of three beat one seat and lost to the other, each as rated before the match."""
    a, b, c = Rating(1500, 100), Rating(1520, 150), Rating(1480, 80)
    after = rate_match([a, b, c], [40, 63, 12], fixed=[False] * 3)
    assert after[0] == update(a, [(b, 0.0), (c, 1.0)])
    assert after[1] == update(b, [(a, 1.0), (c, 1.0)])
    assert after[2] == update(c, [(a, 0.0), (b, 0.0)])


def test_four_seats_rated_alike_move_in_the_order_they_finished() -> None:
    after = rate_match([Rating()] * 4, [20, 61, 45, 3], fixed=[False] * 4)
    ranked = sorted(range(4), key=lambda seat: after[seat].rating)
    assert ranked == [3, 0, 2, 1]
    assert after[1].rating - 1500 == pytest.approx(1500 - after[3].rating)
    assert after[0].rating - 1500 == pytest.approx(1500 - after[2].rating)


def test_equal_scores_are_a_draw() -> None:
    assert pair_scores([61, 61, 30]) == ((0.5, 0.5, 1.0), (0.5, 0.5, 1.0), (0.0, 0.0, 0.5))
    even = Rating(1500, 200)
    after = rate_match([even, even], [100, 100], fixed=[False, False])
    assert after[0].rating == pytest.approx(1500) and after[0].deviation < 200
    assert after[0] == after[1]


def test_a_resigned_seat_loses_every_pair_whatever_its_score() -> None:
    assert pair_scores([90, 20, 5], resigned=[True, False, False]) == (
        (0.5, 0.0, 0.0),
        (1.0, 0.5, 1.0),
        (1.0, 0.0, 0.5),
    )
    # Two that resigned both finished last: a draw between them.
    assert pair_scores([90, 20, 5, 0], resigned=[True, False, True, False])[0] == (
        0.5,
        0.0,
        0.5,
        0.0,
    )
    leader, trailer = Rating(1500, 100), Rating(1500, 100)
    after = rate_match([leader, trailer], [95, 10], [False, False], resigned=[True, False])
    assert after[0].rating < 1500 < after[1].rating


def test_fixed_seats_come_back_unchanged_and_rate_the_others() -> None:
    bot = Rating(1800, 40, 0.06)
    person = Rating()
    after = rate_match([bot, person, bot], [30, 61, 50], fixed=[True, False, True])
    assert after[0] is bot and after[2] is bot
    assert after[1] == update(person, [(bot, 1.0), (bot, 1.0)])
    assert rate_match([bot, bot], [0, 100], fixed=[True, True]) == (bot, bot)


@given(
    st.lists(ratings, min_size=2, max_size=4).flatmap(
        lambda seats: st.tuples(
            st.just(seats),
            st.lists(st.integers(0, 120), min_size=len(seats), max_size=len(seats)),
            st.lists(st.booleans(), min_size=len(seats), max_size=len(seats)),
            st.lists(st.booleans(), min_size=len(seats), max_size=len(seats)),
            st.permutations(range(len(seats))),
        )
    )
)
def test_the_order_of_the_seats_changes_nothing(
    match: tuple[list[Rating], list[int], list[bool], list[bool], list[int]],
) -> None:
    seats, points, fixed, resigned, order = match
    after = rate_match(seats, points, fixed, resigned)
    moved = rate_match(
        [seats[i] for i in order],
        [points[i] for i in order],
        [fixed[i] for i in order],
        [resigned[i] for i in order],
    )
    assert all(same(moved[k], after[i]) for k, i in enumerate(order))
    assert all(after[i] == seats[i] for i in range(len(seats)) if fixed[i])


@pytest.mark.parametrize(
    ("seats", "scores", "fixed", "resigned", "message"),
    [
        ([Rating()], [10], [False], (), "2 to 4 seats"),
        ([Rating()] * 5, [1] * 5, [False] * 5, (), "2 to 4 seats"),
        ([Rating()] * 2, [1], [False] * 2, (), "2 scores"),
        ([Rating()] * 2, [1, 2], [False], (), "2 fixed"),
        ([Rating()] * 2, [1, 2], [False] * 2, [True], "resigned"),
    ],
)
def test_a_match_that_does_not_add_up_is_refused(
    seats: list[Rating], scores: list[int], fixed: list[bool], resigned: list[bool], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        rate_match(seats, scores, fixed, resigned)


def test_display_rounds_halves_up() -> None:
    assert display(Rating(1464.05)) == 1464
    assert display(Rating(1464.5)) == 1465
    assert display(Rating(1463.5)) == 1464
    assert display(Rating(-0.5)) == 0


def test_provisional_above_110() -> None:
    assert provisional(Rating())
    assert provisional(Rating(deviation=110.01))
    assert not provisional(Rating(deviation=PROVISIONAL_DEVIATION))
    assert not provisional(Rating(deviation=60))


# ------------------------------------------------------------------ the levels' ratings

LADDER = {  # benchmarks/bot_ladder.py, seed 1: the row level's match wins of the matches
    ("easy", "beginner"): (391.0, 400),
    ("medium", "easy"): (224.0, 400),
    ("strong", "medium"): (289.0, 300),
    ("expert", "strong"): (179.0, 300),
    ("medium", "beginner"): (195.0, 200),
    ("strong", "easy"): (196.0, 200),
    ("expert", "medium"): (191.0, 200),
}


def load_ladder() -> ModuleType:
    path = Path(__file__).parent.parent / "benchmarks" / "bot_ladder.py"
    spec = importlib.util.spec_from_file_location("bot_ladder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_level_has_a_fixed_rating_in_order_of_strength() -> None:
    assert list(LEVEL_RATINGS) == list(bots.LEVELS)
    ratings = [r.rating for r in LEVEL_RATINGS.values()]
    assert ratings == sorted(set(ratings))
    assert LEVEL_RATINGS["beginner"].rating == 1000
    assert not any(provisional(r) for r in LEVEL_RATINGS.values())


def test_the_levels_ratings_are_the_fit_of_the_ladders_results() -> None:
    """The constants, rounded, are what the ladder's script fits to its recorded results."""
    fitted = load_ladder().fit(LADDER, list(bots.LEVELS), "beginner", 1000.0)
    for level, rating in LEVEL_RATINGS.items():
        value, _, deviation = fitted[level]
        assert (rating.rating, rating.deviation) == (round(value), round(deviation))


def test_the_fit_finds_ratings_it_was_given() -> None:
    """Results exactly as the logistic model expects give back the model's ratings."""
    truth = {"a": 1000.0, "b": 1300.0, "c": 1450.0}
    results = {}
    for row, column in [("b", "a"), ("c", "b"), ("c", "a")]:
        expected = 1 / (1 + 10 ** ((truth[column] - truth[row]) / 400))
        results[(row, column)] = (1000 * expected, 1000)
    fitted = load_ladder().fit(results, list(truth), "a", 1000.0)
    for name, rating in truth.items():
        assert fitted[name][0] == pytest.approx(rating)


def test_a_level_keeps_its_rating_in_a_rated_match() -> None:
    strong = LEVEL_RATINGS["strong"]
    person, bot = rate_match([Rating(), strong], [101, 80], fixed=[False, True])
    assert bot is strong
    assert person.rating > 2000 and person.deviation > 300  # a surprise, so little learnt
