"""The luck of the deal: each round's deal played out again by equal bots, seeded and kept."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from draw_dominoes import ALL_TILES, Match, Round, Tile
from draw_dominoes.analysis import deal_worth, deal_worth_cached, review_cached
from draw_dominoes.analysis.luck import DealWorth, margins
from draw_dominoes.record import dumps, loads

GOLDEN_MATCH = Path(__file__).parent / "data" / "golden_match_greedy_random_seed2026.json"
DOUBLES = [t for t in ALL_TILES if t.is_double]
LIGHTEST = sorted((t for t in ALL_TILES if not t.is_double), key=lambda t: (t.pips, t.index))[:7]


def finished(hands: list[list[Tile]], leader: int) -> Round:
    """A round dealt ``hands`` (the rest in set order as the boneyard), played to its end
    at random: only its deal counts for the luck."""
    used = {t for hand in hands for t in hand}
    game = Round.from_deal(hands, [t for t in ALL_TILES if t not in used], leader)
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def finished_match(players: int, seed: int) -> Match:
    match = Match.new(players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_the_same_seed_gives_the_same_figures_in_this_process_or_on_two() -> None:
    game = loads(GOLDEN_MATCH.read_text())
    assert isinstance(game, Match)
    first = deal_worth(game, playouts=3, seed=5)
    assert deal_worth(game, playouts=3, seed=5) == first
    assert deal_worth(game, playouts=3, seed=5, workers=2) == first
    assert deal_worth(game, playouts=3, seed=6) != first
    assert len(first.rounds) == len(game.rounds) and first.playouts == 3


def test_a_match_replayed_from_its_record_gives_the_same_figures() -> None:
    match = finished_match(3, seed=4)
    again = loads(dumps(match))
    assert deal_worth(again, playouts=2, seed=1) == deal_worth(match, playouts=2, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seats_figures_add_up_to_zero_as_margins_do(players: int) -> None:
    """A margin is the seat's credit less the others' average (R16, R17): whoever scores,
    the seats' margins add up to 0, in the play-outs as in the match."""
    match = finished_match(players, seed=players)
    worth = deal_worth(match, playouts=2, seed=3)
    for figures in worth.rounds:
        assert sum(figures.worth) == pytest.approx(0, abs=1e-9)
        assert sum(figures.scored) == pytest.approx(0, abs=1e-9)
    for seat in range(players):
        others = [s for n, s in enumerate(match.scores) if n != seat]
        expected = match.scores[seat] - sum(others) / len(others)
        assert worth.scored(seat) == pytest.approx(expected)
        assert worth.play(seat) == pytest.approx(worth.scored(seat) - worth.worth(seat))


def test_each_round_is_played_out_from_its_own_deal_leader_and_scores() -> None:
    """R19: each round is led by the seat after the last round's leader; a play-out starts
    from the recorded deal (R2: the boneyard is an ordered stack), so its leader and the
    match's scores before it are the recorded ones, and a play-out of a round reaches an
    outcome the real round could have had."""
    match = finished_match(2, seed=9)
    worth = deal_worth(match, playouts=2, seed=0)
    for played, figures in zip(match.rounds, worth.rounds, strict=True):
        assert played.outcome is not None
        assert figures.scored == margins(played.outcome)
    leaders = [r.leader for r in match.rounds]
    assert leaders == [(match.first_leader + n) % 2 for n in range(len(leaders))]


def test_a_hand_of_every_double_is_a_bad_deal_and_the_lightest_hand_a_good_one() -> None:
    """Seven doubles (42 pips, each fitting one value only) against the seven lightest other
    tiles: worth much less than nothing to its holder, whoever leads; and a deal is worth
    the same to the same hand in the other seat (the hands and the leader swapped)."""
    found = {}
    for leader in (0, 1):
        doubles_first = deal_worth(finished([DOUBLES, LIGHTEST], leader), playouts=12, seed=2)
        doubles_second = deal_worth(finished([LIGHTEST, DOUBLES], 1 - leader), playouts=12, seed=2)
        for figures, holder in ((doubles_first, 0), (doubles_second, 1)):
            assert (
                figures.worth(holder) < -15
                and figures.worth(holder) + 3 * figures.error(holder) < 0
            ), figures
            assert figures.worth(1 - holder) == pytest.approx(-figures.worth(holder))
        found[leader] = (doubles_first.worth(0), doubles_first.error(0))
        swapped = (doubles_second.worth(1), doubles_second.error(1))
        gap = abs(found[leader][0] - swapped[0])
        assert gap < 3 * (found[leader][1] ** 2 + swapped[1] ** 2) ** 0.5 + 1


def test_an_unfinished_round_is_left_out_and_a_single_round_counts_alone() -> None:
    match = Match.new(2, seed=3)
    rng = random.Random(3)
    while len(match.rounds) < 1 or not match.current_round.history:
        match.apply(rng.choice(match.legal_actions()))
    assert len(deal_worth(match, playouts=2).rounds) == 1
    single = match.rounds[0]
    assert deal_worth(single, playouts=2).rounds == deal_worth(match, playouts=2).rounds
    with pytest.raises(ValueError):
        deal_worth(single, playouts=1)


def test_the_figures_are_kept_in_the_reviews_file_beside_its_analyses(tmp_path: Path) -> None:
    game = loads(GOLDEN_MATCH.read_text())
    cache = tmp_path / "match.json.review.json"
    seen: list[tuple[int, int]] = []
    first = deal_worth_cached(
        game, cache, playouts=2, workers=1, progress=lambda *p: seen.append(p)
    )
    assert seen and seen[-1] == (seen[-1][1], seen[-1][1])
    seen.clear()
    again = deal_worth_cached(
        game, cache, playouts=2, workers=1, progress=lambda *p: seen.append(p)
    )
    assert again == first and seen == []  # kept: nothing played again
    review_cached(game, cache, 1, iterations=20, workers=1)
    data = json.loads(cache.read_text())
    assert data["analyses"] and len(data["deals"]) == 1  # the review keeps the figures
    assert deal_worth_cached(game, cache, playouts=2, workers=1) == first
    (key,) = data["deals"]
    data["deals"][key]["rounds"][0]["worth"] = ["a", "b"]
    cache.write_text(json.dumps(data))
    assert deal_worth_cached(game, cache, playouts=2, workers=1) == first  # damaged: worked out
    assert DealWorth.from_dict(json.loads(cache.read_text())["deals"][key]) == first
