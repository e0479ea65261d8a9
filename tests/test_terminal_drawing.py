"""The tiles as the terminal draws them: halves, doubles crosswise (R10), the snaking line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import NamedTuple

import pytest
from rich.text import Text

from draw_dominoes.actions import Place
from draw_dominoes.match import Match
from draw_dominoes.terminal.board import Board, TileCell
from draw_dominoes.terminal.drawing import END, FACE, PIPS, hand_tile, line_rows, snake_rows
from draw_dominoes.terminal.saves import SavedSeat
from draw_dominoes.tiles import Tile
from test_terminal_board import screen_text

LINE = [(6, 6), (6, 2), (2, 2), (2, 5), (5, 3), (3, 1), (1, 1), (1, 4), (4, 0), (0, 6)]
"""A line of ten tiles, three doubles among them, from the left end (6) to the right (6)."""


def styles_at(text: Text, column: int) -> str:
    """The style of one column of a drawn row, as its spans give it."""
    return " ".join(str(span.style) for span in text.spans if span.start <= column < span.end)


def test_a_flat_row_lays_every_tile_in_order_in_numerals() -> None:
    (row,) = line_rows(LINE, 60, tall=False, numerals=True)
    assert row.plain.rstrip() == "6─6 6│2 2─2 2│5 5│3 3│1 1─1 1│4 4│0 0│6"
    assert row.cell_len == 60  # the felt fills the room


def test_doubles_stand_crosswise_across_a_tall_row() -> None:
    """R10: a double is laid crosswise: a half above the line and a half below it, one
    pip wide, where a tile along the line lies on the middle row."""
    rows = [text.plain for text in line_rows(LINE[:3], 20, tall=True, numerals=True)]
    assert rows == [
        " 6         2        ",
        "───  6│2  ───       ",
        " 6         2        ",
    ]
    pips = [text.plain for text in line_rows(LINE[:3], 20, tall=True)]
    assert pips[0].startswith(f" {PIPS[6]}         {PIPS[2]} ")
    assert pips[1].startswith(f"───  {PIPS[6]}│{PIPS[2]}  ───")


def test_the_line_snakes_back_so_both_ends_stay_in_sight() -> None:
    """Rows as long as the room; every other row runs from right to left, starting at the
    right edge below the row above's last tile, each tile turned so that touching halves
    stay side by side."""
    rows = [text.plain for text in line_rows(LINE, 16, tall=False, numerals=True)]
    assert rows == ["6─6 6│2 2─2 2│5 ", " 4│1 1─1 1│3 3│5", "4│0 0│6         "]
    assert snake_rows(LINE, 16, tall=False) == 3
    assert snake_rows(LINE, 16, tall=True) == 4  # standing, a tile takes more room
    assert len(line_rows(LINE, 16, tall=True)) == 4 * 3
    shorter = [text.plain for text in line_rows(LINE[:6], 12, tall=False, numerals=True)]
    assert shorter == ["6─6 6│2 2─2 ", " 1│3 3│5 5│2"]


@pytest.mark.parametrize("tall", [True, False])
def test_the_outer_halves_of_the_line_are_marked_as_its_ends(tall: bool) -> None:
    rows = line_rows(LINE[:4], 40, tall=tall, numerals=True)
    along = rows[1] if tall else rows[0]  # the row the tiles along the line lie on
    assert END in styles_at(along, along.plain.index("2│5") + 2)  # the right end: 5
    assert END in styles_at(rows[0], 1 if tall else 0)  # the left end: the double 6
    assert END not in styles_at(along, along.plain.index("6│2"))
    assert END not in styles_at(along, along.plain.index("2│5"))


def test_pips_and_numerals() -> None:
    assert hand_tile((0, 5), numerals=False).plain == f"  │{PIPS[5]} "
    assert hand_tile((0, 5), numerals=True).plain == " 0│5 "
    assert FACE in str(hand_tile((3, 4), numerals=True).style)
    assert line_rows([], 20, tall=True) == [] and snake_rows([], 20, tall=True) == 0


def test_a_tile_wider_than_the_room_still_gets_a_row_of_its_own() -> None:
    rows = line_rows([(1, 2), (2, 3)], 3, tall=False, numerals=True)
    assert [text.plain for text in rows] == ["1│2", "3│2"]


def board_at(
    tmp_path: Path, size: tuple[int, int], placed: int, numerals: bool = False
) -> tuple[str, Board, list[Cell]]:
    """The board of a two-player match after ``placed`` tiles are on the line (drawing
    when nothing fits), seen at ``size`` when the person is next to move."""
    match = Match.new(2, seed=11)
    while len(match.current_round.line.faces) < placed or match.current_player != 0:
        view = match.current_round.view(match.current_player)
        places = [a for a in view.legal_actions if isinstance(a, Place)]
        match.apply(places[0] if places else view.legal_actions[0])
    save = tmp_path / "save.json"
    app = Board(
        match, (SavedSeat("human"), SavedSeat("greedy")), "en", save, pace=0, numerals=numerals
    )
    seen: list[str] = []
    cells: list[Cell] = []

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if app.started and app.my_turn():
                    break
            await pilot.pause(0.1)
            seen.append(screen_text(app))
            for cell in app.table.query(TileCell):
                shown = str(cell.render())
                cells.append(Cell(cell.tile, cell.number, cell.has_class("raised"), shown))
            await pilot.press("q")

    asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    return seen[0], app, cells


class Cell(NamedTuple):
    """A tile of the rack as it was shown."""

    tile: Tile
    number: int
    raised: bool
    shown: str


def test_with_room_the_tiles_stand_tall_and_the_ones_that_fit_are_raised(tmp_path: Path) -> None:
    text, app, cells = board_at(tmp_path, (120, 40), placed=5)
    assert set(PIPS[1:]) & set(text) and "*" not in text
    hand = app.match.current_round.view(0)
    fits = {a.tile for a in hand.legal_actions if isinstance(a, Place)}
    assert fits and any(cell.tile not in fits for cell in cells)
    for cell in cells:
        assert cell.raised
        upper, lower = cell.shown.split("\n")
        # the number and the tile on the upper row when it fits, on the lower one if not
        assert (f"{cell.number} " in upper) == (cell.tile in fits), (upper, lower)


def test_a_long_line_in_a_small_terminal_lies_flat_in_numerals(tmp_path: Path) -> None:
    text, app, cells = board_at(tmp_path, (60, 20), placed=14)
    line = app.match.current_round.line.faces
    drawn = [
        row.rstrip("│ ") for row in text.splitlines() if row.startswith("│ ") and "│" in row[2:]
    ]
    assert not set(PIPS[1:]) & set(text)
    flat = {f"{a}│{b}" if a != b else f"{a}─{a}" for a, b in line}
    turned = {f"{b}│{a}" for a, b in line if a != b}
    laid = {piece for row in drawn for piece in row[2:].split() if len(piece) == 3}
    assert laid & (flat | turned) and len(laid & (flat | turned)) >= 10, drawn
    assert "*" in text  # the tiles that fit are marked, not by colour alone
    assert cells and not any(cell.raised for cell in cells)


def test_numerals_can_be_asked_for(tmp_path: Path) -> None:
    text, _, _ = board_at(tmp_path, (120, 40), placed=3, numerals=True)
    assert not set(PIPS[1:]) & set(text)
    assert "*" not in text  # still standing tall, with numbers on the halves
