"""services.common.shutdown: a service's work is cancelled a bounded time after its stop."""

from __future__ import annotations

import asyncio

import pytest

from services.common.shutdown import run_until_stopped


async def test_work_that_ends_on_stop_ends_by_itself() -> None:
    stop = asyncio.Event()
    ended = []

    async def work() -> None:
        await stop.wait()
        ended.append(True)

    asyncio.get_running_loop().call_soon(stop.set)
    assert await run_until_stopped(work(), stop, grace_s=60.0) is True
    assert ended == [True]


async def test_work_stuck_after_the_stop_is_cancelled_after_the_grace() -> None:
    stop = asyncio.Event()
    cancelled = []

    async def stuck() -> None:  # e.g. waiting for an ack from a dead nats-server
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(stop.is_set())
            raise

    stop.set()
    assert await run_until_stopped(stuck(), stop, grace_s=0.01) is False
    assert cancelled == [True]


async def test_an_error_of_the_work_is_raised() -> None:
    async def broken() -> None:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError, match="database gone"):
        await run_until_stopped(broken(), asyncio.Event())


async def test_work_is_not_cancelled_before_the_stop() -> None:
    stop = asyncio.Event()
    steps = []

    async def slow() -> None:
        for i in range(3):
            await asyncio.sleep(0)
            steps.append(i)

    assert await run_until_stopped(slow(), stop, grace_s=0.0) is True
    assert steps == [0, 1, 2]
