"""Accounts in headless Chromium: sign up on one device, play a bot, sign in on another and
play on from the start page's list; refusals said next to their field; no axe violations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import ARTIFACTS, MARKS, launched_chromium
from test_web_advice_browser import new_page, no_axe_violations
from test_web_support import InProcessServer

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
