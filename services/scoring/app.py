"""Scoring service: MatchFinished -> match history, ratings and RatingApplied.

Run alone with ``run(settings, stop)``; ``/metrics`` on its own port.
"""

from __future__ import annotations

import asyncio

from contracts import subjects
from services.common import db, logs, metrics, natsio
from services.common.settings import Settings
from services.scoring import config as scoring_config
from services.scoring import logic, outbox
from services.scoring.projection import Projection, ProjectionOptions

SERVICE = "scoring"


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
        cfg = scoring_config.load()
        projection = Projection(
            js,
            engine,
            subjects.SCORING_CONSUMER,
            subjects.MATCH_FINISHED,
            logic.make_apply(cfg),
            after_commit=lambda: _flush(js, engine),
            options=options,
            prefetch=logic.make_prefetch(cfg),
        )
        await projection.run(stop)
    finally:
        await nc.drain()
        engine.dispose()


async def _flush(js: object, engine: object) -> None:
    await outbox.flush(js, engine)  # type: ignore[arg-type]
