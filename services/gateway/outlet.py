"""Writing one decision's frames to many match WebSockets cheaply: what the hub asks of a
connection it writes to directly (:class:`Outlet`), and the frames' bytes (:func:`wire`).

A server does not mask its frames and the gateway does not compress them (uvicorn runs with
``ws_per_message_deflate=False``), so the bytes of a text frame on the wire are the same for
every socket.  The hub serializes each decision's frames once per seat (``wire``) and an
``Outlet`` writes those bytes straight to a socket's transport: one write for both frames, no
task woken, nothing encoded again per socket (a new socket's first frames too).  ASGI's ``send``
stays the way for everything else (replies, errors, closes) and for a socket whose transport
is not open for writes when it joins.

The outlet of a socket is put in its ASGI scope (``OUTLET_EXTENSION``) by the gateway's HTTP
protocol when the connection is upgraded (``services.gateway.server``, the one module that
reaches into the server); a server without it (another WebSocket implementation, a test client)
leaves it out and every frame goes through ``send``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from websockets.frames import Frame, Opcode

OUTLET_EXTENSION = "gamehall.outlet"  # in a WebSocket's ASGI scope: an Outlet
WS_ABORT_EXTENSION = "gamehall.abort"  # in a WebSocket's ASGI scope: cuts its connection
ROOM_UNKNOWN = 1 << 62  # the room of a peer's window where the kernel does not tell it


def wire(texts: Iterable[str]) -> bytes:
    """Text frames as a server writes them: unmasked, uncompressed, one after the other."""
    return b"".join(Frame(Opcode.TEXT, text.encode()).serialize(mask=False) for text in texts)


class Outlet(Protocol):
    """Direct writes to one upgraded connection (``server.SansIOOutlet`` for uvicorn's)."""

    def ready(self) -> bool:
        """True when bytes written now go out in order after everything sent before."""
        ...

    def probe(self) -> tuple[int, int]:
        """(unsent, room): the bytes written that have not gone out yet, and how many more the
        peer's window takes now beyond those (``ROOM_UNKNOWN`` where that is not known)."""
        ...

    def write(self, data: bytes) -> None: ...
