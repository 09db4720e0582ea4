"""Leaderboard service: RatingApplied -> standings and players.

Run alone with ``run(settings, stop)``; ``/metrics`` on its own port.  Reads for the gateway and
the CLI are in ``services.common.queries``.
"""

from __future__ import annotations

import asyncio

from contracts import subjects
from services.common.projection import Projection, ProjectionOptions
from services.common.settings import Settings
from services.common.shell import service_shell
from services.leaderboard import logic

SERVICE = "leaderboard"


async def run(
    settings: Settings,
    stop: asyncio.Event,
    options: ProjectionOptions | None = None,
    metrics_port: int | None = 0,
) -> None:
    async with service_shell(SERVICE, settings, metrics_port, database=True) as shell:
        assert shell.engine is not None
        projection = Projection(
            shell.nc.jetstream(),
            shell.engine,
            subjects.LEADERBOARD_CONSUMER,
            subjects.RATING_APPLIED,
            logic.apply,
            options=options,
            prefetch=logic.prefetch,
        )
        await projection.run(stop)
