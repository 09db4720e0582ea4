"""``gamehall serve referee``: the referee as a process."""

from __future__ import annotations

import asyncio
import os

from services.common.settings import Settings
from services.common.shell import service_shell
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


async def run(settings: Settings, stop: asyncio.Event, metrics_port: int | None = 0) -> None:
    owned = owned_partitions(settings.partitions)
    async with service_shell("referee", settings, metrics_port) as shell:
        referee = Referee(shell.nc, shell.nc.jetstream(), partitions=settings.partitions, owned=owned)
        await referee.start()
        shell.log.info("referee_started", nats=settings.nats_url, partitions=owned or "all")
        await stop.wait()
        await referee.stop()
