"""The full-screen terminal game, driven by keys and clicks through Textual's own test pilot."""

from __future__ import annotations

import asyncio
import html
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from draw_dominoes import record
from draw_dominoes.actions import Draw, Pass, Place
from draw_dominoes.match import Match
from draw_dominoes.terminal import saves
from draw_dominoes.terminal.board import Board, TileCell
from draw_dominoes.terminal.hands import hand_order
from draw_dominoes.terminal.notice import Notice
from draw_dominoes.terminal.resume import ResumeChooser
from draw_dominoes.terminal.saves import SavedSeat, read_save
from draw_dominoes.terminal.setup import Setup, SetupChoice

ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
TILE = re.compile(r"\[(\d)\|(\d)\]|(\d)[│─](\d)")
"""A tile as the log writes it ([1|4]) or as the board draws it in numerals (1│4, 4─4)."""


def tiles_seen(text: str) -> set[str]:
    """Every tile a screen shows, in either form, written as str(Tile) writes it."""
    seen = set()
    for groups in TILE.findall(text):
        low, high = sorted(int(pips) for pips in groups if pips)
        seen.add(f"[{low}|{high}]")
    return seen


HUMAN, GREEDY, RANDOM = SavedSeat("human"), SavedSeat("greedy"), SavedSeat("random")


def screen_text(app: App[Any]) -> str:
    """What the terminal shows, line by line, read from Textual's own screenshot (an SVG
    whose text runs sit at x = column × 12.2 on clip paths named line-N)."""
    svg = app.export_screenshot()
    width, _ = app.size
    rows: dict[int, list[str]] = {}
    runs = r'<text [^>]*?x="([\d.]+)" [^>]*?clip-path="url\(#[\w-]*?-line-(\d+)\)">(.*?)</text>'
    for x, line, text in re.findall(runs, svg):
        row = rows.setdefault(int(line), [" "] * width)
        column = round(float(x) / 12.2)
        for offset, character in enumerate(html.unescape(text).replace("\xa0", " ")):
            if column + offset < width:
                row[column + offset] = character
    return "\n".join("".join(rows.get(n, [])).rstrip() for n in range(max(rows, default=-1) + 1))


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), timeout=240))


def new_board(tmp_path: Path, seats: tuple[SavedSeat, ...], seed: int, lang: str = "en", **options):
    match = Match.new(len(seats), seed=seed)
    return Board(match, seats, lang, tmp_path / "save.json", pace=0, **options)


async def settle(app: Board, pilot, until: Callable[[], bool] | None = None) -> None:
    """Wait until a person must act: their turn, or a screen of its own (bots think in threads)."""
    for _ in range(400):
        await pilot.pause(0.02)
        if until is not None:
            if until():
                return
        elif app.my_turn() or isinstance(app.screen, Notice) or app.finished:
            return
    raise AssertionError("nothing happened on the board")


async def press_number(pilot, number: int) -> None:
    """A tile's number, as a person types it (two digits in quick succession for 10 and up)."""
    await pilot.press(*str(number))


async def play_a_turn_by_keys(app: Board, pilot) -> None:
    """The first legal placement by its number and Enter (and ←/→ at "which end?"), else draw
    or pass: only keys, as a person would."""
    view = app.match.view(app.viewer())
    assert view.player is not None
    hand = hand_order(view)
    places = [a for a in view.legal_actions if isinstance(a, Place)]
    if places:
        target = places[-1]
        await press_number(pilot, hand.index(target.tile) + 1)
        await pilot.press("enter")
        if app.choosing is not None:
            await pilot.press("left" if target.end == 0 else "right")
    elif Draw() in view.legal_actions:
        await pilot.press("d")
    else:
        assert Pass() in view.legal_actions
        await pilot.press("p")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_whole_seeded_match_against_a_bot_by_keys(tmp_path: Path, lang: str) -> None:
    app = new_board(tmp_path, (HUMAN, RANDOM), seed=7, lang=lang)
    notices: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while not app.finished:
                await settle(app, pilot)
                if app.finished:
                    break
                if isinstance(app.screen, Notice):
                    notices.append(screen_text(app))
                    await pilot.press("enter")
                    continue
                text = screen_text(app)
                assert "Your turn" in text or "Du bist am Zug" in text
                assert app.last_said[:24] in " ".join(text.split()), text  # the newest move shows
                await play_a_turn_by_keys(app, pilot)

    run(scenario)
    saved = read_save(tmp_path / "save.json")
    assert saved.match.is_over
    assert record.dumps(saved.match) == record.dumps(app.match)
    over = "is over" if lang == "en" else "ist beendet"
    assert len([n for n in notices if over in n]) >= len(saved.match.rounds)
    assert app.return_value is not None
    result = "\n".join(app.return_value.lines)
    assert str(saved.match.seed) in result and "review" in result
    if lang == "de":
        assert any("Runde 1 ist beendet" in n for n in notices)
        assert "Der Startwert dieser Partie war" in result


def test_take_back_undoes_your_move_and_the_bots_reply_and_the_save_keeps_the_final_moves(
    tmp_path: Path,
) -> None:
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3)
    chosen: list[Place] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            before = record.dumps(app.match)
            view = app.match.view(0)
            places = [a for a in view.legal_actions if isinstance(a, Place)]
            first, other = places[0], places[1]
            chosen.extend([first, other])
            app.play(first)
            await settle(app, pilot)
            assert len(app.match.current_round.history) >= 2  # the bot replied
            await pilot.press("u")
            await settle(app, pilot)
            assert record.dumps(app.match) == before
            assert record.dumps(read_save(tmp_path / "save.json").match) == before
            assert "You take back your last move." in screen_text(app)
            await pilot.press("u")  # nothing more of this round to take back
            assert "no move of yours to take back" in screen_text(app)
            app.play(other)
            await settle(app, pilot)
            await pilot.press("h")
            assert "PageUp/PageDown" in " ".join(screen_text(app).split())
            if Draw() in app.match.view(0).legal_actions:
                moves = app.match.current_round.history
                await pilot.press("d")
                await settle(app, pilot)
                await pilot.press("u")  # the drawn tile is seen: no peeking at the boneyard
                assert "A draw cannot be taken back" in " ".join(screen_text(app).split())
                assert app.match.current_round.history[: len(moves) + 1][-1] == (0, Draw())
            await pilot.press("q")

    run(scenario)
    history = read_save(tmp_path / "save.json").match.current_round.history
    assert history[0] == (0, chosen[1])  # the record keeps only the move that stands
    assert all(action != chosen[0] for _, action in history)
    assert app.return_value is not None and "play --resume" in app.return_value.lines[0]


def test_take_back_works_after_a_resume(tmp_path: Path) -> None:
    """Quitting and resuming must not cost the person the take-back of their last move."""
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3)
    before: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            before.append(record.dumps(app.match))
            view = app.match.view(0)
            app.play(next(a for a in view.legal_actions if isinstance(a, Place)))
            await settle(app, pilot)
            await pilot.press("q")

    run(scenario)
    saved = read_save(tmp_path / "save.json")
    assert record.dumps(saved.match) != before[0]
    again = Board(saved.match, saved.seats, "en", saved.path, pace=0)

    async def resumed() -> None:
        async with again.run_test(size=(80, 24)) as pilot:
            await settle(again, pilot)
            await pilot.press("u")
            await settle(again, pilot)
            assert "You take back your last move." in screen_text(again)
            assert record.dumps(again.match) == before[0]
            await pilot.press("q")

    run(resumed)
    assert record.dumps(read_save(tmp_path / "save.json").match) == before[0]


def test_take_back_is_refused_at_a_hot_seat(tmp_path: Path) -> None:
    app = new_board(tmp_path, (HUMAN, HUMAN), seed=3)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, Notice)  # the first hand-over
            await pilot.press("enter")
            await settle(app, pilot)
            await play_a_turn_by_keys(app, pilot)
            await settle(app, pilot)
            await pilot.press("enter")  # the next person takes the keyboard
            await settle(app, pilot)
            await pilot.press("u")
            assert "only when every other seat is a bot" in screen_text(app)
            assert len(app.match.current_round.history) == 1

    run(scenario)


def test_hot_seat_hides_every_hand_until_the_next_person_has_the_keyboard(tmp_path: Path) -> None:
    seats = (SavedSeat("human", "Anna"), SavedSeat("human", "Ben"), GREEDY)
    app = new_board(tmp_path, seats, seed=2, numerals=True)  # every tile readable as text
    hand_overs: list[str] = []
    racks: dict[int, list[str]] = {}
    drew: set[int] = set()

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while len(hand_overs) < 6:
                await settle(app, pilot)
                round_ = app.match.current_round
                if isinstance(app.screen, Notice):
                    text = screen_text(app)
                    if "Pass the keyboard to" in text:
                        hand_overs.append(text)
                        assert not list(app.table.query(TileCell))  # no hand behind it either
                        secret = {str(t) for seat in (0, 1) for t in round_.hand(seat)}
                        assert not tiles_seen(text) & secret, text
                    await pilot.press("enter")
                    continue
                seat = app.viewer()
                view = app.match.view(seat)
                if Draw() in view.legal_actions and len(view.hand) < 9 and seat not in drew:
                    drew.add(seat)  # a draw each, so the other person's log could tell it
                    await pilot.press("d")
                    await settle(app, pilot)
                    continue
                shown = [cell.tile for cell in app.screen.query(TileCell)]
                assert shown == hand_order(round_.view(seat))  # the rack is the keyboard's own hand
                racks[seat] = [str(t) for t in shown]
                other = 1 - seat
                hidden = {str(t) for t in round_.hand(other)}
                assert tiles_seen(screen_text(app))
                assert not tiles_seen(screen_text(app)) & hidden
                await play_a_turn_by_keys(app, pilot)
            await pilot.press("q")

    run(scenario)
    assert drew == {0, 1} and set(racks) == {0, 1}
    assert "Anna" in hand_overs[0] and "press Enter" in hand_overs[0]


def test_quit_and_resume_number_the_hand_as_before_and_tell_your_own_draws(tmp_path: Path) -> None:
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=11)
    order: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            if app.match.current_round.history == ():
                await play_a_turn_by_keys(app, pilot)
                await settle(app, pilot)
            await pilot.press("d")  # drawing is always allowed while the boneyard can be drawn
            await settle(app, pilot)
            order.extend(str(cell.tile) for cell in app.screen.query(TileCell))
            await pilot.press("q")

    run(scenario)
    assert app.return_value is not None and "play --resume" in app.return_value.lines[0]
    saved = read_save(tmp_path / "save.json")
    drawn = [
        action
        for seat, action in saved.match.current_round.history
        if seat == 0 and action == Draw()
    ]
    assert drawn
    again = Board(
        saved.match, saved.seats, "en", saved.path, pace=0, notice="Continuing the match saved"
    )

    async def resumed() -> None:
        async with again.run_test(size=(80, 24)) as pilot:
            await settle(again, pilot)
            text = screen_text(again)
            assert "Continuing the match saved" in text
            assert re.search(r"You draw \[\d\|\d\]\.", text), text
            assert "Player 1 draws a tile" not in text
            assert [str(cell.tile) for cell in again.screen.query(TileCell)] == order
            await pilot.press("q")

    run(resumed)


def test_mouse_chooses_a_tile_and_an_end(tmp_path: Path) -> None:
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            view = app.match.view(0)
            hand = hand_order(view)
            target = [a for a in view.legal_actions if isinstance(a, Place)][-1]
            cell = next(c for c in app.screen.query(TileCell) if c.tile == target.tile)
            await pilot.click(cell)  # the first click chooses it
            assert app.selected == hand.index(target.tile)
            assert app.match.current_round.history == view.history
            await pilot.click(cell)  # the second places it
            if app.choosing is not None:
                await pilot.click(app.screen.query_one("#end-right" if target.end else "#end-left"))
            await settle(
                app, pilot, until=lambda: len(app.match.current_round.history) > len(view.history)
            )
            assert app.match.current_round.history[len(view.history)] == (0, target)
            await pilot.press("ctrl+q")  # Textual's own quit key saves as q does

    run(scenario)
    assert app.return_value is not None and "play --resume" in app.return_value.lines[0]


def test_numbers_of_ten_and_more_take_two_digits(tmp_path: Path) -> None:
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            while len(app.match.current_round.hand(0)) < 11:
                await pilot.press("d")
                await settle(app, pilot)
            await pilot.press("1", "0")
            assert app.selected == 9  # tile 10, not tile 1 and then tile 0
            await pilot.pause(0.9)
            await pilot.press("3")
            assert app.selected == 2
            await pilot.press("1")
            await pilot.pause(0.9)
            await pilot.press("9")  # no second digit after the pause: tile 9
            assert app.selected == 8
            before = app.match.current_round.history
            await pilot.press("p")  # not allowed while a tile fits or one can be drawn
            assert app.match.current_round.history == before
            assert "You cannot pass" in screen_text(app)
            await pilot.press("q")

    run(scenario)


def test_the_set_up_screen_offers_every_level_with_what_it_does() -> None:
    app = Setup("de")
    texts: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            texts.append(screen_text(app))
            await pilot.press("down", "down", "right", "right", "h", "enter")

    run(scenario)
    assert app.return_value == SetupChoice(opponents=3, level="strong", hints=True)
    text = texts[0]
    for level in ("Anfänger", "Leicht", "Mittel", "Stark", "Experte"):
        assert level in text, text


def test_the_resume_list_is_newest_first(tmp_path: Path) -> None:
    seats = (HUMAN, GREEDY)
    for age, seed in enumerate([1, 2]):
        path = tmp_path / f"match-{seed}.json"
        saves.write_save(path, seats, "en", Match.new(2, seed=seed))
        os.utime(path, ns=(10**18 - age * 10**9, 10**18 - age * 10**9))
    found = saves.unfinished(tmp_path).saves
    app = ResumeChooser(found, "en")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert "newest first" in screen_text(app)
            await pilot.press("down", "enter")

    run(scenario)
    assert app.return_value is not None and app.return_value.match.seed == 2


def test_a_hint_lights_the_best_tile_only_when_the_match_allows_hints(tmp_path: Path) -> None:
    allowed = new_board(tmp_path / "on", (HUMAN, GREEDY), seed=5, hints=True)
    refused = new_board(tmp_path / "off", (HUMAN, GREEDY), seed=5)

    async def scenario(app: Board, hints: bool) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            history = app.match.current_round.history
            await pilot.press("!")
            await settle(app, pilot)
            text = screen_text(app)
            if hints:
                assert "Hint: " in text
                best = app.hinted
                assert best is not None and best in app.match.view(0).legal_actions
                if isinstance(best, Place):
                    lit = [
                        cell.tile for cell in app.screen.query(TileCell) if cell.has_class("hint")
                    ]
                    assert lit == [best.tile]
            else:
                assert "Hints are off in this match" in text and app.hinted is None
                await pilot.press("!")  # again: on for the rest of the match, and saved
                await settle(app, pilot)
                text = " ".join(screen_text(app).split())
                assert "Hints are on for the rest of this match" in text and "Hint: " in text
                assert read_save(tmp_path / "off" / "save.json").hints
            assert app.match.current_round.history == history  # a hint never moves
            await pilot.press("question_mark")
            said = " ".join(screen_text(app).split())
            assert "The left end shows" in said or "The line is empty" in said
            assert "port" not in said
            await pilot.press("q")

    run(lambda: scenario(allowed, True))
    run(lambda: scenario(refused, False))


def test_the_log_is_wrapped_anew_when_the_terminal_is_resized(tmp_path: Path) -> None:
    """Lines written at 120 columns must not lose their ends at 80 (nor stay short at 120
    after 60)."""
    from draw_dominoes.terminal.board import MovesLog

    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3)
    long = "A move told at length: " + " ".join(f"word{n}" for n in range(40))

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            app.say(long)
            await pilot.pause()
            log = app.screen.query_one("#log", MovesLog)
            assert long in [text.plain for text in log.told]
            for size in ((80, 24), (60, 20), (120, 40)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                await pilot.pause()
                width = log.scrollable_content_region.width
                shown = [strip.text.rstrip() for strip in log.lines]
                assert all(len(line) <= width for line in shown), (size, width)
                joined = " ".join(" ".join(shown).split())
                assert " ".join(long.split()) in joined, size  # every word, in order
            await pilot.press("q")

    run(scenario)


def test_a_terminal_smaller_than_60_by_20_is_told_so(tmp_path: Path) -> None:
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert "needs at least 60×20" not in screen_text(app)
            await pilot.resize_terminal(50, 16)
            await pilot.pause()
            assert "The terminal is 50×16: the board needs at least 60×20" in " ".join(
                screen_text(app).split()
            )
            await pilot.resize_terminal(60, 20)
            await pilot.pause()
            assert "needs at least" not in screen_text(app)
            await pilot.press("q")

    run(scenario)


def test_a_notice_taller_than_the_terminal_scrolls_with_the_arrow_keys() -> None:
    """At 60×20 a four-player round's end does not fit: ↓ and PageDown bring the
    scores into sight, and the keys line stays."""
    body = [f"Player {n}: [6|6] [5|5] [4|4], 45 points" for n in range(1, 25)] + ["Scores: all"]

    class Host(App[str]):
        def on_mount(self) -> None:
            self.push_screen(Notice("Round 1 is over", body, {"enter": "next"}, "Enter: next"))

    app = Host()

    async def scenario() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            assert "Scores: all" not in screen_text(app) and "Enter: next" in screen_text(app)
            await pilot.press("down", "pagedown", "pagedown", "pagedown")
            await pilot.pause()
            assert "Scores: all" in screen_text(app) and "Enter: next" in screen_text(app)
            await pilot.press("home")
            await pilot.pause()
            assert "Player 1:" in screen_text(app)
            await pilot.press("enter")

    run(scenario)


def test_take_back_restores_the_exact_position_over_the_bots_replies(tmp_path: Path) -> None:
    """``u`` takes the match back with ``Match.undo`` to just before the person's last move,
    over every bot's reply (three bots, one of which draws here): every hand, the boneyard's
    order and each seat's view are as they were, and the same move gets the same replies."""
    seats = (HUMAN, GREEDY, RANDOM, GREEDY)
    app = new_board(tmp_path, seats, seed=9)
    replies: list[tuple[tuple[int, object], ...]] = []

    def position(match: Match) -> tuple[object, ...]:
        round_ = match.current_round
        return (
            record.dumps(match),
            round_.deal,
            round_.boneyard,
            tuple(round_.hand(seat) for seat in range(round_.players)),
            tuple(match.view(seat) for seat in range(round_.players)),
            match.scores,
        )

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            before = position(app.match)
            kept = app.match.clone()
            move = next(a for a in app.match.view(0).legal_actions if isinstance(a, Place))
            for _ in range(2):
                start = len(app.match.current_round.history)
                app.play(move)
                await settle(app, pilot)
                replies.append(app.match.current_round.history[start:])
                await pilot.press("u")
                await settle(app, pilot)
                assert position(app.match) == before
                assert position(kept) == before
                assert app.my_turn() and app.match.legal_actions() == kept.legal_actions()
            await pilot.press("q")

    run(scenario)
    assert replies[0] == replies[1]
    assert [who for who, _ in replies[0]] == [0, 1, 2, 2, 3]
    assert any(who != 0 and isinstance(action, Draw) for who, action in replies[0])


def test_lines_told_before_the_first_layout_are_wrapped_anew_after_a_resize(
    tmp_path: Path,
) -> None:
    """The welcome is told before the log has a width; a wider terminal later must not keep
    it broken at the narrow one."""
    from draw_dominoes.terminal.board import MovesLog

    notice = "Continuing the match saved in ~/saves/match-20260101-1200.json"  # 58 > 56
    app = new_board(tmp_path, (HUMAN, GREEDY), seed=3, notice=notice)

    async def scenario() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(app, pilot)
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            await pilot.pause()
            log = app.screen.query_one("#log", MovesLog)
            assert notice in [strip.text.rstrip() for strip in log.lines]
            await pilot.press("q")

    run(scenario)
