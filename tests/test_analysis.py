"""The analysis: known best actions first, forced moves instantly, views only (R21), reviews."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import DATA, deal
from draw_dominoes import Match, Place, Round, Tile
from draw_dominoes.actions import parse_action
from draw_dominoes.analysis import (
    KINDS,
    Entry,
    analyse,
    cache_path,
    classify,
    hint_of,
    move_accuracy,
    review,
    review_cached,
    same_game,
)
from draw_dominoes.record import loads
from draw_dominoes.view import Termination

POSITIONS: list[dict[str, Any]] = json.loads((DATA / "expert_positions.json").read_text())
GOLDEN_MATCH = DATA / "golden_match_greedy_random_seed2026.json"
GOLDEN_REVIEW = DATA / "golden_review_seed2026.json"
"""The review of seat 0 of the golden match at ``REVIEW_SETTINGS``; rewrite it with
``python tests/test_analysis.py`` when the analysis is meant to change."""
REVIEW_SETTINGS: dict[str, Any] = {"iterations": 600, "seed": 7}

BLOCKS: list[dict[str, Any]] = [
    # Two-player positions with the boneyard closed, found by solving every deal the seat
    # cannot rule out: ``block`` ends the round blocked (R14) with the seat lowest (R17)
    # in every one of them, and ``lets`` leaves the opponent a domino (R16) in some.
    {
        "seed": 1009,
        "player": 1,
        "actions": "[6|6] [4|6]@0 [5|6]@1 [4|5]@0 [1|5]@0 [1|2]@0 [2|2]@0 [0|2]@0 [0|5]@0"
        " draw draw [5|5]@0 draw draw draw draw draw [2|5]@0 draw draw draw draw draw"
        " [2|4]@0 pass [4|4]@0 pass [3|4]@0 [2|3]@0 pass [2|6]@0 [0|6]@0 [0|3]@0 [3|3]@0"
        " [3|6]@0 pass [1|6]@0",
        "block": "[1|4]@0",
        "lets": "[1|1]@0",
    },
    {
        "seed": 1349,
        "player": 1,
        "actions": "[5|5] [5|6]@0 [3|5]@1 [6|6]@0 [3|4]@1 [3|6]@0 [2|3]@0 [0|2]@0 [1|4]@1"
        " [1|6]@1 draw draw draw [0|5]@0 draw draw draw draw [4|6]@1 [4|4]@1 [2|4]@1"
        " [2|5]@0 draw draw [2|6]@0 [2|2]@1 draw [0|6]@0 draw [1|2]@1 [1|3]@1 draw"
        " [0|0]@0 [3|3]@1 pass",
        "block": "[0|3]@0",
        "lets": "[0|1]@0",
    },
]


def replayed(seed: int, actions: list[str] | str) -> Round:
    game = Round.new(2, seed=seed, leader=0)
    for text in actions.split() if isinstance(actions, str) else actions:
        game.apply(parse_action(text))
    return game


def entry_for(entries: list[Entry], text: str) -> Entry:
    return next(e for e in entries if str(e.action) == text)


@pytest.mark.parametrize(
    "case", [c for c in POSITIONS if c["kind"] == "domino"], ids=lambda c: f"seed{c['seed']}"
)
def test_a_domino_comes_first_with_the_largest_value(case: dict[str, Any]) -> None:
    """R16: going out with the last tile beats every other action."""
    game = replayed(case["seed"], case["actions"])
    entries = analyse(game.view(case["player"]), iterations=400)
    after = game.clone()
    after.apply(entries[0].action)
    assert after.outcome is not None and after.outcome.kind is Termination.DOMINO
    assert [str(e.action) for e in entries] != [] and len(entries) == len(case["legal"])
    first = entries[0]
    assert first.value is not None and first.points is not None
    for other in entries[1:]:
        assert other.value is not None and other.points is not None
        domino = game.clone()
        domino.apply(other.action)
        if domino.outcome is None:  # a second end for the same tile is as good
            assert first.value > other.value and first.points > other.points


@pytest.mark.parametrize("case", BLOCKS, ids=lambda c: f"seed{c['seed']}")
def test_a_won_block_ranks_above_a_placement_that_lets_the_opponent_domino(
    case: dict[str, Any],
) -> None:
    """R14, R16, R17: with the boneyard closed, block the round you win rather than open
    an end the opponent can go out on."""
    game = replayed(case["seed"], case["actions"])
    view = game.view(case["player"])
    entries = analyse(view, iterations=600)
    assert str(entries[0].action) == case["block"]
    block, lets = entry_for(entries, case["block"]), entry_for(entries, case["lets"])
    assert block.points is not None and lets.points is not None
    assert block.points > lets.points and block.points > 0


def test_a_forced_action_is_analysed_instantly_and_gives_nothing_away() -> None:
    game = Round.new(2, seed=3, leader=0)
    rng = random.Random(3)
    while len(game.legal_actions()) != 1 or game.current_player != 0:
        game.apply(rng.choice(game.legal_actions()))

    def no_clock() -> float:
        raise AssertionError("a forced action needs no search")

    (entry,) = analyse(game.view(0), clock=no_clock)
    assert entry.forced and entry.visits == 0 and entry.points is None and entry.value is None
    assert entry.action == game.legal_actions()[0]
    assert Entry.from_dict(entry.to_dict()) == entry


def twins(seed: int) -> tuple[Round, Round]:
    """Two rounds seat 0 cannot tell apart (its hand and the public play are the same)."""
    game = Round.new(2, seed=seed)
    rng = random.Random(seed)
    while game.current_player != 0 or len(game.actions) < 4 or len(game.legal_actions()) < 2:
        game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            game = Round.new(2, seed=seed + 100)
    other = game.sample_hidden(0, random.Random(seed + 1))
    return game, other


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_analysis_depends_on_the_view_only(seed: int) -> None:
    """R21: two views that differ only in hidden tiles give the same analysis."""
    game, other = twins(seed)
    assert game.view(0) == other.view(0)
    assert game.hand_mask(1) != other.hand_mask(1) or game.boneyard != other.boneyard
    first = analyse(game.view(0), iterations=300, seed=seed)
    assert first == analyse(other.view(0), iterations=300, seed=seed)
    assert len(first) == len(game.legal_actions())
    assert all(e.visits > 0 for e in first)


def test_the_entries_are_ordered_by_value_and_only_name_legal_actions() -> None:
    game, _ = twins(5)
    entries = analyse(game.view(0), iterations=500)
    values = [e.value for e in entries]
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]
    assert {e.action for e in entries} == set(game.legal_actions())
    assert sum(e.visits for e in entries) == 500


def test_analysis_refuses_a_view_that_is_not_to_move() -> None:
    game = Round.new(2, seed=1, leader=0)
    with pytest.raises(ValueError, match="not player 1's turn"):
        analyse(game.view(1))


def test_classes_and_accuracy_follow_the_documented_thresholds() -> None:
    assert [classify(x) for x in (0.0, 0.99, 1.0, 2.49, 2.5, 4.99, 5.0, 9.99, 10.0, 40.0)] == [
        "best",
        "best",
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert classify(30.0, first=True) == "best"
    assert move_accuracy(0.0) == 100.0 and move_accuracy(4.0) == 80.0 and move_accuracy(25) == 0.0


def golden_review() -> dict[str, Any]:
    game = loads(GOLDEN_MATCH.read_text())
    return review(game, 0, workers=1, **REVIEW_SETTINGS).to_dict()


@pytest.mark.slow
def test_the_review_of_the_golden_match_is_stable() -> None:
    """A fixed seed gives the same classification of every decision, on any machine."""
    assert golden_review() == json.loads(GOLDEN_REVIEW.read_text())


def test_the_golden_review_sums_up_seat_0() -> None:
    data = json.loads(GOLDEN_REVIEW.read_text())
    summary = data["summary"]["0"]
    decisions = [d for d in data["decisions"] if d["seat"] == 0]
    assert sum(summary["counts"].values()) == len(decisions) and set(summary["counts"]) == set(
        KINDS
    )
    game = loads(GOLDEN_MATCH.read_text())
    assert isinstance(game, Match)
    seat_moves = 0
    for finished in game.rounds:
        replay = Round.from_deal(*finished.deal, finished.leader, scores=finished.scores)
        for action in finished.actions:
            seat_moves += replay.current_player == 0
            replay.apply(action)
    assert len(decisions) == seat_moves
    assert 0 < summary["accuracy"] < 100
    worst = [d for d in decisions if [d["round"], d["move"]] == summary["mistakes"][0]]
    assert worst[0]["kind"] in ("mistake", "blunder") and worst[0]["loss"] >= max(
        d["loss"] for d in decisions
    )


def test_a_review_in_parallel_matches_one_in_this_process(tmp_path: Path) -> None:
    game = Match.new(2, seed=11)
    rng = random.Random(11)
    while len(game.rounds) < 1:
        game.apply(rng.choice(game.legal_actions()))
    serial = review(game, 1, iterations=200, workers=1)
    assert review(game, 1, iterations=200, workers=2) == serial
    assert {d.seat for d in serial.decisions} == {1}


def test_a_review_is_cached_beside_the_record_and_a_second_look_is_instant(
    tmp_path: Path,
) -> None:
    record = tmp_path / "match.json"
    record.write_text(GOLDEN_MATCH.read_text())
    game = loads(record.read_text())
    cache = cache_path(record)
    assert cache == tmp_path / "match.json.review.json"
    seen: list[tuple[int, int]] = []
    first = review_cached(
        game, cache, 1, iterations=100, workers=1, progress=lambda d, t: seen.append((d, t))
    )
    total = seen[-1][1]
    assert seen[0] == (0, total) and seen[-1] == (total, total) and cache.exists()
    seen.clear()
    again = review_cached(
        game, cache, 1, iterations=100, workers=1, progress=lambda d, t: seen.append((d, t))
    )
    assert again == first and seen == [(total, total)]
    # Other settings are analysed afresh and kept beside the first ones.
    other = review_cached(game, cache, 1, iterations=100, seed=1, workers=1)
    assert other.seed == 1
    assert len(json.loads(cache.read_text())["analyses"]) == 2


def test_a_damaged_or_foreign_cache_is_replaced_not_trusted(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    record.write_text(GOLDEN_MATCH.read_text())
    game = loads(record.read_text())
    cache = cache_path(record)
    cache.write_text("{not json")
    fresh = review_cached(game, cache, 1, iterations=100, workers=1)
    assert json.loads(cache.read_text())["format"] == "draw-dominoes-review"
    data = json.loads(cache.read_text())
    key = next(iter(data["analyses"]))
    first_move = next(iter(data["analyses"][key]))
    data["analyses"][key][first_move] = [{"action": "[9|9]", "points": 1, "value": 0, "visits": 1}]
    cache.write_text(json.dumps(data))
    assert review_cached(game, cache, 1, iterations=100, workers=1) == fresh
    data["game"] = "0" * 64
    cache.write_text(json.dumps(data))
    assert review_cached(game, cache, 1, iterations=100, workers=1) == fresh


def test_a_review_refuses_a_seat_that_is_not_at_the_table() -> None:
    game = loads(GOLDEN_MATCH.read_text())
    with pytest.raises(ValueError, match="a seat is a number from 0 to 1"):
        review(game, 2, workers=1)


if __name__ == "__main__":
    GOLDEN_REVIEW.write_text(json.dumps(golden_review(), indent=1) + "\n")


def test_one_tile_at_either_end_of_equal_ends_is_one_choice_in_figures_and_hints() -> None:
    """Ends showing the same value: the two placements of a tile are the same game, so
    they get the same figures, and a hint compares the best with a different choice."""
    game = deal(
        [
            ["[2|2]", "[0|0]", "[1|1]", "[3|3]", "[4|4]", "[5|5]", "[6|6]"],
            ["[2|5]", "[2|6]", "[0|1]", "[0|3]", "[1|3]", "[1|4]", "[3|4]"],
        ]
    )
    game.apply(parse_action("[2|2]"))
    view = game.view(1)
    assert view.line.end_values == (2, 2)
    entries = analyse(view, iterations=600, seed=2)
    by_action = {e.action: e for e in entries}
    for tile in ("[2|5]", "[2|6]"):
        left, right = parse_action(f"{tile}@0"), parse_action(f"{tile}@1")
        assert same_game(left, right, view.line)
        assert (by_action[left].points, by_action[left].visits) == (
            by_action[right].points,
            by_action[right].visits,
        )
    hint = hint_of(entries, view.line)
    assert hint.alternative is not None
    assert not same_game(hint.best, hint.alternative, view.line)
    assert not same_game(
        Place(Tile(2, 5), 0), Place(Tile(2, 5), 1), game.view(0).line.place(Tile(2, 5), 1)
    )


def test_following_every_hint_is_never_marked_down_by_the_review() -> None:
    """A hint is worked out as the review of the same match values that decision (same
    budget, same seed): a player who follows every hint has no inaccuracy or worse."""
    from draw_dominoes.analysis import hint_as_reviewed

    match = Match.new(2, seed=12)
    rng = random.Random(12)
    followed = 0
    while not match.is_over and len(match.rounds) < 1:
        seat = match.current_player
        view = match.view(seat)
        if seat == 0 and len(view.legal_actions) > 1:
            match.apply(hint_as_reviewed(view, len(match.rounds), iterations=120).best)
            followed += 1
        else:
            match.apply(rng.choice(match.legal_actions()))
    assert followed >= 3
    result = review(match, 0, iterations=120, workers=1)
    kinds = [d.kind for d in result.of(0) if not d.forced]
    assert len(kinds) == followed and set(kinds) <= {"best"}, kinds
