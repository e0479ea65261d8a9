"""The FastAPI app: pages, a small JSON API, and the WebSocket over which tables are played."""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import bots, record
from ..i18n import catalogue, translate
from ..tiles import Tile
from .store import Store
from .tables import ConnectionGone, Hub, UserError, snap_width

__all__ = ["MAX_MESSAGE_BYTES", "RateLimiter", "create_app", "parse_width"]

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048
"""Client intents are tiny; anything larger is refused with an error."""
MAX_STRIKES = 200
"""A connection refused this many times in a row for flooding is closed."""

STATIC = Path(str(resources.files(__package__).joinpath("static")))


class RateLimiter:
    """A token bucket per connection: ``rate`` messages a second, bursts up to ``burst``.

    ``clock`` gives the time in seconds (``time.monotonic`` unless a test brings its own).
    """

    def __init__(
        self,
        rate: float = 15.0,
        burst: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst = rate, burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class SocketConnection:
    """A seat's (or a spectator's) WebSocket; sends are serialized per socket."""

    def __init__(self, socket: WebSocket, seat: int | None, lang: str, width: int) -> None:
        self.socket = socket
        self.seat = seat
        self.lang = lang
        self.width = width
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, ensure_ascii=False)
        async with self._lock:
            try:
                await self.socket.send_text(text)
            except Exception as exc:  # whatever the server stack raises for a closed socket
                raise ConnectionGone from exc


def parse_width(text: str | None) -> int:
    """The ``width`` query parameter: a few ASCII digits, else the default of 800."""
    if text and len(text) <= 5 and text.isascii() and text.isdecimal():
        return snap_width(int(text))
    return 800


def pick_lang(*candidates: str | None) -> str:
    for lang in candidates:
        if lang in ("en", "de"):
            return lang
    return "en"


def request_lang(request: Request) -> str:
    accept = request.headers.get("accept-language", "")[:2].lower()
    return pick_lang(request.query_params.get("lang"), request.cookies.get("lang"), accept)


def error_response(error: UserError, lang: str, status: int = 400) -> JSONResponse:
    statuses = {
        "unknown_table": 404,
        "unknown_match": 404,
        "match_running": 403,
        "unavailable": 503,
        "too_large": 413,
    }
    return JSONResponse(
        {"error": error.code, "message": error.message(lang)},
        status_code=statuses.get(error.code, status),
    )


def page(body: str, lang: str, title: str, page_name: str) -> str:
    """The shared layout: header with navigation and language switch, then ``body``."""

    def t(key: str) -> str:
        return html.escape(translate(f"web.{key}", lang))

    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/tile/6-6.svg">
</head>
<body data-page="{page_name}" data-lang="{lang}">
<a class="skip" href="#main">{t("skip_to_content")}</a>
<header class="top">
  <a class="brand" href="/">{t("app_title")}</a>
  <nav aria-label="{t("nav_label")}">
    <a href="/" id="nav-home">{t("nav_home")}</a>
    <a href="/howto" id="nav-howto">{t("nav_howto")}</a>
  </nav>
  <label class="lang-switch">{t("language")}
    <select id="lang-select">
      <option value="en"{" selected" if lang == "en" else ""}>English</option>
      <option value="de"{" selected" if lang == "de" else ""}>Deutsch</option>
    </select>
  </label>
</header>
<main id="main" tabindex="-1">
{body}
</main>
<div id="live" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
<script src="/static/app.js"></script>
</body>
</html>
"""


def create_app(
    db_path: str | Path,
    *,
    bot_delay: float = 0.5,
    rate: float = 15.0,
    burst: float = 30.0,
    allow_seeds: bool = False,
) -> FastAPI:
    """The whole web app over one SQLite file; tables are rebuilt from it on start.

    ``allow_seeds`` is for tests only: clients may then choose the seed of a table's first
    match, which makes its deal predictable to whoever chose it.
    """
    store = Store(db_path)
    hub = Hub(store, bot_delay=bot_delay, allow_seeds=allow_seeds)
    hub.load()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.resume_bots()
        yield
        store.close()

    app = FastAPI(title="draw-dominoes", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def server_fault(request: Request, exc: Exception) -> Response:
        """A bug or a failed write: a clear message (the server logs the details)."""
        fault = UserError("internal")
        return error_response(fault, request_lang(request), status=500)

    app.add_exception_handler(Exception, server_fault)

    # ------------------------------------------------------------ pages

    def spa(request: Request) -> HTMLResponse:
        lang = request_lang(request)
        notice = html.escape(translate("web.needs_js", lang))
        body = f'<noscript>{notice}</noscript><div id="app"></div>'
        return HTMLResponse(page(body, lang, translate("web.app_title", lang), "app"))

    app.add_api_route("/", spa, methods=["GET"], include_in_schema=False)
    app.add_api_route("/t/{table_id}", spa, methods=["GET"], include_in_schema=False)
    app.add_api_route(
        "/t/{table_id}/replay/{number}", spa, methods=["GET"], include_in_schema=False
    )

    @app.get("/howto", include_in_schema=False)
    def howto(request: Request) -> HTMLResponse:
        lang = request_lang(request)
        try:
            from ..render.howto import howto_html

            body = howto_html(lang)
        except ImportError:
            body = f"<p>{html.escape(translate('web.howto_missing', lang))}</p>"
        title = translate("web.nav_howto", lang)
        return HTMLResponse(page(f'<article class="howto">{body}</article>', lang, title, "howto"))

    @app.get("/tile/{name}.svg", include_in_schema=False)
    def tile_image(name: str, v: int = 0, size: int = 40) -> Response:
        """One tile face (``1-4``) or a back (``back``); faces are public, hands are not."""
        from ..render.svg import tile_svg

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

    # ------------------------------------------------------------ JSON API

    @app.get("/api/i18n/{lang}")
    def messages(lang: str) -> JSONResponse:
        if lang not in ("en", "de"):
            return JSONResponse({"error": "bad_lang", "message": lang}, status_code=404)
        return JSONResponse(dict(catalogue(lang, "web")))

    @app.get("/api/bots")
    def offered_bots() -> dict[str, list[str]]:
        return {"offered": list(bots.OFFERED)}

    async def body_of(request: Request) -> dict[str, Any]:
        """The JSON object of a small request body; larger bodies are refused unread."""
        declared = request.headers.get("content-length")
        if declared is not None:
            if not (declared.isascii() and declared.isdecimal()):
                raise UserError("bad_request")
            if int(declared) > MAX_MESSAGE_BYTES:
                raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_MESSAGE_BYTES:
                raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
        try:
            data = json.loads(bytes(raw) or b"{}")
        except ValueError:
            raise UserError("bad_json") from None
        if not isinstance(data, dict):
            raise UserError("bad_json")
        return data

    def seat_cookie(response: Response, table_id: str, token: str) -> None:
        response.set_cookie(
            f"dd_{table_id}", token, httponly=True, samesite="strict", max_age=60 * 60 * 24 * 90
        )

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        lang = request_lang(request)
        try:
            data = await body_of(request)
            table, token = hub.create_table(
                data.get("players"), data.get("name"), data.get("bots"), data.get("seed")
            )
        except UserError as error:
            return error_response(error, lang)
        await hub.broadcast(table)
        response = JSONResponse(
            {"table_id": table.id, "seat": 0, "token": token, "url": f"/t/{table.id}"},
            status_code=201,
        )
        seat_cookie(response, table.id, token)
        return response

    @app.get("/api/tables/{table_id}")
    def table_info(table_id: str, request: Request) -> Response:
        try:
            table = hub.get(table_id)
        except UserError as error:
            return error_response(error, request_lang(request))
        return JSONResponse(
            {
                "id": table.id,
                "players": table.players,
                "status": table.status,
                "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in table.seats],
                "finished_matches": [n for n, m in enumerate(table.matches) if m.is_over],
            }
        )

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Response:
        lang = request_lang(request)
        try:
            data = await body_of(request)
            seat, token = await hub.join(table_id, data.get("name"), data.get("seat"))
        except UserError as error:
            return error_response(error, lang)
        response = JSONResponse({"seat": seat, "token": token, "url": f"/t/{table_id}"})
        seat_cookie(response, table_id, token)
        return response

    @app.get("/api/tables/{table_id}/matches/{number}/record")
    def download(table_id: str, number: int, request: Request) -> Response:
        try:
            match = hub.finished_match(table_id, number)
        except UserError as error:
            return error_response(error, request_lang(request))
        return Response(
            record.dumps(match),
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="draw-{table_id}-{number + 1}.json"'
            },
        )

    @app.get("/api/tables/{table_id}/matches/{number}/replay/{step}")
    def replay(
        table_id: str, number: int, step: int, request: Request, width: int = 800
    ) -> Response:
        lang = request_lang(request)
        try:
            return JSONResponse(hub.replay_step(table_id, number, step, lang, width))
        except UserError as error:
            return error_response(error, lang)

    # ------------------------------------------------------------ live play

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        await socket.accept()
        params = socket.query_params
        lang = pick_lang(params.get("lang"), socket.cookies.get("lang"))
        width = parse_width(params.get("width"))
        try:
            table = hub.get(table_id)
        except UserError as error:
            await socket.send_text(
                json.dumps({"type": "error", "code": error.code, "message": error.message(lang)})
            )
            await socket.close(code=4404)
            return
        token = params.get("token") or socket.cookies.get(f"dd_{table_id}")
        seat = table.seat_of_token(token)
        conn = SocketConnection(socket, seat, lang, width)
        if token and seat is None:
            refusal = UserError("bad_token")
            await conn.send(
                {"type": "error", "code": refusal.code, "message": refusal.message(lang)}
            )
        table.connections.add(conn)
        await hub.broadcast(table)
        limiter = RateLimiter(rate, burst)
        strikes = 0
        try:
            while True:
                event = await socket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if text is None:
                    text = (event.get("bytes") or b"").decode("utf-8", "replace")
                request_id = None
                try:
                    if limiter.allow():
                        strikes = 0
                    else:
                        strikes += 1
                        if strikes > MAX_STRIKES:
                            await socket.close(code=1008, reason="too many messages")
                            break
                        raise UserError("rate_limited")
                    if len(text.encode()) > MAX_MESSAGE_BYTES:
                        raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
                    try:
                        message = json.loads(text)
                    except ValueError:
                        raise UserError("bad_json") from None
                    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                        raise UserError("bad_json")
                    request_id = message.get("id")
                    if not isinstance(request_id, (int, str)) or isinstance(request_id, bool):
                        request_id = None
                    await hub.handle(table, conn, message)
                    if message["type"] not in ("hello", "ping"):
                        await conn.send({"type": "ok", "id": request_id})
                except UserError as error:
                    await conn.send(
                        {
                            "type": "error",
                            "id": request_id,
                            "code": error.code,
                            "message": error.message(conn.lang),
                        }
                    )
                except ConnectionGone:
                    raise
                except Exception:  # a server fault: log it, tell the client, keep the socket
                    log.exception("table %s: a message could not be handled", table.id)
                    fault = UserError("internal")
                    await conn.send(
                        {
                            "type": "error",
                            "id": request_id,
                            "code": fault.code,
                            "message": fault.message(conn.lang),
                        }
                    )
        except (WebSocketDisconnect, ConnectionGone):
            pass
        finally:
            table.connections.discard(conn)
            await hub.broadcast(table)

    return app
