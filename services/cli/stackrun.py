"""Starting the stack: every service as its own process, or in-process for one command."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from services.common import natsauth, stack
from services.common.embedded import EmbeddedNats
from services.common.natsauth import Credential
from services.common.processes import (
    NotReady,
    free_port,
    gamehall_args,
    http_ok,
    port_open,
    spawn,
    stop_all,
    wait_until,
)
from services.common.settings import Settings

# Service name -> module with ``async def run(settings, stop)``.  Only those that import are started.
SERVICE_MODULES = {
    "referee": "services.referee.app",
    "gateway": "services.gateway.app",
    "scoring": "services.scoring.app",
    "leaderboard": "services.leaderboard.app",
    "matchmaking": "services.matchmaking.app",
    "bots": "services.bots.app",
}


def available_services() -> list[str]:
    found = []
    for name, module in SERVICE_MODULES.items():
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        if hasattr(mod, "run"):
            found.append(name)
    return found


def service_runner(name: str) -> Callable[..., Awaitable[None]]:
    if name not in SERVICE_MODULES:
        raise KeyError(name)
    module = importlib.import_module(SERVICE_MODULES[name])
    return module.run  # type: ignore[no-any-return]


def http_port(settings: Settings) -> int:
    """The configured port when free, else any free loopback port."""
    if not port_open("127.0.0.1", settings.http_port):
        return settings.http_port
    return free_port()


def embedded_settings(settings: Settings, nats: EmbeddedNats) -> Settings:
    """The settings of services on the embedded nats-server: its URL and credentials folder."""
    return settings.replace(nats_url=nats.url, nats_credentials=nats.credentials)


def start_embedded_nats(settings: Settings) -> EmbeddedNats:
    """The embedded nats-server, with accounts and a user per service; the credentials are
    generated under the data folder (``credentials/nats``, mode 0600).  It listens on the port it
    used last time when that port is free (``nats.port`` in the data folder), so services started
    on their own with ``gamehall serve`` find it again after a restart."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    port_file = settings.data_dir / "nats.port"
    port: int | None = None
    try:
        recorded = int(port_file.read_text().strip())
        if not port_open("127.0.0.1", recorded):
            port = recorded
    except (OSError, ValueError):
        pass
    nats = EmbeddedNats(
        settings.data_dir / "nats",
        port=port,
        log_file=settings.data_dir / "nats-server.log",
        credentials=natsauth.credentials_dir(settings.data_dir),
    ).start()
    port_file.write_text(f"{nats.port}\n")
    return nats


RESTART_BACKOFF_S = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
HEALTHY_AFTER_S = 60.0  # a service up this long is healthy again: its next crash restarts fast


def restart_delay(crashes: int) -> float:
    """Seconds to wait before restarting a service after its ``crashes``-th crash in a row."""
    return RESTART_BACKOFF_S[min(crashes, len(RESTART_BACKOFF_S)) - 1]


@dataclasses.dataclass
class Child:
    """One supervised process of the stack."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    crashes: int = 0  # in a row
    restart_at: float | None = None

    def start(self) -> None:
        self.proc = spawn(self.argv, self.env, output=self.log_path)
        self.started_at = time.monotonic()
        self.restart_at = None

    def supervise(self, now: float, echo: Callable[[str], None]) -> None:
        """Restart the process when it has exited, after a delay that grows with each crash."""
        if self.restart_at is not None:
            if now >= self.restart_at:
                echo(f"restarting {self.name} (restart {self.crashes} in a row)")
                self.start()
            return
        if self.proc is None or self.proc.poll() is None:
            if self.crashes and now - self.started_at > HEALTHY_AFTER_S:
                self.crashes = 0
            return
        self.crashes += 1
        delay = restart_delay(self.crashes)
        echo(
            f"{self.name} exited with {self.proc.returncode}; restarting in {delay:g}s "
            f"(see {self.log_path})"
        )
        self.restart_at = now + delay


def up(settings: Settings, services: list[str] | None = None, echo: Callable[[str], None] = print) -> int:
    """Run the whole stack until Ctrl-C: embedded nats-server unless NATS_URL, each service a process.

    The stack supervises itself: a service that exits (or the embedded nats-server) is restarted
    with a growing delay and a line on the terminal; the others keep running."""
    existing = stack.running(settings.data_dir)
    if existing is not None:
        echo(f"gamehall is already running (pid {existing.pid}): open {existing.gateway_url}/")
        return 1
    started = time.monotonic()
    nats: EmbeddedNats | None = None
    nats_url = settings.nats_url
    if nats_url is None:
        nats = start_embedded_nats(settings)
        nats_url = nats.url
        echo(f"embedded nats-server on {nats_url} (data in {settings.data_dir / 'nats'})")
    port = http_port(settings)
    names = services or available_services()
    env = dict(
        os.environ, NATS_URL=nats_url, GAMEHALL_DATA_DIR=str(settings.data_dir), GAMEHALL_HTTP_PORT=str(port)
    )
    if nats is not None:
        env["GAMEHALL_NATS_CREDENTIALS"] = str(nats.credentials)
    log_dir = settings.data_dir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    stopping = False

    def on_signal(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    old_int = signal.signal(signal.SIGINT, on_signal)
    old_term = signal.signal(signal.SIGTERM, on_signal)
    gateway_url = f"http://{settings.http_host}:{port}"
    children: list[Child] = []
    nats_crashes = 0
    try:
        # Each service's /metrics on a port chosen here, so stack.json can tell a Prometheus
        # where to scrape (the gateway serves /metrics on its own HTTP port).
        metrics_urls: dict[str, str] = {}
        for name in names:
            child_env = dict(env)
            if name == "gateway":
                metrics_urls[name] = f"{gateway_url}/metrics"
            else:
                metrics_port = free_port()
                child_env["GAMEHALL_METRICS_PORT"] = str(metrics_port)
                metrics_urls[name] = f"http://127.0.0.1:{metrics_port}/metrics"
            child = Child(name, gamehall_args("serve", name), child_env, log_dir / f"{name}.log")
            child.start()
            children.append(child)
        gateway = next((c for c in children if c.name == "gateway"), None)
        if gateway is not None:
            try:
                wait_until(lambda: http_ok(f"{gateway_url}/readyz"), "the gateway", gateway.proc, 60.0)
            except NotReady as exc:
                echo(f"{exc}; see {log_dir / 'gateway.log'} ({gateway_url}/readyz says why)")
                return 1
        stack.write(
            settings.data_dir,
            stack.StackInfo(
                pid=os.getpid(),
                nats_url=nats_url,
                gateway_url=gateway_url,
                embedded_nats=nats is not None,
                metrics=metrics_urls,
            ),
        )
        echo(f"services: {', '.join(names)} (logs in {log_dir})")
        echo(
            f"gamehall is up in {time.monotonic() - started:.1f}s: open {gateway_url}/  (API docs: {gateway_url}/docs)"
        )
        echo("Ctrl-C stops everything; stored matches stay in " + str(settings.data_dir))
        while not stopping:
            now = time.monotonic()
            if nats is not None and (nats.proc is None or nats.proc.poll() is not None):
                nats_crashes += 1
                delay = restart_delay(nats_crashes)
                echo(f"the embedded nats-server stopped; restarting it on {nats.url} in {delay:g}s")
                time.sleep(delay)
                try:
                    nats.start()
                    nats_crashes = 0
                except RuntimeError as exc:
                    echo(f"nats-server did not restart: {exc}")
            for child in children:
                child.supervise(now, echo)
            time.sleep(0.2)
        return 0
    finally:
        echo("stopping...")
        stop_all(c.proc for c in children if c.proc is not None)
        if nats is not None:
            nats.stop()
        stack.remove(settings.data_dir, os.getpid())
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)
        echo("stopped")


def serve(name: str, settings: Settings) -> None:
    """Run one service in this process until SIGINT/SIGTERM."""
    if settings.nats_url is None:
        found = stack.read(settings.data_dir)
        if found is None or not stack.alive(found.pid):
            raise SystemExit("set NATS_URL (or start the stack with 'gamehall up') to run one service alone")
        settings = settings.replace(nats_url=found.nats_url)
        if found.embedded_nats and settings.nats_credentials is None:
            settings = settings.replace(nats_credentials=natsauth.credentials_dir(settings.data_dir))
    runner = service_runner(name)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await runner(settings, stop)

    profile_to = settings.profile
    if not profile_to:
        asyncio.run(main())
        return
    import cProfile

    # GAMEHALL_PROFILE=file.prof: a cProfile of this service, written when it stops.
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        asyncio.run(main())
    finally:
        profiler.disable()
        profiler.dump_stats(f"{profile_to}.{name}")


@contextlib.asynccontextmanager
async def in_process_stack(
    settings: Settings, services: tuple[str, ...] = ("referee", "gateway")
) -> AsyncIterator[str]:
    """An embedded stack inside this process (for ``demo`` and ``export`` when none is running).

    Yields the gateway URL (or the NATS URL when no gateway is asked for)."""
    nats: EmbeddedNats | None = None
    nats_url = settings.nats_url
    if nats_url is None:
        nats = await asyncio.to_thread(start_embedded_nats, settings)
        nats_url = nats.url
        settings = embedded_settings(settings, nats)
    stop = asyncio.Event()
    port = free_port()
    tasks = []
    for name in services:
        runner = service_runner(name)
        if name == "gateway":
            tasks.append(asyncio.create_task(runner(settings, stop, port=port)))
        else:
            tasks.append(asyncio.create_task(runner(settings, stop)))
    url = f"http://127.0.0.1:{port}" if "gateway" in services else nats_url
    try:
        if "gateway" in services:
            await asyncio.to_thread(wait_until, lambda: http_ok(f"{url}/healthz"), "the embedded gateway")
        yield url
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        if nats is not None:
            await asyncio.to_thread(nats.stop)


def data_dir_nats_url(settings: Settings) -> tuple[str, EmbeddedNats | None, Credential | None]:
    """A NATS URL for reading stored matches (NATS_URL, the running stack's, or a temporary
    embedded one) and the operator commands' credential (user ``cli``) for it."""
    if settings.nats_url:
        return settings.nats_url, None, settings.nats_credential("cli")
    own = settings.nats_credentials or natsauth.credentials_dir(settings.data_dir)
    found = stack.running(settings.data_dir)
    if found is not None:
        return found.nats_url, None, natsauth.credential_for(own, "cli") if found.embedded_nats else None
    if not (Path(settings.data_dir) / "nats").exists():
        raise SystemExit(f"no stored matches in {settings.data_dir} (and no running stack, NATS_URL unset)")
    nats = start_embedded_nats(settings)
    return nats.url, nats, natsauth.credential_for(nats.credentials, "cli")
