"""The start-up every service shares: logging, /metrics, the database, NATS and the streams."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nats.aio.client import Client

from services.common import logs, natsio
from services.common.health import HealthServer, nats_checks, not_yet
from services.common.settings import Settings

if TYPE_CHECKING:
    from sqlalchemy import Engine


@dataclass(frozen=True)
class Shell:
    log: Any
    nc: Client
    engine: Engine | None
    health: HealthServer  # add a service's own readiness checks to ``health.checks``


def tune_collector() -> None:
    """Long-lived services allocate many small objects per message: keep what start-up created
    (the imported modules, the app) out of every collection and collect the young generation less
    often (measured on the referee: ~12% less CPU per move; on the gateway, docs/benchmarks.md:
    full collections of up to 672 ms under load with Python's defaults)."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)


@contextlib.asynccontextmanager
async def service_shell(
    name: str, settings: Settings, metrics_port: int | None = 0, database: bool = False
) -> AsyncIterator[Shell]:
    """Configure logs, serve /metrics, /healthz and /readyz (``0``: the configured port, else a free one; ``None``: none),
    open the database when asked, connect to NATS and make sure the streams exist; undo it all on
    the way out."""
    logs.configure(name, settings.log_format)
    log = logs.get(name)
    tune_collector()
    if not settings.nats_url:
        raise SystemExit(f"{name} needs NATS_URL (or a stack started with 'gamehall up')")
    engine = None
    if database:
        # Imported here: SQLAlchemy is most of a start-up's imports, and a service without a
        # database (the referee) restarts that much sooner (docs/benchmarks.md, recovery).
        from services.common import db

        engine = await asyncio.to_thread(db.open_database, settings.database_url)
    health = HealthServer({"nats": not_yet("connecting to NATS")})
    try:
        if metrics_port is not None:
            port = await health.start(metrics_port or settings.metrics_port or 0, settings.metrics_host)
            log.info("metrics", port=port, path="/metrics", health="/healthz", ready="/readyz")
        nc = await natsio.connect(settings.nats_url, f"gamehall-{name}", settings.nats_credential(name))
        try:
            health.checks.update(nats_checks(nc))
            # GH_SECRETS is the referee's alone (services.referee.app ensures it).
            await natsio.ensure_streams(
                nc.jetstream(), replicas=settings.stream_replicas, streams=natsio.APP_STREAMS
            )
            await natsio.ensure_buckets(nc.jetstream(), replicas=settings.stream_replicas)
            yield Shell(log=log, nc=nc, engine=engine, health=health)
        finally:
            await nc.drain()
    finally:
        await health.stop()
        if engine is not None:
            engine.dispose()
