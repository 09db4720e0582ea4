"""The match WebSocket: the view now and after every stored decision, commands on the same socket,
typed error frames and the documented close codes (docs/api.md)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import msgspec
from fastapi import WebSocket, WebSocketDisconnect

from contracts.codecs import encode
from services.common import logs
from services.gateway import edge
from services.gateway.core import CommandId, CommandRequest, Gateway
from services.gateway.edge import ApiError

log = logs.get("gateway")


WS_MESSAGE_LIMIT = edge.MAX_BODY  # characters of one message; longer: an error frame, then 1009
WS_FRAME_LIMIT = 1024 * 1024  # bytes the server reads of one message at all (beyond: 1009 at once)


class WsCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="command"):
    command: dict[str, Any]
    command_id: CommandId | None = None


ws_message_decoder = msgspec.json.Decoder(WsCommand)


class WsKind(msgspec.Struct, frozen=True):
    type: Any = None


def parse_ws_message(text: str) -> WsCommand:
    """A client's text frame as a command, or the ApiError (with its close code) that ends the socket."""
    if len(text) > WS_MESSAGE_LIMIT:
        raise ApiError(413, "too_large", f"messages are at most {WS_MESSAGE_LIMIT} characters", close=1009)
    raw = text.encode("utf-8", "surrogatepass")
    problem = edge.depth_problem(raw)
    if problem:
        raise ApiError(400, "too_deep", problem, close=4400)
    try:
        message = ws_message_decoder.decode(raw)
    except msgspec.ValidationError as exc:  # (a DecodeError too: caught first)
        kind = msgspec.json.decode(raw, type=WsKind) if raw[:1] == b"{" else None
        if kind is not None and kind.type != "command":
            raise ApiError(
                400, "unknown_type", 'the only message a client sends is {"type": "command", ...}', close=4400
            ) from None
        raise ApiError(
            400, "malformed", f'send {{"type": "command", "command": {{...}}, "command_id": "..."}}: {exc}', close=4400
        ) from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise ApiError(400, "malformed", f"the message is not JSON: {exc}", close=4400) from None
    except Exception as exc:  # never a dropped socket without a typed frame
        log.exception("websocket_message_check_failed")
        raise ApiError(400, "malformed", f"the message could not be read: {exc!r}", close=4400) from None
    found = edge.shape_problem(message.command)
    if found:
        raise ApiError(400, *found, close=4400)
    return message


def ws_close_code(exc: ApiError) -> int:
    """The documented close code after an error frame (docs/api.md "Close codes")."""
    if exc.close is not None:
        return exc.close
    return {401: 4401, 403: 4403, 404: 4404, 429: 4429, 503: 1013}.get(exc.status, 4400)


async def serve_socket(gw: Gateway, ws: WebSocket, match_id: str, token: str | None, since: int) -> None:
    """Send the view now and after every stored decision; accept commands on the same socket.

    Messages to the client: {"type": "view", "view": ...}, {"type": "events", "events": [...]},
    {"type": "reply", "command_id": ..., "reply": ...}, {"type": "error", ...}.
    A client that reconnects passes ``since`` (the last seq it saw) and gets the missed events.
    """
    folded = await gw.load(match_id, private=True)
    seat = gw.viewer(folded, token)
    send_lock = asyncio.Lock()

    async def push(payload: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_text(encode(payload).decode())

    await push({"type": "events", "events": gw.events_for(folded, seat, since)})
    await push({"type": "view", "view": gw.render(folded, seat)})

    async def pump() -> None:
        try:
            async for item in gw.follow(folded):
                env = folded.apply(item)
                await push({"type": "events", "events": gw.events_for(folded, seat, env.seq - 1)})
                await push({"type": "view", "view": gw.render(folded, seat)})
        except Exception:
            log.exception("websocket_follow_failed", match_id=match_id)
            await ws.close(code=1011)
            raise

    pump_task = asyncio.create_task(pump())
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            text = message.get("text")
            if text is None:
                raise ApiError(400, "binary_frame", "send commands as JSON text frames", close=1003)
            incoming = parse_ws_message(text)
            command_id = incoming.command_id or uuid.uuid4().hex
            try:
                wait = gw.limiter.credential_throttled(token) if token else 0.0
                if wait:
                    raise ApiError(429, "rate_limited", "too many commands with this credential", wait)
                reply = await gw.send(match_id, token, CommandRequest(command=incoming.command, command_id=command_id))
                await push({"type": "reply", "command_id": command_id, "reply": msgspec.to_builtins(reply)})
            except ApiError as exc:
                rejected: dict[str, Any] = {
                    "type": "rejected.v1",
                    "code": exc.code,
                    "detail": edge.safe_text(exc.detail),
                    "status": exc.status,
                }
                if exc.retry_after is not None:
                    rejected["retry_after"] = round(exc.retry_after, 3)
                await push({"type": "reply", "command_id": command_id, "reply": rejected})
    finally:
        # A pump cancelled while it sets up its consumer may take a while to stop: the error
        # frame and the close do not wait for it.
        pump_task.add_done_callback(lambda t: t.cancelled() or t.exception())
        pump_task.cancel()
        await asyncio.wait({pump_task}, timeout=0.5)
