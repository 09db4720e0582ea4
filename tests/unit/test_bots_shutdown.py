"""A normal Ctrl-C leaves no traceback in bots.log: a bot's session cancelled at shutdown, while
the gateway closes its socket, retrieves the end of its pending receive (issue 15)."""

from __future__ import annotations

import asyncio
import gc
from types import SimpleNamespace
from typing import Any

from services.bots.app import BotPlayer


class ClosingSocket:
    async def recv(self) -> str:
        await asyncio.sleep(0.05)
        raise ConnectionError("the gateway closed the socket")


def test_cancelled_session_leaves_no_unretrieved_task_exception() -> None:
    reported: list[dict[str, Any]] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: reported.append(ctx))
        player = SimpleNamespace(finished=False)
        session = asyncio.create_task(BotPlayer._session(player, ClosingSocket(), asyncio.Event()))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        session.cancel()  # what run_bots does to every player when the service stops
        await asyncio.gather(session, return_exceptions=True)
        await asyncio.sleep(0.1)
        gc.collect()
        await asyncio.sleep(0)

    asyncio.run(main())
    gc.collect()
    assert [c.get("message") for c in reported] == []
