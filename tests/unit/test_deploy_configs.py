"""The nats-server configurations in deploy/ are valid for the nats-server gamehall installs."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from services.common.embedded import nats_server_binary

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "deploy/nats").rglob("*.conf"))


# What compose.yaml (and `gamehall deploy up`, with loopback ports) gives each cluster node.
NODE_ENV = {
    "GH_NATS_LISTEN": "127.0.0.1:4222",
    "GH_NATS_HTTP": "127.0.0.1:8222",
    "GH_NATS_CLUSTER_LISTEN": "127.0.0.1:6222",
    "GH_NATS_STORE_DIR": "/tmp/gamehall-config-test",
    "GH_NATS_ROUTE_N1": "nats-route://127.0.0.1:6223",
    "GH_NATS_ROUTE_N2": "nats-route://127.0.0.1:6224",
    "GH_NATS_ROUTE_N3": "nats-route://127.0.0.1:6225",
}


def compose() -> dict:
    return yaml.safe_load((ROOT / "deploy/compose.yaml").read_text())


@pytest.mark.parametrize("conf", CONFIGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_nats_config_parses(conf: Path) -> None:
    # Passwords of the service users and the nodes' addresses come from the server's environment
    # (deploy/nats/README.md; accounts.conf, which every server config includes).
    names = {var for path in CONFIGS for var in re.findall(r"\$(GH_NATS_\w+)", path.read_text())}
    env = dict(os.environ, **{var: NODE_ENV.get(var, "test-password") for var in names})
    done = subprocess.run(
        [nats_server_binary(), "-c", str(conf), "-t"], capture_output=True, text=True, cwd=conf.parent, env=env
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_cluster_nodes_route_to_each_other() -> None:
    """Each node routes to the two others through variables compose.yaml sets to the nodes' hosts."""
    nodes = sorted((ROOT / "deploy/nats/cluster").glob("n*.conf"))
    assert len(nodes) == 3
    services = compose()["services"]
    for i, conf in enumerate(nodes, start=1):
        text = conf.read_text()
        assert f"server_name: n{i}" in text
        routes = re.search(r"routes: \[(.*?)\]", text, re.S)
        assert routes is not None
        listed = set(re.findall(r"\$(GH_NATS_ROUTE_N\d)", routes.group(1)))
        assert listed == {f"GH_NATS_ROUTE_N{j}" for j in (1, 2, 3) if j != i}, conf
        node = services[f"nats-{i}"]
        assert node["command"] == ["-c", f"/etc/nats/cluster/n{i}.conf"]
        env = node["environment"]
        for j in (1, 2, 3):
            assert env[f"GH_NATS_ROUTE_N{j}"] == f"nats-route://nats-{j}:6222"
        assert env["GH_NATS_CLUSTER_LISTEN"].endswith(":6222") and env["GH_NATS_HTTP"].endswith(":8222")


def test_compose_restarts_every_service_and_runs_the_cluster() -> None:
    services = compose()["services"]
    for name, svc in services.items():
        assert svc.get("restart") in {"always", "unless-stopped", "on-failure"}, name
    referees = [n for n, s in services.items() if s.get("command") == ["gamehall", "serve", "referee"]]
    assert len(referees) == 2
    gamehall = {n: s for n, s in services.items() if (s.get("command") or [""])[0] == "gamehall"}
    for name, svc in gamehall.items():
        if svc["command"][1] == "serve":
            env = svc["environment"]
            assert env["NATS_URL"] == "nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222", name
            assert env["GAMEHALL_STREAM_REPLICAS"] == "3", name


def test_prometheus_scrapes_every_service_and_nothing_else() -> None:
    """Each target is a compose service on the port it serves /metrics on; each gamehall service
    of compose.yaml (and the NATS collector) is a target."""
    services = compose()["services"]
    config = yaml.safe_load((ROOT / "deploy/prometheus/prometheus.yml").read_text())
    targets = {t for job in config["scrape_configs"] for s in job["static_configs"] for t in s["targets"]}
    expected = set()
    for name, svc in services.items():
        if (svc.get("command") or [""])[0] != "gamehall":
            continue
        env = svc.get("environment") or {}
        port = env.get("GAMEHALL_METRICS_PORT")
        assert port, f"{name} has no fixed /metrics port"
        if svc["command"][-1] == "gateway":  # its public port serves no /metrics, and only it is published
            assert port != env.get("GAMEHALL_HTTP_PORT") and svc["ports"] == [f"{env['GAMEHALL_HTTP_PORT']}:{env['GAMEHALL_HTTP_PORT']}"]
        expected.add(f"{name}:{port}")
    assert targets == expected
    for job in config["scrape_configs"]:
        assert job["job_name"].startswith("gamehall-"), job["job_name"]  # GamehallServiceDown covers it


def test_documented_nats_server_flags_exist() -> None:
    """The operator docs pass nats-server only flags it has (it has no --env-file: it reads $VAR
    from its environment): in every sentence about nats-server, each flag is one of its own or of
    `gamehall deploy up`."""
    done = subprocess.run([nats_server_binary(), "--help"], capture_output=True, text=True)
    known = set(re.findall(r"(?<![\w-])(--?[a-z][a-z_-]*)", done.stdout + done.stderr))
    assert {"-c", "--config", "-js"} <= known
    known |= {"--dir", "--db-url", "--state", "--metrics-port", "--help"}
    for doc in (ROOT / "deploy/nats/README.md", ROOT / "deploy/cluster.md"):
        text = re.sub(r"\s+", " ", re.sub(r"```.*?```", " ", doc.read_text(), flags=re.S))
        for sentence in re.split(r"(?<=[.:;])\s", text):
            if "nats-server" not in sentence:
                continue
            for span in re.findall(r"`([^`]*)`", sentence):
                for flag in re.findall(r"(?<![\w/.-])(--?[a-z][a-z_-]*)", span):
                    assert flag in known, f"{doc.name}: nats-server has no {flag} ({sentence.strip()[:120]})"


def test_deploy_up_plans_compose_on_loopback(tmp_path: Path) -> None:
    """`gamehall deploy up` runs compose.yaml's commands and environment, with every compose host
    and port turned into a loopback port of its own and the mounted credentials copied."""
    from services.cli import deploy

    deploy.ensure_nats_credentials(tmp_path / "creds")
    deploy.ensure_server_key(tmp_path / "creds")
    deploy.ensure_matchmaking_key(tmp_path / "creds")
    deploy.ensure_tournaments_key(tmp_path / "creds")
    plan = deploy.plan(ROOT / "deploy", tmp_path, "postgresql+psycopg://postgres@127.0.0.1:5432/x")
    names = [p.name for p in plan.processes]
    services = compose()["services"]
    assert names == [n for n, s in services.items() if deploy.kind_of(s) in ("nats", "gamehall")]
    hosts = set(services)
    for p in plan.processes:
        for key, value in p.env.items():
            if key in services[p.name].get("environment", {}):
                assert not any(f"{h}:" in value for h in hosts), (p.name, key, value)
        if p.kind == "nats":
            assert p.argv[1:] == ["-c", str(ROOT / "deploy/nats/cluster" / f"n{p.name[-1]}.conf")]
            assert p.env["GH_NATS_LISTEN"].startswith("127.0.0.1:") and "GH_NATS_REFEREE_PASSWORD" in p.env
        else:
            assert p.argv[-2:] == services[p.name]["command"][1:]
            if p.name != "nats-metrics":
                assert p.env["GAMEHALL_DB_URL"].endswith("/x") and p.env["GAMEHALL_STREAM_REPLICAS"] == "3"
                creds = Path(p.env["GAMEHALL_NATS_CREDENTIALS"])
                mounted = {Path(v.split(":")[1]).name for v in services[p.name]["volumes"] if "/nats/" in v}
                assert {f.name for f in creds.iterdir()} == mounted
    # the gateway's server key is the state folder's, as compose mounts it
    assert plan.process("gateway").env["GAMEHALL_SERVER_KEY"] == str(tmp_path / "creds" / "server.key")
    # matchmaking signs with the state folder's key; every referee trusts its public key (only)
    assert plan.process("matchmaking").env["GAMEHALL_MATCHMAKING_KEY"] == str(tmp_path / "creds" / "matchmaking.key")
    for p in plan.processes:
        if p.argv[-1] == "referee":
            assert p.env["GAMEHALL_MATCHMAKING_KEYS"] == str(tmp_path / "creds" / "matchmaking.pub"), p.name
        if p.argv[-1] != "matchmaking":
            assert "GAMEHALL_MATCHMAKING_KEY" not in p.env, p.name
            assert not any("matchmaking.key" in v for v in services[p.name].get("volumes", [])), p.name
    # the tournaments service signs rated tournaments' tables with its own key; referees trust its public key
    creds = tmp_path / "creds"
    assert plan.process("tournaments").env["GAMEHALL_TOURNAMENTS_KEY"] == str(creds / "tournaments.key")
    for p in plan.processes:
        if p.argv[-1] == "referee":
            assert p.env["GAMEHALL_TOURNAMENT_KEYS"] == str(creds / "tournaments.pub"), p.name
        if p.argv[-1] != "tournaments":
            assert "GAMEHALL_TOURNAMENTS_KEY" not in p.env, p.name
            assert not any("tournaments.key" in v for v in services[p.name].get("volumes", [])), p.name
    ports = [int(p.env["GAMEHALL_METRICS_PORT"]) for p in plan.processes if "GAMEHALL_METRICS_PORT" in p.env]
    assert len(ports) == len(set(ports)) == len([p for p in plan.processes if p.kind == "gamehall"])
    # the routes of each node name the other nodes' loopback cluster ports
    n1 = plan.process("nats-1").env
    assert n1["GH_NATS_ROUTE_N2"] == f"nats-route://{plan.process('nats-2').env['GH_NATS_CLUSTER_LISTEN']}"


def test_documented_gamehall_deploy_flags_exist() -> None:
    from typer.testing import CliRunner

    from services.cli.main import app

    runner = CliRunner()
    helps = {cmd: runner.invoke(app, ["deploy", cmd, "--help"]).output for cmd in ("up", "nats-metrics")}
    docs = [ROOT / "README.md", ROOT / "deploy/cluster.md", ROOT / "docs/operations.md"]
    seen = 0
    for doc in docs:
        for cmd, rest in re.findall(r"gamehall deploy (up|nats-metrics)([^`\n|)]*)", doc.read_text()):
            for flag in re.findall(r"(--[a-z][a-z-]*)", rest):
                seen += 1
                assert flag in helps[cmd], f"{doc.name}: gamehall deploy {cmd} has no {flag}"
    assert seen >= 3


def test_generated_passwords_are_read_as_strings_by_nats_server(tmp_path: Path) -> None:
    """nats-server parses a `$VAR` as a config value: a password such as `5E` or `12345` (a random
    token may start so) stops it; the deployment's passwords start with a letter."""
    from services.cli import deploy

    conf = tmp_path / "p.conf"
    conf.write_text("listen: 127.0.0.1:4222\nauthorization { user: a, password: $PW }\n")

    def parses(password: str) -> bool:
        done = subprocess.run([nats_server_binary(), "-c", str(conf), "-t"], capture_output=True,
                              env=dict(os.environ, PW=password))
        return done.returncode == 0

    assert not parses("5E") and not parses("12345")
    assert parses("gh5E") and parses("gh12345")
    assert all(deploy.new_password()[0].isalpha() for _ in range(100))
    deploy.ensure_nats_credentials(tmp_path / "creds")
    env = (tmp_path / "creds" / "nats-server.env").read_text().splitlines()
    from services.common import natsauth

    assert len(env) == len(natsauth.ALL_USERS) and all(line.split("=", 1)[1][0].isalpha() for line in env)
