"""The FastAPI app: the routers, the runtime they share, and what runs beside them."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .limits import Refused, address_key
from .metrics import Counts, Metrics
from .routes import accounts, api, ops, pages, play, play_now, profiles, ratings
from .routes.deps import (
    Budgets,
    Services,
    error_response,
    pick_lang,
    refused_response,
    request_lang,
)
from .runtime.bus import Bus
from .runtime.relay import Relay
from .runtime.runtime import TableRuntime
from .settings import Settings
from .stores import open_store
from .stores.base import StoreUnavailable
from .table import UserError

__all__ = ["Settings", "create_app"]

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files(__package__).joinpath("static")))

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


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


REFUSAL_DELAY = 1.0
"""Seconds a ``GET /api/...`` over its address's budget waits for its 429."""


class ApiGetBudget:
    """Every ``GET /api/...`` takes a token of its client address's budget (``Budgets.
    api_gets``); over it, 429 with ``Retry-After`` is answered here, before any routing,
    from bytes made once per language and wait, and only after ``REFUSAL_DELAY``: a
    connection that keeps asking gets one answer a second at most, so a flood of refused
    requests costs the event loop as little as it can."""

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.buckets = services.budgets.api_gets
        self.answers: dict[tuple[str, int], tuple[bytes, list[tuple[bytes, bytes]]]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "GET"
            and scope["path"].startswith("/api/")
        ):
            client = scope.get("client")
            key = address_key(client[0] if client else "?")
            if not self.buckets.allow(key):
                body, headers = self._answer(scope_lang(scope), self.buckets.retry_after(key))
                await asyncio.sleep(REFUSAL_DELAY)
                await send({"type": "http.response.start", "status": 429, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def _answer(self, lang: str, wait: float) -> tuple[bytes, list[tuple[bytes, bytes]]]:
        refusal = Refused("rate_limited", wait)
        key = (lang, refusal.retry_after or 0)
        found = self.answers.get(key)
        if found is None:
            body = json.dumps(
                {
                    "error": refusal.code,
                    "message": refusal.message(lang),
                    "retry_after": refusal.retry_after,
                },
                ensure_ascii=False,
            ).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(refusal.retry_after).encode()),
            ]
            found = self.answers[key] = (body, headers)
        return found


def scope_lang(scope: Scope) -> str:
    """The request's language as ``request_lang`` finds it, read off the raw scope."""
    query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
    cookie = accept = ""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            cookie = value.decode("latin-1")
        elif name == b"accept-language":
            accept = value.decode("latin-1")
    jar = dict(part.strip().partition("=")[::2] for part in cookie.split(";") if "=" in part)
    return pick_lang(query.get("lang", [None])[0], jar.get("lang"), accept[:2].lower())


def create_app(
    db: str | Path | None = None, settings: Settings | None = None, **changes: Any
) -> FastAPI:
    """The whole web app over one store (an SQLite file or a PostgreSQL URL); tables load
    from it when first asked for.

    ``changes`` override single settings (``create_app(db, bot_delay=0)``). ``allow_seeds``
    is for tests only: clients may then choose the seed of a table's first match, which
    makes its deal predictable to whoever chose it.
    """
    options = dataclasses.replace(settings or Settings(), **changes)
    if db is not None:
        options = dataclasses.replace(options, db=str(db))
    store = open_store(options.db)
    runtime = TableRuntime(store, options)
    services = Services(runtime, options, Budgets.of(options), Counts())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if options.bus:  # refused at start (one clear line) if Redis does not answer
            relay = Relay(runtime, Bus(options.bus, runtime.process, options.bus_prefix))
            await relay.start()
            runtime.relay = relay
        keeper = asyncio.get_running_loop().create_task(keep(runtime))
        yield
        keeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keeper
        await runtime.close()
        if runtime.relay is not None:
            await runtime.relay.bus.close()
        store.close()

    app = FastAPI(
        title="draw-dominoes",
        lifespan=lifespan,
        docs_url="/docs" if options.debug else None,
        redoc_url=None,
        openapi_url="/openapi.json" if options.debug else None,
    )
    app.state.services = services
    app.state.runtime = runtime
    app.state.settings = options
    app.state.metrics = Metrics(lambda: live_figures(app, services), services.counts)
    app.add_middleware(ApiGetBudget, services=services)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, UserError)
        return error_response(exc, request_lang(request))

    async def over_budget(request: Request, exc: Exception) -> Response:
        """A request refused so that others get their share: 429 or 503, ``Retry-After``."""
        assert isinstance(exc, Refused)
        return refused_response(exc, request_lang(request))

    async def malformed(request: Request, exc: Exception) -> Response:
        """The framework's own refusals echo the input: ours say what was wrong."""
        return error_response(UserError("bad_request"), request_lang(request))

    async def server_fault(request: Request, exc: Exception) -> Response:
        """A bug or a failed write: a clear message (the server logs the details)."""
        code = "unavailable" if isinstance(exc, StoreUnavailable) else "internal"
        return error_response(UserError(code), request_lang(request))

    app.add_exception_handler(UserError, refused)
    app.add_exception_handler(Refused, over_budget)
    app.add_exception_handler(RequestValidationError, malformed)
    app.add_exception_handler(Exception, server_fault)
    routers = [pages.router, profiles.router, ops.router, api.router, accounts.router]
    routers += [ratings.router, play_now.router, play.router]
    for router in routers:
        app.include_router(router)
    return app


async def keep(runtime: TableRuntime) -> None:
    """Now and then: renew this process's leases, repeat who is connected here, take
    over tables whose owner died, and let unused tables leave memory."""
    settings = runtime.settings
    period = max(0.2, min(settings.lease_seconds / 4, settings.idle_seconds / 4, 30.0))
    while True:
        await asyncio.sleep(period)
        try:
            await runtime.renew_leases()
            if runtime.relay is not None:
                runtime.relay.sweep()
            runtime.evict_idle()
        except StoreUnavailable:
            log.warning("the store is unavailable: leases not renewed")
        except Exception:  # a bug here must not stop the renewals
            log.exception("keeping the tables failed")


def live_figures(app: FastAPI, services: Services) -> dict[str, float]:
    guard = getattr(app.state, "guard", None)
    runtime = services.runtime
    scheduler = runtime.scheduler
    return {
        "connections": len(guard.open) if guard else 0,
        "refused": guard.refused if guard else 0,
        "timed_out": guard.timed_out if guard else 0,
        "tables": len(runtime.tables),
        "bot_queue": scheduler.queue_length,
        "actions": runtime.actions,
        "bot_decisions": scheduler.decisions,
        "analyses": scheduler.analyses,
        "reviews": len(runtime.reviews.jobs),
        "reviews_queued": runtime.reviews.queued,
        "hints_in_flight": len(runtime.hints.tasks),
        "stale_writes": runtime.stale_writes,
        "owned_tables": sum(1 for live in runtime.tables.values() if runtime.owns(live)),
        "forwarded": runtime.relay.bus.forwarded if runtime.relay else 0,
        "takeovers": runtime.relay.takeovers if runtime.relay else 0,
        "handovers": runtime.relay.handovers if runtime.relay else 0,
    }
