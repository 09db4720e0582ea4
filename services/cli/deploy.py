"""``gamehall deploy``: the deployment of ``deploy/`` run from its own files.

``gamehall deploy up --dir deploy`` reads ``deploy/compose.yaml`` and starts, as processes on
loopback, what it describes: the three NATS nodes from ``deploy/nats/cluster/n*.conf`` with the
environment compose gives them, and every gamehall service (two referees) with its command and
environment, against the PostgreSQL named by ``--db-url``.  Only what a container has of its own
changes: host names and ports become free loopback ports (``nats-1:4222`` ->
``127.0.0.1:PORT``), mounted files are copied into the state folder, and the NATS passwords are
generated there (``creds/``, as deploy/nats/README.md says to).  It supervises what it starts
(restart with backoff, ``gamehall_service_restarts_total{service}`` on its own /metrics) and
writes ``deploy.json`` (every address) and ``prometheus.yml`` (the scrape targets of
``deploy/prometheus/prometheus.yml`` on loopback) into the state folder.

``gamehall deploy nats-metrics`` serves NATS's own health as ``gamehall_nats_*`` series
(``services.common.natsmonitor``).
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml

from services.common.processes import ROOT, free_port, gamehall_args, http_ok, port_open

deploy_app = typer.Typer(
    help="Run the deployment in deploy/ (a NATS cluster, PostgreSQL, every service) from its own files.",
    no_args_is_help=True,
)

LOOPBACK = "127.0.0.1"
RESTART_BACKOFF_S = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
HEALTHY_AFTER_S = 60.0
# Ports a compose service listens on, by the variable that sets them.
NATS_ADDRESS_VARS = ("GH_NATS_LISTEN", "GH_NATS_HTTP", "GH_NATS_CLUSTER_LISTEN")
SERVICE_PORT_VARS = ("GAMEHALL_METRICS_PORT", "GAMEHALL_HTTP_PORT")
# Variables naming a file compose mounts into the container: a process reads the mounted source.
MOUNTED_FILE_VARS = (
    "GAMEHALL_SERVER_KEY",
    "GAMEHALL_MATCHMAKING_KEY",
    "GAMEHALL_MATCHMAKING_KEYS",
    "GAMEHALL_TOURNAMENTS_KEY",
    "GAMEHALL_TOURNAMENT_KEYS",
)


@dataclass
class Planned:
    """One process of the deployment: its compose name, command line and environment."""

    name: str
    kind: str  # "nats" or "gamehall"
    argv: list[str]
    env: dict[str, str]
    ports: dict[int, int] = field(default_factory=dict)  # container port -> loopback port


@dataclass
class Plan:
    processes: list[Planned]
    hosts: dict[tuple[str, int], int]  # (compose host, container port) -> loopback port
    state: Path

    def rewrite(self, text: str) -> str:
        """``nats-1:4222`` -> ``127.0.0.1:PORT`` for every host and port of the deployment."""
        for (host, port), mapped in self.hosts.items():
            text = re.sub(rf"\b{re.escape(host)}:{port}\b", f"{LOOPBACK}:{mapped}", text)
        return text

    def process(self, name: str) -> Planned:
        return next(p for p in self.processes if p.name == name)


def load_compose(folder: Path) -> dict[str, Any]:
    data = yaml.safe_load((folder / "compose.yaml").read_text())
    assert isinstance(data, dict) and isinstance(data.get("services"), dict), "compose.yaml has no services"
    return data


def kind_of(service: dict[str, Any]) -> str | None:
    image = str(service.get("image", ""))
    command = service.get("command") or []
    if image.startswith("nats"):
        return "nats"
    if image.startswith("postgres"):
        return "postgres"
    if "build" in service and command and command[0] == "gamehall":
        return "gamehall"
    return None  # prometheus, grafana: not started here


def port_of(value: str) -> int:
    return int(str(value).rsplit(":", 1)[-1])


def read_env_file(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            out[key.strip()] = value.strip()
    return out


def new_password() -> str:
    """A password nats-server reads as a string from ``$VAR``: it parses the variable's value as a
    config value, so one that starts with a digit or ``-`` (``12E…``) may be taken for a number
    and refused; a letter first never is."""
    import secrets

    return "gh" + secrets.token_urlsafe(32)


def ensure_nats_credentials(creds: Path) -> None:
    """One password per service user: ``<user>.json`` for the services and ``nats-server.env``
    (``GH_NATS_<USER>_PASSWORD=…``) for the nodes, as deploy/nats/README.md makes them (kept
    across starts)."""
    from services.common import natsauth

    creds.mkdir(parents=True, exist_ok=True, mode=0o700)
    lines = []
    for user in natsauth.ALL_USERS:
        path = creds / f"{user}.json"
        if not path.exists():
            natsauth.write_private(path, json.dumps({"user": user, "password": new_password()}))
        password = natsauth.load_credential(path).password
        lines.append(f"GH_NATS_{user.upper().replace('-', '_')}_PASSWORD={password}")
    natsauth.write_private(creds / "nats-server.env", "\n".join(lines) + "\n")


def ensure_server_key(creds: Path) -> Path:
    """``creds/server.key``, the gateway's server key (made once, mode 0600, kept across starts)."""
    from services.common import serverkey

    path = creds / "server.key"
    serverkey.load(path)
    return path


def ensure_matchmaking_key(creds: Path) -> Path:
    """``creds/matchmaking.key``, matchmaking's table-signing key, and ``creds/matchmaking.pub``
    beside it for the referees (made once, kept across starts)."""
    from services.common import tablekeys

    path = creds / "matchmaking.key"
    tablekeys.load_or_create(path)
    return path


def ensure_tournaments_key(creds: Path) -> Path:
    """``creds/tournaments.key``, the tournaments service's key that signs rated tournaments'
    tables, and ``creds/tournaments.pub`` beside it for the referees (made once, kept across starts)."""
    from services.common import tablekeys

    path = creds / "tournaments.key"
    tablekeys.load_or_create(path, "tournaments")
    return path


def resolve_source(source: str, folder: Path, state: Path) -> Path:
    """A volume's source: ``./creds/…`` is the state folder's credentials, ``./…`` the deploy folder."""
    if source.startswith("./creds/") or source == "./creds":
        return state / source[2:]
    return (folder / source).resolve()


def mounts(service: dict[str, Any], folder: Path, state: Path) -> list[tuple[Path, str]]:
    out = []
    for volume in service.get("volumes") or []:
        parts = str(volume).split(":")
        if len(parts) >= 2 and parts[0].startswith("./"):
            out.append((resolve_source(parts[0], folder, state), parts[1]))
    return out


def local_path(container_path: str, binds: list[tuple[Path, str]]) -> str:
    for source, target in binds:
        if container_path == target or container_path.startswith(target.rstrip("/") + "/"):
            return str(source / container_path[len(target):].lstrip("/"))
    return container_path


def plan(folder: Path, state: Path, db_url: str) -> Plan:
    """What ``deploy up`` runs: compose.yaml's NATS nodes and gamehall services on loopback."""
    compose = load_compose(folder)
    services: dict[str, dict[str, Any]] = compose["services"]
    hosts: dict[tuple[str, int], int] = {}
    for name, svc in services.items():
        kind = kind_of(svc)
        env = {k: str(v) for k, v in (svc.get("environment") or {}).items()}
        if kind == "nats":
            for var in NATS_ADDRESS_VARS:
                if var in env:
                    hosts[(name, port_of(env[var]))] = free_port()
        elif kind == "gamehall":
            for var in SERVICE_PORT_VARS:
                if var in env and port_of(env[var]):
                    hosts[(name, port_of(env[var]))] = free_port()
    result = Plan(processes=[], hosts=hosts, state=state)
    base = {k: v for k, v in os.environ.items() if not (k.startswith("GAMEHALL_") or k.startswith("GH_NATS_"))}
    base.pop("NATS_URL", None)
    for name, svc in services.items():
        kind = kind_of(svc)
        if kind not in ("nats", "gamehall"):
            continue
        binds = mounts(svc, folder, state)
        env = {k: result.rewrite(str(v)) for k, v in (svc.get("environment") or {}).items()}
        for env_file in svc.get("env_file") or []:
            env = {**read_env_file(resolve_source(str(env_file), folder, state)), **env}
        for var in (*NATS_ADDRESS_VARS, *SERVICE_PORT_VARS):
            if var in env:
                mapped = hosts.get((name, port_of(env[var])))
                if mapped is not None:
                    env[var] = f"{LOOPBACK}:{mapped}" if var.startswith("GH_NATS_") else str(mapped)
        ports = {port: mapped for (host, port), mapped in hosts.items() if host == name}
        if kind == "nats":
            env["GH_NATS_STORE_DIR"] = str(state / "nats" / name)
            command = [local_path(str(a), binds) for a in svc.get("command") or []]
            from services.common.embedded import nats_server_binary

            argv = [nats_server_binary(), *command]
        else:
            own = state / "run" / name
            creds = env.get("GAMEHALL_NATS_CREDENTIALS")
            if creds:
                target = own / "nats"
                target.mkdir(parents=True, exist_ok=True, mode=0o700)
                for source, mount in binds:
                    if mount.startswith(creds.rstrip("/") + "/") and source.is_file():
                        dest = target / mount[len(creds):].lstrip("/")
                        shutil.copyfile(source, dest)
                        dest.chmod(0o600)
                env["GAMEHALL_NATS_CREDENTIALS"] = str(target)
            if "GAMEHALL_DB_URL" in env:
                env["GAMEHALL_DB_URL"] = db_url
            for var in ("GAMEHALL_HTTP_HOST", "GAMEHALL_METRICS_HOST"):
                if var in env:
                    env[var] = LOOPBACK
            env["GAMEHALL_DATA_DIR"] = str(state / "data")
            for var in MOUNTED_FILE_VARS:  # files compose mounts (creds/server.key, creds/matchmaking.*)
                if var in env:
                    env[var] = local_path(env[var], binds)
            argv = gamehall_args(*[str(a) for a in svc["command"][1:]])
        result.processes.append(Planned(name, kind, argv, {**base, **env}, ports))
    return result


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """The child gets SIGTERM when the supervisor dies, however it dies (Linux)."""
    os.setsid()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Supervised:
    planned: Planned
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    crashes: int = 0
    restart_at: float | None = None

    def start(self) -> None:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as sink:
            self.proc = subprocess.Popen(  # noqa: S603 - our own commands
                self.planned.argv,
                env=self.planned.env,
                cwd=ROOT,
                stdout=sink,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,  # noqa: PLW1509 - setsid and a death signal only
            )
        self.started_at = time.monotonic()
        self.restart_at = None

    def supervise(self, now: float, echo: Any) -> None:
        from services.common import metrics

        name = self.planned.name
        if self.restart_at is not None:
            if now >= self.restart_at:
                metrics.SERVICE_RESTARTS.labels(service=name).inc()
                echo(f"restarting {name} (restart {self.crashes} in a row)")
                self.start()
                metrics.SERVICE_UP.labels(service=name).set(1)
            return
        if self.proc is None or self.proc.poll() is None:
            if self.crashes and now - self.started_at > HEALTHY_AFTER_S:
                self.crashes = 0
            return
        metrics.SERVICE_UP.labels(service=name).set(0)
        self.crashes += 1
        delay = RESTART_BACKOFF_S[min(self.crashes, len(RESTART_BACKOFF_S)) - 1]
        echo(f"{name} exited with {self.proc.returncode}; restarting in {delay:g}s (see {self.log})")
        self.restart_at = now + delay

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()


def loopback_prometheus(folder: Path, the_plan: Plan, supervisor_port: int) -> str:
    """deploy/prometheus/prometheus.yml with the loopback addresses, plus the supervisor."""
    config = yaml.safe_load((folder / "prometheus" / "prometheus.yml").read_text())
    config["rule_files"] = [str((folder / "prometheus" / r).resolve()) for r in config.get("rule_files", [])]
    for job in config["scrape_configs"]:
        for static in job.get("static_configs", []):
            static["targets"] = [the_plan.rewrite(t) for t in static["targets"]]
    config["scrape_configs"].append(
        {"job_name": "gamehall-supervisor", "static_configs": [{"targets": [f"{LOOPBACK}:{supervisor_port}"]}]}
    )
    return str(yaml.safe_dump(config, sort_keys=False))


@dataclass
class DeployInfo:
    pid: int
    gateway_url: str
    nats_url: str
    nats_monitor: list[str]
    metrics: dict[str, str]
    supervisor_metrics: str
    logs: str


def run_up(folder: Path, state: Path, db_url: str, metrics_port: int, echo: Any = print,
           ready_timeout: float = 180.0) -> int:
    from prometheus_client import start_http_server

    from services.common import metrics
    from services.common.stack import alive

    folder = folder.resolve()
    state = state.resolve()
    state.mkdir(parents=True, exist_ok=True)
    try:
        running = json.loads((state / "deploy.json").read_text())
    except (OSError, ValueError):
        running = None
    pid = int(running.get("pid", 0) or 0) if isinstance(running, dict) else 0
    if pid > 0 and pid != os.getpid() and alive(pid):
        assert isinstance(running, dict)
        echo(f"a deployment already runs from {state} (pid {running['pid']}): open {running.get('gateway_url')}/")
        return 1
    ensure_nats_credentials(state / "creds")
    ensure_server_key(state / "creds")
    ensure_matchmaking_key(state / "creds")
    ensure_tournaments_key(state / "creds")
    the_plan = plan(folder, state, db_url)
    port = metrics_port or free_port()
    server, _thread = start_http_server(port, addr=LOOPBACK)
    logs = state / "logs"
    children = [Supervised(p, logs / f"{p.name}.log") for p in the_plan.processes]
    nodes = [c for c in children if c.planned.kind == "nats"]
    stopping = False

    def on_signal(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    started = time.monotonic()
    try:
        client_ports = []
        for node in nodes:
            node.start()
            client_ports.append(port_of(node.planned.env["GH_NATS_LISTEN"]))
        for node, client in zip(nodes, client_ports, strict=True):
            while not port_open(LOOPBACK, client):
                if node.proc is not None and node.proc.poll() is not None:
                    echo(f"{node.planned.name} exited with {node.proc.returncode}; see {node.log}")
                    return 1
                time.sleep(0.05)
        echo(f"NATS cluster: {', '.join(f'{n.planned.name} on {LOOPBACK}:{c}' for n, c in zip(nodes, client_ports, strict=True))}")
        for child in children:
            if child.planned.kind == "gamehall":
                child.start()
        for child in children:
            metrics.SERVICE_RESTARTS.labels(service=child.planned.name)
            metrics.SERVICE_UP.labels(service=child.planned.name).set(1)
        info = describe(the_plan, port, logs)
        (state / "prometheus.yml").write_text(loopback_prometheus(folder, the_plan, port))
        deadline = time.monotonic() + ready_timeout
        while not http_ok(f"{info.gateway_url}/readyz"):
            if stopping or time.monotonic() > deadline:
                echo(f"the gateway is not ready; see {logs / 'gateway.log'} ({info.gateway_url}/readyz says why)")
                return 1
            for child in children:
                child.supervise(time.monotonic(), echo)
            time.sleep(0.2)
        tmp = state / "deploy.json.tmp"
        tmp.write_text(json.dumps(asdict(info), indent=2))
        tmp.replace(state / "deploy.json")
        echo(f"services: {', '.join(c.planned.name for c in children if c.planned.kind == 'gamehall')} (logs in {logs})")
        echo(f"deploy is up in {time.monotonic() - started:.1f}s: open {info.gateway_url}/  "
             f"(addresses in {state / 'deploy.json'}, Prometheus config {state / 'prometheus.yml'})")
        while not stopping:
            now = time.monotonic()
            for child in children:
                child.supervise(now, echo)
            time.sleep(0.2)
        return 0
    finally:
        echo("stopping...")
        services = [c for c in children if c.planned.kind == "gamehall"]
        for group in (services, nodes):
            for child in group:
                child.stop()
            for child in group:
                if child.proc is not None:
                    try:
                        child.proc.wait(timeout=15)
                    except subprocess.TimeoutExpired:
                        child.proc.kill()
                        child.proc.wait()
        (state / "deploy.json").unlink(missing_ok=True)
        server.shutdown()
        for sig, handler in old.items():
            signal.signal(sig, handler)
        echo("stopped")


def describe(the_plan: Plan, supervisor_port: int, logs: Path) -> DeployInfo:
    nats = [p for p in the_plan.processes if p.kind == "nats"]
    services = [p for p in the_plan.processes if p.kind == "gamehall"]
    gateway = the_plan.process("gateway")
    gateway_url = f"http://{LOOPBACK}:{gateway.env['GAMEHALL_HTTP_PORT']}"
    metrics_urls = {}
    for p in services:
        if p.env.get("GAMEHALL_METRICS_PORT"):
            metrics_urls[p.name] = f"http://{LOOPBACK}:{p.env['GAMEHALL_METRICS_PORT']}/metrics"
    return DeployInfo(
        pid=os.getpid(),
        gateway_url=gateway_url,
        nats_url=",".join(f"nats://{n.env['GH_NATS_LISTEN']}" for n in nats),
        nats_monitor=[f"http://{n.env['GH_NATS_HTTP']}" for n in nats],
        metrics=metrics_urls,
        supervisor_metrics=f"http://{LOOPBACK}:{supervisor_port}/metrics",
        logs=str(logs),
    )


@deploy_app.command("up")
def up(
    folder: Annotated[
        Path, typer.Option("--dir", metavar="DIR", help="The deployment folder (compose.yaml, nats/, prometheus/).")
    ] = ROOT / "deploy",
    db_url: Annotated[
        str | None,
        typer.Option(
            "--db-url",
            metavar="URL",
            envvar="GAMEHALL_DB_URL",
            help="PostgreSQL of the read models, e.g. postgresql+psycopg://postgres@127.0.0.1:5432/gamehall "
            "(default: $GAMEHALL_DB_URL).",
        ),
    ] = None,
    state: Annotated[
        Path,
        typer.Option(
            "--state",
            metavar="DIR",
            help="Where the NATS stores, generated credentials, logs, deploy.json and prometheus.yml go.",
        ),
    ] = Path(".gamehall-deploy"),
    metrics_port: Annotated[
        int, typer.Option("--metrics-port", metavar="PORT", help="The supervisor's /metrics port (restarts per service); 0: a free one.")
    ] = 0,
) -> None:
    """Start the NATS cluster and every service of DIR/compose.yaml on loopback and supervise them until Ctrl-C."""
    if not db_url:
        typer.echo("deploy up needs a PostgreSQL URL: --db-url or GAMEHALL_DB_URL", err=True)
        raise typer.Exit(2)
    if not (folder / "compose.yaml").is_file():
        typer.echo(f"no compose.yaml in {folder}", err=True)
        raise typer.Exit(2)
    raise typer.Exit(run_up(folder, state, db_url, metrics_port, echo=lambda m: typer.echo(m)))


@deploy_app.command("nats-metrics")
def nats_metrics(
    monitor: Annotated[
        str,
        typer.Option(
            "--monitor",
            metavar="URLS",
            envvar="GAMEHALL_NATS_MONITOR",
            help="Monitoring URLs of the nats-servers, comma-separated (e.g. http://nats-1:8222,http://nats-2:8222); "
            "default: $GAMEHALL_NATS_MONITOR.",
        ),
    ],
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", envvar="GAMEHALL_METRICS_PORT", help="Port of /metrics (default: $GAMEHALL_METRICS_PORT).")
    ] = 7777,
    host: Annotated[
        str, typer.Option("--host", metavar="ADDRESS", envvar="GAMEHALL_METRICS_HOST", help="Address /metrics listens on (default: $GAMEHALL_METRICS_HOST).")
    ] = "127.0.0.1",
    interval: Annotated[float, typer.Option("--interval", metavar="SECONDS", help="Seconds between two reads of the servers.")] = 10.0,
    log_format: Annotated[
        str, typer.Option("--log-format", metavar="FORMAT", envvar="GAMEHALL_LOG_FORMAT", help="json, console or auto.")
    ] = "auto",
) -> None:
    """Serve NATS's own health (connections, slow consumers, JetStream storage, cluster peers) as gamehall_nats_* series."""
    from services.common import logs, natsmonitor
    from services.common.health import HealthServer

    urls = [u.strip() for u in monitor.split(",") if u.strip()]
    if not urls:
        typer.echo("--monitor names no server", err=True)
        raise typer.Exit(2)
    logs.configure("nats-metrics", log_format)
    log = logs.get("nats-metrics")
    collector = natsmonitor.NatsMonitor(urls, interval_s=interval)
    natsmonitor.install(collector)

    async def answering() -> str | None:
        return None if collector.answering() else "no nats-server's monitoring port answers"

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        health = HealthServer({"nats-monitor": answering})
        bound = await health.start(port, host)
        log.info("metrics", port=bound, path="/metrics", servers=urls)
        poller = asyncio.create_task(collector.run())
        try:
            await stop.wait()
        finally:
            poller.cancel()
            await asyncio.gather(poller, return_exceptions=True)
            await health.stop()

    asyncio.run(main())


@deploy_app.command("nats-permissions")
def nats_permissions(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="The table of docs/operations.md instead of the server configuration.")
    ] = False,
) -> None:
    """Print the NATS accounts, users and allow-lists of every service (deploy/nats/accounts.conf), from the table in services/common/natsauth.py."""
    from services.common import natsauth

    typer.echo(natsauth.permissions_markdown() if markdown else natsauth.deployed_accounts_config(), nl=False)
