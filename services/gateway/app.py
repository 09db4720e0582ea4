"""The gateway: HTTP + WebSocket for client apps (OpenAPI at /docs), as a process.

This module wires the parts together: the FastAPI app (the routers of ``api``, one per resource,
with the gateway and the lobby they depend on in ``app.state``; error handlers from ``errors``;
OpenAPI with every game's schemas from ``openapi``), the command fast path in front of it
(``fastpath``), the edge in front of both (``edge``), and uvicorn.  Views
are derived from the log (``core.Gateway``), so the referee's hot path publishes nothing extra."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response

from services.common import health, logs, metrics
from services.common.settings import Settings
from services.common.shell import tune_collector
from services.gateway import edge, errors, openapi
from services.gateway.api import (
    accounts,
    audit,
    disputes,
    games,
    matches,
    queue,
    ratings,
    tournaments,
    tournaments_write,
)
from services.gateway.api import ops as operations
from services.gateway.api.ops import readiness_checks
from services.gateway.assets import WebAssets
from services.gateway.core import Gateway
from services.gateway.fastpath import COMMAND_PATH, CommandFastPath
from services.gateway.lobby import Lobby
from services.gateway.server import http_protocol, websocket_protocol
from services.gateway.sockets import WS_FRAME_LIMIT
from services.gateway.tournament_book import TournamentBook

__all__ = ["CommandFastPath", "Gateway", "asgi_app", "create_app", "run"]

# In this order in the app (and so in the OpenAPI description).
ROUTERS = (accounts, queue, ratings, disputes, matches, tournaments, tournaments_write, operations, games, audit)

WEB_DIR = Path(__file__).resolve().parents[2] / "web"


class RequestCounter:
    """Pure ASGI middleware counting responses by route template and status (cheaper than
    Starlette's BaseHTTPMiddleware, which costs milliseconds per request)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._children: dict[tuple[str, str], Any] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counting_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                key = (getattr(scope.get("route"), "path", "unmatched"), str(message["status"]))
                child = self._children.get(key)
                if child is None:
                    child = self._children[key] = metrics.HTTP_REQUESTS.labels(*key)
                child.inc()
            await send(message)

        await self.app(scope, receive, counting_send)


def create_app(settings: Settings, nats_url: str) -> FastAPI:
    gw = Gateway(settings, nats_url)
    lobby = Lobby(gw)
    book = TournamentBook(lambda: gw.nc)  # every tournament folded, for the read routes

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The readiness gauges (gamehall_ready_check), sampled as every service does.
        sampler = asyncio.create_task(health.sample_forever(lambda: readiness_checks(gw)))
        try:
            await gw.start()
            await lobby.start()
            await book.start()
            yield
            await book.stop()
            await lobby.stop()
            await gw.stop()
        finally:
            sampler.cancel()
            await asyncio.gather(sampler, return_exceptions=True)

    app = FastAPI(
        title="gamehall",
        version="0.1.0",
        description="Turn-based board and card games: create matches, send commands, watch views live.",
        lifespan=lifespan,
        docs_url=None,  # /docs and /redoc are served with local assets (openapi.install_docs)
        redoc_url=None,
        # Metrics are Prometheus (services.common.metrics); FastAPI's own OpenTelemetry layer
        # would only add per-request cost here.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    app.state.gateway = gw  # what the routers depend on (services.gateway.api.deps)
    app.state.lobby = lobby
    app.state.tournaments = book
    openapi.install(app)  # every game's commands and views, from the contracts
    openapi.install_docs(app)  # /docs and /redoc, with no internet
    openapi.install_asyncapi(app)  # /asyncapi.json: the NATS subjects and the match socket

    errors.install_error_handlers(app)
    errors.install_error_responses(app)

    app.add_middleware(RequestCounter)

    for resource in ROUTERS:
        app.include_router(resource.router)

    if WEB_DIR.is_dir() and (WEB_DIR / "index.html").exists():
        # The page's files gzip-compressed once and kept (services.gateway.assets), by the
        # client's Accept-Encoding, with ETags and revalidation.
        web = WebAssets(WEB_DIR)

        @app.get("/", include_in_schema=False)
        async def index(request: Request) -> Response:
            return web.response("index.html", request.scope)

        app.mount("/web", web, name="web")
    return app


def asgi_app(settings: Settings, nats_url: str, fast_path: bool = True) -> tuple[Any, Gateway]:
    """The whole ASGI stack the server runs: the edge, the command fast path, the FastAPI app.

    ``fast_path=False`` leaves the fast path out, so the documented FastAPI route answers the
    commands (the test that both answer alike compares the two stacks)."""
    app = create_app(settings, nats_url)
    gw: Gateway = app.state.gateway
    inner = CommandFastPath(app, gw) if fast_path else app
    return edge.EdgeGuard(inner, gw.limiter, self_checked=COMMAND_PATH), gw


async def run(
    settings: Settings, stop: asyncio.Event, port: int | None = None, metrics_port: int | None = 0
) -> None:
    """The gateway until ``stop``: its public port (``port``, else ``GAMEHALL_HTTP_PORT``) and its
    operations port with ``/metrics``, ``/healthz`` and ``/readyz`` (``metrics_port`` 0: the
    configured ``GAMEHALL_METRICS_PORT`` on ``GAMEHALL_METRICS_HOST``, else a free loopback port;
    None: none), as every service without HTTP has.  The public port serves no ``/metrics``."""
    import uvicorn

    logs.configure("gateway", settings.log_format)
    assert settings.nats_url, "the gateway needs a NATS URL"
    asgi, gw = asgi_app(settings, settings.nats_url)
    host = "127.0.0.1" if settings.http_host in ("0.0.0.0", "::", "") else settings.http_host
    gw.internal_url = f"http://{host}:{port or settings.http_port}"
    limits = settings.gateway.limits()
    guard = edge.ConnectionGuard(
        limits.max_connections_per_address, limits.header_timeout_s, limits.body_timeout_s
    )
    gw.connections = guard
    protocol = http_protocol(guard)
    config = uvicorn.Config(
        asgi,
        host=settings.http_host,
        port=port or settings.http_port,
        log_level="warning",
        lifespan="on",
        ws=websocket_protocol(),
        http=protocol or "auto",
        ws_max_size=WS_FRAME_LIMIT,
        # Frames are not compressed: the same bytes then go to every socket of a match
        # (services.gateway.outlet), and 500 sockets cost no deflate each per decision.
        ws_per_message_deflate=False,
        timeout_keep_alive=5,
        proxy_headers=settings.gateway.forwarded_allow_ips is not None,
        forwarded_allow_ips=settings.gateway.forwarded_allow_ips,
    )
    ops: health.HealthServer | None = None
    if metrics_port is not None:
        # The app samples the readiness gauges (its lifespan); this port only answers.
        ops = health.HealthServer(checks_of=lambda: readiness_checks(gw))
        bound = await ops.start(
            metrics_port or settings.metrics_port or 0, settings.metrics_host, sample=False
        )
        logs.get("gateway").info("metrics", port=bound, path="/metrics", health="/healthz", ready="/readyz")
    # As every other service (services.common.shell): what start-up built, the app and the
    # imported modules, stays out of the collections, and the young generation is collected
    # less often.
    tune_collector()
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    stopper = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
        server.should_exit = True
        await task
    finally:
        stopper.cancel()
        if ops is not None:
            await ops.stop()
