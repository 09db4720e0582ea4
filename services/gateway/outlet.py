"""Writing one decision's frames to many match WebSockets cheaply.

A server does not mask its frames and the gateway does not compress them (uvicorn runs with
``ws_per_message_deflate=False``), so the bytes of a text frame on the wire are the same for
every socket.  The hub serializes each decision's frames once per seat (``wire``) and an
``Outlet`` writes those bytes straight to a socket's transport: one write for both frames, no
task woken, nothing encoded again per socket (a new socket's first frames too).  ASGI's ``send``
stays the way for everything else (replies, errors, closes) and for a socket whose transport
is not open for writes when it joins.

The outlet of a socket is put in its ASGI scope (``OUTLET_EXTENSION``) by the gateway's HTTP
protocol when the connection is upgraded (``edge.guarded_http_protocol``); a server without it
(another WebSocket implementation, a test client) leaves it out and every frame goes through
``send``."""

from __future__ import annotations

import socket
import struct
import sys
from collections.abc import Iterable
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import State

OUTLET_EXTENSION = "gamehall.outlet"  # in a WebSocket's ASGI scope: an Outlet
# struct tcp_info (linux/tcp.h): tcpi_notsent_bytes, a u32 at byte 144 (Linux 4.6 and later);
# tcpi_bytes_acked (u64 at 120), tcpi_bytes_sent and tcpi_bytes_retrans (u64 at 200, 208) and the
# peer's window tcpi_snd_wnd (u32 at 228, Linux 5.4 and later)
TCP_INFO: int | None = getattr(socket, "TCP_INFO", None) if sys.platform == "linux" else None
_NOTSENT_AT, _BYTES_ACKED_AT, _BYTES_SENT_AT, _SND_WND_AT, _INFO_SIZE = 144, 120, 200, 228, 232
ROOM_UNKNOWN = 1 << 62  # the room of a peer's window where the kernel does not tell it


def wire(texts: Iterable[str]) -> bytes:
    """Text frames as a server writes them: unmasked, uncompressed, one after the other."""
    return b"".join(Frame(Opcode.TEXT, text.encode()).serialize(mask=False) for text in texts)


class Outlet:
    """Direct writes to one upgraded connection of uvicorn's ``websockets-sansio`` protocol."""

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
        """(unsent, room): the bytes written that have not gone out yet, those the transport holds
        because the kernel would not take them and (Linux, ``TCP_INFO``) those the kernel holds
        unsent because the peer's receive window is shut (it does not read) or the network is
        slow; and how many more bytes the peer's window takes now beyond those (its window less
        what is in flight and unsent; ``ROOM_UNKNOWN`` where the kernel does not say)."""
        unsent = int(self._proto.transport.get_write_buffer_size())
        if self._sock is None or TCP_INFO is None:
            return unsent, ROOM_UNKNOWN
        try:
            info = self._sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, _INFO_SIZE)
        except OSError:  # closed meanwhile
            self._sock = None
            return unsent, ROOM_UNKNOWN
        if len(info) < _NOTSENT_AT + 4:
            return unsent, ROOM_UNKNOWN
        notsent = struct.unpack_from("I", info, _NOTSENT_AT)[0]
        unsent += notsent
        if len(info) < _INFO_SIZE:
            return unsent, ROOM_UNKNOWN
        acked = struct.unpack_from("Q", info, _BYTES_ACKED_AT)[0]
        sent, resent = struct.unpack_from("QQ", info, _BYTES_SENT_AT)
        window = struct.unpack_from("I", info, _SND_WND_AT)[0]
        return unsent, max(0, window - (sent - resent - acked) - unsent)

    def write(self, data: bytes) -> None:
        self._proto.transport.write(data)


def outlet_for(protocol: Any) -> Outlet | None:
    """The outlet of an upgraded connection, or None for a protocol it does not know."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings websockets
        return None
    return Outlet(protocol) if isinstance(protocol, WebSocketsSansIOProtocol) else None
