"""Starting the stack: every service as its own process, or in-process for one command."""

from __future__ import annotations

import asyncio
import contextlib
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
    generated under the data folder (``credentials/nats``, mode 0600)."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedNats(
        settings.data_dir / "nats",
        log_file=settings.data_dir / "nats-server.log",
        credentials=natsauth.credentials_dir(settings.data_dir),
    ).start()


def up(settings: Settings, services: list[str] | None = None, echo: Callable[[str], None] = print) -> int:
    """Run the whole stack until Ctrl-C: embedded nats-server unless NATS_URL, each service a process."""
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
    procs: dict[str, subprocess.Popen[bytes]] = {}
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
            procs[name] = spawn(gamehall_args("serve", name), child_env, output=log_dir / f"{name}.log")
        if "gateway" in procs:
            try:
                wait_until(lambda: http_ok(f"{gateway_url}/healthz"), "the gateway", procs["gateway"], 30.0)
            except NotReady as exc:
                echo(f"{exc}; see {log_dir / 'gateway.log'}")
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
            for name, proc in procs.items():
                if proc.poll() is not None:
                    echo(f"service {name} exited with {proc.returncode}; see {log_dir / (name + '.log')}")
                    stopping = True
            time.sleep(0.2)
        return 0
    finally:
        echo("stopping...")
        stop_all(procs.values())
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
