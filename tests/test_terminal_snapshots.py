"""Snapshots of the terminal's screens at 60x20, 80x24 and 120x40, in English and German:
the board with a double crosswise on the line, a four-player round's end, the match's end
and the resume list. Each is the screen's text, kept in tests/data/snapshots; the
screenshot beside it (test-artifacts/, SVG) is for looking at. After a change that is
meant, ``UPDATE_SNAPSHOTS=1 pytest tests/test_terminal_snapshots.py`` rewrites them, and
the new ones are read before they are committed."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from draw_dominoes.actions import Action, Place
from draw_dominoes.match import Match
from draw_dominoes.terminal import saves
from draw_dominoes.terminal.board import Board
from draw_dominoes.terminal.notice import Notice
from draw_dominoes.terminal.resume import ResumeChooser
from draw_dominoes.terminal.saves import SavedSeat
from test_terminal_board import ARTIFACTS, play_a_turn_by_keys, screen_text, settle
from test_terminal_review import one_move_from_the_end

SNAPSHOTS = Path(__file__).parent / "data" / "snapshots"
SIZES = [(60, 20), (80, 24), (120, 40)]
HUMAN, GREEDY = SavedSeat("human"), SavedSeat("greedy")


@pytest.fixture(autouse=True)
def steady(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same text on every machine: saves under a relative path, times in UTC, and the
    commands the screens suggest written as a shell finds them (this installation's script
    first on PATH)."""
    monkeypatch.chdir(tmp_path)
    scripts = Path(sys.executable).parent
    monkeypatch.setenv("PATH", f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def compare(app: App[Any], name: str, size: tuple[int, int], lang: str) -> None:
    width, height = size
    label = f"{name}-{width}x{height}-{lang}"
    text = screen_text(app)
    ARTIFACTS.mkdir(exist_ok=True)
    app.save_screenshot(str(ARTIFACTS / f"{label}.svg"))
    snapshot = SNAPSHOTS / f"{label}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == snapshot.read_text(encoding="utf-8"), text
    lines = text.splitlines()
    assert len(lines) <= height and all(len(line) <= width for line in lines)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), timeout=240))


def with_a_double_laid() -> Match:
    """A two-player match a few tiles in, a double on the line, the person next to move."""
    match = Match.new(2, seed=4)
    line = match.current_round.line
    while (
        len(line.faces) < 7
        or not any(low == high > 0 for low, high in line.faces)  # pips to see
        or match.current_player != 0
    ):
        view = match.current_round.view(match.current_player)
        places = [a for a in view.legal_actions if isinstance(a, Place)]
        doubles = [a for a in places if a.tile.low == a.tile.high]
        chosen: list[Action] = [*doubles, *places, *view.legal_actions]
        match.apply(chosen[0])
        line = match.current_round.line
    return match


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_board_with_a_double_crosswise(size: tuple[int, int], lang: str) -> None:
    match = with_a_double_laid()
    app = Board(match, (HUMAN, GREEDY), lang, Path("saves/match.json"), pace=0)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.pause(0.1)
            compare(app, "board", size, lang)
            await pilot.press("q")

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_end_of_a_four_player_round(size: tuple[int, int], lang: str) -> None:
    seats = (HUMAN, GREEDY, GREEDY, GREEDY)
    app = Board(Match.new(4, seed=8), seats, lang, Path("saves/match.json"), pace=0)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            while not isinstance(app.screen, Notice):
                await play_a_turn_by_keys(app, pilot)
                await settle(app, pilot)
            await pilot.pause(0.1)
            compare(app, "round-end-4", size, lang)
            await pilot.press("q")

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_end_of_the_match(size: tuple[int, int], lang: str) -> None:
    seats = (GREEDY, HUMAN)
    app = Board(one_move_from_the_end(), seats, lang, Path("saves/match.json"), pace=0)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("p")  # blocks the round, and the match is over
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot, until=lambda: "seed" in screen_text(app).lower())
            await pilot.pause(0.1)
            compare(app, "match-end", size, lang)
            await pilot.press("enter")

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_resume_list(size: tuple[int, int], lang: str) -> None:
    directory = Path("saves")
    directory.mkdir()
    for age, seed in enumerate([1, 2, 3]):
        path = directory / f"match-{seed}.json"
        saves.write_save(path, (HUMAN, GREEDY, GREEDY), lang, Match.new(3, seed=seed))
        stamp = 1_790_000_000 * 10**9 - age * 3600 * 10**9
        os.utime(path, ns=(stamp, stamp))
    (directory / "match-4.json").write_text('{"format": "draw-dominoes-terminal-save"')
    listed = saves.unfinished(directory)
    app = ResumeChooser(listed.saves, lang, listed.left_out)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.1)
            compare(app, "resume-list", size, lang)
            await pilot.press("escape")

    run(scenario)
