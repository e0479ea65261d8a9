"""The pages: one shell for the browser app, the how-to, and tile pictures."""

from __future__ import annotations

import html

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ...i18n import LANGUAGES, translate
from ...render.howto import howto_html
from ...render.svg import tile_svg
from ...tiles import Tile
from .deps import request_lang

__all__ = ["page", "router"]

router = APIRouter(include_in_schema=False)


def page(body: str, lang: str, title: str, page_name: str) -> str:
    """The shared layout: header with navigation and language switch, then ``body``."""

    def t(key: str) -> str:
        return html.escape(translate(f"web.{key}", lang))

    options = "\n".join(
        f'      <option value="{code}"{" selected" if code == lang else ""}>'
        f"{html.escape(translate('common.language_name', code))}</option>"
        for code in LANGUAGES
    )

    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/tile/6-6.svg">
</head>
<body data-page="{page_name}" data-lang="{lang}" data-languages="{" ".join(LANGUAGES)}">
<a class="skip" href="#main">{t("skip_to_content")}</a>
<header class="top">
  <a class="brand" href="/">{t("app_title")}</a>
  <nav aria-label="{t("nav_label")}">
    <a href="/" id="nav-home">{t("nav_home")}</a>
    <a href="/howto" id="nav-howto">{t("nav_howto")}</a>
    <a href="/leaderboard" id="nav-leaderboard">{t("nav_leaderboard")}</a>
  </nav>
  <label class="lang-switch">{t("language")}
    <select id="lang-select">
{options}
    </select>
  </label>
</header>
<main id="main" tabindex="-1">
{body}
</main>
<div id="live" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
<script type="module" src="/static/app.js"></script>
</body>
</html>
"""


def spa(request: Request) -> HTMLResponse:
    lang = request_lang(request)
    notice = html.escape(translate("web.needs_js", lang))
    body = f'<noscript>{notice}</noscript><div id="app"></div>'
    return HTMLResponse(page(body, lang, translate("web.app_title", lang), "app"))


for path in ("/", "/t/{table_id}", "/t/{table_id}/replay/{number}"):
    router.add_api_route(path, spa, methods=["GET"])


@router.get("/howto")
def howto(request: Request) -> HTMLResponse:
    lang = request_lang(request)
    body = howto_html(lang)
    title = translate("web.nav_howto", lang)
    return HTMLResponse(page(f'<article class="howto">{body}</article>', lang, title, "howto"))


@router.get("/tile/{name}.svg")
def tile_image(name: str, v: int = 0, size: int = 40) -> Response:
    """One tile face (``1-4``) or a back (``back``); faces are public, hands are not."""
    tile: Tile | None = None
    if name != "back":
        try:
            low, high = (int(part) for part in name.split("-"))
            tile = Tile(low, high)
        except (ValueError, TypeError):
            return JSONResponse({"error": "bad_tile", "message": name}, status_code=404)
    svg = tile_svg(tile, size=max(16, min(size, 120)), vertical=bool(v))
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
    )
