"""What the routes share: the runtime, the settings, per-address budgets, request checks."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Request, WebSocket
from fastapi.responses import JSONResponse

from ...i18n import LANGUAGES
from ..accounts import SESSION_COOKIE
from ..limits import AddressBuckets, Budget, Refused, address_key
from ..metrics import Counts
from ..runtime.live import LiveTable
from ..runtime.runtime import TableRuntime
from ..settings import Settings
from ..stores.base import AccountRow, hash_token
from ..table import UserError

__all__ = [
    "MAX_MESSAGE_BYTES",
    "STATUSES",
    "Budgets",
    "Services",
    "body_of",
    "client_address",
    "error_response",
    "foreign",
    "limit_key",
    "parse_object",
    "pick_lang",
    "refused_response",
    "request_lang",
    "services",
    "signed_in",
]

MAX_MESSAGE_BYTES = 2048
"""Client intents and request bodies are tiny; anything larger is refused."""

STATUSES = {
    "unknown_table": 404,
    "unknown_match": 404,
    "match_running": 403,
    "unavailable": 503,
    "table_moved": 503,
    "too_large": 413,
    "bad_content_type": 415,
    "bad_origin": 403,
    "rate_limited": 429,
    "review_busy": 429,
    "review_queue_full": 503,
    "not_seated": 403,
    "too_slow": 408,
    "internal": 500,
    "signed_out": 401,
    "bad_credentials": 401,
    "username_taken": 409,
    "unknown_player": 404,
    "sign_in_limited": 429,
    "rated_needs_account": 403,
    "unknown_ticket": 404,
    "not_playing": 409,
    "already_resigned": 409,
}


@dataclass
class Budgets:
    """Per-address token buckets (each process keeps its own)."""

    creations: AddressBuckets
    misses: AddressBuckets
    messages: AddressBuckets
    reviewing: AddressBuckets
    api_gets: AddressBuckets
    """Every ``GET /api/...`` (``limits.API_GETS`` unless the settings say otherwise)."""

    @classmethod
    def of(cls, settings: Settings) -> Budgets:
        return cls(
            creations=AddressBuckets(settings.create_rate / 60, settings.create_burst),
            misses=AddressBuckets(1.0, settings.lookup_misses),
            messages=AddressBuckets(settings.address_rate, 2 * settings.address_rate),
            reviewing=AddressBuckets(settings.create_rate / 60, settings.create_burst),
            api_gets=Budget(settings.api_rate, settings.api_burst).buckets(),
        )


@dataclass
class Services:
    """Everything a route may use, made once by ``create_app``."""

    runtime: TableRuntime
    settings: Settings
    budgets: Budgets
    counts: Counts

    async def find(self, table_id: str, address: str) -> LiveTable:
        """A table by id; an address that keeps guessing ids must slow down."""
        misses = self.budgets.misses
        if misses.empty(address):
            raise UserError("rate_limited")
        try:
            return await self.runtime.get(table_id)
        except UserError as error:
            if error.code == "unknown_table" and not misses.allow(address):
                raise UserError("rate_limited") from None
            raise


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]


def pick_lang(*candidates: str | None) -> str:
    for lang in candidates:
        if lang in LANGUAGES:
            return lang
    return "en"


def request_lang(request: Request) -> str:
    accept = request.headers.get("accept-language", "")[:2].lower()
    return pick_lang(request.query_params.get("lang"), request.cookies.get("lang"), accept)


def error_response(error: UserError, lang: str) -> JSONResponse:
    """The refusal in the asker's language; ``field`` names the form field it is about,
    so that a form can say it next to that field."""
    body = {"error": error.code, "message": error.message(lang)}
    field = error.values.get("field")
    if isinstance(field, str):
        body["field"] = field
    return JSONResponse(body, status_code=STATUSES.get(error.code, 400))


def refused_response(refusal: Refused, lang: str) -> JSONResponse:
    """A request refused so that others get their share: its status, and when to ask
    again in ``Retry-After`` (and the body's ``retry_after``) if there is a guess."""
    body: dict[str, Any] = {"error": refusal.code, "message": refusal.message(lang)}
    headers = {}
    if refusal.retry_after is not None:
        body["retry_after"] = refusal.retry_after
        headers["Retry-After"] = str(refusal.retry_after)
    return JSONResponse(body, status_code=refusal.status, headers=headers)


def client_address(scope_owner: Request | WebSocket) -> str:
    client = scope_owner.client
    return client.host if client is not None else "?"


def limit_key(scope_owner: Request | WebSocket) -> str:
    """What the client's per-address limits count by (``limits.address_key``: an IPv6
    address by its /64)."""
    return address_key(client_address(scope_owner))


def same_origin(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's ``Origin`` is this server's own (its ``Host``) or one the operator allows."""
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


def foreign(scope_owner: Request | WebSocket, settings: Settings) -> bool:
    """A browser says where the page that sent this came from; other sites may not."""
    origin = scope_owner.headers.get("origin")
    host = scope_owner.headers.get("host")
    return origin is not None and not same_origin(origin, host, settings.allowed_origins)


def parse_object(text: str | bytes) -> dict[str, Any]:
    """A JSON object, or ``bad_json``: too deep, malformed and non-object input alike."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise UserError("bad_json") from None
    if not isinstance(data, dict):
        raise UserError("bad_json")
    return data


async def body_of(request: Request, settings: Settings) -> dict[str, Any]:
    """The JSON object of a small request body from this site; larger, slower or other
    bodies are refused unread."""
    if foreign(request, settings):
        raise UserError("bad_origin")
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
        async with asyncio.timeout(settings.body_timeout):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_MESSAGE_BYTES:
                    raise UserError("too_large", limit=MAX_MESSAGE_BYTES)
    except TimeoutError:
        raise UserError("too_slow") from None
    return parse_object(bytes(raw) or b"{}")


async def signed_in(request: Request | WebSocket, services: Services) -> AccountRow | None:
    """The account of the request's session cookie, ``None`` for a guest."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    store = services.runtime.store
    return await services.runtime.stored(
        lambda: store.session_account(hash_token(token), time.time())
    )
