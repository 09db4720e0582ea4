"""The contract of services/gateway/server.py with the installed server: every private class,
method and attribute of uvicorn it relies on is there and behaves as it assumes, and Linux's
``struct tcp_info`` has its fields where it reads them.  A failure names what changed: a uvicorn
outside the pinned versions needs this test passing before its pin in pyproject.toml moves.

It runs uvicorn itself (the gateway's protocols around a small ASGI app, no NATS), so what the
edge's integration tests check through the whole gateway is checked here on the server alone."""

from __future__ import annotations

import asyncio
import re
import socket
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from services.common.processes import free_port
from services.gateway import edge, outlet, server

ROOT = Path(__file__).resolve().parents[3]
WS_MAX_SIZE = 1024


def test_the_installed_uvicorn_is_a_supported_one() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pin = next(Requirement(d) for d in deps if Requirement(d).name == "uvicorn")
    assert pin.specifier == SpecifierSet(server.SUPPORTED_UVICORN), (
        f"pyproject.toml pins uvicorn{pin.specifier}, services/gateway/server.py says "
        f"{server.SUPPORTED_UVICORN}: move both, once this test passes on the new versions"
    )
    assert uvicorn.__version__ in pin.specifier, (
        f"uvicorn {uvicorn.__version__} is installed; services/gateway/server.py is checked on "
        f"uvicorn{pin.specifier} only"
    )


def test_every_private_class_and_method_server_py_relies_on_is_there() -> None:
    gone = server.missing()
    assert not gone, f"uvicorn {uvicorn.__version__} no longer has: {', '.join(gone)}"


def test_only_server_py_reaches_into_the_server_or_the_socket() -> None:
    private = re.compile(r"uvicorn\.protocols|TCP_INFO|getsockopt|get_extra_info|\.transport\b|_impl\b")
    found = [
        f"{path.name}:{n}"
        for path in sorted((ROOT / "services" / "gateway").rglob("*.py"))
        if path.name != "server.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if private.search(line)
    ]
    assert not found, f"private server or socket internals outside services/gateway/server.py: {found}"


# ------------------------------------------------------------------ struct tcp_info
@pytest.mark.skipif(server.TCP_INFO is None, reason="TCP_INFO is Linux's")
def test_tcp_info_fields_are_at_the_offsets_server_py_reads() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    idle = socket.socket()
    idle.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    idle.connect(listener.getsockname())
    to_idle, _ = listener.accept()
    reader = socket.create_connection(listener.getsockname())
    to_reader, _ = listener.accept()
    try:
        to_idle.setblocking(False)
        accepted = 0
        for _ in range(200):  # until the kernel takes no more: a shut window and a full queue
            try:
                accepted += to_idle.send(b"x" * 4096)
            except BlockingIOError:
                break
        time.sleep(0.05)
        info = server.tcp_info(to_idle)
        assert info is not None and set(info) == set(server.TCP_INFO_FIELDS), (
            f"this kernel's tcp_info lacks {set(server.TCP_INFO_FIELDS) - set(info or {})}"
        )
        # Everything the kernel took was sent once (less retransmissions) or is queued unsent.
        assert info["bytes_sent"] - info["bytes_retrans"] + info["notsent_bytes"] == accepted, info
        assert info["bytes_acked"] <= info["bytes_sent"] and info["notsent_bytes"] > 0, info
        assert server.kernel_queue(to_idle) == (info["notsent_bytes"], 0)  # its window is full

        to_reader.sendall(b"y" * 10_000)
        got = 0
        while got < 10_000:
            got += len(reader.recv(65536))
        time.sleep(0.05)
        info = server.tcp_info(to_reader)
        assert info is not None
        assert info["bytes_acked"] == info["bytes_sent"] == 10_000 and info["notsent_bytes"] == 0, info
        assert info["snd_wnd"] > 10_000, info  # a reader's window stays open
        assert server.kernel_queue(to_reader) == (0, info["snd_wnd"])
    finally:
        for s in (idle, to_idle, reader, to_reader, listener):
            s.close()


# ------------------------------------------------------------------ uvicorn's protocols, live
class Served:
    def __init__(self) -> None:
        self.http: list[Any] = []  # the HTTP protocol of every connection
        self.scopes: list[dict[str, Any]] = []  # every WebSocket's scope
        self.checks: dict[str, Any] = {}

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            body = b""
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            headers = [(b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] != "websocket":
            return
        self.scopes.append(scope)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            extensions = scope["extensions"]
            if message.get("text") == "outlet":
                try:
                    found = extensions[outlet.OUTLET_EXTENSION]
                    self.checks["ready"] = found.ready()
                    self.checks["probe"] = found.probe()
                    found.write(outlet.wire(["direct", "frames"]))
                except Exception as exc:  # what the test reports
                    self.checks["error"] = repr(exc)
                    raise
            elif message.get("text") == "abort":
                extensions[outlet.WS_ABORT_EXTENSION]()


@pytest.fixture
async def served() -> Any:
    guard = edge.ConnectionGuard(max_per_address=3, header_timeout_s=0.3, body_timeout_s=0.3)
    base = server.http_protocol(guard)
    assert base is not None, "uvicorn[standard] brings httptools"
    state = Served()

    class Recording(base):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            state.http.append(self)

    port = free_port()
    config = uvicorn.Config(
        state.app,
        host="127.0.0.1",
        port=port,
        http=Recording,
        ws=server.websocket_protocol(),
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        interface="asgi3",
        lifespan="off",
        log_level="warning",
    )
    running = uvicorn.Server(config)
    task = asyncio.create_task(running.serve())
    while not running.started:
        await asyncio.sleep(0.01)
    try:
        yield port, guard, state
    finally:
        running.should_exit = True
        await asyncio.wait_for(task, 5)


async def raw(port: int, data: bytes, wait: float = 2.0) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    try:
        return await asyncio.wait_for(reader.read(4096), wait)
    finally:
        writer.close()


def lacking(obj: Any, names: tuple[str, ...]) -> list[str]:
    return [name for name in names if not hasattr(obj, name)]


async def test_the_http_protocol_has_what_the_guard_uses_and_answers_as_uvicorn(served: Any) -> None:
    port, guard, state = served
    reply = await raw(port, b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\n\r\nhello")
    assert reply.startswith(b"HTTP/1.1 200") and reply.endswith(b"hello"), reply
    proto = state.http[0]
    gone = lacking(proto, server.INSTANCE_REQUIRES[server.HTTP_PROTOCOL])
    assert not gone, f"uvicorn {uvicorn.__version__}'s HTTP protocol has no {gone}"
    assert hasattr(proto.cycle, "response_started"), "uvicorn's request cycle has no response_started"
    await asyncio.sleep(0.05)
    assert guard.open == {}, "connection_lost did not release the address's connection"


async def test_the_header_timeout_the_body_deadline_and_the_cap_hold(served: Any) -> None:
    port, guard, _ = served
    assert b"header_timeout" in await raw(port, b"GET / HT")
    body = await raw(port, b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 10\r\n\r\nab")
    assert body.startswith(b"HTTP/1.1 408") and b"body_timeout" in body, body
    assert b"headers_too_large" in await raw(port, b"GET / HTTP/1.1\r\nx: " + b"a" * 40_000)
    held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
    try:
        assert b"too_many_connections" in await raw(port, b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
    finally:
        for _, writer in held:
            writer.close()
    assert guard.timed_out == 1 and guard.body_timed_out == 1 and guard.refused == 1


async def test_an_upgraded_socket_has_its_outlet_and_abort_and_releases_its_slot(served: Any) -> None:
    port, guard, state = served
    async with ws_connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
        extensions = state.scopes[0]["extensions"]
        assert outlet.OUTLET_EXTENSION in extensions and outlet.WS_ABORT_EXTENSION in extensions, (
            f"the upgrade left no outlet or abort in the scope: {sorted(extensions)}"
        )
        found = extensions[outlet.OUTLET_EXTENSION]
        assert isinstance(found, server.SansIOOutlet), f"no outlet for {type(found._proto)}"
        gone = lacking(found._proto, server.INSTANCE_REQUIRES[server.WS_PROTOCOL])
        assert not gone, f"uvicorn {uvicorn.__version__}'s WebSocket protocol has no {gone}"
        await ws.send("outlet")
        try:
            got = [await asyncio.wait_for(ws.recv(), 2) for _ in range(2)]
        except (ConnectionClosed, TimeoutError) as exc:
            raise AssertionError(
                f"the outlet's direct write did not arrive ({exc!r}); in the app: {state.checks}"
            ) from None
        assert got == ["direct", "frames"], got  # written by the outlet
        assert state.checks["ready"] is True, "an open socket's outlet is not ready"
        unsent, room = state.checks["probe"]
        assert unsent == 0 and room > 0
        assert guard.open == {"127.0.0.1": 1}
    await asyncio.sleep(0.05)
    assert guard.open == {}, "the WebSocket's connection_lost did not release the address's slot"
    assert not found.ready()  # closed: its frames go nowhere

    async with ws_connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
        await ws.send("abort")
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 2)
        assert closed.value.rcvd is None  # cut: no close frame


async def test_a_protocol_error_gets_its_close_frame_and_the_connection_lingers(served: Any) -> None:
    port, _, _ = served
    async with ws_connect(f"ws://127.0.0.1:{port}/", compression=None, close_timeout=5) as ws:
        started = time.monotonic()
        await ws.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 2)
        await ws.wait_closed()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, (
        f"a message over ws_max_size got no 1009 close frame: {closed.value!r}"
    )
    lingered = time.monotonic() - started
    assert lingered >= server.PROTOCOL_ERROR_LINGER_S * 0.8, (
        f"the connection was closed {lingered:.2f} s after a 1009, not after the protocol's close timer"
    )
