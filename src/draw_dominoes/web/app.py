"""The FastAPI app: the routers, the runtime they share, and what runs beside them."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
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

from .metrics import Counts, Metrics
from .routes import api, ops, pages, play
from .routes.deps import Budgets, Services, error_response, request_lang
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
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, UserError)
        return error_response(exc, request_lang(request))

    async def malformed(request: Request, exc: Exception) -> Response:
        """The framework's own refusals echo the input: ours say what was wrong."""
        return error_response(UserError("bad_request"), request_lang(request))

    async def server_fault(request: Request, exc: Exception) -> Response:
        """A bug or a failed write: a clear message (the server logs the details)."""
        code = "unavailable" if isinstance(exc, StoreUnavailable) else "internal"
        return error_response(UserError(code), request_lang(request))

    app.add_exception_handler(UserError, refused)
    app.add_exception_handler(RequestValidationError, malformed)
    app.add_exception_handler(Exception, server_fault)
    for router in (pages.router, ops.router, api.router, play.router):
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
            runtime.renew_leases()
        except StoreUnavailable:
            log.warning("the store is unavailable: leases not renewed")
        if runtime.relay is not None:
            runtime.relay.sweep()
        runtime.evict_idle()


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
        "stale_writes": runtime.stale_writes,
        "owned_tables": sum(1 for live in runtime.tables.values() if runtime.owns(live)),
        "forwarded": runtime.relay.bus.forwarded if runtime.relay else 0,
        "takeovers": runtime.relay.takeovers if runtime.relay else 0,
    }
