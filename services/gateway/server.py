"""The gateway's one seam with its server: everything that reaches into uvicorn's protocol classes
or into a socket's kernel state is here, and nowhere else in the gateway.

uvicorn has no public hook for what the edge and the fan-out need below ASGI:

- :func:`http_protocol`: uvicorn's httptools protocol with the edge's connection limits (a cap of
  open connections per address, a timeout on a request's headers, a total deadline on its body)
  and, on a WebSocket upgrade, the connection's abort and its :class:`SansIOOutlet` in the ASGI
  scope (``outlet.WS_ABORT_EXTENSION``, ``outlet.OUTLET_EXTENSION``);
- :func:`websocket_protocol`: uvicorn's ``websockets-sansio`` protocol, lingering after a
  protocol error so that its close frame is not lost to a reset;
- :class:`SansIOOutlet`: direct writes of already serialized frames to an upgraded connection's
  transport, and how much of what it was sent is unsent and how much more its peer's window
  takes (Linux's ``TCP_INFO``, read at the offsets of ``struct tcp_info``: :data:`TCP_INFO_FIELDS`).

What the policy is (the limits, the error answers, the counters) is the caller's
(``edge.ConnectionGuard``); this module only hooks it in.  Every private name it relies on is
in :data:`REQUIRES` and :func:`missing` says which of them the installed uvicorn lacks;
``tests/unit/gateway/test_server_contract.py`` checks those names, how they behave and the
``tcp_info`` offsets on the installed versions, and pyproject.toml pins uvicorn to the versions
that passed (:data:`SUPPORTED_UVICORN`).
"""

from __future__ import annotations

import asyncio
import importlib
import socket
import struct
import sys
from typing import Any, Protocol

from websockets.protocol import State

from services.gateway.outlet import OUTLET_EXTENSION, ROOM_UNKNOWN, WS_ABORT_EXTENSION

# As pinned in pyproject.toml: the contract test passed on 0.52.4, 0.53.0, 0.54.0 and 0.55.0
# (0.52.0 and earlier lack the WebSocket protocol's ``disconnected`` and ``close_timer``).
SUPPORTED_UVICORN = ">=0.52.4,<0.56"

HTTP_PROTOCOL = "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol"
WS_PROTOCOL = "uvicorn.protocols.websockets.websockets_sansio_impl:WebSocketsSansIOProtocol"

# The methods the gateway overrides or calls, by class (attributes set in ``__init__`` or on
# ``connection_made`` are checked on live connections by the contract test: INSTANCE_REQUIRES).
REQUIRES: dict[str, tuple[str, ...]] = {
    HTTP_PROTOCOL: (
        "connection_made",
        "data_received",
        "connection_lost",
        "on_message_begin",
        "on_headers_complete",
        "on_message_complete",
        "handle_websocket_upgrade",
    ),
    WS_PROTOCOL: ("handle_parser_exception", "connection_lost"),
}
INSTANCE_REQUIRES: dict[str, tuple[str, ...]] = {
    HTTP_PROTOCOL: ("client", "transport", "loop", "cycle"),
    WS_PROTOCOL: (
        "transport",
        "conn",
        "queue",
        "scope",
        "handshake_complete",
        "close_sent",
        "disconnected",
        "initial_response",
        "writable",
        "close_timer",
    ),
}


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def missing() -> list[str]:
    """The private classes and methods this module relies on that the installed uvicorn lacks
    (empty: all there)."""
    gone = []
    for path, names in REQUIRES.items():
        try:
            cls = _load(path)
        except (ImportError, AttributeError):
            gone.append(path)
            continue
        gone += [f"{path}.{name}" for name in names if not callable(getattr(cls, name, None))]
    return gone


# ------------------------------------------------------------------ the kernel's send queue
# struct tcp_info (linux/tcp.h): (offset, struct format) of tcpi_bytes_acked (Linux 4.1),
# tcpi_notsent_bytes (4.6), tcpi_bytes_sent and tcpi_bytes_retrans (4.19) and the peer's window
# tcpi_snd_wnd (5.4).  The struct only grows at its end, so the offsets hold on later kernels.
TCP_INFO_FIELDS: dict[str, tuple[int, str]] = {
    "bytes_acked": (120, "Q"),
    "notsent_bytes": (144, "I"),
    "bytes_sent": (200, "Q"),
    "bytes_retrans": (208, "Q"),
    "snd_wnd": (228, "I"),
}
TCP_INFO: int | None = getattr(socket, "TCP_INFO", None) if sys.platform == "linux" else None
_INFO_SIZE = 232  # through tcpi_snd_wnd
_ACKED_AT = TCP_INFO_FIELDS["bytes_acked"][0]
_NOTSENT_AT = TCP_INFO_FIELDS["notsent_bytes"][0]
_SENT_AT = TCP_INFO_FIELDS["bytes_sent"][0]  # and bytes_retrans right after it
_WND_AT = TCP_INFO_FIELDS["snd_wnd"][0]


def tcp_info(sock: Any) -> dict[str, int] | None:
    """The fields of :data:`TCP_INFO_FIELDS` the kernel gave for ``sock`` (those past the end of
    what an older kernel gives are left out), or None where there is no ``TCP_INFO``."""
    if TCP_INFO is None:
        return None
    info = sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, _INFO_SIZE)
    return {
        name: struct.unpack_from(fmt, info, at)[0]
        for name, (at, fmt) in TCP_INFO_FIELDS.items()
        if len(info) >= at + struct.calcsize(fmt)
    }


def kernel_queue(sock: Any) -> tuple[int, int]:
    """(unsent, room) of a TCP socket: the bytes its kernel holds unsent (the peer's window is
    shut, or the network is slow) and how many more the peer's window takes beyond those in flight
    and unsent (``ROOM_UNKNOWN`` where the kernel does not say).  Raises OSError once closed."""
    info = sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, _INFO_SIZE)
    if len(info) < _NOTSENT_AT + 4:
        return 0, ROOM_UNKNOWN
    notsent = struct.unpack_from("I", info, _NOTSENT_AT)[0]
    if len(info) < _INFO_SIZE:
        return notsent, ROOM_UNKNOWN
    acked = struct.unpack_from("Q", info, _ACKED_AT)[0]
    sent, resent = struct.unpack_from("QQ", info, _SENT_AT)
    window = struct.unpack_from("I", info, _WND_AT)[0]
    return notsent, max(0, window - (sent - resent - acked) - notsent)


# ------------------------------------------------------------------ outlets
class SansIOOutlet:
    """Direct writes to one upgraded connection of uvicorn's ``websockets-sansio`` protocol
    (an ``outlet.Outlet``)."""

    __slots__ = ("_proto", "_sock")

    def __init__(self, proto: Any) -> None:
        self._proto = proto
        self._sock: Any = proto.transport.get_extra_info("socket")

    def ready(self) -> bool:
        """True when bytes written now go out in order after everything sent before: the
        socket is open, nothing compresses its frames and its transport is not paused."""
        p = self._proto
        return bool(
            p.handshake_complete
            and not p.close_sent
            and not p.disconnected
            and p.initial_response is None
            and p.writable.is_set()
            and p.conn.state is State.OPEN
            and not p.conn.extensions
            and not p.transport.is_closing()
        )

    def probe(self) -> tuple[int, int]:
        """(unsent, room): the bytes written that have not gone out yet (those the transport holds
        because the kernel would not take them, and on Linux those the kernel holds unsent), and
        how many more bytes the peer's window takes now beyond those."""
        unsent = int(self._proto.transport.get_write_buffer_size())
        if self._sock is None or TCP_INFO is None:
            return unsent, ROOM_UNKNOWN
        try:
            notsent, room = kernel_queue(self._sock)
        except OSError:  # closed meanwhile
            self._sock = None
            return unsent, ROOM_UNKNOWN
        return unsent + notsent, room if room == ROOM_UNKNOWN else max(0, room - unsent)

    def write(self, data: bytes) -> None:
        self._proto.transport.write(data)


def outlet_for(protocol: Any) -> SansIOOutlet | None:
    """The outlet of an upgraded connection, or None for a protocol it does not know."""
    try:
        cls = _load(WS_PROTOCOL)
    except (ImportError, AttributeError):  # pragma: no cover - uvicorn[standard] brings websockets
        return None
    return SansIOOutlet(protocol) if isinstance(protocol, cls) else None


# ------------------------------------------------------------------ protocols
class Guard(Protocol):
    """What the HTTP protocol asks of the edge's connection limits (``edge.ConnectionGuard``)."""

    header_timeout_s: float  # 0: none
    body_timeout_s: float  # 0: none
    max_header_bytes: int

    def acquire(self, addr: str) -> bool: ...
    def release(self, addr: str) -> None: ...
    def refused_answer(self) -> bytes: ...
    def header_timeout_answer(self) -> bytes: ...
    def headers_too_large_answer(self) -> bytes: ...
    def body_timeout_answer(self) -> bytes: ...


PROTOCOL_ERROR_LINGER_S = 1.0  # how long a socket closed for a protocol error is read (and dropped)


def websocket_protocol() -> type[asyncio.Protocol] | str:
    """uvicorn's websockets-sansio protocol, except that a WebSocket that breaks the protocol (a
    message over ``ws_max_size``: 1009; a bad frame: 1002) gets its close frame and what its
    client is still sending is read and dropped for ``PROTOCOL_ERROR_LINGER_S`` before the
    connection is closed.  Closed at once (uvicorn's way), the kernel answers the data still
    arriving with a reset, and the client can lose the close frame and see only a reset
    connection.  The protocol's name where websockets is missing."""
    try:
        base = _load(WS_PROTOCOL)
    except (ImportError, AttributeError):  # pragma: no cover - uvicorn[standard] brings websockets
        return "websockets-sansio"

    class LingeringWebSocketProtocol(base):  # type: ignore[misc, valid-type]
        _gh_failed = False

        def handle_parser_exception(self) -> None:
            if self._gh_failed:  # the parser discards what comes after the failure
                return
            self._gh_failed = True
            sent = self.conn.close_sent
            if sent is not None:
                self.queue.put_nowait(
                    {"type": "websocket.disconnect", "code": sent.code, "reason": sent.reason}
                )
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            # uvicorn closes the transport when the app returns unless a close timer is pending.
            self.close_timer = asyncio.get_running_loop().call_later(
                PROTOCOL_ERROR_LINGER_S, self.transport.close
            )

    return LingeringWebSocketProtocol


def http_protocol(guard: Guard) -> type[asyncio.Protocol] | None:
    """uvicorn's httptools protocol with ``guard``'s per-address cap, header read timeout and
    body deadline; None where httptools is missing (uvicorn then uses its own, unguarded).

    The body deadline is total: a request's whole body must arrive within ``body_timeout_s`` of
    the end of its headers, however it trickles in (each byte in time is not enough).  When it
    passes, a request still unanswered gets the guard's body timeout answer, and the connection
    is closed (the app reading the body sees the client gone).  The timer is armed only when a
    read ends with the body still incomplete, so a request that comes in one read costs none."""
    try:
        base = _load(HTTP_PROTOCOL)
    except (ImportError, AttributeError):  # pragma: no cover - uvicorn[standard] brings httptools
        return None

    class GuardedHttpToolsProtocol(base):  # type: ignore[misc, valid-type]
        _gh_addr: str | None = None
        _gh_timer: asyncio.TimerHandle | None = None
        _gh_header_bytes = 0
        _gh_body_from: float | None = None  # loop time the headers of a request still being read ended
        _gh_body_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            addr = self.client[0] if self.client else ""
            if not guard.acquire(addr):
                transport.write(guard.refused_answer())
                transport.close()
                return
            self._gh_addr = addr
            self._gh_arm()

        def _gh_arm(self) -> None:
            self._gh_header_bytes = 0
            if self._gh_timer is None and guard.header_timeout_s > 0:
                self._gh_timer = self.loop.call_later(guard.header_timeout_s, self._gh_header_timeout)

        def _gh_disarm(self) -> None:
            if self._gh_timer is not None:
                self._gh_timer.cancel()
                self._gh_timer = None

        def _gh_header_timeout(self) -> None:
            self._gh_timer = None
            answer = guard.header_timeout_answer()
            if not self.transport.is_closing():
                self.transport.write(answer)
                self.transport.close()

        def _gh_release(self) -> None:
            if self._gh_addr is not None:
                guard.release(self._gh_addr)
                self._gh_addr = None

        def data_received(self, data: bytes) -> None:
            if self._gh_timer is not None:
                self._gh_header_bytes += len(data)
                if self._gh_header_bytes > guard.max_header_bytes:
                    self._gh_disarm()
                    self.transport.write(guard.headers_too_large_answer())
                    self.transport.close()
                    return
            super().data_received(data)
            if self._gh_body_from is not None and self._gh_body_timer is None and guard.body_timeout_s > 0:
                self._gh_body_timer = self.loop.call_at(
                    self._gh_body_from + guard.body_timeout_s, self._gh_body_timeout
                )

        def _gh_body_done(self) -> None:
            self._gh_body_from = None
            if self._gh_body_timer is not None:
                self._gh_body_timer.cancel()
                self._gh_body_timer = None

        def _gh_body_timeout(self) -> None:
            self._gh_body_timer = None
            self._gh_body_from = None
            answer = guard.body_timeout_answer()
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is None or not cycle.response_started:
                self.transport.write(answer)
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._gh_arm()

        def on_headers_complete(self) -> None:
            self._gh_disarm()
            super().on_headers_complete()
            self._gh_body_from = self.loop.time()

        def on_message_complete(self) -> None:
            self._gh_body_done()
            super().on_message_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._gh_disarm()
            self._gh_body_done()
            self._gh_release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            self._gh_disarm()
            self._gh_body_done()
            super().handle_websocket_upgrade()
            # The WebSocket protocol owns the transport now: it releases the address's slot.
            ws = self.transport.get_protocol()
            release, lost = self._gh_release, ws.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                release()
                lost(exc)

            ws.connection_lost = connection_lost
            # A socket the app must close at once (one that does not read) is cut through this.
            scope = getattr(ws, "scope", None)
            if isinstance(scope, dict):
                extensions = scope.setdefault("extensions", {})
                extensions[WS_ABORT_EXTENSION] = self.transport.abort
                # The hub writes a decision's frames through it (services.gateway.fanout).
                found = outlet_for(ws)
                if found is not None:
                    extensions[OUTLET_EXTENSION] = found

    return GuardedHttpToolsProtocol
