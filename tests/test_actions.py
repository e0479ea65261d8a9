"""Actions and their text notation."""

from __future__ import annotations

import pickle

import pytest

from draw_dominoes import ALL_TILES, DRAW, PASS, Draw, Pass, Place, Tile, parse_action

EVERY_ACTION = [Place(t, end) for t in ALL_TILES for end in (None, 0, 1)] + [Draw(), Pass()]


def test_every_action_round_trips_through_text() -> None:
    assert len(EVERY_ACTION) == 86
    for action in EVERY_ACTION:
        assert parse_action(str(action)) == action
    assert len({str(a) for a in EVERY_ACTION}) == 86


def test_notation() -> None:
    assert str(Place(Tile(1, 4), None)) == "[1|4]"
    assert str(Place(Tile(1, 1), 0)) == "[1|1]@0"
    assert str(Place(Tile(4, 4), 1)) == "[4|4]@1"
    assert (str(Draw()), str(Pass())) == ("draw", "pass")
    assert parse_action(" [4|1] @ 1 ") == Place(Tile(1, 4), 1)
    assert parse_action("DRAW") is DRAW and parse_action("Pass") is PASS
    assert Place("[4|1]", 0) is Place(Tile(1, 4), 0)


def test_actions_are_small_frozen_values() -> None:
    place = Place(Tile(2, 3), 0)
    assert place is Place(Tile(3, 2), 0) and place.tile == Tile(2, 3) and place.end == 0
    assert Draw() is DRAW and Pass() is PASS and Draw() != Pass()
    assert place != Place(Tile(2, 3), 1) and place != Place(Tile(2, 3), None)
    with pytest.raises(AttributeError):
        place.end = 1  # type: ignore[misc]
    for action in (place, DRAW, PASS):
        assert pickle.loads(pickle.dumps(action)) is action
    assert repr(place) == "Place(Tile(2, 3), 0)" and repr(DRAW) == "Draw()"


@pytest.mark.parametrize(
    "text", ["", "drew", "[1|4]@2", "[1|4]@", "[1|4]@left", "[1|7]@0", "[1|4] 0", "pass!", "@0"]
)
def test_malformed_action_text_is_a_value_error_naming_it(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_action(text)
    assert repr(text) in str(info.value) or repr(text.strip()[:5]) in str(info.value)


@pytest.mark.parametrize("end", [2, -1, "0", 0.0, True])
def test_place_rejects_bad_ends(end: object) -> None:
    with pytest.raises(ValueError, match="end"):
        Place(Tile(1, 2), end)  # type: ignore[arg-type]
