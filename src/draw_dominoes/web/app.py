"""The FastAPI app: pages, a small JSON API, and the WebSocket over which tables are played."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import html
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import bots, record
from ..i18n import LANGUAGES, catalogue, translate
from ..render.howto import howto_html
from ..render.svg import tile_svg
from ..tiles import Tile
from . import present
from .hub import Hub
from .limits import AddressBuckets, FloodWindow, RateLimiter
from .metrics import Counts, Metrics
from .outbox import Outbox
from .scheduler import BotScheduler
from .server import ABORT_EXTENSION
from .store import Store
from .tables import Table, UserError

__all__ = ["MAX_MESSAGE_BYTES", "Settings", "create_app", "parse_width"]

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048
"""Client intents are tiny; anything larger is refused with an error."""

STATIC = Path(str(resources.files(__package__).joinpath("static")))

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]

STATUSES = {
    "unknown_table": 404,
    "unknown_match": 404,
    "match_running": 403,
    "unavailable": 503,
    "too_large": 413,
    "bad_content_type": 415,
    "bad_origin": 403,
    "rate_limited": 429,
    "too_slow": 408,
    "internal": 500,
}


@dataclass(frozen=True)
class Settings:
    """The app's options; ``draw-dominoes serve`` sets each from the command line."""

    bot_delay: float = 0.8
    round_pause: float = 30.0
    """At most this long a round's end is shown before the next round starts (0: not)."""
    away_seconds: float = 60.0
    """A person away this long on their turn is played for by the medium bot."""
    host_grace: float = 10.0
    """A host gone this long from the lobby hands it to the next person there."""
    rate: float = 15.0
    """Messages a second one WebSocket may send."""
    burst: float = 30.0
    address_rate: float = 60.0
    """Messages a second all WebSockets of one client address may send together."""
    flood_limit: int = 50
    """Refusals within ``flood_seconds`` after which a WebSocket is closed."""
    flood_seconds: float = 10.0
    create_rate: float = 10.0
    """Tables a client address may create a minute (bursts up to ``create_burst``)."""
    create_burst: float = 20.0
    lookup_misses: float = 20.0
    """Unknown table ids a client address may ask for before it must wait (one a second)."""
    max_spectators: int = 200
    max_bot_tables: int = 3
    """Running matches per client address in which every opponent is a bot."""
    idle_seconds: float = 300.0
    stall_timeout: float = 10.0
    """Seconds a WebSocket may take to accept one message before it is cut off."""
    body_timeout: float = 5.0
    bot_workers: int | None = None
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own that may open WebSockets and post (``https://host``)."""
    analysis_iterations: int | None = None
    """Iterations of each hint's and reviewed decision's analysis (``None``: its default)."""
    allow_seeds: bool = False
    debug: bool = False
    """Serve ``/docs`` and ``/openapi.json``."""


def parse_size(text: str | None) -> int | None:
    """A ``width`` or ``height`` query parameter: a few ASCII digits, else ``None``."""
    if text and len(text) <= 5 and text.isascii() and text.isdecimal():
        return int(text)
    return None


def parse_width(text: str | None) -> int:
    """The ``width`` query parameter, snapped; 800 if it is missing or malformed."""
    return present.snap_width(parse_size(text))


def pick_lang(*candidates: str | None) -> str:
    for lang in candidates:
        if lang in LANGUAGES:
            return lang
    return "en"


def request_lang(request: Request) -> str:
    accept = request.headers.get("accept-language", "")[:2].lower()
    return pick_lang(request.query_params.get("lang"), request.cookies.get("lang"), accept)


def error_response(error: UserError, lang: str) -> JSONResponse:
    return JSONResponse(
        {"error": error.code, "message": error.message(lang)},
        status_code=STATUSES.get(error.code, 400),
    )


def client_address(scope_owner: Request | WebSocket) -> str:
    client = scope_owner.client
    return client.host if client is not None else "?"


def same_origin(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's ``Origin`` is this server's own (its ``Host``) or one the operator allows."""
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class SecurityHeaders:
    """Every HTTP response says: run only this site's own code, in no other site's frame."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


class SocketConnection:
    """A seat's (or a spectator's) WebSocket as the hub sees it; its outbox does the
    sending, so nobody waits for it."""

    def __init__(
        self, seat: int | None, lang: str, width: int, height: int | None, outbox: Outbox
    ) -> None:
        self.seat = seat
        self.lang = lang
        self.width = width
        self.height = height
        self.outbox = outbox

    def deliver(self, text: str, slot: str | None = None) -> None:
        self.outbox.put(text, slot)

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put(present.encode(message))

    def refuse(self, error: UserError, request_id: object = None) -> None:
        message = {"type": "error", "code": error.code, "message": error.message(self.lang)}
        self.send({"id": request_id, **message} if request_id is not None else message)


def request_id_of(message: dict[str, Any]) -> int | str | None:
    """The id a client gave its message, echoed in the answer if it is a plain short one."""
    value = message.get("id")
    if type(value) is int and abs(value) < 2**53:
        return value
    if isinstance(value, str) and len(value) <= 64:
        return value
    return None


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


def create_app(db_path: str | Path, settings: Settings | None = None, **changes: Any) -> FastAPI:
    """The whole web app over one SQLite file; tables load from it when first asked for.

    ``changes`` override single settings (``create_app(db, bot_delay=0)``). ``allow_seeds``
    is for tests only: clients may then choose the seed of a table's first match, which
    makes its deal predictable to whoever chose it.
    """
    options = dataclasses.replace(settings or Settings(), **changes)
    store = Store(db_path)
    scheduler = BotScheduler(options.bot_workers)
    hub = Hub(
        store,
        scheduler=scheduler,
        bot_delay=options.bot_delay,
        allow_seeds=options.allow_seeds,
        max_spectators=options.max_spectators,
        max_bot_tables=options.max_bot_tables,
        idle_seconds=options.idle_seconds,
        round_pause=options.round_pause,
        away_seconds=options.away_seconds,
        host_grace=options.host_grace,
        analysis_iterations=options.analysis_iterations,
    )
    counts = Counts()
    creations = AddressBuckets(options.create_rate / 60, options.create_burst)
    misses = AddressBuckets(1.0, options.lookup_misses)
    messages = AddressBuckets(options.address_rate, 2 * options.address_rate)
    reviewing = AddressBuckets(options.create_rate / 60, options.create_burst)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.get_running_loop().create_task(sweep())
        yield
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        await hub.reviews.close()
        await scheduler.close()
        store.close()

    async def sweep() -> None:
        """Now and then, tables nobody uses leave memory."""
        while True:
            await asyncio.sleep(max(1.0, min(30.0, options.idle_seconds / 4)))
            hub.evict_idle()

    app = FastAPI(
        title="draw-dominoes",
        lifespan=lifespan,
        docs_url="/docs" if options.debug else None,
        redoc_url=None,
        openapi_url="/openapi.json" if options.debug else None,
    )
    app.state.hub = hub
    app.state.settings = options
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, UserError)
        return error_response(exc, request_lang(request))

    async def server_fault(request: Request, exc: Exception) -> Response:
        """A bug or a failed write: a clear message (the server logs the details)."""
        return error_response(UserError("internal"), request_lang(request))

    app.add_exception_handler(UserError, refused)
    app.add_exception_handler(Exception, server_fault)

    def find(table_id: str, address: str) -> Table:
        """A table by id; an address that keeps guessing ids must slow down."""
        if misses.empty(address):
            raise UserError("rate_limited")
        try:
            return hub.get(table_id)
        except UserError as error:
            if error.code == "unknown_table" and not misses.allow(address):
                raise UserError("rate_limited") from None
            raise

    def foreign(scope_owner: Request | WebSocket) -> bool:
        """A browser says where the page that sent this came from; other sites may not."""
        origin = scope_owner.headers.get("origin")
        host = scope_owner.headers.get("host")
        return origin is not None and not same_origin(origin, host, options.allowed_origins)

    def check_origin(request: Request) -> None:
        if foreign(request):
            raise UserError("bad_origin")

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
        body = howto_html(lang)
        title = translate("web.nav_howto", lang)
        return HTMLResponse(page(f'<article class="howto">{body}</article>', lang, title, "howto"))

    @app.get("/tile/{name}.svg", include_in_schema=False)
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

    # ------------------------------------------------------------ for operators

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "tables_in_memory": len(hub.tables)}

    def live_figures() -> dict[str, float]:
        guard = getattr(app.state, "guard", None)
        return {
            "connections": len(guard.open) if guard else 0,
            "refused": guard.refused if guard else 0,
            "timed_out": guard.timed_out if guard else 0,
            "tables": len(hub.tables),
            "bot_queue": scheduler.queue_length,
            "actions": hub.actions,
            "bot_decisions": scheduler.decisions,
            "analyses": scheduler.analyses,
            "reviews": len(hub.reviews.jobs),
        }

    metrics = Metrics(live_figures, counts)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page() -> Response:
        return Response(metrics.text(), media_type="text/plain; version=0.0.4")

    # ------------------------------------------------------------ JSON API

    @app.get("/api/i18n/{lang}")
    def messages_of(lang: str) -> JSONResponse:
        if lang not in LANGUAGES:
            return JSONResponse({"error": "bad_lang", "message": lang}, status_code=404)
        return JSONResponse(
            {
                **catalogue(lang, "web"),
                **present.level_messages(lang),
                **present.review_messages(lang),
            }
        )

    @app.get("/api/bots")
    def offered_bots() -> dict[str, list[str]]:
        return {"offered": list(bots.OFFERED)}

    async def body_of(request: Request) -> dict[str, Any]:
        """The JSON object of a small request body from this site; larger, slower or other
        bodies are refused unread."""
        check_origin(request)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise UserError("bad_content_type")
        declared = request.headers.get("content-length")
        if declared is not None:
            if not (declared.isascii() and declared.isdecimal()):
                raise UserError("bad_request")
            if int(declared) > MAX_MESSAGE_BYTES:
                raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
        raw = bytearray()
        try:
            async with asyncio.timeout(options.body_timeout):
                async for chunk in request.stream():
                    raw += chunk
                    if len(raw) > MAX_MESSAGE_BYTES:
                        raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
        except TimeoutError:
            raise UserError("too_slow") from None
        return parse_object(bytes(raw) or b"{}")

    def seat_cookie(response: Response, table_id: str, token: str) -> None:
        response.set_cookie(
            f"dd_{table_id}", token, httponly=True, samesite="strict", max_age=60 * 60 * 24 * 90
        )

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        data = await body_of(request)
        address = client_address(request)
        start = data.get("start", False)
        if not isinstance(start, bool):
            raise UserError("bad_request")
        if not creations.allow(address):
            raise UserError("rate_limited")
        if start:  # refused before anything is made: every other seat must be a bot
            hub.check_bots_fill(data.get("players"), data.get("bots"))
        table, token = hub.create_table(
            data.get("players"),
            data.get("name"),
            data.get("bots"),
            data.get("seed"),
            address,
            data.get("public", False),
            data.get("hints", False),
        )
        if start:
            await hub.start(table, table.host)
        response = JSONResponse(
            {"table_id": table.id, "seat": 0, "token": token, "url": f"/t/{table.id}"},
            status_code=201,
        )
        seat_cookie(response, table.id, token)
        return response

    @app.get("/api/tables")
    async def public_tables() -> dict[str, Any]:
        """Public tables waiting for players, for the start page."""
        return {"tables": hub.public_tables()}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> Response:
        # Every route that touches the hub is ``async``: it runs on the event loop, the
        # only thread that reads or changes tables.
        table = find(table_id, client_address(request))
        return JSONResponse(
            {
                "id": table.id,
                "players": table.players,
                "status": table.status,
                "public": table.public,
                "host_seat": table.host,
                "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in table.seats],
                "finished_matches": [n for n, m in enumerate(table.matches) if m.is_over],
            }
        )

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Response:
        data = await body_of(request)
        find(table_id, client_address(request))
        seat, token = await hub.join(table_id, data.get("name"), data.get("seat"))
        response = JSONResponse({"seat": seat, "token": token, "url": f"/t/{table_id}"})
        seat_cookie(response, table_id, token)
        return response

    @app.get("/api/tables/{table_id}/matches/{number}/record")
    async def download(table_id: str, number: int, request: Request) -> Response:
        find(table_id, client_address(request))
        _, match = hub.finished_match(table_id, number)
        return Response(
            record.dumps(match),
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="draw-{table_id}-{number + 1}.json"'
            },
        )

    @app.post("/api/tables/{table_id}/matches/{number}/review")
    async def start_review(table_id: str, number: int, request: Request) -> Response:
        """Start the review of a finished match (once: it is stored), answered like GET."""
        await body_of(request)
        address = client_address(request)
        find(table_id, address)
        lang = request_lang(request)
        status = hub.review_status(table_id, number, lang)
        if status["status"] in ("none", "failed"):
            if not reviewing.allow(address):
                raise UserError("rate_limited")
            hub.start_review(table_id, number)
            status = hub.review_status(table_id, number, lang)
        return JSONResponse(status, status_code=202 if status["status"] == "running" else 200)

    @app.get("/api/tables/{table_id}/matches/{number}/review")
    async def review_of(table_id: str, number: int, request: Request) -> Response:
        """A finished match's review: how far it is while it runs, then the review."""
        find(table_id, client_address(request))
        return JSONResponse(hub.review_status(table_id, number, request_lang(request)))

    @app.get("/api/tables/{table_id}/matches/{number}/replay/{step}")
    async def replay(
        table_id: str,
        number: int,
        step: int,
        request: Request,
        width: int = 800,
        height: int | None = None,
        deal: bool = False,
    ) -> Response:
        """One position of a finished match; ``deal`` shows a round's deal, not the end
        of the round before it."""
        find(table_id, client_address(request))
        lang = request_lang(request)
        return JSONResponse(hub.replay_step(table_id, number, step, lang, width, height, deal))

    # ------------------------------------------------------------ live play

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        if foreign(socket):
            await socket.close(code=4403)  # before the handshake: an HTTP 403
            return
        params = socket.query_params
        lang = pick_lang(params.get("lang"), socket.cookies.get("lang"))
        width = parse_width(params.get("width"))
        address = client_address(socket)
        await socket.accept()
        try:
            table = find(table_id, address)
        except UserError as error:
            await turn_away(socket, error, lang, 4429 if error.code == "rate_limited" else 4404)
            return
        token = params.get("token") or socket.cookies.get(f"dd_{table_id}")
        seat = table.seat_of_token(token)
        outbox = Outbox(
            socket.send_text, cutter(socket, counts), stall_timeout=options.stall_timeout
        )
        height = present.snap_height(parse_size(params.get("height")))
        conn = SocketConnection(seat, lang, width, height, outbox)
        if token and seat is None:
            conn.refuse(UserError("bad_token"))
        try:
            hub.connect(table, conn)
        except UserError as error:
            await turn_away(socket, error, lang, 4429)
            return
        writer = asyncio.get_running_loop().create_task(outbox.run())
        counts.websockets += 1
        try:
            await converse(socket, table, conn)
        except WebSocketDisconnect:
            pass
        finally:
            counts.websockets -= 1
            counts.states_replaced += outbox.replaced
            hub.disconnect(table, conn)
            outbox.close()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    async def converse(socket: WebSocket, table: Table, conn: SocketConnection) -> None:
        """Answer one connection's messages until it goes; a flood is cut off."""
        limiter = RateLimiter(options.rate, options.burst)
        flood = FloodWindow(options.flood_limit, options.flood_seconds)
        address = client_address(socket)
        while not conn.outbox.closed:
            event = await socket.receive()
            if event["type"] == "websocket.disconnect":
                return
            text = event.get("text")
            if text is None:
                text = (event.get("bytes") or b"").decode("utf-8", "replace")
            request_id: int | str | None = None
            try:
                if not (limiter.allow() and messages.allow(address)):
                    raise UserError("rate_limited")
                if len(text) > MAX_MESSAGE_BYTES or len(text.encode(errors="replace")) > (
                    MAX_MESSAGE_BYTES
                ):
                    raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
                message = parse_object(text)
                if not isinstance(message.get("type"), str):
                    raise UserError("bad_json")
                request_id = request_id_of(message)
                await hub.handle(table, conn, message)
                if message["type"] not in ("hello", "ping"):
                    conn.send({"type": "ok", "id": request_id})
            except UserError as error:
                counts.refused_messages += 1
                conn.refuse(error, request_id)
                if flood.refused():
                    counts.floods_closed += 1
                    await socket.close(code=1008, reason="too many refused messages")
                    return
            except Exception:  # a server fault: log it, tell the client, keep the socket
                log.exception("table %s: a message could not be handled", table.id)
                conn.refuse(UserError("internal"), request_id)

    return app


async def turn_away(socket: WebSocket, error: UserError, lang: str, code: int) -> None:
    """Say why a WebSocket cannot stay, then close it."""
    message = {"type": "error", "code": error.code, "message": error.message(lang)}
    await socket.send_text(present.encode(message))
    await socket.close(code=code)


def parse_object(text: str | bytes) -> dict[str, Any]:
    """A JSON object, or ``bad_json``: too deep, malformed and non-object input alike."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise UserError("bad_json") from None
    if not isinstance(data, dict):
        raise UserError("bad_json")
    return data


def cutter(socket: WebSocket, counts: Counts) -> Callable[[str], None]:
    """How an outbox cuts off a client that stopped reading: abort the connection (a close
    frame would wait behind all it has not read), or close it where the server cannot."""

    def cut(reason: str) -> None:
        counts.send_queue_drops += 1
        log.info("closing a WebSocket that fell behind (%s)", reason)
        extension = socket.scope.get("extensions", {}).get(ABORT_EXTENSION)
        if extension is not None:
            extension["abort"]()
            return
        closing = asyncio.ensure_future(socket.close(code=1008, reason="not reading"))
        CLOSING.add(closing)
        closing.add_done_callback(CLOSING.discard)

    return cut


CLOSING: set[asyncio.Future[None]] = set()
"""Closes under way (kept so that they are not collected before they finish)."""
