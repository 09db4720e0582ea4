"""Starting the stack: every service as its own process, or in-process for one command."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from services.common import metrics, natsauth, stack
from services.common.embedded import EmbeddedNats
from services.common.natsauth import Credential
from services.common.processes import (
    NotReady,
    die_with_parent,
    free_port,
    gamehall_args,
    http_ok,
    port_open,
    port_taken,
    spawn,
    stop_all,
    wait_until,
)
from services.common.settings import Settings
from services.common.shutdown import STOP_GRACE_S, run_until_stopped

# Service name -> module with ``async def run(settings, stop)``.  Only those whose module exists
# are started.
SERVICE_MODULES = {
    "referee": "services.referee.app",
    "gateway": "services.gateway.app",
    "scoring": "services.scoring.app",
    "leaderboard": "services.leaderboard.app",
    "matchmaking": "services.matchmaking.app",
    "bots": "services.bots.app",
    "tournaments": "services.tournaments.app",
}


def available_services() -> list[str]:
    """The services whose module is installed, found without importing them: ``up`` itself never
    loads a service's code (each runs in its own process), which would cost its start-up seconds
    of CPU beside the services it starts."""
    return [name for name, module in SERVICE_MODULES.items() if importlib.util.find_spec(module) is not None]


def service_runner(name: str) -> Callable[..., Awaitable[None]]:
    """A service's ``run``.  Scoring gets the standing check of derived data here, the one place
    that may join the services' code: the check rebuilds read models with scoring's and the
    leaderboard's own code (``services/cli/derived.py``)."""
    if name not in SERVICE_MODULES:
        raise KeyError(name)
    module = importlib.import_module(SERVICE_MODULES[name])
    if name == "scoring":
        from services.cli.derived import PeriodicCheck

        return functools.partial(module.run, check=PeriodicCheck)
    return module.run  # type: ignore[no-any-return]


def http_port(settings: Settings) -> int:
    """The configured port when it can be bound, else any free loopback port."""
    if not port_taken(settings.http_host, settings.http_port):
        return settings.http_port
    return free_port()


def referee_count(settings: Settings) -> int:
    """Referee processes `up` runs: ``GAMEHALL_REFEREES``, else 2 when the machine has 2 cores."""
    if settings.referees is not None:
        return settings.referees
    return 2 if (os.cpu_count() or 1) >= 2 else 1


def instance_names(service: str, count: int) -> list[str]:
    """``referee`` alone, or ``referee-1``, ``referee-2``, ... (their log files and metrics names)."""
    return [service] if count == 1 else [f"{service}-{i}" for i in range(1, count + 1)]


def own_gateway_ready(url: str, instance: str) -> bool:
    """The gateway at ``url`` is ready and is the one started with ``instance`` (its /readyz says so);
    another program answering on that port is not.  One plain HTTP/1.1 request (``up`` asks every
    50 ms while the services start: an HTTP client built per request would cost the CPU they need)."""
    import http.client
    import json
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=1.0)
    try:
        conn.request("GET", "/readyz")
        r = conn.getresponse()
        body = r.read()
        return r.status == 200 and json.loads(body).get("instance") == instance
    except (OSError, http.client.HTTPException, ValueError, AttributeError):
        return False
    finally:
        conn.close()


def embedded_settings(settings: Settings, nats: EmbeddedNats) -> Settings:
    """The settings of services on the embedded nats-server: its URL and credentials folder."""
    return settings.replace(nats_url=nats.url, nats_credentials=nats.credentials)


def start_embedded_nats(settings: Settings, with_parent: bool = False) -> EmbeddedNats:
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
        with_parent=with_parent,
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
    """One supervised process of the stack: ``name`` is this process (``referee-2``), ``service``
    what it runs (``referee``; the name when not given)."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    crashes: int = 0  # in a row
    restart_at: float | None = None
    service: str = ""
    with_parent: bool = False  # SIGTERM to it when the supervisor dies (Linux)
    restarts: int = 0

    def __post_init__(self) -> None:
        self.service = self.service or self.name
        metrics.SERVICE_RESTARTS.labels(self.name)
        metrics.SERVICE_UP.labels(self.name).set(0)

    def start(self) -> None:
        self.proc = spawn(self.argv, self.env, output=self.log_path, with_parent=self.with_parent)
        self.started_at = time.monotonic()
        self.restart_at = None
        metrics.SERVICE_UP.labels(self.name).set(1)

    def supervise(self, now: float, echo: Callable[[str], None]) -> bool:
        """Restart the process when it has exited, after a delay that grows with each crash.
        True when it started a new process."""
        if self.restart_at is not None:
            if now >= self.restart_at:
                echo(f"restarting {self.name} (restart {self.crashes} in a row)")
                self.start()
                self.restarts += 1
                metrics.SERVICE_RESTARTS.labels(self.name).inc()
                return True
            return False
        if self.proc is None or self.proc.poll() is None:
            if self.crashes and now - self.started_at > HEALTHY_AFTER_S:
                self.crashes = 0
            return False
        metrics.SERVICE_UP.labels(self.name).set(0)
        self.crashes += 1
        delay = restart_delay(self.crashes)
        echo(
            f"{self.service} exited with {self.proc.returncode}; restarting in {delay:g}s "
            f"(see {self.log_path})"
        )
        self.restart_at = now + delay
        return False


SERVICES_READY_S = 60.0  # `up` prints its URL without a service not ready by then, naming it


def await_ready(children: list[Child], timeout: float = SERVICES_READY_S) -> list[Child]:
    """Poll each child's /readyz (on its metrics port) every 50 ms until it answers 200, it has
    exited (its supervisor restarts it later) or ``timeout`` passes; the ones not ready."""
    waiting = list(children)
    deadline = time.monotonic() + timeout
    while waiting and time.monotonic() < deadline:
        waiting = [
            c
            for c in waiting
            if (c.proc is not None and c.proc.poll() is None)
            and not local_status_ok(int(c.env["GAMEHALL_METRICS_PORT"]), "/readyz")
        ]
        if waiting:
            time.sleep(0.05)
    return waiting


def local_status_ok(port: int, path: str) -> bool:
    """``GET path`` on 127.0.0.1:port answers 200 (one plain HTTP/1.1 request)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


GATEWAY_MOVES = 5  # ports the gateway tries at start-up when another program takes its port


def await_gateway(
    gateway: Child, host: str, instance: str, echo: Callable[[str], None], timeout: float = 60.0
) -> int:
    """Wait until the gateway started with ``instance`` answers /readyz; its port.

    A gateway that exits while another program holds its port (its bind failed) is started again
    on a free port; a gateway that exits otherwise, or no answer within ``timeout``: ``NotReady``.
    Another program answering /readyz on the port is never taken for the gateway."""
    deadline = time.monotonic() + timeout
    moves = 0
    while True:
        port = int(gateway.env["GAMEHALL_HTTP_PORT"])
        if own_gateway_ready(f"http://{host}:{port}", instance):
            return port
        proc = gateway.proc
        if proc is not None and proc.poll() is not None:
            if moves < GATEWAY_MOVES and port_taken(host, port):
                moves += 1
                new = free_port()
                echo(f"port {port} is taken by another program; the gateway moves to port {new}")
                gateway.env["GAMEHALL_HTTP_PORT"] = str(new)
                gateway.start()
                continue
            raise NotReady(f"the gateway: the process exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise NotReady(f"the gateway: not ready after {timeout:.0f}s")
        time.sleep(0.05)


def already_running(settings: Settings, lock: stack.UpLock, echo: Callable[[str], None]) -> int:
    info = stack.read(settings.data_dir)
    holder = lock.holder()
    if info is not None and info.pid == holder:
        echo(f"gamehall is already running in {settings.data_dir} (pid {info.pid}): open {info.gateway_url}/")
    else:
        echo(f"gamehall up is already starting in {settings.data_dir} (pid {holder}); wait for it or stop it")
    return 1


def clear_leftovers(settings: Settings, echo: Callable[[str], None]) -> bool:
    """Stop what an earlier ``up`` of this data folder left running (killed, so it could not stop
    its children); False when something would not stop, or an ``up`` without the lock still runs."""
    previous = stack.read(settings.data_dir)
    if previous is not None and previous.pid != os.getpid() and stack.alive(previous.pid):
        if "services.cli.main" in stack.command_line(previous.pid) or "gamehall" in stack.command_line(
            previous.pid
        ):
            echo(
                f"gamehall is already running in {settings.data_dir} (pid {previous.pid}): "
                f"open {previous.gateway_url}/"
            )
            return False
    left = stack.leftovers(settings.data_dir, previous)
    for pid, command in left.items():
        echo(f"stopping pid {pid}, left running by an earlier gamehall up: {command[:120]}")
    stuck = stack.stop_leftovers(list(left))
    if stuck:
        echo(
            f"could not stop pids {', '.join(map(str, stuck))} of {settings.data_dir}: stop them, then start again"
        )
        return False
    if previous is not None:
        stack.stack_file(settings.data_dir).unlink(missing_ok=True)
    return True


def up(settings: Settings, services: list[str] | None = None, echo: Callable[[str], None] = print) -> int:
    """Run the whole stack until Ctrl-C: embedded nats-server unless NATS_URL, each service a process.

    One ``up`` per data folder (``up.lock``): a second one refuses, naming the first's pid and URL.
    The stack supervises itself: a service that exits (or the embedded nats-server) is restarted
    with a growing delay and a line on the terminal; the others keep running.  The stack dies with
    it: every child gets SIGTERM when ``up`` dies, even by SIGKILL, and what an earlier killed
    ``up`` left running is stopped before anything starts."""
    lock = stack.UpLock(settings.data_dir)
    if not lock.acquire():
        return already_running(settings, lock, echo)
    try:
        if not clear_leftovers(settings, echo):
            return 1
        return _run(settings, services, echo)
    finally:
        lock.release()


def _run(settings: Settings, services: list[str] | None, echo: Callable[[str], None]) -> int:
    from prometheus_client import start_http_server

    started = time.monotonic()
    nats: EmbeddedNats | None = None
    nats_url = settings.nats_url
    if nats_url is None:
        nats = start_embedded_nats(settings, with_parent=True)
        nats_url = nats.url
        echo(f"embedded nats-server on {nats_url} (data in {settings.data_dir / 'nats'})")
    port = http_port(settings)
    names = services or available_services()
    instance = secrets.token_hex(8)
    env = dict(
        os.environ,
        NATS_URL=nats_url,
        GAMEHALL_DATA_DIR=str(settings.data_dir),
        GAMEHALL_HTTP_PORT=str(port),
        GAMEHALL_INSTANCE=instance,
        GAMEHALL_SUPERVISOR_PID=str(os.getpid()),
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
    host = settings.http_host
    children: list[Child] = []
    nats_crashes = 0
    # The supervisor's own /metrics: restarts and running state of each child.
    metrics_server, _ = start_http_server(0, addr="127.0.0.1")
    metrics.SERVICE_UP.labels("nats-server").set(1 if nats is not None else 0)
    metrics.SERVICE_RESTARTS.labels("nats-server")
    # Each service's /metrics on a port chosen here, so stack.json can tell a Prometheus
    # where to scrape (the gateway's too: its public HTTP port serves none).
    metrics_urls: dict[str, str] = {"supervisor": f"http://127.0.0.1:{metrics_server.server_port}/metrics"}

    def gateway_url() -> str:
        return f"http://{host}:{env['GAMEHALL_HTTP_PORT']}"

    def record() -> None:
        pids = {c.name: c.proc.pid for c in children if c.proc is not None}
        if nats is not None and nats.proc is not None:
            pids["nats-server"] = nats.proc.pid
        stack.write(
            settings.data_dir,
            stack.StackInfo(
                pid=os.getpid(),
                nats_url=nats_url,
                gateway_url=gateway_url(),
                embedded_nats=nats is not None,
                metrics=metrics_urls,
                children=pids,
                instance=instance,
            ),
        )

    def moved_gateway(gateway: Child) -> None:
        """The gateway, and the processes started after now, on the port it serves."""
        env["GAMEHALL_HTTP_PORT"] = gateway.env["GAMEHALL_HTTP_PORT"]
        for child in children:
            child.env["GAMEHALL_HTTP_PORT"] = env["GAMEHALL_HTTP_PORT"]

    def start(name: str) -> None:
        count = referee_count(settings) if name == "referee" else 1
        for each in instance_names(name, count):
            child_env = dict(env)
            metrics_port = free_port()
            child_env["GAMEHALL_METRICS_PORT"] = str(metrics_port)
            metrics_urls[each] = f"http://127.0.0.1:{metrics_port}/metrics"
            child = Child(
                each,
                gamehall_args("serve", name),
                child_env,
                log_dir / f"{each}.log",
                service=name,
                with_parent=True,
            )
            child.start()
            children.append(child)

    try:
        # Every service starts at once; the URL is printed when the gateway answers and every
        # other process says it is ready (await_ready), each polled, none waited for by a sleep.
        for name in names:
            start(name)
        gateway = next((c for c in children if c.name == "gateway"), None)
        if gateway is not None:
            try:
                await_gateway(gateway, host, instance, echo)
            except NotReady as exc:
                echo(f"{exc}; see {log_dir / 'gateway.log'} ({gateway_url()}/readyz says why)")
                return 1
            moved_gateway(gateway)
        for child in await_ready([c for c in children if c is not gateway]):
            echo(f"{child.name} is not ready yet; see {child.log_path}")
        record()
        referees = sum(1 for c in children if c.service == "referee")
        echo(
            f"services: {', '.join(names)}"
            + (f" ({referees} referees)" if referees > 1 else "")
            + f" (logs in {log_dir}; supervisor metrics {metrics_urls['supervisor']})"
        )
        url = gateway_url()
        echo(f"gamehall is up in {time.monotonic() - started:.1f}s: open {url}/  (API docs: {url}/docs)")
        echo("Ctrl-C stops everything; stored matches stay in " + str(settings.data_dir))
        while not stopping:
            now = time.monotonic()
            changed = False
            if nats is not None and (nats.proc is None or nats.proc.poll() is not None):
                metrics.SERVICE_UP.labels("nats-server").set(0)
                nats_crashes += 1
                delay = restart_delay(nats_crashes)
                echo(f"the embedded nats-server stopped; restarting it on {nats.url} in {delay:g}s")
                time.sleep(delay)
                try:
                    nats.start()
                    nats_crashes = 0
                    metrics.SERVICE_RESTARTS.labels("nats-server").inc()
                    metrics.SERVICE_UP.labels("nats-server").set(1)
                    changed = True
                except RuntimeError as exc:
                    echo(f"nats-server did not restart: {exc}")
            for child in children:
                due = child.restart_at is not None and now >= child.restart_at
                if child is gateway and due and port_taken(host, int(child.env["GAMEHALL_HTTP_PORT"])):
                    old = child.env["GAMEHALL_HTTP_PORT"]
                    child.env["GAMEHALL_HTTP_PORT"] = str(free_port())
                    moved_gateway(child)
                    echo(f"port {old} is taken by another program; the gateway moves: open {gateway_url()}/")
                changed = child.supervise(now, echo) or changed
            if changed:
                record()
            time.sleep(0.2)
        return 0
    finally:
        echo("stopping...")
        stop_all(c.proc for c in children if c.proc is not None)
        if nats is not None:
            nats.stop()
        metrics_server.shutdown()
        metrics_server.server_close()
        stack.remove(settings.data_dir, os.getpid())
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)
        echo("stopped")


def watch_supervisor(settings: Settings) -> int | None:
    """The pid of the ``gamehall up`` this service belongs to (``GAMEHALL_SUPERVISOR_PID``), after
    asking the kernel for SIGTERM when it dies; exits at once when it is gone already."""
    parent = settings.supervisor_pid
    if parent is None:
        return None
    die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:
        raise SystemExit(f"the gamehall up that started this process (pid {parent}) is gone")
    return parent


async def stop_when_orphaned(parent: int, stop: asyncio.Event, every_s: float = 1.0) -> None:
    """Set ``stop`` once this process's parent is no longer ``parent`` (it died: the portable way,
    where the kernel sends no signal)."""
    while not stop.is_set():
        if os.getppid() != parent:
            stop.set()
            return
        await asyncio.sleep(every_s)


# A service's process is gone this long after its stop, whatever its libraries still wait for
# (FastStream's broker, told to stop while its nats-server died with `gamehall up`, kept the
# matchmaking process alive, retrying, after its work had been cancelled).
HARD_EXIT_S = STOP_GRACE_S + 10.0


async def exit_after_stop(name: str, stop: asyncio.Event, after_s: float = HARD_EXIT_S) -> None:
    """Once ``stop`` is set, arm a timer (a daemon thread, so it also fires while the interpreter
    waits at exit for a thread or a task that does not end) that ends the process."""
    await stop.wait()

    def hard_exit() -> None:
        sys.stderr.write(f"{name}: still running {after_s:g}s after its stop; exiting\n")
        sys.stderr.flush()
        os._exit(3)

    timer = threading.Timer(after_s, hard_exit)
    timer.daemon = True
    timer.start()


def serve(name: str, settings: Settings) -> None:
    """Run one service in this process until SIGINT/SIGTERM."""
    if settings.nats_url is None:
        found = stack.read(settings.data_dir)
        if found is None or not stack.alive(found.pid):
            raise SystemExit("set NATS_URL (or start the stack with 'gamehall up') to run one service alone")
        settings = settings.replace(nats_url=found.nats_url)
        if found.embedded_nats and settings.nats_credentials is None:
            settings = settings.replace(nats_credentials=natsauth.credentials_dir(settings.data_dir))
    parent = watch_supervisor(settings)
    runner = service_runner(name)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        watcher = asyncio.create_task(stop_when_orphaned(parent, stop)) if parent is not None else None
        last_resort = asyncio.create_task(exit_after_stop(name, stop))
        try:
            # every service stops within a bound once told to, even while it still waits for a
            # nats-server that is gone (services/common/shutdown.py)
            await run_until_stopped(runner(settings, stop), stop)
        finally:
            if watcher is not None:
                watcher.cancel()
            last_resort.cancel()  # the timer it armed stays: it ends a process whose exit hangs

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


T = TypeVar("T")


def on_stack_nats(work: Callable[[Any], Awaitable[T]], name: str = "gamehall-cli") -> T:
    """``work(nc)`` for an operator command: connected as ``cli`` to the running stack's NATS
    (``data_dir_nats_url``: NATS_URL, the stack's, or a temporary embedded one, stopped after),
    with the streams of the APP account there; the connection is drained when ``work`` ends."""
    from services.cli import context
    from services.common import natsio

    async def run() -> T:
        settings = context.settings()
        url, nats, credential = await asyncio.to_thread(data_dir_nats_url, settings)
        try:
            nc = await natsio.connect(url, name, credential)
            try:
                await natsio.ensure_streams(
                    nc.jetstream(), replicas=settings.stream_replicas, streams=natsio.APP_STREAMS
                )
                return await work(nc)
            finally:
                await nc.drain()
        finally:
            if nats is not None:
                await asyncio.to_thread(nats.stop)

    return asyncio.run(run())
