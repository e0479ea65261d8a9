"""End to end in headless Chromium: two people in two browsers and a bot play a whole match."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import ARTIFACTS, CHROMIUM, MARKS, launched_chromium
from test_web_support import Server

playwright_api = pytest.importorskip("playwright.sync_api")


pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(
        tmp_path_factory.mktemp("browser") / "tables.sqlite3", allow_seeds=True
    ).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_chromium(playwright_api)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_friend_joins_by_the_invite_link_and_a_spectator_sees_no_hand(
    server: Server, browser: Any, lang: str
) -> None:
    """Ann sets up a table with a bot and an open seat, Bea follows the invite link, the
    host starts; a spectator sees the table but no hand; the line's text alternative is
    the R12 description and the rack's tiles carry the stable hooks."""
    ann_context = browser.new_context(viewport={"width": 1000, "height": 900})
    bea_context = browser.new_context(viewport={"width": 390, "height": 844})
    ann, bea = ann_context.new_page(), bea_context.new_page()
    errors: list[str] = []
    for page in (ann, bea):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(15000)
    ann.goto(f"{server.url}/?lang={lang}&seed=227")
    ann.wait_for_selector("#create-form")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    ann.select_option("#seat-1", "greedy")
    ann.select_option("#seat-2", "")
    ann.click("#create-button")
    ann.wait_for_selector("#invite-link")
    invite = ann.input_value("#invite-link")
    assert ann.locator('[data-action="start"]').is_disabled()  # seat 3 is still open

    bea.goto(f"{server.url}/?lang={lang}")
    bea.wait_for_selector('[data-action="play-bot"]')
    bea.goto(invite)
    bea.wait_for_selector("#join-form")
    bea.fill("#join-name", "Bea")
    bea.click("#join-button")
    bea.wait_for_selector("#seat-list >> text=Bea")
    ann.wait_for_selector('[data-action="start"]:not([disabled])')
    ann.click('[data-action="start"]')
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="playing"]')
        tiles = page.locator("#hand [data-hand-tile]")
        assert tiles.count() == 7
        assert {tiles.nth(i).get_attribute("data-playable") for i in range(7)} <= {"true", "false"}

    watcher_context = browser.new_context()
    watcher = watcher_context.new_page()
    watcher.goto(invite)
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#hand").count() == 0

    # A spectator on a 360 px phone sees every opponent panel (one more than a player does)
    # beside or above the felt, the felt wide, nothing sideways, the boneyard clear of the line.
    phone_context = browser.new_context(viewport={"width": 360, "height": 740})
    phone = phone_context.new_page()
    phone.set_default_timeout(15000)
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(f"{invite}?lang={lang}")
    phone.wait_for_selector("#spectating")
    phone.wait_for_selector("#line svg")
    layout = phone.evaluate(
        """() => ({
          scroll: document.documentElement.scrollWidth,
          felt: document.getElementById('felt').getBoundingClientRect().width,
          panels: [...document.querySelectorAll('.opponent')].map(
            (p) => Math.round(p.getBoundingClientRect().width)),
          header: document.querySelector('.top').getBoundingClientRect().height,
        })"""
    )
    assert layout["scroll"] <= 360, layout
    assert layout["felt"] >= 250, layout
    assert len(layout["panels"]) == 3 and min(layout["panels"]) >= 90, layout
    assert layout["header"] <= 56, layout
    covered = phone.evaluate(
        """() => { const p = document.getElementById('boneyard').getBoundingClientRect();
          return [...document.querySelectorAll('#line g[data-placed], #line .port-marker')]
            .filter((g) => { const r = g.getBoundingClientRect();
              return r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top;
            }).length; }"""
    )
    assert covered == 0, "the boneyard covers the line"
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / f"spectator-{lang}-360.png"), full_page=True)
    phone_context.close()

    title = ann.locator("#line svg title").first.text_content()
    assert title is not None and title.startswith("Tiles: " if lang == "en" else "Steine: ")
    assert not errors, errors
    for context in (ann_context, bea_context, watcher_context):
        context.close()


def test_chromium_is_debians_and_no_browser_was_downloaded() -> None:
    """Playwright drives /usr/bin/chromium; nothing is fetched into its own cache."""
    assert shutil.which("chromium") == CHROMIUM or os.path.exists(CHROMIUM)
    cache = Path.home() / ".cache" / "ms-playwright"
    assert not cache.exists() or not any(cache.glob("chromium-*"))


def test_a_language_asked_for_in_the_link_is_remembered(server: Server, browser: Any) -> None:
    """``/?lang=de`` keeps German on the table page it leads to, as the menu would."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{server.url}/?lang=de")
    page.wait_for_selector("text=Einen Tisch eröffnen")
    page.fill("#name", "Ann")
    page.select_option("#seat-1", "greedy")
    page.click("#create-button")
    page.wait_for_selector('[data-action="start"]')
    page.reload()
    page.wait_for_selector('[data-action="start"]')
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.text_content('[data-action="start"]') == "Partie beginnen"
    context.close()


def test_switching_the_language_at_the_table_keeps_the_log(server: Server, browser: Any) -> None:
    """The move log is built from the public history: it follows a language switch and
    survives a reload."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{server.url}/?lang=en&seed=5")
    page.click('[data-action="play-bot"]')
    page.wait_for_selector('#app[data-status="playing"]')
    page.wait_for_selector('#app[data-my-turn="true"]')
    if page.locator("#log .moves li:not(.muted)").count() == 0:
        playable = page.locator('#hand [data-playable="true"]')
        if playable.count():
            playable.first.click()
            page.locator("#line .port-marker.highlight").first.click()
        else:
            page.click('[data-action="draw"]')
        page.wait_for_selector('#app[data-my-turn="true"]')
    page.wait_for_selector("#log .moves li:not(.muted)")
    english = page.text_content("#log") or ""
    page.reload()
    page.wait_for_selector("#log .moves li:not(.muted)")
    assert page.text_content("#log") == english
    page.focus("#lang-select")
    page.select_option("#lang-select", "de")
    page.wait_for_selector("#log >> text=Runde 1")
    assert "Runde 1" in (page.text_content("#log") or "")
    page.wait_for_timeout(200)
    assert page.evaluate("document.activeElement.id") == "lang-select", "focus stays on the menu"
    context.close()


def test_a_spectator_of_four_sees_every_panel_apart_on_a_desktop(
    server: Server, browser: Any
) -> None:
    bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
    made = server.post("/api/tables", {"players": 4, "name": "Ann", "bots": bots, "start": True})
    assert made.status_code == 201, made.text
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/t/{made.json()['table_id']}")
    page.wait_for_selector("#spectating")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.opponent')].map((p) => {
             const r = p.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )
    assert len(boxes) == 4
    for n, a in enumerate(boxes):
        for b in boxes[n + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)  # no panel drawn over another
    context.close()
