"""Scoring service: MatchFinished -> match history, ratings and RatingApplied.

Run alone with ``run(settings, stop)``; ``/metrics`` on its own port.
"""

from __future__ import annotations

import asyncio

from contracts import subjects
from services.common.projection import Projection, ProjectionOptions
from services.common.settings import Settings
from services.common.shell import service_shell
from services.scoring import config as scoring_config
from services.scoring import logic, outbox

SERVICE = "scoring"


async def run(
    settings: Settings,
    stop: asyncio.Event,
    options: ProjectionOptions | None = None,
    metrics_port: int | None = 0,
) -> None:
    async with service_shell(SERVICE, settings, metrics_port, database=True) as shell:
        js, engine = shell.nc.jetstream(), shell.engine
        assert engine is not None
        cfg = scoring_config.load(settings.scoring)
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


async def _flush(js: object, engine: object) -> None:
    await outbox.flush(js, engine)  # type: ignore[arg-type]
