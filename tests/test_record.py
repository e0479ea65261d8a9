"""Game records: JSON out, the same game back in, and clear errors for damaged records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from conftest import DATA, play_randomly, snapshot
from draw_dominoes import Match, Round, bots
from draw_dominoes.record import (
    RecordError,
    dumps,
    loads,
    match_from_record,
    match_to_record,
    round_to_record,
)


def random_match(players: int, seed: int, actions: int | None = None) -> Match:
    match = Match.new(players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over and (actions is None or actions > 0):
        match.apply(rng.choice(match.legal_actions()))
        if actions is not None:
            actions -= 1
    return match


def same_match(a: Match, b: Match) -> bool:
    return (
        a.scores == b.scores
        and a.seed == b.seed
        and [snapshot(r) for r in a.rounds] == [snapshot(r) for r in b.rounds]
        and snapshot(a.current_round) == snapshot(b.current_round)
        and a.is_over == b.is_over
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("actions", [0, 1, 37, None])
def test_a_match_record_replays_to_the_same_state(players: int, actions: int | None) -> None:
    match = random_match(players, seed=players * 100 + (actions or 0), actions=actions)
    again = loads(dumps(match))
    assert isinstance(again, Match) and same_match(match, again)
    # and play continues identically from the replayed state
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(30):
        if match.is_over:
            break
        match.apply(rng_a.choice(match.legal_actions()))
        again.apply(rng_b.choice(again.legal_actions()))
    assert same_match(match, again)


def test_a_round_record_replays_to_the_same_state() -> None:
    game = Round.new(3, seed=8)
    play_randomly(game, random.Random(8), steps=20)
    again = loads(dumps(game))
    assert isinstance(again, Round) and snapshot(again) == snapshot(game) and again.seed == 8
    record = round_to_record(game)
    assert record["format"] == "draw-dominoes" and record["version"] == 1
    assert record["actions"] == [str(a) for _, a in game.history]


def test_golden_match_record() -> None:
    """A whole two-player match (greedy against random) stored as data: the engine must
    still replay it to the same result, and still play it the same way."""
    text = (DATA / "golden_match_greedy_random_seed2026.json").read_text()
    golden = json.loads(text)
    match = loads(text)
    assert isinstance(match, Match) and match.is_over
    assert list(match.scores) == golden["expected_scores"]
    assert match.winners == golden["expected_winners"]
    replay = Match.new(2, seed=golden["seed"])
    seats = [bots.create("greedy", seed=0), bots.create("random", seed=2026)]
    while not replay.is_over:
        seat = replay.current_player
        replay.apply(seats[seat].choose(replay.view(seat)))
    assert match_to_record(replay)["rounds"] == golden["rounds"]


def damaged(change: Any) -> str:
    record = match_to_record(random_match(2, seed=3, actions=40))
    change(record)
    return json.dumps(record)


def _set(path: list[Any], value: Any) -> Any:
    def change(record: dict[str, Any]) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(["version"], 99), "version 99 is not supported"),
        (_set(["format"], "chess"), "format must be 'draw-dominoes'"),
        (_set(["players"], 5), "players must be 2 to 4"),
        (_set(["players"], True), "the field 'players' has the wrong type"),
        (_set(["seed"], "x"), "the field 'seed' has the wrong type"),
        (_set(["rounds"], []), "at least one round"),
        (_set(["rounds", 0, "leader"], 7), "round 1: the leader is"),
        (_set(["rounds", 0, "deal", "hands", 0, 0], "[7|7]"), "round 1 deal: not a tile"),
        (_set(["rounds", 0, "deal", "boneyard"], []), "round 1: the deal is not the one seed"),
        (_set(["rounds", 0, "actions", 0], "fly"), "round 1, action 1: not an action"),
        (_set(["rounds", 0, "actions", 0], 3), "round 1, action 1: expected text"),
        (lambda r: r.pop("first_leader"), "the field 'first_leader' is missing"),
        (lambda r: r["rounds"][0].pop("deal"), "round 1: the field 'deal' is missing"),
    ],
)
def test_damaged_records_name_what_is_wrong(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(damaged(change))


def test_illegal_actions_in_a_record_are_named_with_their_place() -> None:
    record = match_to_record(random_match(2, seed=3, actions=40))
    record["rounds"][0]["actions"].insert(0, "pass")
    with pytest.raises(RecordError, match=r"round 1, action 1 \(pass\) is illegal: no passing"):
        match_from_record(record)


def test_actions_past_the_end_of_a_round_are_refused() -> None:
    match = random_match(2, seed=3)
    record = match_to_record(match)
    record["rounds"][0]["actions"].append("draw")
    with pytest.raises(RecordError, match=r"round 1, action \d+: the round was already over"):
        match_from_record(record)


def test_a_round_cut_short_before_the_next_one_is_refused() -> None:
    record = match_to_record(random_match(2, seed=3))
    assert len(record["rounds"]) > 1
    record["rounds"][0]["actions"].pop()
    with pytest.raises(RecordError, match="round 1: the round is not finished"):
        match_from_record(record)


@pytest.mark.parametrize("text", ["", "{", "[]", '"match"', "null", b"\xff\xfe"])
def test_not_a_record_at_all(text: str | bytes) -> None:
    with pytest.raises(RecordError):
        loads(text)


def test_a_round_record_with_a_wrong_seed_is_refused() -> None:
    record = round_to_record(Round.new(2, seed=8))
    record["seed"] = 9
    with pytest.raises(RecordError, match="not the one seed 9 gives"):
        loads(json.dumps(record))


@pytest.mark.parametrize("scores", [[1.5, 0], ["10", 0], [-1, 0], [0]])
def test_a_round_record_with_bad_scores_is_refused(scores: list[object]) -> None:
    record = round_to_record(Round.new(2, seed=8))
    record["scores"] = scores
    with pytest.raises(RecordError, match="scores must be 2 non-negative integers"):
        loads(json.dumps(record))


def test_deeply_nested_json_is_a_damaged_record() -> None:
    with pytest.raises(RecordError, match="nested too deeply"):
        loads("[" * 100_000)
