"""A real gateway (uvicorn, the edge, the fast path) and a referee in a background thread, on a
real nats-server, for tests that attack it from synchronous clients (raw sockets, httpx,
websockets, schemathesis)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from services.bots import app as bots_app
from services.cli.stackrun import in_process_stack
from services.common import settings as settings_module
from services.common.settings import EdgeLimits, GatewaySettings, Rate, Settings

# Limits high enough that a test's own traffic never meets them.
OPEN = EdgeLimits(
    per_address=Rate(0, 0),
    per_credential=Rate(0, 0),
    create_match=Rate(0, 0),
    auth_failures=Rate(0, 0),
    sign_up=Rate(0, 0),
    max_connections_per_address=0,
    max_sockets_per_address=0,
    header_timeout_s=5.0,
)


def open_settings(nats_url: str, data_dir: Path) -> Settings:
    """The settings of a stack on ``nats_url`` whose gateway a test's traffic never throttles."""
    return settings_module.load().replace(nats_url=nats_url, data_dir=data_dir, gateway=GatewaySettings.of(OPEN))


@contextlib.asynccontextmanager
async def running_bots(settings: Settings, gateway_url: str) -> AsyncIterator[None]:
    """The bots service playing through the gateway at ``gateway_url`` (quick thinkers), stopped
    on the way out."""
    bots_settings = settings.replace(
        bots=settings.bots.model_copy(update={"gateway_url": gateway_url, "think_ms": 5})
    )
    stop = asyncio.Event()
    bots = asyncio.create_task(bots_app.run(bots_settings, stop, metrics_port=None))
    try:
        yield
    finally:
        stop.set()
        await bots


@contextlib.contextmanager
def running_gateway(
    nats_url: str,
    data_dir: Path,
    limits: EdgeLimits | None = None,
    services: tuple[str, ...] = ("referee", "gateway"),
) -> Iterator[str]:
    """The gateway URL while a referee and a gateway run in a thread of their own."""
    settings = settings_module.load().replace(
        nats_url=nats_url, data_dir=data_dir, gateway=GatewaySettings.of(limits or EdgeLimits())
    )
    ready: dict[str, Any] = {}
    started = threading.Event()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def main() -> None:
        try:
            async with in_process_stack(settings, services) as url:
                ready["url"] = url
                started.set()
                await stop.wait()
        except BaseException as exc:  # reported to the test thread
            ready["error"] = exc
            started.set()

    thread = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    thread.start()
    started.wait(60)
    if "url" not in ready:
        raise RuntimeError(f"the gateway did not start: {ready.get('error')!r}")
    try:
        yield ready["url"]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(60)


def raw_request(url: str, data: bytes, timeout: float = 10.0) -> bytes:
    """Send raw bytes to the gateway; everything it answers until it closes or goes quiet."""
    host, port = url.rsplit("//", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks):
                    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                    length = next(
                        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
                        None,
                    )
                    if length is not None and len(body) >= length:
                        break
        return b"".join(chunks)
