"""Server-drawn pages of players: a profile with its rating charts, and the leaderboards."""

from __future__ import annotations

import functools
import html
from collections.abc import Sequence

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...i18n import translate
from ...rules import RULES
from ..accounts import username_key
from ..stores.base import GameRow
from ..stores.ratings_sql import RatingChange
from .accounts import GAMES_LISTED, shown_names
from .deps import ServicesDep, request_lang
from .pages import page
from .ratings import HISTORY, LEADERS, rating_entry

__all__ = ["rating_chart", "router"]

router = APIRouter(include_in_schema=False)

WIDTH, HEIGHT, MARGIN = 600, 180, 36


def rating_chart(history: Sequence[RatingChange], title: str) -> str:
    """The rating after each rated match as a line, the first point the rating before
    it; an SVG with its own text alternative."""
    values = [history[0].before, *(change.after for change in history)] if history else []
    if len(values) < 2:
        return ""
    low, high = min(values) - 25, max(values) + 25
    step = (WIDTH - 2 * MARGIN) / (len(values) - 1)

    def y(value: float) -> float:
        return HEIGHT - MARGIN - (value - low) / (high - low) * (HEIGHT - 2 * MARGIN)

    points = " ".join(f"{MARGIN + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    label = html.escape(title)
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-label="{label}"><title>{label}</title>'
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="8" fill="#fbf7ee"/>'
        f'<line x1="{MARGIN}" y1="{HEIGHT - MARGIN}" x2="{WIDTH - MARGIN}"'
        f' y2="{HEIGHT - MARGIN}" stroke="#9c8f76"/>'
        f"{_label(y(high - 25), round(high - 25))}{_label(y(low + 25), round(low + 25))}"
        f'<polyline points="{points}" fill="none" stroke="#8a3c05" stroke-width="3"'
        ' stroke-linejoin="round"/></svg>'
    )


def others(game: GameRow, lang: str) -> list[str]:
    return [name for seat, name in enumerate(shown_names(game, lang)) if seat != game.seat]


def _label(at: float, value: int) -> str:
    return f'<text x="4" y="{at + 4:.1f}" font-size="12" fill="#4a4031">{value}</text>'


@router.get("/players/{username}")
async def profile_page(username: str, request: Request, services: ServicesDep) -> HTMLResponse:
    lang = request_lang(request)

    def t(key: str, **values: object) -> str:
        return html.escape(translate(f"web.{key}", lang, **values))

    store = services.runtime.store
    key = username_key(username)[:64]
    account = await services.runtime.stored(lambda: store.account_by_key(key))
    if account is None:
        body = f'<section class="card"><h1>{t("error_unknown_player")}</h1></section>'
        return HTMLResponse(page(body, lang, t("profile_title"), "profile"), status_code=404)
    rows = await services.runtime.stored(lambda: store.account_ratings(account.id))
    games = await services.runtime.stored(lambda: store.account_games(account.id, GAMES_LISTED))
    parts = [f'<h1 id="profile-name">{html.escape(account.username)}</h1>']
    if not rows:
        parts.append(f'<p class="muted">{t("profile_unrated")}</p>')
    for row in rows:
        entry = rating_entry(row)
        shown = f"{entry['rating']}{'?' if entry['provisional'] else ''}"
        history = await services.runtime.stored(
            functools.partial(store.rating_history, account.id, row.players, HISTORY)
        )
        key = "profile_rating_one" if row.games == 1 else "profile_rating"
        heading = t(key, players=row.players, rating=shown, games=row.games)
        chart = rating_chart(history, translate("web.profile_chart", lang, players=row.players))
        parts.append(f'<h2 data-rating="{row.players}">{heading}</h2>{chart}')
    finished = [g for g in games if g.status == "over"]
    items = "".join(
        f'<li><a href="/t/{html.escape(g.table_id)}/replay/0">'
        f"{t('games_against', names=', '.join(others(g, lang)))}"
        f'</a> · <a href="/t/{html.escape(g.table_id)}/replay/0#review">'
        f"{t('review_button')}</a></li>"
        for g in finished
    )
    parts.append(f"<h2>{t('games_finished')}</h2>")
    parts.append(
        f'<ul class="profile-games">{items}</ul>'
        if items
        else f'<p class="muted">{t("games_none_finished")}</p>'
    )
    body = (
        f'<section class="card profile" aria-labelledby="profile-name">{"".join(parts)}</section>'
    )
    return HTMLResponse(page(body, lang, account.username, "profile"))


@router.get("/leaderboard")
async def leaderboard_page(request: Request, services: ServicesDep) -> HTMLResponse:
    lang = request_lang(request)

    def t(key: str, **values: object) -> str:
        return html.escape(translate(f"web.{key}", lang, **values))

    text = request.query_params.get("players", "2")
    sizes = RULES.player_counts
    fits = text.isdecimal() and len(text) <= 2 and int(text) in sizes
    players = int(text) if fits else sizes[0]
    store = services.runtime.store
    rows = await services.runtime.stored(lambda: store.leaderboard(players, LEADERS))
    current = ' aria-current="page"'
    tabs = " ".join(
        f'<a href="/leaderboard?players={n}" class="button{" primary" if n == players else ""}"'
        f"{current if n == players else ''}>{t('leaderboard_tab', players=n)}</a>"
        for n in sizes
    )
    lines = "".join(
        f'<tr><td>{rank}</td><td><a href="/players/{html.escape(row.username)}">'
        f"{html.escape(row.username)}</a></td><td>{rating_entry(row)['rating']}"
        f"{'?' if rating_entry(row)['provisional'] else ''}</td><td>{row.games}</td></tr>"
        for rank, row in enumerate(rows, 1)
    )
    table = (
        f'<table class="leaderboard"><caption>{t("leaderboard_caption", players=players)}</caption>'
        f'<thead><tr><th scope="col">#</th><th scope="col">{t("leaderboard_player")}</th>'
        f'<th scope="col">{t("leaderboard_rating")}</th>'
        f'<th scope="col">{t("leaderboard_games")}</th>'
        f"</tr></thead><tbody>{lines}</tbody></table>"
        if rows
        else f'<p class="muted">{t("leaderboard_empty")}</p>'
    )
    body = (
        f'<section class="card" aria-labelledby="leaderboard-heading"><h1 id="leaderboard-heading">'
        f'{t("leaderboard_heading")}</h1><p class="tabs">{tabs}</p>{table}'
        f'<p class="muted">{t("leaderboard_note")}</p></section>'
    )
    return HTMLResponse(page(body, lang, translate("web.leaderboard_heading", lang), "leaderboard"))
