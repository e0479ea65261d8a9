"""Hints and reviews in headless Chromium: the hint lights a tile only where the host allows
hints, and the review page lists the costliest choices and jumps to them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import ARTIFACTS, MARKS, launched_chromium
from test_web_support import Client, InProcessServer, play_until

playwright_api = pytest.importorskip("playwright.sync_api")
axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    running = InProcessServer(
        tmp_path_factory.mktemp("advice-browser") / "tables.sqlite3",
        allow_seeds=True,
        analysis_iterations=150,
        round_pause=0,
    ).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_chromium(playwright_api)


def new_page(browser: Any, lang: str = "en", size: tuple[int, int] = (1366, 768)) -> Any:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce"
    )
    context.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def no_axe_violations(page: Any, where: str) -> None:
    results = axe_api.Axe().run(page)
    found = [
        (v["id"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
    ]
    assert not found, f"{where}: {found}"


def test_the_hint_lights_a_tile_only_where_hints_are_allowed(
    server: InProcessServer, browser: Any
) -> None:
    # A table set up without hints: there is no Hint button, and h does nothing.
    page = new_page(browser)
    page.goto(f"{server.url}/?lang=en&seed=5")
    page.wait_for_selector("#create-form")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "greedy")
    page.click("#create-button")
    page.click('[data-action="start"]')
    page.wait_for_selector('#app[data-my-turn="true"]')
    assert page.locator("#hint-button").count() == 0
    page.keyboard.press("h")
    page.wait_for_timeout(600)
    assert page.locator('[data-hint="true"], #hint-text, #line .port-marker.hinted').count() == 0
    page.context.close()

    # A table whose host allows hints in the lobby.
    page = new_page(browser)
    page.goto(f"{server.url}/?lang=en&seed=77")
    page.fill("#name", "Ann")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "greedy")
    page.click("#create-button")
    page.wait_for_selector('#hints-status[data-hints="false"]')
    assert page.text_content("#hints-status").strip().endswith("Hints: not allowed")
    page.check("#hints-toggle")
    page.wait_for_selector('#hints-status[data-hints="true"]')
    assert page.text_content("#hints-status").strip().endswith("Hints: allowed")
    no_axe_violations(page, "the lobby with the hints toggle")
    page.click('[data-action="start"]')
    page.wait_for_selector('#app[data-my-turn="true"]')
    page.wait_for_selector("#hint-button:not([disabled])")
    page.keyboard.press("h")
    page.wait_for_selector("#hint-text")
    sentence = page.text_content("#hint-text") or ""
    page.wait_for_function(
        "text => document.getElementById('live').textContent.includes(text)", arg=sentence
    )
    hinted = page.locator('[data-hint="true"]')
    assert hinted.count() >= 1
    tile = page.get_attribute('[data-hand-tile][data-hint="true"]', "data-hand-tile")
    if tile is not None:  # a placement: the tile is marked, chosen, and one end is marked
        assert tile in sentence
        tile_button = page.locator(f'[data-hand-tile="{tile}"]')
        assert tile_button.get_attribute("data-playable") == "true"
        assert tile_button.get_attribute("aria-pressed") == "true"
        assert (tile_button.locator(".hint-tag").text_content() or "") == "Hint"
        marker = page.locator("#line .port-marker.hinted")
        assert marker.count() == 1
        assert "Hint" in (marker.get_attribute("aria-label") or "")
        assert page.locator('#actions .place[data-hint="true"] .hint-tag').count() == 1
        no_axe_violations(page, "a hint on the table")
        before = int(page.get_attribute("#app", "data-seq") or 0)
        marker.click()
    else:  # drawing or passing is the hint
        button = page.locator('#actions [data-action][data-hint="true"]')
        assert button.count() == 1
        no_axe_violations(page, "a hint on the table")
        before = int(page.get_attribute("#app", "data-seq") or 0)
        button.click()
    page.wait_for_function(
        "before => Number(document.getElementById('app').dataset.seq) > before", arg=before
    )
    assert page.locator('[data-hint="true"], #hint-text').count() == 0  # the position changed
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture(scope="module")
def finished(server: InProcessServer) -> dict[str, str]:
    """A finished two-seat match: Ann chooses at random against the greedy bot."""
    table = server.create_table(2, "Ann", {"1": "greedy"}, seed=2026)
    ann = Client(server, table["table_id"], table["token"])
    ann.recv()
    assert ann.reply_to(ann.send({"type": "start"}))["type"] == "ok"
    play_until([ann], random.Random(9), lambda: ann.state["table"]["status"] == "over")
    ann.close()
    return {"table_id": table["table_id"], "token": table["token"]}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_review_lists_the_costliest_choices_and_jumps_to_them(
    server: InProcessServer, browser: Any, finished: dict[str, str], lang: str
) -> None:
    page = new_page(browser, lang, (390, 844) if lang == "de" else (1366, 768))
    table_id = finished["table_id"]  # Ann's browser, with her seat's cookie
    cookie = {"name": f"dd_{table_id}", "value": finished["token"], "url": server.url}
    page.context.add_cookies([cookie])
    page.goto(f"{server.url}/t/{table_id}?lang={lang}")
    page.wait_for_selector("#review-link")
    assert (page.get_attribute("#review-link", "href") or "").endswith("/replay/0#review")
    page.click("#review-link")
    page.wait_for_selector("#review")
    if lang == "en":  # the first visit starts it: its progress is shown until it is done
        page.wait_for_selector(
            '#review[data-status="queued"], #review[data-status="running"],'
            ' #review[data-status="done"]'
        )
    page.wait_for_selector("#review-mistakes", timeout=120000)
    no_axe_violations(page, "the review")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{lang}.png"), full_page=True)
    heading = "Review" if lang == "en" else "Analyse"
    assert page.text_content("#review-heading") == heading
    assert page.locator("#review-accuracy tbody tr").count() == 2
    assert page.get_attribute('.seat-choice[aria-pressed="true"]', "data-seat") == "0"
    bars = page.locator("#review-chart .chart-col")
    assert bars.count() > 10
    mistakes = page.locator("#review-mistakes button")
    assert 1 <= mistakes.count() <= 5
    target = mistakes.nth(mistakes.count() - 1)
    step = target.get_attribute("data-step")
    symbol = target.locator(".mark").text_content()
    assert symbol in ("?!", "?", "??")
    target.click()
    page.wait_for_selector(f'#replay-step[data-step="{step}"]')
    here = page.locator("#review-here")
    assert here.is_visible()
    assert here.locator(".mark").text_content() == symbol
    assert page.locator(f'#review-chart .chart-col.current[data-step="{step}"]').count() == 1
    assert page.locator('#review-mistakes button[aria-current="step"]').count() == 1
    # The arrow keys walk the chosen player's decisions from the chart.
    page.locator(f'#review-chart .chart-col[data-step="{step}"]').focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "step => Number(document.getElementById('replay-step').dataset.step) > step",
        arg=int(step or 0),
    )
    focused = page.evaluate("document.activeElement.classList.contains('chart-col')")
    assert focused, "focus stays on the chart"
    # The bot's decisions are a click away.
    page.click('.seat-choice[data-seat="1"]')
    page.wait_for_selector('.seat-choice[data-seat="1"][aria-pressed="true"]')
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
