"""Resigning, abandoning and taking back in headless Chromium (W1–W7 in docs/web.md): the
question before resigning, what the others see, My games' abandon, the take-back against
bots; no axe violations; screenshots at phone and desktop sizes in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import ARTIFACTS, MARKS, launched_chromium
from draw_dominoes import bots
from test_web_advice_browser import new_page, no_axe_violations
from test_web_support import InProcessServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = MARKS

SIZES = {"en": (1366, 900), "de": (390, 844)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    running = InProcessServer(
        tmp_path_factory.mktemp("leaving") / "tables.sqlite3", round_pause=0
    ).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_chromium(playwright_api)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"leaving-{name}.png"), full_page=True)


def play_a_bot(page: Any, server: InProcessServer, lang: str) -> str:
    page.goto(f"{server.url}/?lang={lang}")
    # The one-click menu offers the levels, weakest first, and no bot by its own name.
    page.wait_for_selector("#play-level option", state="attached")
    levels = page.eval_on_selector_all("#play-level option", "all => all.map(o => o.value)")
    assert levels == list(bots.LEVELS.values())
    page.select_option("#play-level", "greedy")
    page.click('[data-action="play-bot"]')
    page.wait_for_selector('#app[data-status="playing"]')
    return str(page.url.rsplit("/", 1)[-1])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_resigning_asks_first_and_the_others_play_on_against_its_bot(
    server: InProcessServer, browser: Any, lang: str
) -> None:
    ann = new_page(browser, lang, SIZES[lang])
    other = "de" if lang == "en" else "en"  # Bea reads the other language on the other size
    bea = new_page(browser, other, SIZES[other])
    ann.goto(f"{server.url}/?lang={lang}")
    ann.wait_for_selector("#create-form")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    ann.select_option("#seat-1", "greedy")
    ann.select_option("#seat-2", "")
    ann.click("#create-button")
    ann.wait_for_selector("#invite-link")
    invite = ann.input_value("#invite-link")
    bea.goto(invite)
    bea.wait_for_selector("#join-form")
    bea.fill("#join-name", "Bea")
    bea.click("#join-button")
    ann.wait_for_selector('[data-action="start"]:not([disabled])')
    ann.click('[data-action="start"]')
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="playing"]')

    ann.click("#resign-button")
    question = ann.locator("#resign-confirm")
    question.wait_for()
    assert ann.locator("#app").get_attribute("data-status") == "playing"  # not yet
    no_axe_violations(ann, "the question before resigning")
    shot(ann, f"question-{lang}-{SIZES[lang][0]}")
    ann.click("#resign-no")
    ann.wait_for_selector("#resign-button")
    assert ann.locator("#resign-confirm").count() == 0
    ann.click("#resign-button")
    ann.click("#resign-yes")
    ann.wait_for_selector("#resigned-note")
    assert ann.locator("#resign-button").count() == 0
    badge = bea.locator('#seat-0-info [data-resigned="true"]')
    badge.wait_for()  # Bea sees it at Ann's seat, and the match goes on
    assert bea.locator("#app").get_attribute("data-status") == "playing"
    no_axe_violations(bea, "a table where a player resigned")
    shot(ann, f"resigned-{lang}-{SIZES[lang][0]}")
    shot(bea, f"other-{lang}")

    bea.click("#resign-button")
    bea.click("#resign-yes")  # nobody is left playing: the match is over at once (W3)
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="over"]')
        page.wait_for_selector("#resigned-text")
    mine = bea.locator("#resigned-text").inner_text()
    assert ("You resigned" if other == "en" else "Du hast aufgegeben") in mine
    assert "Bot 2" in bea.locator("#result-text").inner_text()  # the bot still in it won
    assert bea.locator("#final-scores li").last.locator(".badge.resigned").count() == 1
    assert bea.locator("#replay-link").count() == 0  # an unfinished record has no replay
    no_axe_violations(ann, "a match given up")
    shot(ann, f"over-{lang}-{SIZES[lang][0]}")
    assert not ann.errors and not bea.errors  # type: ignore[attr-defined]
    ann.context.close()
    bea.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_match_against_bots_is_abandoned_from_my_games(
    server: InProcessServer, browser: Any, lang: str
) -> None:
    page = new_page(browser, lang, SIZES[lang])
    table_id = play_a_bot(page, server, lang)
    page.goto(f"{server.url}/?lang={lang}")
    row = page.locator(f'#guest-games [data-game="{table_id}"]')
    row.wait_for()
    against = row.locator("strong").inner_text()
    assert "Bot 2" in against and "Player" not in against and "Spieler" not in against
    button = row.locator('[data-action="abandon"]')
    button.click()
    assert button.inner_text() == ("Abandon: sure?" if lang == "en" else "Wirklich abbrechen?")
    no_axe_violations(page, "my games with an abandon to confirm")
    shot(page, f"abandon-{lang}-{SIZES[lang][0]}")
    button.click()
    row.locator('[role="status"]').wait_for()
    page.wait_for_selector(f'#guest-games [data-game="{table_id}"]', state="detached")
    page.goto(f"{server.url}/t/{table_id}?lang={lang}")
    page.wait_for_selector('#app[data-status="over"]')
    page.wait_for_selector("#resigned-text")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def make_a_placing_move(page: Any) -> None:
    """Place a tile on this seat's turn, drawing first as often as the rules want."""
    for _ in range(30):
        page.wait_for_selector('#app[data-my-turn="true"]')
        playable = page.locator('#hand [data-playable="true"]')
        if playable.count():
            playable.first.click()
            place = page.locator("#actions [id^=place-]")
            if place.count():
                place.first.click()
            return
        seq = page.locator("#app").get_attribute("data-seq")
        page.click("#draw-button" if page.locator("#draw-button").count() else "#pass-button")
        page.wait_for_selector(f'#app:not([data-seq="{seq}"])')
    raise AssertionError("no tile to place in thirty turns")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_move_against_bots_is_taken_back_to_the_same_hand(
    server: InProcessServer, browser: Any, lang: str
) -> None:
    page = new_page(browser, lang, SIZES[lang])
    play_a_bot(page, server, lang)
    page.wait_for_selector('#app[data-my-turn="true"]')
    assert page.locator("#take-back-button").is_disabled()  # nothing of mine yet
    make_a_placing_move(page)
    page.wait_for_selector("#take-back-button:not([disabled])")
    page.wait_for_selector('#app[data-my-turn="true"]')
    # Before the tile just placed, with the hand it was placed from.
    seq = int(page.locator("#app").get_attribute("data-seq"))
    hand = sorted(
        page.locator("#hand [data-hand-tile]").evaluate_all(
            "tiles => tiles.map(t => t.dataset.handTile)"
        )
    )
    no_axe_violations(page, "a table offering a take-back")
    shot(page, f"take-back-{lang}-{SIZES[lang][0]}")
    page.click("#take-back-button")
    page.wait_for_selector(f'#app:not([data-seq="{seq}"])')
    assert int(page.locator("#app").get_attribute("data-seq")) < seq
    after = sorted(
        page.locator("#hand [data-hand-tile]").evaluate_all(
            "tiles => tiles.map(t => t.dataset.handTile)"
        )
    )
    assert len(after) == len(hand) + 1 and set(hand) < set(after)  # the tile is back
    assert page.locator("#app").get_attribute("data-my-turn") == "true"
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
