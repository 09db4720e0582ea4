"""``gamehall serve referee``: the referee as a process."""

from __future__ import annotations

import asyncio
import contextlib

from nats.js import JetStreamContext

from contracts.subjects import INTEGRATION_STREAM, MATCH_STREAM, SECRET_STREAM
from domain.games.registry import GAMES
from services.common import metrics
from services.common.settings import Settings
from services.common.shell import service_shell
from services.referee.core import Referee


def owned_partitions(settings: Settings) -> tuple[int, ...] | None:
    """GAMEHALL_REFEREE_PARTITIONS="0,1" limits a referee to some partitions (scale-out)."""
    owned = settings.referee.owned_partitions
    if not owned:
        return None
    partitions = settings.partitions
    bad = [p for p in owned if not 0 <= p < partitions]
    if bad:
        raise SystemExit(f"GAMEHALL_REFEREE_PARTITIONS: {bad} outside 0..{partitions - 1}")
    return owned


CONSUMER_SAMPLE_S = 15.0


async def sample_consumers(js: JetStreamContext, stop: asyncio.Event) -> None:
    """Publish how many consumers each stream holds (alert: consumers piling up towards the
    server's limit, e.g. WebSocket followers that are never cleaned up)."""
    while not stop.is_set():
        for stream in (MATCH_STREAM, SECRET_STREAM, INTEGRATION_STREAM):
            try:
                info = await js.stream_info(stream)
            except Exception:  # noqa: BLE001 - a sample missed is retried next time; NATS may be away
                continue
            metrics.JETSTREAM_CONSUMERS.labels(stream).set(info.state.consumer_count)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), CONSUMER_SAMPLE_S)


async def run(settings: Settings, stop: asyncio.Event, metrics_port: int | None = 0) -> None:
    owned = owned_partitions(settings)
    async with service_shell("referee", settings, metrics_port) as shell:
        referee = Referee(shell.nc, shell.nc.jetstream(), partitions=settings.partitions, owned=owned)
        metrics.init_game_series(GAMES)
        await referee.start()
        sampler = asyncio.create_task(sample_consumers(shell.nc.jetstream(), stop))
        shell.log.info("referee_started", nats=settings.nats_url, partitions=owned or "all")
        await stop.wait()
        await sampler
        await referee.stop()
