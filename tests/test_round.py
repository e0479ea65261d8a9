"""Rounds: deal, turns, refusals, end and settlement (R2–R8, R13–R18)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import deal, play_randomly, snapshot, tiles, worked_examples
from draw_dominoes import (
    DRAW,
    PASS,
    IllegalActionError,
    Place,
    Round,
    Termination,
    Tile,
    parse_action,
)


def P(text: str) -> Place:
    action = parse_action(text)
    assert isinstance(action, Place)
    return action


# A four-player round that blocks (R14): the line closes on 0 at both ends while the
# last two 0-tiles lie at the bottom of the boneyard, never to be drawn (R2).
BLOCK_HANDS = [
    ["[0|0]", "[2|4]", "[1|1]", "[1|2]", "[1|4]", "[2|2]"],  # 14 pips left at the end
    ["[0|1]", "[0|3]", "[1|5]", "[1|6]", "[2|3]", "[2|5]"],  # 25
    ["[0|2]", "[0|4]", "[2|6]", "[3|3]", "[3|4]", "[3|5]"],  # 29
    ["[1|3]", "[3|6]", "[4|4]", "[4|5]", "[4|6]", "[5|5]"],  # 46, then draws [5|6], [6|6]
]
BLOCK_BONEYARD = ["[5|6]", "[6|6]", "[0|5]", "[0|6]"]
BLOCK_PLAY = [
    "[0|0]", "[0|1]@0", "[0|2]@1", "[1|3]@0", "[2|4]@1", "[0|3]@0", "[0|4]@1",
    "draw", "draw", "pass", "pass", "pass", "pass",
]  # fmt: skip


def blocked_round() -> Round:
    return Round.from_deal(BLOCK_HANDS, BLOCK_BONEYARD, leader=0)


# ------------------------------------------------------------------ deal


@pytest.mark.parametrize(("players", "size", "boneyard"), [(2, 7, 14), (3, 7, 7), (4, 6, 4)])
def test_r2_deal_sizes_and_drawable_tiles(players: int, size: int, boneyard: int) -> None:
    game = Round.new(players, seed=1)
    assert [len(game.hand(p)) for p in range(players)] == [size] * players
    assert game.boneyard_size == boneyard and game.drawable == boneyard - 2
    everything = [t for p in range(players) for t in game.hand(p)] + list(game.boneyard)
    assert len(set(everything)) == 28


def test_r2_the_boneyard_is_a_stack_drawn_from_its_first_tile() -> None:
    game = deal(_two_hands(), top=["[5|6]", "[4|6]"])
    game.apply(DRAW)
    assert Tile(5, 6) in game.hand(0)
    game.apply(DRAW)
    assert Tile(4, 6) in game.hand(0)


def _two_hands() -> list[list[str]]:
    return [
        ["[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]"],
        ["[1|1]", "[1|2]", "[1|3]", "[1|4]", "[1|5]", "[1|6]", "[2|2]"],
    ]


def test_r2_the_last_two_boneyard_tiles_are_never_drawn() -> None:
    game = deal(_two_hands())
    bottom = game.boneyard[-2:]
    for _ in range(12):
        game.apply(DRAW)
    assert game.boneyard_size == 2 and game.boneyard == bottom and game.drawable == 0
    assert DRAW not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="down to 2 tiles"):
        game.apply(DRAW)
    assert snapshot(game) == before


def test_from_deal_rejects_bad_deals() -> None:
    hands = _two_hands()
    with pytest.raises(ValueError, match="dealt twice"):
        Round.from_deal([hands[0], hands[0]], [], 0)
    with pytest.raises(ValueError, match="lacks"):
        Round.from_deal(hands, ["[2|3]"], 0)
    with pytest.raises(ValueError, match="hand 1 has 6 tiles"):
        Round.from_deal([hands[0], hands[1][:6]], [], 0)
    with pytest.raises(ValueError, match="not a tile"):
        Round.from_deal([hands[0], [*hands[1][:6], "[2|9]"]], [], 0)
    with pytest.raises(ValueError, match="2 to 4 players"):
        Round.from_deal([hands[0]], [], 0)
    with pytest.raises(ValueError, match="leader"):
        deal(hands, leader=2)


# ------------------------------------------------------------------ seats and the leader


def test_r3_play_goes_clockwise() -> None:
    game = blocked_round()
    seats = []
    for text in BLOCK_PLAY[:7]:
        seats.append(game.current_player)
        game.apply(parse_action(text))
    assert seats == [0, 1, 2, 3, 0, 1, 2]


def test_r4_the_leader_is_a_fair_lot() -> None:
    for players in (2, 3, 4):
        counts = Counter(Round.new(players, seed=s).leader for s in range(1200))
        assert set(counts) == set(range(players))
        expected = 1200 / players
        assert all(abs(c - expected) < 5 * (expected**0.5) for c in counts.values())


def test_r4_same_seed_same_round() -> None:
    a, b = Round.new(3, seed=99), Round.new(3, seed=99)
    assert snapshot(a) == snapshot(b) and a.leader == b.leader and a.seed == 99
    assert snapshot(Round.new(3, seed=100)) != snapshot(a)
    assert Round.new(2).seed is not None  # an unseeded round still records its seed


# ------------------------------------------------------------------ a turn


def test_r5_r7_the_leader_may_open_with_any_tile_or_draw() -> None:
    game = deal(_two_hands())
    assert game.legal_actions() == [Place(t, None) for t in game.hand(0)] + [DRAW]


def test_r5_both_ends_are_listed_even_when_they_show_the_same_value() -> None:
    game = deal([["[4|4]", "[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|5]", "[0|6]"],
                 ["[1|4]", "[2|4]", "[1|1]", "[1|2]", "[1|3]", "[1|5]", "[1|6]"]])  # fmt: skip
    game.apply(P("[4|4]"))
    assert game.legal_actions() == [
        P("[1|4]@0"), P("[2|4]@0"), P("[1|4]@1"), P("[2|4]@1"), DRAW,
    ]  # fmt: skip


def test_r5_draw_is_allowed_with_a_playable_tile_and_r6_keeps_the_turn() -> None:
    game = deal(_two_hands())
    game.apply(P("[0|3]"))
    assert P("[1|3]@1") in game.legal_actions() and DRAW in game.legal_actions()
    game.apply(DRAW)
    assert game.current_player == 1 and game.hand_size(1) == 8
    game.apply(P("[1|3]@1"))  # placing ends the turn
    assert game.current_player == 0


def test_r5_pass_only_without_a_draw_or_a_placement_and_then_alone() -> None:
    game = blocked_round()
    for text in BLOCK_PLAY[:7]:
        game.apply(parse_action(text))
    assert game.end_values == (0, 0) and game.current_player == 3
    assert game.legal_actions() == [DRAW]  # no 0 in hand: must draw while drawing is on
    with pytest.raises(IllegalActionError, match="no passing while you can draw"):
        game.apply(PASS)
    game.apply(DRAW)
    game.apply(DRAW)
    assert game.boneyard_size == 2 and game.legal_actions() == [PASS]
    game.apply(PASS)
    assert game.current_player == 0


def test_r5_no_pass_with_a_playable_tile() -> None:
    game = deal(_two_hands())
    for _ in range(12):
        game.apply(DRAW)
    game.apply(P("[0|1]"))
    assert game.boneyard_size == 2
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="playable tile"):
        game.apply(PASS)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (P("[1|1]"), "does not hold"),  # not in the leader's hand
        (P("[0|1]@0"), "line is empty"),  # an opening has no end
        ("draw", "not an action"),  # text is not an action
        (None, "not an action"),
    ],
)
def test_r8_illegal_openings_are_refused_and_change_nothing(action: object, message: str) -> None:
    game = deal(_two_hands())
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(action)  # type: ignore[arg-type]
    assert snapshot(game) == before
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("[1|2]", "line is open"),
        ("[1|2]@0", "does not match end 0, which shows 0"),
        ("[1|2]@1", "does not match end 1, which shows 3"),
        ("[0|4]@0", "does not hold"),  # the opponent's tile: a move out of turn
        ("[0|3]@1", "does not hold"),  # already in the line
    ],
)
def test_r8_illegal_placements_are_refused_and_change_nothing(action: str, message: str) -> None:
    game = deal(_two_hands())
    game.apply(P("[0|3]"))
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(parse_action(action))
    assert snapshot(game) == before


def test_r8_nothing_is_legal_after_the_round() -> None:
    game = blocked_round()
    for text in BLOCK_PLAY:
        game.apply(parse_action(text))
    assert game.legal_actions() == []
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="the round is over"):
        game.apply(PASS)
    assert snapshot(game) == before


# ------------------------------------------------------------------ end and settlement


def test_r14_r17_a_blocked_round_with_a_unique_lowest_hand() -> None:
    game = blocked_round()
    for text in BLOCK_PLAY[:-1]:
        game.apply(parse_action(text))
        assert not game.is_over
    game.apply(PASS)  # the fourth consecutive pass
    outcome = game.outcome
    assert outcome is not None and outcome.kind == "blocked" == Termination.BLOCKED
    assert outcome.pip_totals == (14, 25, 29, 69)
    # R15: the protected boneyard ([0|5], [0|6]) is nobody's hand and is not counted.
    assert game.boneyard == tuple(tiles("[0|5]", "[0|6]"))
    assert outcome.winner == 0 and outcome.points == 25 + 29 + 69 - 14 == 109
    assert outcome.credits == (109, 0, 0, 0)  # R18: exact, not rounded to fives


def test_r14_a_placement_between_passes_restarts_the_count() -> None:
    # Find seeded two-player rounds where a pass is answered by a placement: the count
    # restarts, so the round goes on until two passes come in a row.
    restarted = 0
    for seed in range(300):
        game = Round.new(2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions = [a for _, a in game.history]
            if len(actions) >= 2 and actions[-2] is PASS and isinstance(actions[-1], Place):
                restarted += 1
                assert not game.is_over or game.outcome.kind == "domino"  # type: ignore[union-attr]
                assert game.consecutive_passes == 0
        outcome = game.outcome
        assert outcome is not None
        actions = [a for _, a in game.history]
        if outcome.kind == "blocked":
            assert actions[-2:] == [PASS, PASS]
        assert all(actions[i : i + 2] != [PASS, PASS] for i in range(len(actions) - 2))
    assert restarted > 10


@pytest.mark.parametrize("name", ["domino-0-8", "blocked-3-8-10", "blocked-3-3-10", "domino-zero"])
def test_worked_scoring_examples(name: str) -> None:
    """R13, R16, R17: "0 and 8 gives 8", "3, 8, 10 gives 15", "3, 3, 10 gives nothing"."""
    example = worked_examples()[name]
    game = Round.from_deal(example["hands"], example["boneyard"], example["leader"])
    *before, last = example["actions"]
    for text in before:
        game.apply(parse_action(text))
    assert not game.is_over
    game.apply(parse_action(last))
    outcome = game.outcome
    assert outcome is not None
    hands = [[Tile.parse(t) for t in hand] for hand in example["final_hands"]]
    assert [list(game.hand(p)) for p in range(game.players)] == hands
    totals = tuple(sum(t.low + t.high for t in hand) for hand in hands)  # R15: both halves
    assert outcome.pip_totals == totals
    if name == "domino-0-8":  # R16: an opponent holding [0|0] does not tie an empty hand
        assert outcome.kind == "domino" and sorted(totals) == [0, 0, 8]
        assert [Tile(0, 0)] in hands and game.hand(outcome.winner) == ()  # type: ignore[arg-type]
        assert outcome.points == 8
    elif name == "domino-zero":  # R16: the sum of opponents' totals, even if it is 0
        assert outcome.kind == "domino" and outcome.points == 0 and outcome.winner == 1
    elif name == "blocked-3-8-10":  # R17
        assert outcome.kind == "blocked" and sorted(totals) == [3, 8, 10]
        assert totals[outcome.winner] == 3 and outcome.points == 8 + 10 - 3 == 15  # type: ignore[index]
    else:  # R17: tied lowest hands score nothing
        assert outcome.kind == "blocked" and sorted(totals) == [3, 3, 10]
        assert outcome.winner is None and outcome.points == 0
        assert outcome.credits == (0, 0, 0)


def test_r13_the_round_ends_at_once_on_a_domino() -> None:
    example = worked_examples()["domino-0-8"]
    game = Round.from_deal(example["hands"], example["boneyard"], example["leader"])
    for text in example["actions"]:
        game.apply(parse_action(text))
    winner, last = game.history[-1]
    assert isinstance(last, Place) and game.hand(winner) == ()
    assert game.is_over and game.legal_actions() == []
    assert game.outcome is not None and game.outcome.winner == winner


# ------------------------------------------------------------------ state


def test_clone_is_independent() -> None:
    game = Round.new(3, seed=5)
    play_randomly(game, random.Random(1), steps=6)
    copy = game.clone()
    assert snapshot(copy) == snapshot(game)
    play_randomly(copy, random.Random(2))
    assert copy.is_over and not game.is_over
    assert snapshot(game) != snapshot(copy)


def test_hand_of_a_missing_seat_is_a_value_error() -> None:
    game = Round.new(2, seed=1)
    with pytest.raises(ValueError, match="no seat 2"):
        game.hand(2)
    with pytest.raises(ValueError, match="no seat"):
        game.view(-1)


def test_fields_are_a_copy_of_the_state_as_numbers() -> None:
    """``Round.fields()`` is what the environments encode from: the public properties'
    values in one call, and changing what it returns changes nothing in the round."""
    game = Round.new(3, seed=5)
    assert game.is_opening
    game.apply(game.legal_actions()[0])
    state = game.fields()
    assert not game.is_opening
    assert state.players == game.players and state.current == game.current_player
    assert state.leader == game.leader and state.scores == game.scores
    assert state.outcome is game.outcome and state.lacks == game.lack_masks
    assert state.hands == tuple(game.hand_mask(seat) for seat in range(3))
    assert state.drawn == 28 - game.boneyard_size  # taken from the stock, the deal included
    assert state.ends == 7 * game.end_values[0] + game.end_values[1]
    before = game.clone()
    list(state.hands).clear()
    assert game.fields() == state and before.fields() == state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fields_keep_the_line_and_the_draws_as_the_history_shows_them(players: int) -> None:
    """The tiles on the line and each seat's draws (public, R21) are kept move by move:
    they agree with the history after every action, in clones, in rounds rebuilt from a
    view for sampling, and a clone's moves never reach the original."""
    rng = random.Random(players)
    for seed in range(60):
        game = Round.new(players, seed=seed)
        while True:
            state = game.fields()
            view = game.view(game.current_player)
            assert state.line == sum(tile.bit for tile in view.line.tiles)
            assert state.draws == view.draws
            sampled = Round.template_from_view(view, [0] * players).fields()
            assert (sampled.line, sampled.draws) == (state.line, state.draws)
            legal = game.legal_actions()
            if not legal:
                break
            twin = game.clone()
            twin.apply(legal[-1])
            assert game.fields() == state
            game.apply(rng.choice(legal))
