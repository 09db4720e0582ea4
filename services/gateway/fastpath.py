"""The command fast path: ``POST /api/matches/{id}/commands``, the route every move takes, answered
by a small ASGI layer in front of the FastAPI app (FastAPI's and Starlette's per-request layers
cost more CPU than the referee's whole decision, docs/architecture.md).  ``process_command`` is
the one implementation: the documented FastAPI route calls it too, and a test checks that both
answer alike (status, body, headers)."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from contracts.codecs import encode
from services.common import metrics
from services.gateway import edge
from services.gateway.core import Gateway, command_request_decoder
from services.gateway.credentials import credential_of
from services.gateway.edge import ApiError


async def process_command(
    gw: Gateway, match_id: str, raw: bytes, token: str | None
) -> tuple[int, bytes, float | None]:
    """POST /api/matches/{id}/commands: (status, JSON body, retry_after).  msgspec decodes and
    encodes; the edge (``edge.EdgeGuard``) has checked size, content type and nesting already."""
    try:
        try:
            body = command_request_decoder.decode(raw)
        except msgspec.ValidationError as exc:  # (a DecodeError too: caught first)
            raise ApiError(
                422, "malformed", f'send {{"command": {{...}}, "command_id": "..."}}: {exc}'
            ) from None
        except (msgspec.DecodeError, RecursionError) as exc:
            raise ApiError(400, "malformed", f"the body is not JSON: {exc}") from None
        reply = await gw.send(match_id, token, body)
    except ApiError as exc:
        return exc.status, edge.error_body(exc.code, exc.detail, exc.retry_after), exc.retry_after
    return 200, encode(reply), None


COMMAND_PATH = re.compile(r"^/api/matches/([A-Za-z0-9_-]+)/commands$")
COMMAND_ROUTE = "/api/matches/{match_id}/commands"


class CommandFastPath:
    """The outermost ASGI layer: ``POST /api/matches/{id}/commands``, the route every move takes,
    is answered here; everything else goes to the FastAPI app.  FastAPI's and Starlette's
    per-request layers cost more CPU than the referee's whole decision (docs/architecture.md)."""

    def __init__(self, app: Any, gw: Gateway) -> None:
        self.app = app
        self.gw = gw
        self._counters: dict[int, Any] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            found = COMMAND_PATH.match(scope["path"])
            if found is not None:
                await self.command(found.group(1), scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def command(self, match_id: str, scope: Any, receive: Any, send: Any) -> None:
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        status, payload, retry_after = await process_command(self.gw, match_id, b"".join(chunks), credential_of(scope))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": edge.json_headers(payload, retry_after),
            }
        )
        await send({"type": "http.response.body", "body": payload})
        counter = self._counters.get(status)
        if counter is None:
            counter = self._counters[status] = metrics.HTTP_REQUESTS.labels(COMMAND_ROUTE, str(status))
        counter.inc()
