"""Scoring stops when told to, also while its nats-server is gone: a `gamehall up` SIGKILLed
takes nats-server with it, and a scoring then still connecting retried the connection for ever
(the chaos test found it left running)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from services.common import settings as settings_mod
from services.common.processes import free_port
from services.scoring import app

pytestmark = pytest.mark.integration


async def test_scoring_told_to_stop_while_nats_is_unreachable_stops(tmp_path: Path) -> None:
    # a port nothing listens on: the connection is refused again and again
    settings = settings_mod.load().replace(nats_url=f"nats://127.0.0.1:{free_port()}", data_dir=tmp_path)
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(settings, stop, None, None))
    await asyncio.sleep(0.5)  # well into its start-up
    assert not task.done()
    stop.set()
    # generous: the bound is 5 s after the stop; without it the task never ends
    await asyncio.wait_for(task, 120)
