"""The core's integer fast path: action ids 0 … 57, apply_id, and a chosen draw (R2, R5, R8)."""

from __future__ import annotations

import random

import pytest

from draw_dominoes import ALL_TILES, DRAW, PASS, IllegalActionError, Place, Round
from draw_dominoes.actions import ACTION_IDS, action_for_id


def test_every_action_has_an_id_that_names_it_back() -> None:
    assert ACTION_IDS == 58 and DRAW.id == 56 and PASS.id == 57
    for tile in ALL_TILES:
        for end in (0, 1):
            place = Place(tile, end)
            assert place.id == 2 * tile.index + end
            assert action_for_id(place.id, opening=False) is place
        opening = Place(tile, None)
        assert opening.id == 2 * tile.index  # the opening shares its tile's end-0 id
        assert action_for_id(opening.id, opening=True) is opening
    with pytest.raises(IllegalActionError, match="the opening with"):
        action_for_id(1, opening=True)
    for wrong in (-1, 58, True, 2.0):
        with pytest.raises(ValueError, match="0 to 57"):
            action_for_id(wrong, opening=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playing_by_ids_is_playing_by_actions(players: int) -> None:
    for seed in range(20):
        by_action, by_id = Round.new(players, seed=seed), Round.new(players, seed=seed)
        rng = random.Random(seed)
        while not by_action.is_over:
            actions = by_action.legal_actions()
            ids = by_id.legal_action_ids()
            assert ids == sorted(a.id for a in actions) and ids == sorted(set(ids))
            choice = rng.choice(actions)
            by_action.apply(choice)
            by_id.apply_id(choice.id)
        assert by_id.is_over and by_id.outcome == by_action.outcome
        assert by_id.history == by_action.history


def test_r8_an_illegal_id_changes_nothing() -> None:
    round_ = Round.new(2, seed=4)
    before = (round_.history, round_.hand(0), round_.hand(1))
    illegal = next(i for i in range(56) if i not in round_.legal_action_ids())
    with pytest.raises(IllegalActionError):
        round_.apply_id(illegal)
    assert (round_.history, round_.hand(0), round_.hand(1)) == before


def test_a_chance_node_chooses_the_tile_drawn() -> None:
    round_ = Round.new(2, seed=7)
    twin = round_.clone()
    seat = round_.current_player
    chosen = round_.boneyard[5]  # not the top tile
    round_.draw_tile(chosen)
    assert chosen in round_.hand(seat) and chosen not in round_.boneyard
    assert round_.history[-1] == (seat, DRAW) and round_.current_player == seat  # R6
    assert round_.seed is None  # the boneyard was reordered: the seed no longer deals it
    assert twin.boneyard[5] is chosen and twin.seed == 7  # a clone's boneyard is untouched
    held = round_.hand(seat)[0]
    before = (round_.history, round_.boneyard)
    with pytest.raises(IllegalActionError, match="not in the boneyard"):
        round_.draw_tile(held)
    assert (round_.history, round_.boneyard) == before


def test_r2_a_chosen_draw_from_a_closed_boneyard_is_refused() -> None:
    round_ = Round.new(4, seed=1)
    while round_.drawable:
        round_.apply(DRAW)
    with pytest.raises(IllegalActionError) as refused:
        round_.draw_tile(round_.boneyard[0])
    assert refused.value.code == "no_draw"


def test_a_view_does_not_rebuild_the_line() -> None:
    """The line is kept up to date as tiles are placed; views share it until the next one."""
    round_ = Round.new(3, seed=11)
    rng = random.Random(2)
    for _ in range(12):
        if round_.is_over:
            break
        before = round_.view(round_.current_player).line
        assert round_.view(0).line is before and round_.line is before
        round_.apply(rng.choice(round_.legal_actions()))
    assert round_.line == type(round_.line).from_placements(list(round_.line.placements))
