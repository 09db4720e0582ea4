"""The match WebSocket: the view now and after every stored decision, commands on the same socket,
typed error frames and the documented close codes (docs/api.md)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import msgspec
from fastapi import WebSocket, WebSocketDisconnect

from contracts.codecs import encode
from domain.core.words import DEFAULT_LANG, Lang
from services.common import logs
from services.gateway import edge, fanout, outlet
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
            400,
            "malformed",
            f'send {{"type": "command", "command": {{...}}, "command_id": "..."}}: {exc}',
            close=4400,
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


SLOW_CLOSE_WAIT_S = 1.0  # how long a slow socket's close frame may wait before the connection is cut


async def close_slow(ws: WebSocket) -> None:
    """A socket that fell behind: an error frame and 4408 if they can still be written soon,
    else the connection is cut (a client that reads nothing never reads a close frame)."""
    try:
        await asyncio.wait_for(_slow_frames(ws), SLOW_CLOSE_WAIT_S)
        return
    except Exception:  # a timeout, or the socket is gone already
        pass
    abort = ws.scope.get("extensions", {}).get(outlet.WS_ABORT_EXTENSION)
    if abort is not None:
        abort()


async def _slow_frames(ws: WebSocket) -> None:
    detail = "this socket did not read its frames; reconnect with since=<last seq seen>"
    await ws.send_text(encode({"type": "error", "code": "slow_consumer", "detail": detail}).decode())
    await ws.close(code=fanout.SLOW_CONSUMER_CLOSE, reason="slow_consumer")


async def serve_socket(
    gw: Gateway, ws: WebSocket, match_id: str, token: str | None, since: int, lang: Lang = DEFAULT_LANG
) -> None:
    """Send the view now and after every stored decision; accept commands on the same socket.

    Messages to the client: {"type": "view", "view": ...}, {"type": "events", "events": [...]},
    {"type": "reply", "command_id": ..., "reply": ...}, {"type": "error", ...}.
    A client that reconnects passes ``since`` (the last seq it saw) and gets the missed events;
    ``lang`` is the language of the views' sentences (``?lang=ru``).
    The socket watches the match through the gateway's hub (one consumer per match, however
    many sockets); its frames wait on a bounded queue, and a socket that falls behind it is
    closed with 4408 (``slow_consumer``).
    """
    address = ws.client.host if ws.client else "unknown"
    if not gw.hub.admit(address):
        raise ApiError(
            429,
            "too_many_sockets",
            f"at most {gw.hub.per_address} match sockets from one address",
            close=4429,
        )
    try:
        await _serve(gw, ws, match_id, token, since, lang)
    finally:
        gw.hub.release(address)


async def _serve(
    gw: Gateway, ws: WebSocket, match_id: str, token: str | None, since: int, lang: Lang
) -> None:
    await gw.game_of(match_id)  # 400/404 before a feed is started for it
    gw.check_bus()
    feed = await gw.hub.fold(match_id)
    watcher: fanout.Watcher | None = None
    send_lock = asyncio.Lock()

    async def push(payload: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_text(encode(payload).decode())

    try:
        assert feed.folded is not None
        seat = gw.viewer(feed.folded, token)
        # The first frames come from the feed's fold as it is now, and the watcher sends them
        # before every decision after it: there is no await between the two.
        folded = feed.folded
        first = feed.first_frames(
            seat,
            since,
            lambda: [
                encode({"type": "events", "events": gw.events_for(folded, seat, since, lang)}).decode(),
                encode({"type": "view", "view": gw.render(folded, seat, lang)}).decode(),
            ],
            lang,
        )
        watcher = gw.hub.watch(
            feed, seat, lang, first, ws.scope.get("extensions", {}).get(outlet.OUTLET_EXTENSION)
        )
        await _converse(gw, ws, match_id, token, feed, watcher, push, send_lock)
    finally:
        await gw.hub.leave(feed, watcher)


async def _converse(
    gw: Gateway,
    ws: WebSocket,
    match_id: str,
    token: str | None,
    feed: fanout.Feed,
    watcher: fanout.Watcher,
    push: Any,
    send_lock: asyncio.Lock,
) -> None:
    async def pump() -> None:
        while (text := await watcher.next()) is not None:
            async with send_lock:
                await ws.send_text(text)

    async def watchdog() -> None:
        # Separate from the pump, which may sit in a send that TCP backpressure blocks.
        await watcher.ended.wait()
        if watcher.slow:
            log.warning("websocket_slow_consumer", match_id=match_id)
            await close_slow(ws)
        elif watcher.failed:
            await ws.close(code=1011)

    tasks = {asyncio.create_task(pump()), asyncio.create_task(watchdog())}
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
                reply = await gw.send(
                    match_id, token, CommandRequest(command=incoming.command, command_id=command_id)
                )
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
        # The error frame and the close do not wait for a pump stuck in a send.
        for task in tasks:
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            task.cancel()
        await asyncio.wait(tasks, timeout=0.5)
