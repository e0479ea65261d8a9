"""Accounts in headless Chromium: sign up on one device, play a bot, sign in on another and
play on from the start page's list; refusals said next to their field; no axe violations."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import ARTIFACTS, MARKS, launched_chromium
from test_web_advice_browser import new_page, no_axe_violations
from test_web_support import Client, InProcessServer, play_until

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path_factory.mktemp("accounts") / "tables.sqlite3").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_chromium(playwright_api)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"accounts-{name}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_match_started_on_one_device_is_played_on_from_another(
    server: InProcessServer, browser: Any, lang: str
) -> None:
    name = f"Anna{lang}"
    desktop = new_page(browser, lang, (1366, 900))
    desktop.goto(f"{server.url}/?lang={lang}")
    desktop.wait_for_selector('[data-form="sign-in"]')
    no_axe_violations(desktop, "the start page with the sign-in form")
    desktop.click('[data-action="show-sign-up"]')
    desktop.fill("#up-username", "Admin")
    desktop.fill("#up-password", "a good password")
    desktop.click('[data-action="sign-up"]')
    refusal = desktop.locator("#up-username-error")
    refusal.wait_for()
    assert (
        "Admin" in refusal.inner_text()
        and desktop.get_attribute("#up-username", "aria-invalid") == "true"
    )
    no_axe_violations(desktop, "a refused user name")
    shot(desktop, f"refused-{lang}-1366")
    desktop.fill("#up-username", name)
    desktop.click('[data-action="sign-up"]')
    desktop.wait_for_selector('[data-action="sign-out"]')
    desktop.click('[data-action="play-bot"]')
    desktop.wait_for_selector('#app[data-status="playing"]')
    table_url = desktop.url
    desktop.goto(f"{server.url}/?lang={lang}")
    running = desktop.locator('[data-game][data-status="playing"]')
    running.wait_for()
    no_axe_violations(desktop, "the start page of a signed-in player")
    shot(desktop, f"signed-in-{lang}-1366")

    phone = new_page(browser, lang, (390, 844))  # another browser: no cookie of the table
    phone.goto(f"{server.url}/?lang={lang}")
    phone.wait_for_selector('[data-form="sign-in"]')
    phone.fill("#in-username", name.upper())  # names compare without case
    phone.fill("#in-password", "not the password")
    phone.click('[data-action="sign-in"]')
    phone.wait_for_selector('[data-form="sign-in"] .form-error:not(:empty)')
    phone.fill("#in-password", "a good password")
    phone.click('[data-action="sign-in"]')
    resume = phone.locator('[data-game][data-status="playing"] a')
    resume.wait_for()
    shot(phone, f"signed-in-{lang}-390")
    resume.click()
    phone.wait_for_url(table_url)
    phone.wait_for_selector("#hand [data-hand-tile]")  # the seat's own hand, not a spectator's
    assert phone.locator("#spectating").count() == 0
    assert not desktop.errors and not phone.errors  # type: ignore[attr-defined]
    desktop.context.close()
    phone.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_rated_match_shows_the_rating_change_and_the_profile_its_chart(
    tmp_path_factory: pytest.TempPathFactory, browser: Any, lang: str
) -> None:
    server = InProcessServer(tmp_path_factory.mktemp("rated") / "t.sqlite3", round_pause=0).start()
    try:
        name = f"Rated{lang}"
        page = new_page(browser, lang, (1366, 900))
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector('[data-form="sign-in"]')
        page.click('[data-action="show-sign-up"]')
        page.fill("#up-username", name)
        page.fill("#up-password", "a good password")
        page.click('[data-action="sign-up"]')
        page.wait_for_selector('[data-action="sign-out"]')
        page.select_option("#players", "2")
        page.select_option("#seat-1", "greedy")
        page.check("#rated")
        page.click("#create-button")
        page.wait_for_selector('[data-action="start"]:not([disabled])')
        page.click('[data-action="start"]')
        page.wait_for_selector('#app[data-status="playing"]')
        page.locator('#rack [data-rating-seat="0"]', has_text="1500?").wait_for()  # a newcomer
        page.locator('.opponent [data-rating-seat="1"]', has_text="1635").wait_for()  # easy
        table_id = page.url.rsplit("/", 1)[-1]
        token = page.evaluate(f"localStorage.getItem('dd_token_{table_id}')")
        player = Client(server, table_id, token, lang=lang)  # the rest of the match, quickly
        player.recv()
        play_until([player], random.Random(5), lambda: player.state["table"]["status"] == "over")
        player.close()
        page.wait_for_selector('#app[data-status="over"]')
        mine = page.locator(".rating-mine")
        mine.wait_for()
        assert "1500 →" in mine.inner_text() and mine.get_attribute("data-rating-change") != "0"
        no_axe_violations(page, "a rated match's end")
        shot(page, f"rated-end-{lang}-1366")
        for size in ((1366, 900), (390, 844)):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.goto(f"{server.url}/players/{name}?lang={lang}")
            page.wait_for_selector("svg.rating-chart")
            no_axe_violations(page, "a profile")
            shot(page, f"profile-{lang}-{size[0]}")
            page.goto(f"{server.url}/leaderboard?players=2&lang={lang}")
            assert page.locator(f'.leaderboard a[href="/players/{name}"]').count() == 1
            no_axe_violations(page, "the leaderboard")
            shot(page, f"leaderboard-{lang}-{size[0]}")
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
    finally:
        server.stop()


def seconds_shown(text: str) -> int:
    found = re.search(r"\d+", text)
    assert found is not None, text
    return int(found.group())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_clock_counts_down_and_the_bot_moves_when_it_runs_out(
    server: InProcessServer, browser: Any, lang: str
) -> None:
    page = new_page(browser, lang, (1366, 900) if lang == "en" else (390, 844))
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("#create-form")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "greedy")
    page.select_option("#move-seconds", "15")
    page.click("#create-button")
    page.click('[data-action="start"]')
    page.wait_for_selector('#app[data-my-turn="true"]')
    clock = page.locator('#rack .clock[data-clock-seat="0"]')
    first = seconds_shown(clock.inner_text())
    assert 0 < first <= 15
    page.wait_for_timeout(2200)
    assert seconds_shown(clock.inner_text()) < first  # counting down
    no_axe_violations(page, "a table with a clock")
    note = page.locator("#clock-note")
    note.wait_for(timeout=40000)  # nobody moved: the time ran out and the bot moved
    assert ("once" if lang == "en" else "einmal") in note.inner_text()
    shot(page, f"clock-{lang}")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_on_a_phone_a_raised_tile_covers_neither_the_row_above_nor_the_header(
    server: InProcessServer, browser: Any
) -> None:
    page = new_page(browser, "de", (360, 740))
    page.goto(f"{server.url}/?lang=de")
    page.click('[data-action="play-bot"]')
    page.wait_for_selector('#app[data-my-turn="true"]')
    for _ in range(6):  # draw until the hand wraps onto a second row
        tops = page.evaluate(
            "[...document.querySelectorAll('#hand [data-hand-tile]')].map((t) => t.offsetTop)"
        )
        if len(set(tops)) > 1:
            break
        if page.locator("#draw-button:not([disabled])").count() == 0:
            pytest.skip("no draw left to make the hand wrap")  # pragma: no cover
        page.click("#draw-button")
        page.wait_for_selector('#app[data-my-turn="true"]')
        page.wait_for_timeout(300)
    tiles = page.locator("#hand [data-hand-tile]")
    last = tiles.nth(tiles.count() - 1)
    last.click()  # chosen: raised the most
    page.wait_for_timeout(400)
    layout = page.evaluate(
        """() => {
          const box = (n) => n.getBoundingClientRect();
          const tiles = [...document.querySelectorAll('#hand [data-hand-tile]')];
          const head = box(document.querySelector('#rack .rack-head'));
          const rows = [...new Set(tiles.map((t) => t.offsetTop))].sort((a, b) => a - b);
          const first = tiles.filter((t) => t.offsetTop === rows[0]);
          const second = tiles.filter((t) => t.offsetTop !== rows[0]);
          return {
            rows: rows.length,
            head: head.bottom,
            firstTop: Math.min(...first.map((t) => box(t).top)),
            firstBottom: Math.max(...first.map((t) => box(t).bottom)),
            secondTop: Math.min(...second.map((t) => box(t).top)),
          };
        }"""
    )
    assert layout["rows"] >= 2, layout
    assert layout["firstTop"] >= layout["head"], layout  # the header stays readable
    assert layout["secondTop"] >= layout["firstBottom"], layout  # no tile over the row above
    shot(page, "phone-hand-de-360")
    page.context.close()


def test_quick_chat_phrases_reach_the_other_player_translated_and_can_be_muted(
    server: InProcessServer, browser: Any
) -> None:
    ann = new_page(browser, "en", (1366, 900))
    ann.goto(f"{server.url}/?lang=en")
    ann.wait_for_selector("#create-form")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "2")
    ann.select_option("#seat-1", "")
    ann.click("#create-button")
    ann.wait_for_selector("#invite-link")
    invite = ann.input_value("#invite-link")
    bea = new_page(browser, "de", (390, 844))
    bea.goto(invite)
    bea.wait_for_selector("#join-form")
    bea.fill("#join-name", "Bea")
    bea.click("#join-button")
    ann.wait_for_selector('[data-action="start"]:not([disabled])')
    ann.click('[data-action="start"]')
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="playing"]')
    ann.click("#chat summary")
    ann.click('[data-phrase="good_game"]')
    bubble = bea.locator('.chat-bubble[data-chat-seat="0"]')
    bubble.wait_for()
    assert bubble.inner_text() == "Gutes Spiel!"  # said in the reader's language
    ann.locator('.chat-bubble[data-chat-seat="0"]').wait_for()  # and shown at one's own seat
    no_axe_violations(bea, "a phrase at the table")
    shot(bea, "chat-de-390")
    ann.click('[data-phrase="oops"]')  # too soon after the last: refused, nothing shown
    bea.wait_for_timeout(800)
    assert bea.locator('.chat-bubble[data-chat-seat="0"]').inner_text() == "Gutes Spiel!"
    bea.click('[data-mute="0"]')
    assert bea.locator('[data-mute="0"]').get_attribute("aria-pressed") == "true"
    ann.wait_for_timeout(3200)
    ann.click('[data-phrase="thanks"]')
    ann.locator('.chat-bubble[data-chat-seat="0"]', has_text="Thanks!").wait_for()
    bea.wait_for_timeout(1000)
    assert bea.locator('.chat-bubble[data-chat-seat="0"]').count() == 0  # muted here
    watcher = new_page(browser, "en", (1366, 900))
    watcher.goto(invite)
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#chat").count() == 0  # spectators listen only
    assert not ann.errors and not bea.errors  # type: ignore[attr-defined]
    for page in (ann, bea, watcher):
        page.context.close()


def test_play_now_seats_two_browsers_at_one_table(server: InProcessServer, browser: Any) -> None:
    ann = new_page(browser, "en", (1366, 900))
    bea = new_page(browser, "de", (390, 844))
    for page, name in ((ann, "Ann"), (bea, "Bea")):
        page.goto(f"{server.url}/")
        page.wait_for_selector("#play-now-form")
        page.fill("#name", name)
        page.uncheck("#play-now-bots")
    ann.click('[data-action="play-now"]')
    ann.wait_for_selector("#play-now-status:not(:empty)")
    no_axe_violations(ann, "waiting for a table")
    shot(ann, "play-now-waiting-en")
    bea.click('[data-action="play-now"]')
    for page in (ann, bea):
        page.wait_for_url("**/t/**")
        page.wait_for_selector("#hand [data-hand-tile]")  # each at their own seat
    assert ann.url == bea.url
    names = bea.locator(".scoreboard").inner_text()
    assert "Ann" in names
    assert not ann.errors and not bea.errors  # type: ignore[attr-defined]
    ann.context.close()
    bea.context.close()


def test_a_guest_finds_the_running_matches_of_this_browser(
    server: InProcessServer, browser: Any
) -> None:
    page = new_page(browser, "en", (1366, 900))
    page.goto(f"{server.url}/")
    page.select_option("#play-level", "greedy")
    page.click('[data-action="play-bot"]')
    page.wait_for_selector('#app[data-status="playing"]')
    table_id = page.url.rsplit("/", 1)[-1]
    page.goto(f"{server.url}/")
    row = page.locator(f'#guest-games [data-game="{table_id}"]')
    row.wait_for()
    assert "Bot 2 (easy)" in row.inner_text()  # a bot by its level
    row.locator("a").click()
    page.wait_for_selector("#hand [data-hand-tile]")
    page.context.close()
