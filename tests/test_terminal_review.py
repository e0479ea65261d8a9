"""The review inside the terminal app: from the match's end, with the luck of the deal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from draw_dominoes.analysis import cache_path
from draw_dominoes.cli import main
from draw_dominoes.match import Match
from draw_dominoes.record import loads
from draw_dominoes.terminal.board import Board
from draw_dominoes.terminal.notice import Notice
from draw_dominoes.terminal.review import ReviewSettings
from draw_dominoes.terminal.review_screen import ReviewNotice
from draw_dominoes.terminal.saves import SavedSeat
from test_terminal_board import run, screen_text

GOLDEN_MATCH = Path(__file__).parent / "data" / "golden_match_greedy_random_seed2026.json"
FAST = ReviewSettings(iterations=20, playouts=2, workers=1)
"""A small search: the screen is tested here, the figures in test_analysis_luck.py."""


class Said(NamedTuple):
    """What the screens say, in one language."""

    over: str
    key: str
    accuracy: re.Pattern[str]
    luck: re.Pattern[str]
    scored: str
    title: str


SAID = {
    "en": Said(
        over="The match is over",
        key="r: review this match",
        accuracy=re.compile(r"Player 2: accuracy \d+%"),
        luck=re.compile(r"The deal was worth [+−]?\d+ points to you \(give or take \d+\);"),
        scored="you scored −110 against the others",
        title="Review of the match",
    ),
    "de": Said(
        over="Die Partie ist beendet",
        key="r: Partie analysieren",
        accuracy=re.compile(r"Spieler 2: Genauigkeit \d+ %"),
        luck=re.compile(r"Die Verteilung der Steine war [+−]?\d+ Punkte für dich wert"),
        scored="du hast gegenüber den anderen −110 erzielt",
        title="Analyse der Partie",
    ),
}


def one_move_from_the_end() -> Match:
    """The golden match (greedy against random, 110 to 0) but for its last action: the
    second seat's pass that blocks the fourth round and ends the match."""
    golden = loads(GOLDEN_MATCH.read_text())
    assert isinstance(golden, Match)
    match = Match(2, seed=golden.seed, first_leader=golden.first_leader)
    actions = [action for played in golden.rounds for action in played.actions]
    for action in actions[:-1]:
        match.apply(action)
    assert str(actions[-1]) == "pass" and match.current_player == 1
    return match


async def wait_for(pilot, ready, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(1500):
        await pilot.pause(0.02)
        if ready():
            return
    raise AssertionError(f"no {what} on the screen")


FRAME = "█▀▄▁▂▃▅▆▇ "
"""The notice's thick border and its scroll bar, around every line of its text."""


def every_line(texts: list[str]) -> str:
    """The screens read while scrolling as one text: the frame left out, the lines joined."""
    lines = (line.strip(FRAME) for text in texts for line in text.splitlines())
    return " ".join(" ".join(line.split()) for line in lines if line)


@pytest.mark.parametrize("size", [(60, 20), (120, 40)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_match_end_offers_the_review_with_the_luck_of_the_deal(
    tmp_path: Path, lang: str, size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    said = SAID[lang]
    save = tmp_path / "save.json"
    app = Board(
        one_move_from_the_end(),
        (SavedSeat("greedy"), SavedSeat("human")),
        lang,
        save,
        pace=0,
        review=FAST,
    )

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, app.my_turn, "turn")
            await pilot.press("p")  # the last action: the round is blocked, the match over
            await wait_for(pilot, lambda: isinstance(app.screen, Notice), "round's end")
            await pilot.press("enter")
            await wait_for(pilot, lambda: said.over in screen_text(app), "match's end")
            assert said.key in screen_text(app)
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, ReviewNotice), "review")
            review = app.screen
            assert isinstance(review, ReviewNotice)
            await wait_for(pilot, lambda: review.reviewed is not None, "finished review")
            await pilot.pause()
            seen = [screen_text(app)]
            assert said.title in seen[0] and "b: " in seen[0]
            assert said.accuracy.search(every_line(seen)), seen[0]
            for _ in range(12):  # scroll to the end, as a person would
                await pilot.press("pagedown")
                seen.append(screen_text(app))
            everything = every_line(seen)
            assert said.luck.search(everything), everything
            assert said.scored in everything
            kept = json.loads(cache_path(save).read_text())  # where review FILE looks
            assert kept["analyses"] and kept["deals"]
            await pilot.press("b")  # back to the match's end, and again: kept, so at once
            await wait_for(pilot, lambda: said.over in screen_text(app), "match's end again")
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, ReviewNotice), "review again")
            again = app.screen
            assert isinstance(again, ReviewNotice)
            await wait_for(pilot, lambda: again.reviewed is not None, "kept review")
            assert again.reviewed == review.reviewed
            await pilot.press("enter")  # leave
            await wait_for(pilot, lambda: app.finished, "farewell")

    run(scenario)
    assert app.return_value is not None and "review" in "\n".join(app.return_value.lines)
    kept = cache_path(save).read_text()
    # The same review from the shell finds it all kept: nothing is worked out again.
    options = ["--iterations", "20", "--playouts", "2", "--workers", "1", "--lang", lang]
    assert main(["review", str(save), *options]) == 0
    assert said.luck.search(" ".join(capsys.readouterr().out.split()))
    assert cache_path(save).read_text() == kept


def test_leaving_while_the_review_is_worked_out_stops_it(tmp_path: Path) -> None:
    """A slow review (the default search) is left at once: the app closes without waiting
    for it to finish."""
    save = tmp_path / "save.json"
    slow = ReviewSettings(workers=1)
    app = Board(
        one_move_from_the_end(), (SavedSeat("greedy"), SavedSeat("human")), "en", save, pace=0
    )
    assert app.review_settings == ReviewSettings()  # as draw-dominoes review's: the default
    app.review_settings = slow

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, app.my_turn, "turn")
            await pilot.press("p")
            await wait_for(pilot, lambda: isinstance(app.screen, Notice), "round's end")
            await pilot.press("enter")
            await wait_for(pilot, lambda: "The match is over" in screen_text(app), "match's end")
            await pilot.press("r")
            await wait_for(pilot, lambda: "Reviewing every decision: " in screen_text(app), "line")
            await pilot.press("q")
            await wait_for(pilot, lambda: app.finished, "farewell")

    run(scenario)
    assert not cache_path(save).exists()  # nothing finished, nothing kept
