"""A service's work stopped within a bound: once its stop event is set, what is still running
(a batch waiting for acks from a nats-server that died at the same moment, say) gets a few
seconds to finish and is then cancelled, so a service told to stop (by Ctrl-C, or by the death
of the `gamehall up` that started it) is gone in seconds, not after every timeout on the way.

Cancelling is safe where the work keeps nothing it has not committed: a projection's position
is stored with its rows, and scoring's outbox rows are deleted only after their acks (what was
not acked is published again at the next start, under the same message id)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable

STOP_GRACE_S = 5.0


async def run_until_stopped(work: Awaitable[None], stop: asyncio.Event, grace_s: float = STOP_GRACE_S) -> bool:
    """Await ``work``; once ``stop`` is set, wait at most ``grace_s`` more seconds for it, then
    cancel it.  True when it finished by itself (its error, if any, is raised), False when it was
    cancelled."""
    task = asyncio.ensure_future(work)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if not task.done():
            await asyncio.wait({task}, timeout=grace_s)
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return False
        task.result()
        return True
    finally:
        stopper.cancel()
        if not task.done():  # this coroutine itself was cancelled
            task.cancel()
