"""``gamehall serve referee``: the referee as a process."""

from __future__ import annotations

import asyncio
import os

from services.common import logs, metrics
from services.common.natsio import connect, ensure_streams
from services.common.settings import Settings
from services.referee.core import Referee


def owned_partitions(partitions: int) -> tuple[int, ...] | None:
    """GAMEHALL_REFEREE_PARTITIONS="0,1" limits a referee to some partitions (scale-out)."""
    raw = os.environ.get("GAMEHALL_REFEREE_PARTITIONS", "").strip()
    if not raw:
        return None
    owned = tuple(int(p) for p in raw.split(","))
    bad = [p for p in owned if not 0 <= p < partitions]
    if bad:
        raise SystemExit(f"GAMEHALL_REFEREE_PARTITIONS: {bad} outside 0..{partitions - 1}")
    return owned


async def run(settings: Settings, stop: asyncio.Event, metrics_port: int | None = None) -> None:
    nats_url = settings.nats_url
    assert nats_url, "the referee needs a NATS URL"
    logs.configure("referee", settings.log_format)
    log = logs.get("referee")
    nc = await connect(nats_url, "gamehall-referee")
    js = nc.jetstream()
    await ensure_streams(js)
    referee = Referee(nc, js, partitions=settings.partitions, owned=owned_partitions(settings.partitions))
    await referee.start()
    port = metrics.serve_metrics(metrics_port)
    log.info("referee_started", nats=nats_url, metrics=f"http://127.0.0.1:{port}/metrics")
    await stop.wait()
    await referee.stop()
    await nc.drain()
