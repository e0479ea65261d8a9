"""End to end in headless Chromium: two people in two browsers and a bot play a whole match."""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes import Match, record
from test_web_support import Server

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MOUSE_PLACEMENTS = itertools.count()
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
# Seeds whose matches end after two rounds when both people place their lowest fitting
# tile at the left end first and the bot is greedy: a whole match (R20), quickly.
SEEDS = {"en": 227, "de": 224}
TEXT = {
    "en": {
        "turn": "Your turn.",
        "line": "Tiles: ",
        "round": "Round 1 is over",
        "start": "Start",
        "score": "score: {score}",
    },
    "de": {
        "turn": "Du bist am Zug.",
        "line": "Steine: ",
        "round": "Runde 1 ist zu Ende",
        "start": "Anfang",
        "score": "Punkte: {score}",
    },
}

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="needs Debian's chromium (installed by .ci/run)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(
        tmp_path_factory.mktemp("browser") / "tables.sqlite3", allow_seeds=True
    ).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    os.environ["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def seq_of(page: Any) -> int:
    return int(page.get_attribute("#app", "data-seq") or -1)


def my_turn(page: Any) -> bool:
    return page.get_attribute("#app", "data-my-turn") == "true"


def wait_for_seq_above(page: Any, seq: int) -> None:
    page.wait_for_function(
        "seq => Number(document.getElementById('app').dataset.seq) > seq", arg=seq
    )


def drop_selection_with_escape(page: Any) -> None:
    """Escape drops the selected tile: no tile pressed, no marker lit, no place buttons."""
    page.wait_for_selector("#hand .tile.selected")
    page.keyboard.press("Escape")
    page.wait_for_selector("#line .port-marker.highlight", state="detached")
    assert page.locator("#hand .tile.selected").count() == 0
    assert page.locator('#hand .tile[aria-pressed="true"]').count() == 0
    assert page.locator("#place-0, #place-1, #place-open").count() == 0


def take_turn(page: Any, keyboard: bool, shots: list[Path], lang: str, keys: set[str]) -> None:
    """One move through the page: the lowest fitting tile at the left-most lit marker,
    else draw, else pass (draw and pass buttons exist only when legal, R5). From the
    keyboard, the first selection is dropped with Escape and made again, and ``d`` draws
    and ``p`` passes; ``keys`` collects the keys used."""
    before = seq_of(page)
    fitting = page.locator("#hand .tile.fits")
    if fitting.count():
        tile = fitting.first
        if keyboard:
            tile.focus()
            page.keyboard.press("Enter")
            if "Escape" not in keys:
                page.wait_for_selector("#line .port-marker.highlight")
                drop_selection_with_escape(page)
                keys.add("Escape")
                tile = page.locator("#hand .tile.fits").first
                tile.focus()
                page.keyboard.press("Enter")
        else:
            tile.click()
        page.wait_for_selector("#line .port-marker.highlight")
        lit = page.locator("#line .port-marker.highlight")
        ends = [lit.nth(i).get_attribute("data-end") for i in range(lit.count())]
        end = "open" if "open" in ends else min(ends)
        assert page.locator(f"#place-{end}").count() == 1  # a plain button does the same
        if len(shots) < 4:
            shot = ARTIFACTS / f"line-{lang}-{len(shots) + 1}.png"
            page.locator("#line").screenshot(path=str(shot))
            shots.append(shot)
        marker = page.locator(f'#line .port-marker.highlight[data-end="{end}"]')
        if keyboard:
            marker.focus()
            page.keyboard.press("Enter")
        elif next(MOUSE_PLACEMENTS) % 2:
            tile.drag_to(marker)  # drag and drop works as well as two clicks
        else:
            marker.click()
    elif page.locator("#draw-button").count():
        assert page.locator("#pass-button").count() == 0
        if keyboard:
            page.keyboard.press("d")
            keys.add("d")
        else:
            page.click("#draw-button")
    else:
        assert page.locator("#pass-button").count() == 1  # passing is legal now (R5)
        if keyboard:
            page.keyboard.press("p")
            keys.add("p")
        else:
            page.click("#pass-button")
    wait_for_seq_above(page, before)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_two_people_and_a_bot_play_a_whole_match_in_the_browser(
    server: Server, browser: Any, lang: str
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    text = TEXT[lang]
    ann_context = browser.new_context(viewport={"width": 1000, "height": 900})
    bea_context = browser.new_context(viewport={"width": 760, "height": 900})
    ann, bea = ann_context.new_page(), bea_context.new_page()
    errors: list[str] = []
    for page in (ann, bea):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(15000)

    # Ann opens the lobby, switches the language (remembered), and creates a table.
    ann.goto(f"{server.url}/?seed={SEEDS[lang]}")
    ann.wait_for_selector("#create-form")
    if lang == "de":
        ann.select_option("#lang-select", "de")
        ann.wait_for_function("document.documentElement.lang === 'de'")
        ann.reload()
        ann.wait_for_selector("text=Einen Tisch eröffnen")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    ann.select_option("#seat-1", "greedy")
    ann.select_option("#seat-2", "")
    ann.click("#create-button")
    ann.wait_for_selector("#invite-link")
    invite = ann.input_value("#invite-link")
    assert ann.locator("#start-button").is_disabled()  # seat 3 is still open

    # Bea follows the invite link and takes the open seat.
    bea.goto(f"{server.url}/?lang={lang}")
    if lang == "de":
        bea.select_option("#lang-select", "de")
        bea.wait_for_function("document.documentElement.lang === 'de'")
    bea.goto(invite)
    bea.wait_for_selector("#join-form")
    bea.fill("#join-name", "Bea")
    bea.click("#join-button")
    bea.wait_for_selector("#seat-list >> text=Bea")
    ann.wait_for_selector("#start-button:not([disabled])")
    ann.click("#start-button")
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="playing"]')

    # A spectator sees the table but no hand.
    watcher_context = browser.new_context()
    watcher = watcher_context.new_page()
    watcher.goto(invite)
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#hand").count() == 0

    # The line is an SVG whose text alternative is the R12 description.
    title = ann.locator("#line svg title").first.text_content()
    assert title is not None and title.startswith(text["line"])

    shots: list[Path] = []
    keys: set[str] = set()
    saw_turn_text = False
    for _ in range(400):
        if ann.get_attribute("#app", "data-status") == "over":
            break
        moved = False
        for page, keyboard in ((ann, False), (bea, True)):
            if my_turn(page):
                saw_turn_text |= page.text_content("#turn") == text["turn"]
                take_turn(page, keyboard, shots, lang, keys)
                moved = True
        if not moved:
            ann.wait_for_timeout(50)
    else:
        raise AssertionError("the match did not finish")
    bea.wait_for_selector('#app[data-status="over"]')
    assert saw_turn_text and len(shots) == 4 and all(s.stat().st_size > 1000 for s in shots)
    assert {"Escape", "p"} <= keys  # the seeded match makes Bea pass (R5) at least once
    assert not errors, errors

    # The result, the score sheet, the round-end panel and the announcements.
    table_id = invite.rstrip("/").split("/")[-1]
    finished = record.loads(server.get(f"/api/tables/{table_id}/matches/0/record").text)
    assert isinstance(finished, Match) and max(finished.scores) >= 61
    assert ann.locator("#score-sheet tbody tr").count() == len(finished.rounds)
    assert ann.locator("#result-text").is_visible()
    winners = [["Ann", "Bot 2 (greedy)", "Bea"][w] for w in finished.winners]
    assert all(name in (ann.text_content("#result-text") or "") for name in winners)
    assert (ann.text_content("#round-over-heading") or "").startswith(
        text["round"].replace("1", str(len(finished.rounds)))
    )
    assert ann.locator("#revealed li").count() == 3
    for seat, score in enumerate(finished.scores):  # the final scores, not the last deal's
        assert text["score"].format(score=score) in (ann.text_content(f"#seat-{seat}-info") or "")
    assert (bea.text_content("#live") or "").strip()
    download = ann.get_attribute("#download-record", "href")
    assert download == f"/api/tables/{table_id}/matches/0/record"

    # Replay the finished match move by move from the keyboard.
    ann.click("#replays a >> nth=0")
    ann.wait_for_selector("#replay-step")
    ann.keyboard.press("ArrowRight")
    ann.wait_for_function("document.getElementById('replay-announce').textContent !== ''")
    assert ann.text_content("#replay-first") == text["start"]
    ann.click("#replay-last")
    ann.wait_for_selector("#replay-explanation")

    # A rematch from the result screen starts match 2 for both players.
    bea.click("#rematch-button")
    ann.goto(invite)
    ann.wait_for_selector('#app[data-status="playing"]')
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
    page.wait_for_selector("#start-button")
    page.reload()
    page.wait_for_selector("#start-button")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.text_content("#start-button") == "Partie beginnen"
    context.close()
