"""What a player may see (R21): views, their JSON, and that hidden tiles never leak."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import deal
from draw_dominoes import DRAW, PASS, Place, Round, Tile, parse_action


def swapped_twin(game: Round, seat: int, rng: random.Random) -> Round:
    """The same deal, but one tile of ``seat``'s hand traded with one of the two
    boneyard tiles that are never drawn: a difference only ``seat`` can see."""
    hands, boneyard = game.deal
    hands_list = [list(h) for h in hands]
    stock = list(boneyard)
    i, j = rng.randrange(len(hands_list[seat])), len(stock) - 1 - rng.randrange(2)
    hands_list[seat][i], stock[j] = stock[j], hands_list[seat][i]
    return Round.from_deal(hands_list, stock, game.leader)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_r21_rounds_differing_only_in_hidden_tiles_give_identical_views(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    a = Round.new(players, seed=seed)
    hidden_seat = rng.randrange(1, players)
    b = swapped_twin(a, hidden_seat, rng)
    assert a.hand(hidden_seat) != b.hand(hidden_seat)
    while not a.is_over:
        for seat in range(players):
            if seat == hidden_seat:
                continue
            va, vb = a.view(seat), b.view(seat)
            assert va == vb
            assert json.dumps(va.to_dict()) == json.dumps(vb.to_dict())
        common = [x for x in a.legal_actions() if x in b.legal_actions()]
        if not common:
            break
        action = rng.choice(common)
        a.apply(action)
        b.apply(action)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_r21_a_view_names_no_tile_but_the_own_hand_and_the_line(
    players: int, seed: int, steps: int
) -> None:
    game = Round.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(players):
        view = game.view(seat)
        text = json.dumps(view.to_dict())
        named = {t for t in (Tile.parse(f"[{a}|{b}]") for a in range(7) for b in range(a, 7))
                 if str(t) in text}  # fmt: skip
        if game.is_over:
            assert named == {t for p in range(players) for t in game.hand(p)} | set(game.line.tiles)
        else:
            assert named == set(game.hand(seat)) | set(game.line.tiles)
            assert view.revealed_hands == ()


def test_r21_view_contents() -> None:
    game = deal(
        [
            ["[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]"],
            ["[1|1]", "[1|2]", "[1|3]", "[1|4]", "[1|5]", "[1|6]", "[2|2]"],
        ],
        top=["[5|6]"],
    )
    game.apply(Place(Tile(0, 3), None))
    game.apply(DRAW)
    view = game.view(0)
    assert view.player == 0 and view.current_player == 1 and not view.legal_actions
    assert view.hand == tuple(
        Tile.parse(t) for t in ["[0|0]", "[0|1]", "[0|2]", "[0|4]", "[0|5]", "[0|6]"]
    )
    assert view.hand_sizes == (6, 8) and view.boneyard_size == 13 and view.drawable == 11
    assert view.legal_actions == () and view.scores == (0, 0) and view.target == 100
    assert view.history == ((0, Place(Tile(0, 3), None)), (1, DRAW))
    assert view.draws == (0, 1)
    data = view.to_dict()
    assert data["history"] == [{"player": 0, "action": "[0|3]"}, {"player": 1, "action": "draw"}]
    assert data["line"]["ends"][1] == {"end": 1, "value": 3, "tile": "[0|3]", "port": "high end"}
    assert "[5|6]" not in json.dumps(data)  # the drawn tile is seat 1's secret
    mine = game.view(1)
    assert mine.current_player == mine.player and mine.legal_actions == tuple(game.legal_actions())
    assert Tile(5, 6) in mine.hand


def test_r21_known_missing_values_come_from_passes() -> None:
    from test_round import BLOCK_BONEYARD, BLOCK_HANDS, BLOCK_PLAY

    game = Round.from_deal(BLOCK_HANDS, BLOCK_BONEYARD, leader=0)
    for text in BLOCK_PLAY[:10]:
        game.apply(parse_action(text))
    view = game.view(1)
    assert game.history[-1] == (3, PASS)
    assert view.lacking == (frozenset(), frozenset(), frozenset(), frozenset({0}))
    assert game.lacking(3) == frozenset({0})


def test_r21_all_hands_are_revealed_when_the_round_ends() -> None:
    game = Round.new(2, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(0)
    assert view.is_over and view.outcome == game.outcome
    assert view.revealed_hands == (game.hand(0), game.hand(1))


def test_r21_the_scores_in_a_view_include_a_finished_rounds_credits() -> None:
    game = Round.new(2, seed=3, scores=(40, 55))
    assert game.view(0).scores == (40, 55)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    outcome = game.outcome
    assert outcome is not None and outcome.points > 0
    expected = tuple(s + c for s, c in zip((40, 55), outcome.credits, strict=True))
    assert game.view(1).scores == expected and game.scores == (40, 55)
    assert game.sample_hidden(0, rng).view(0).scores == expected


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_r21_the_public_view_names_only_the_line_and_is_every_seats_view_without_a_hand(
    players: int, seed: int, steps: int
) -> None:
    """``view(None)``, a spectator's: no hand and no legal actions, and every public
    field the same as a seat's; no tile named but the line's until the round is over."""
    game = Round.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    public = game.view(None)
    assert public.player is None and public.hand == () and public.legal_actions == ()
    data = public.to_dict()
    assert data["player"] is None and data["hand"] == [] and data["legal_actions"] == []
    for seat in range(players):
        seat_data = game.view(seat).to_dict()
        for key in set(data) - {"player", "hand", "legal_actions", "history"}:
            assert data[key] == seat_data[key], key
        # A seat's own draws name their tile in its history; the rest is the same.
        without_tiles = [{k: v for k, v in e.items() if k != "tile"} for e in seat_data["history"]]
        assert data["history"] == without_tiles
        assert [e["tile"] for e in seat_data["history"] if "tile" in e] == [
            str(t) for t in game.drawn_tiles(seat)
        ]
        assert all(e["player"] == seat for e in seat_data["history"] if "tile" in e)
    text = json.dumps(data)
    named = {t for t in (Tile.parse(f"[{a}|{b}]") for a in range(7) for b in range(a, 7))
             if str(t) in text}  # fmt: skip
    if not game.is_over:
        assert named == set(game.line.tiles)


def test_the_public_view_cannot_be_sampled_or_encoded() -> None:
    import pytest

    from draw_dominoes.round import ViewSampler

    with pytest.raises(ValueError, match="public view"):
        ViewSampler(Round.new(2, seed=1).view(None))
