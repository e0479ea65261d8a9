"""The browser table end to end in headless Chromium: whole matches at phone and desktop
sizes in both languages, a round's end, rematches, away players, public tables, replays,
and axe-core on every page. After every move nothing may scroll sideways."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import ARTIFACTS, MARKS, launched_chromium
from draw_dominoes.i18n import translate
from test_web_support import InProcessServer

playwright_api = pytest.importorskip("playwright.sync_api")
axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")

DOCS = Path(__file__).parent.parent / "docs" / "screenshots"
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
MOVES = itertools.count()

pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    running = InProcessServer(
        tmp_path_factory.mktemp("table") / "tables.sqlite3",
        allow_seeds=True,
        bot_delay=0,
        away_seconds=1.0,
        round_pause=30,
        host_grace=0,
    ).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_chromium(playwright_api)


def new_page(
    browser: Any, size: str = "desktop", lang: str = "en", width: int | None = None
) -> Any:
    w, h = SIZES[size]
    context = browser.new_context(
        viewport={"width": width or w, "height": h}, reduced_motion="reduce"
    )
    context.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The page runs under the server's Content-Security-Policy: nothing its own scripts do
    # is refused (axe-core, injected by the test, has no script address and is not counted).
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if "Content Security Policy" in message.text and message.location.get("url")
            else None
        ),
    )
    page.errors = errors  # type: ignore[attr-defined]
    return page


def no_sideways_scroll(page: Any, where: str) -> None:
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{where}: the page is {wide[0]} px wide in a {wide[1]} px window"


PILE_CLEAR = """() => { const pile = document.getElementById('boneyard');
  if (!pile) return [];
  const p = pile.getBoundingClientRect();
  return [...document.querySelectorAll('#line g[data-placed], #line .port-marker')]
    .filter((g) => { const r = g.getBoundingClientRect();
      return r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top; })
    .map((g) => g.getAttribute('data-tile') || g.getAttribute('data-end')); }"""


def pile_clear_of_the_line(page: Any, where: str) -> None:
    """The boneyard badge never covers a tile of the line or one of its ends."""
    covered = page.evaluate(PILE_CLEAR)
    assert not covered, f"{where}: the boneyard covers {covered}"


def one_row_header(page: Any, where: str) -> None:
    height = page.evaluate("document.querySelector('.top').getBoundingClientRect().height")
    assert height <= 56, f"{where}: the header is {height} px high (more than one row)"


def no_axe_violations(page: Any, where: str) -> None:
    results = axe_api.Axe().run(page)
    found = [
        (v["id"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
    ]
    assert not found, f"{where}: {found}"


def shot(page: Any, name: str, docs: str | None = None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(60)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    if docs and os.environ.get("UPDATE_README_SCREENSHOTS"):  # the README's, on request
        DOCS.mkdir(parents=True, exist_ok=True)
        target = DOCS / f"{docs}.png"
        page.screenshot(path=str(target))
        try:  # the README's pictures stay small: fewer colours, same look
            from PIL import Image
        except ImportError:
            return
        with Image.open(target) as image:
            small = image.convert("RGB").quantize(colors=192, dither=Image.Dither.NONE)
        small.save(target, optimize=True)


def app_data(page: Any, name: str) -> str | None:
    value: str | None = page.get_attribute("#app", f"data-{name}")
    return value


def seq_of(page: Any) -> int:
    return int(app_data(page, "seq") or -1)


def wait_after_move(page: Any, before: int) -> None:
    page.wait_for_function(
        """before => { const a = document.getElementById('app').dataset;
          return Number(a.seq) > before || a.roundOver === 'true' || a.status === 'over'; }""",
        arg=before,
    )


def fitting_marker(page: Any, tile: str) -> Any:
    a, b = (int(x) for x in tile.strip("[]").split("|"))
    markers = page.locator("#line .port-marker")
    for i in range(markers.count()):
        marker = markers.nth(i)
        end = marker.get_attribute("data-end")
        value = marker.get_attribute("data-value")
        if end == "open" or (value is not None and int(value) in (a, b)):
            return marker
    raise AssertionError(f"no marker fits {tile}")


def take_turn(page: Any, checks: dict[str, int]) -> None:
    """One move through the page, in turn by mouse, keyboard, finger-drag or tap-tap."""
    before = seq_of(page)
    lang = page.get_attribute("html", "lang") or "en"
    assert translate("web.title_your_turn", lang) in page.title()  # the tab says so too
    playable = page.locator('#hand [data-hand-tile][data-playable="true"]')
    way = next(MOVES) % 4
    keyed = way == 1 and playable.count() > 0
    if playable.count():
        tile = playable.first
        name = tile.get_attribute("data-hand-tile")
        if way == 0:
            tile.click()
            page.locator("#line .port-marker.highlight").first.click()
        elif way == 1:
            tile.focus()
            page.keyboard.press("Enter")
            page.wait_for_selector("#line .port-marker.highlight")
            if not checks.get("escape"):
                page.keyboard.press("Escape")
                page.wait_for_selector("#line .port-marker.highlight", state="detached")
                focused = page.evaluate("document.activeElement.dataset.handTile")
                assert focused == name, "Escape keeps focus on the tile"
                page.locator(f'[data-hand-tile="{name}"]').focus()
                page.keyboard.press("Enter")
                page.wait_for_selector("#line .port-marker.highlight")
                checks["escape"] = 1
            if not checks.get("tab"):
                # Tab order: the rack, then the line's ends, then draw and pass.
                page.locator("#hand [data-hand-tile]").last.focus()
                page.keyboard.press("Tab")
                assert page.evaluate("document.activeElement.classList.contains('port-marker')")
                checks["tab"] = 1
            page.locator("#line .port-marker.highlight").first.focus()
            page.keyboard.press("Enter")
        elif way == 2:
            tile.drag_to(fitting_marker(page, name))  # pointer events, as a finger drags
            checks["drag"] = checks.get("drag", 0) + 1
        else:
            tile.click()
            page.wait_for_selector("#line .port-marker.highlight")
            if page.locator("#line .port-marker.highlight").count() == 1:
                page.locator(f'[data-hand-tile="{name}"]').click()  # a second tap places it
            else:
                page.locator("#line .port-marker.highlight").last.click()
    elif page.locator('[data-action="draw"]').count():
        assert page.locator('[data-action="pass"]').count() == 0
        if way % 2:
            page.keyboard.press("d")
        else:
            page.click('[data-action="draw"]')
        checks["draw"] = checks.get("draw", 0) + 1
    else:
        if way % 2:
            page.keyboard.press("p")
        else:
            page.click('[data-action="pass"]')
        checks["pass"] = checks.get("pass", 0) + 1
    wait_after_move(page, before)
    page.wait_for_timeout(20)
    assert page.evaluate("document.activeElement !== document.body"), "focus fell to <body>"
    if not keyed:
        return
    # A tile placed from an end's marker by keyboard: focus goes back to the rack.
    focused = page.evaluate(
        """() => { const a = document.activeElement;
          return a.matches('[data-hand-tile], [data-action]') ? '' : a.outerHTML.slice(0, 80); }"""
    )
    assert not focused, f"after a keyboard move focus is on {focused}"


def check_round_end(page: Any) -> None:
    """Only the round's end is shown: the final line with its last tile, every hand."""
    assert page.locator("#final-line svg").count() == 1
    assert page.locator("#final-line g.last-placed").count() == 1
    assert page.locator("#hand").count() == 0, "the next deal is not shown yet"
    assert page.locator("#revealed li").count() >= 2
    assert (page.text_content("#round-explanation") or "").strip()
    assert page.locator('[data-action="continue"]').count() == 1


def play_match(
    page: Any,
    name: str,
    *,
    others: list[Any] | tuple[()] = (),
    shots: bool = True,
    axe: bool = False,
    docs: str | None = None,
    checks: dict[str, int] | None = None,
) -> dict[str, int]:
    """Plays until the match is over, continuing after each round; returns what was seen."""
    checks = {} if checks is None else checks
    seen_round_end = False
    for _ in range(2000):
        if app_data(page, "status") == "over":
            break
        if app_data(page, "round-over") == "true":
            check_round_end(page)
            no_sideways_scroll(page, "round end")
            if not seen_round_end:
                if shots:
                    shot(page, f"round-end-{name}", docs and f"round-end-{docs}")
                if axe:
                    no_axe_violations(page, "a round's end")
                seen_round_end = True
            checks["rounds"] = checks.get("rounds", 0) + 1
            page.click('[data-action="continue"]')
            page.wait_for_function(
                "() => document.getElementById('app').dataset.roundOver !== 'true'"
                " || document.getElementById('waiting-for') !== null"
            )
            for other in others:
                if app_data(other, "round-over") == "true":
                    other.click('[data-action="continue"]')
            page.wait_for_function(
                "() => document.getElementById('app').dataset.roundOver !== 'true'"
            )
            continue
        moved = False
        for who in [page, *others]:
            if app_data(who, "my-turn") == "true":
                if who is page and not checks.get("shot") and shots:
                    shot(page, f"playing-{name}", docs and f"playing-{docs}")
                    if axe:
                        no_axe_violations(page, "the table while playing")
                    checks["shot"] = 1
                take_turn(who, checks)
                no_sideways_scroll(who, "after a move")
                if app_data(who, "status") == "playing" and app_data(who, "round-over") != "true":
                    pile_clear_of_the_line(who, "after a move")
                moved = True
        if not moved:
            page.wait_for_timeout(25)
    else:
        raise AssertionError("the match did not finish")
    page.wait_for_selector("#result-text")
    return checks


@pytest.mark.parametrize(
    ("lang", "size", "seed"),
    [("en", "desktop", 11), ("en", "phone", 12), ("de", "desktop", 13), ("de", "phone", 14)],
)
def test_a_whole_match_against_the_bot_in_one_click(
    server: InProcessServer, browser: Any, lang: str, size: str, seed: int
) -> None:
    # The German phone is the narrowest (360 px): German words are the longest.
    page = new_page(browser, size, lang, width=360 if (lang, size) == ("de", "phone") else None)
    name = f"{lang}-{size}"
    page.goto(f"{server.url}/?seed={seed}")
    page.wait_for_selector('[data-action="play-bot"]')
    no_sideways_scroll(page, "start page")
    shot(page, f"start-{name}")
    page.click('a[href="#create-form"]')  # "Set up a table" leads to the form's first choice
    assert page.evaluate("document.activeElement.id") == "players"
    page.click('[data-action="play-bot"]')  # one click: a table, a bot, the match running
    page.wait_for_selector('#app[data-status="playing"]')
    expected = "Player" if lang == "en" else "Spieler"
    assert expected in (page.text_content(".scoreboard") or "") + (page.text_content("#rack") or "")
    page.wait_for_selector("#line svg")
    pile_clear_of_the_line(page, "the first deal")
    if size == "phone":
        one_row_header(page, "the table")
        bar = page.evaluate(
            """() => [document.querySelector('.table-heading').getBoundingClientRect().top,
              document.querySelector('[data-focus="sound"]').getBoundingClientRect().top]"""
        )
        assert abs(bar[0] - bar[1]) < 24, "the sound switch shares the heading's row"
    size_px = page.evaluate(
        """() => { const g = document.querySelector('#line g[data-placed], #line .port-marker');
          const r = g.getBoundingClientRect(); return Math.min(r.width, r.height); }"""
    )
    assert size_px >= 48, f"the line's tiles are {size_px} px"
    assert page.get_attribute("#line svg", "role") == "group"
    # The sound is off until asked for, and the choice is remembered.
    sound = page.locator('[data-focus="sound"]')
    assert sound.get_attribute("aria-pressed") == "false"
    sound.click()
    assert page.locator('[data-focus="sound"]').get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('dd_sound')") == "on"
    page.locator('[data-focus="sound"]').click()
    english_docs = lang == "en"
    checks = play_match(page, name, axe=size == "desktop", docs=size if english_docs else None)
    assert checks.get("rounds", 0) >= 1
    assert not page.errors  # type: ignore[attr-defined]

    # The match's end: who won, from this seat; the sheet fits; replay and record once.
    sentence = page.text_content("#result-text") or ""
    pattern = (
        r"(You won|Bot .* won|A draw)" if lang == "en" else r"(Du hast|Bot .* hat|Unentschieden)"
    )
    assert re.search(pattern, sentence), sentence
    assert re.search(r"\d+ (to|zu) \d+|\d+", sentence)
    check_result_sentence(page)
    assert (
        page.locator("#score-sheet tbody tr").count() == checks["rounds"] + 1
        or page.locator("#score-sheet tbody tr").count() >= checks["rounds"]
    )
    assert page.locator('a[href$="/record"]').count() == 1
    assert page.locator("#replay-link").count() == 1
    assert page.locator(".log-round").count() == page.locator("#score-sheet tbody tr").count()
    no_sideways_scroll(page, "match end")
    shot(page, f"match-end-{name}", f"match-end-{size}" if english_docs else None)
    if size == "desktop":
        no_axe_violations(page, "the match's end")

    # A rematch needs only this person here: the bot always accepts.
    page.click('[data-action="rematch"]')
    page.wait_for_selector('#app[data-status="playing"]')
    assert page.locator(".log-round").count() == 1, "the log starts afresh with a new match"

    if size == "desktop":
        check_replay(page, server, lang)
    page.context.close()


def check_result_sentence(page: Any) -> None:
    """The winner's score against the best of the rest, whoever reads it."""
    sentence = page.text_content("#result-text") or ""
    found = re.search(r"(\d+) (?:to|zu) (\d+)", sentence)
    if not found:
        return  # a draw names one score
    scores = sorted(
        (int(s) for s in page.locator("#final-scores .fs-score").all_text_contents()), reverse=True
    )
    assert [int(found.group(1)), int(found.group(2))] == scores[:2], (sentence, scores)


def check_replay(page: Any, server: InProcessServer, lang: str) -> None:
    table_id = page.url.rstrip("/").split("/")[-1]
    page.goto(f"{server.url}/t/{table_id}/replay/0")
    page.wait_for_selector("#replay-step")
    assert "null" not in (page.text_content("#app") or "")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.getElementById('replay-announce').textContent.trim() !== ''"
    )
    for step in range(2, 5):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'#replay-step[data-step="{step}"]')
        assert "null" not in (page.text_content("#app") or "")
    ends = page.locator('[data-jump^="end-"]')
    assert ends.count() >= 1
    label = page.get_attribute('[data-jump="end-0"]', "aria-label") or ""
    assert "1" in label and label != page.text_content('[data-jump="end-0"]'), label
    ends.first.click()
    page.wait_for_selector("#replay-explanation")
    assert "null" not in (page.text_content("#app") or "")
    if page.locator('[data-jump="start-1"]').count():
        page.click('[data-jump="start-1"]')
        page.wait_for_function("() => !document.getElementById('replay-explanation')")
    before = page.text_content("#replay-step")
    page.click("#replay-play")
    page.wait_for_function(
        "b => document.getElementById('replay-step').textContent !== b", arg=before
    )
    page.click("#replay-play")  # pause
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    no_sideways_scroll(page, "replay")
    shot(page, f"replay-{lang}-desktop")
    no_axe_violations(page, "the replay page")
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_timeout(300)
    no_sideways_scroll(page, "replay at 360 px")
    shot(page, f"replay-{lang}-phone")


def test_two_people_round_end_rematch_away_and_public_join(
    server: InProcessServer, browser: Any
) -> None:
    ann = new_page(browser, "desktop", "en")
    bea = new_page(browser, "phone", "de")
    ann.goto(f"{server.url}/?seed=21")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    ann.select_option("#seat-1", "greedy")
    ann.select_option("#seat-2", "")
    ann.check("#public")
    ann.click("#create-button")
    ann.wait_for_selector("#invite-link")
    assert ann.locator('[data-action="start"]').is_disabled()
    assert ann.locator("#visibility").is_checked()
    assert ann.locator(".badge.host").count() == 1
    no_axe_violations(ann, "the lobby")
    shot(ann, "lobby-en-desktop")

    # Bea finds the table on the start page and joins it with one click.
    bea.goto(server.url)
    bea.fill("#name", "Bea")
    bea.wait_for_selector("[data-join]")
    assert "Ann" in (bea.text_content("#public-list") or "")
    assert "1 Platz frei" in (bea.text_content("#public-list") or "")  # one seat, singular
    no_sideways_scroll(bea, "start page with a public table")
    shot(bea, "start-public-de-phone")
    bea.locator("[data-join]").first.click()
    bea.wait_for_selector("#seat-list >> text=Bea")
    ann.wait_for_selector('[data-action="start"]:not([disabled])')
    ann.click('[data-action="start"]')
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="playing"]')

    # Round 1: both see its end, and the next deal waits until both continued.
    checks: dict[str, int] = {}
    for _ in range(2000):
        if app_data(ann, "round-over") == "true" or app_data(ann, "status") == "over":
            break
        for who in (ann, bea):
            if app_data(who, "my-turn") == "true":
                take_turn(who, checks)
                no_sideways_scroll(who, "after a move")
        ann.wait_for_timeout(20)
    ann.wait_for_selector('#app[data-round-over="true"]')
    bea.wait_for_selector('#app[data-round-over="true"]')
    check_round_end(ann)
    check_round_end(bea)
    assert (ann.text_content("#seconds-left") or "").strip()
    ann.click('[data-action="continue"]')
    ann.wait_for_selector("#waiting-for >> text=Bea")  # the new deal waits for Bea
    assert app_data(ann, "my-turn") == "false"
    shot(ann, "waiting-en-desktop")
    bea.click('[data-action="continue"]')
    ann.wait_for_selector("#waiting-for", state="detached")
    for page in (ann, bea):
        page.wait_for_function("() => document.getElementById('app').dataset.roundOver !== 'true'")

    # Bea leaves while it is her turn: the bot plays for her and Ann sees her away.
    if app_data(ann, "status") == "playing":
        bea_context = bea.context
        for _ in range(400):
            if app_data(bea, "my-turn") == "true":
                break
            if app_data(ann, "my-turn") == "true":
                take_turn(ann, checks)
            ann.wait_for_timeout(20)
        if app_data(bea, "my-turn") == "true":
            before = seq_of(ann)
            bea.close()
            ann.wait_for_selector(".badge.away", timeout=10000)
            wait_after_move(ann, before)
            shot(ann, "away-en-desktop")
            bea = bea_context.new_page()
            bea.set_default_timeout(15000)
            bea.errors = []
            bea.goto(ann.url)
            bea.wait_for_selector("#rack")
            ann.wait_for_selector(".badge.away", state="detached")

    play_match(ann, "two-people", others=[bea], shots=False, checks=checks)
    bea.wait_for_selector('#app[data-status="over"]')

    # A rematch needs both people: one click alone does not start it. Nobody is waited for
    # before anyone asked.
    check_result_sentence(ann)
    check_result_sentence(bea)
    assert not (ann.text_content("#rematch-status") or "").strip()
    ann.click('[data-action="rematch"]')
    ann.wait_for_selector("#rematch-status >> text=Bea")
    bea.wait_for_selector("#rematch-status >> text=Ann")
    ann.wait_for_timeout(300)
    assert app_data(ann, "status") == "over" and app_data(bea, "status") == "over"
    shot(ann, "rematch-waiting-en-desktop")
    bea.click('[data-action="rematch"]')
    for page in (ann, bea):
        page.wait_for_selector('#app[data-status="playing"]')
        assert page.locator(".log-round").count() == 1
    assert not ann.errors  # type: ignore[attr-defined]
    ann.context.close()
    bea.context.close()


def test_unknown_table_pages_at_360_px_and_axe(server: InProcessServer, browser: Any) -> None:
    page = new_page(browser, "phone", "en", width=360)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{server.url}/t/NoSuchTable")
    page.wait_for_selector("#missing-heading")
    assert page.locator('a[href="/"]').count() >= 1
    assert "no such table" in (page.text_content("#errors") or "").lower()
    page.wait_for_timeout(1500)
    assert len(sockets) == 1, "an unknown table is not asked for again"
    no_sideways_scroll(page, "unknown table")
    no_axe_violations(page, "unknown table")
    for lang in ("en", "de"):
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector('[data-action="play-bot"]')
        no_sideways_scroll(page, f"start page {lang} at 360 px")
        one_row_header(page, f"start page {lang} at 360 px")
        no_axe_violations(page, "the start page")
        page.goto(f"{server.url}/howto?lang={lang}")
        page.wait_for_selector("article.howto")
        no_sideways_scroll(page, f"/howto {lang} at 360 px")
        no_axe_violations(page, "the rules page")
        shot(page, f"howto-{lang}-phone")
    page.context.close()
