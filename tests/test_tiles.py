"""Tiles and their notation (R1)."""

from __future__ import annotations

import copy
import pickle

import pytest

from draw_dominoes import ALL_TILES, VALUE_MASKS, Tile


def test_r1_the_set_is_the_28_tiles_in_order() -> None:
    assert len(ALL_TILES) == 28 == len(set(ALL_TILES))
    assert str(ALL_TILES[0]) == "[0|0]" and str(ALL_TILES[-1]) == "[6|6]"
    assert [str(t) for t in ALL_TILES[:8]] == [
        "[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[1|1]",
    ]  # fmt: skip
    assert all(t.index == i and t.bit == 1 << i for i, t in enumerate(ALL_TILES))


def test_r1_low_half_first_and_4_1_is_1_4() -> None:
    assert Tile(4, 1) == Tile(1, 4)
    assert Tile(4, 1) is Tile(1, 4)
    assert str(Tile(4, 1)) == "[1|4]"
    assert Tile.parse("[4|1]") == Tile(1, 4)
    assert (Tile(4, 1).low, Tile(4, 1).high) == (1, 4)
    assert repr(Tile(4, 1)) == "Tile(1, 4)"


def test_pips_and_doubles() -> None:
    assert Tile(6, 6).pips == 12 and Tile(0, 0).pips == 0 and Tile(1, 4).pips == 5
    assert Tile(3, 3).is_double and not Tile(3, 4).is_double
    assert sum(t.is_double for t in ALL_TILES) == 7


@pytest.mark.parametrize("text", ["[1|4]", " [1|4] ", "[ 1 | 4 ]", "[4|1]"])
def test_parse_accepts(text: str) -> None:
    assert Tile.parse(text) is Tile(1, 4)


@pytest.mark.parametrize("text", ["[1|7]", "[1-4]", "1|4", "[1|4", "[|4]", "", "[14]", "[a|b]"])
def test_parse_rejects_malformed_text_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="not a tile") as info:
        Tile.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("args", [(7, 1), (-1, 0), (1.0, 2), (True, 1), ("1", "2")])
def test_constructor_rejects_non_tiles(args: tuple[object, object]) -> None:
    with pytest.raises(ValueError, match="not a tile"):
        Tile(*args)  # type: ignore[arg-type]


def test_tiles_are_immutable_and_survive_copy_and_pickle() -> None:
    tile = Tile(2, 5)
    with pytest.raises(AttributeError):
        tile.low = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(tile)) is tile
    assert copy.deepcopy(tile) is tile
    assert sorted([Tile(6, 6), Tile(0, 1), Tile(0, 0)]) == [Tile(0, 0), Tile(0, 1), Tile(6, 6)]
    assert len({Tile(1, 4), Tile(4, 1)}) == 1


def test_value_masks_hold_the_seven_tiles_showing_each_value() -> None:
    for value, mask in enumerate(VALUE_MASKS):
        members = [t for t in ALL_TILES if mask & t.bit]
        assert len(members) == 7
        assert all(value in (t.low, t.high) for t in members)
