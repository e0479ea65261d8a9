"""For operators: health (the store and the bus) and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..stores.base import StoreUnavailable
from .deps import ServicesDep

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz(request: Request, services: ServicesDep) -> Response:
    """``ok`` while the store (and the bus, if any) answer; 503 naming what does not."""
    runtime = services.runtime
    checks: dict[str, str] = {}
    try:
        runtime.store.count_tables()
        checks["store"] = "ok"
    except StoreUnavailable as error:
        checks["store"] = f"unavailable: {error}"
    relay = runtime.relay
    if relay is not None:
        checks["bus"] = "ok" if await relay.bus.healthy() else "unavailable"
    healthy = all(value == "ok" for value in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        **checks,
        "tables_in_memory": len(runtime.tables),
    }
    return JSONResponse(body, status_code=200 if healthy else 503)


@router.get("/metrics")
async def metrics_page(request: Request) -> Response:
    return Response(request.app.state.metrics.text(), media_type="text/plain; version=0.0.4")
