"""Leaderboard service: RatingApplied -> standings and players.

Run alone with ``run(settings, stop)``; ``/metrics`` on its own port.  Reads for the gateway and
the CLI are in ``services.leaderboard.queries``.
"""

from __future__ import annotations

import asyncio

from contracts import subjects
from services.common import db, logs, metrics, natsio
from services.common.settings import Settings
from services.leaderboard import logic
from services.scoring.projection import Projection, ProjectionOptions

SERVICE = "leaderboard"


async def run(
    settings: Settings,
    stop: asyncio.Event,
    options: ProjectionOptions | None = None,
    metrics_port: int | None = 0,
) -> None:
    logs.configure(SERVICE, settings.log_format)
    log = logs.get(SERVICE)
    if metrics_port is not None:
        port = metrics.serve_metrics(metrics_port or None)
        log.info("metrics", port=port, path="/metrics")
    engine = await asyncio.to_thread(db.open_database, settings.database_url)
    nc = await natsio.connect(settings.nats_url or "nats://127.0.0.1:4222", SERVICE)
    try:
        js = nc.jetstream()
        await natsio.ensure_streams(js)
        projection = Projection(
            js,
            engine,
            subjects.LEADERBOARD_CONSUMER,
            subjects.RATING_APPLIED,
            logic.apply,
            options=options,
            prefetch=logic.prefetch,
        )
        await projection.run(stop)
    finally:
        await nc.drain()
        engine.dispose()
