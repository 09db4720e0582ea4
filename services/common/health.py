"""Liveness and readiness of a service, served with its /metrics on one small HTTP port.

- ``/healthz`` (liveness): 200 while the process runs its event loop.
- ``/readyz`` (readiness): 200 ``{"ready": true, "checks": {...}}`` when every check passes, else
  503 with the failing checks named.  Every service checks that NATS is connected and that its
  streams answer; a service adds its own (the referee: its subscriptions are active; the gateway:
  a referee answers).
- ``/metrics``: the Prometheus exposition of this process.

Readiness is checked when asked (each check is bounded by a short timeout), so an orchestrator
or ``curl`` sees the state of now, not of the last sample.  Besides, every few seconds a
background task runs the same checks and sets ``gamehall_ready_check{check}`` to 1 or 0
(``metrics.READY_CHECK``): ``/metrics`` answers while NATS is down or hung, and the gauge is what
an alert sees.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from nats.aio.client import Client
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from contracts import subjects
from services.common import metrics
from services.common.natsio import used_streams

Check = Callable[[], Awaitable[str | None]]  # None: fine; else what is wrong
CHECK_TIMEOUT_S = 2.0
SAMPLE_INTERVAL_S = 5.0  # how often the readiness gauges are refreshed
REFEREE_PING = subjects.REFEREE_PING


def not_yet(problem: str) -> Check:
    async def check() -> str | None:
        return problem

    return check


def nats_checks(nc: Client) -> dict[str, Check]:
    async def connected() -> str | None:
        return None if nc.is_connected else "not connected to NATS"

    async def streams() -> str | None:
        # only the streams the connection's identity may see (services.common.natsauth)
        js = nc.jetstream()
        for name in used_streams(nc, (subjects.MATCH_STREAM, subjects.INTEGRATION_STREAM)):
            await js.stream_info(name)
        return None

    return {"nats": connected, "streams": streams}


def referee_answers(nc: Client) -> Check:
    async def check() -> str | None:
        await nc.request(REFEREE_PING, b"", timeout=CHECK_TIMEOUT_S)
        return None

    return check


async def readiness(checks: dict[str, Check]) -> tuple[bool, dict[str, str]]:
    async def run(check: Check) -> str:
        try:
            problem = await asyncio.wait_for(check(), CHECK_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - any failure of a check is "not ready", named
            problem = f"{type(exc).__name__}: {exc}".rstrip(": ") or type(exc).__name__
        return problem or "ok"

    names = list(checks)
    results = await asyncio.gather(*(run(checks[n]) for n in names))
    report = dict(zip(names, results, strict=True))
    return all(r == "ok" for r in results), report


def record(report: dict[str, str]) -> None:
    """Set the readiness gauge of each check in ``report`` (1: "ok", 0: anything else)."""
    for name, result in report.items():
        metrics.READY_CHECK.labels(check=name).set(1 if result == "ok" else 0)


async def sample_forever(
    checks: Callable[[], dict[str, Check]], interval_s: float = SAMPLE_INTERVAL_S
) -> None:
    """Run the checks every ``interval_s`` and record them as gauges, until cancelled.  Each run
    is bounded by the checks' timeout, so a hung NATS reads 0 within a few seconds; a check that
    raises reads 0 too, and no failure ends the loop."""
    while True:
        try:
            _, report = await readiness(checks())
            record(report)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the gauges are sampled again at the next run
            pass
        await asyncio.sleep(interval_s)


class HealthServer:
    """/healthz, /readyz and /metrics on one port: the port of a service without an HTTP server
    of its own, and the gateway's operations port (its public port serves no /metrics).

    ``checks_of``: the checks as of now (the gateway's change once it is connected); the
    ``checks`` dict otherwise."""

    def __init__(
        self,
        checks: dict[str, Check] | None = None,
        sample_interval_s: float = SAMPLE_INTERVAL_S,
        checks_of: Callable[[], dict[str, Check]] | None = None,
    ) -> None:
        self.checks: dict[str, Check] = dict(checks or {})
        self.sample_interval_s = sample_interval_s
        self.checks_of: Callable[[], dict[str, Check]] = checks_of or (lambda: self.checks)
        self._server: asyncio.Server | None = None
        self._sampler: asyncio.Task[None] | None = None

    async def start(self, port: int, host: str = "127.0.0.1", sample: bool = True) -> int:
        """Serve on ``port`` (0: a free one) and, with ``sample``, sample the readiness gauges
        (the gateway's app samples its own)."""
        self._server = await asyncio.start_server(self._serve, host, port)
        if sample:
            self._sampler = asyncio.create_task(sample_forever(self.checks_of, self.sample_interval_s))
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            await asyncio.gather(self._sampler, return_exceptions=True)
            self._sampler = None
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5.0)
            parts = head.split(b"\r\n", 1)[0].split()
            path = parts[1].split(b"?")[0].decode() if len(parts) >= 2 else ""
            status, ctype, body = await self.answer(path)
            retry = "Retry-After: 1\r\n" if status.startswith("503") else ""
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n{retry}"
                "Connection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()

    async def answer(self, path: str) -> tuple[str, str, bytes]:
        """Status line, content type and body of a request for ``path``."""
        if path == "/metrics":
            return "200 OK", CONTENT_TYPE_LATEST, generate_latest()
        if path == "/healthz":
            return "200 OK", "application/json", b'{"ok": true}'
        if path == "/readyz":
            ready, report = await readiness(self.checks_of())
            record(report)
            body = json.dumps({"ready": ready, "checks": report}).encode()
            return ("200 OK" if ready else "503 Service Unavailable"), "application/json", body
        return "404 Not Found", "application/json", b'{"code": "not_found", "detail": "no such path"}'
