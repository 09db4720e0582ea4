"""Prometheus against a running stack: every dashboard panel's query and every alert expression
returns series from real data (deploy/grafana, deploy/prometheus)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import yaml

from services.common import stack as stackinfo
from services.common.processes import free_port, spawn, stop_all
from tests.e2e.test_full_match import Stack

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = shutil.which("prometheus")
# The comparison that turns an expression into an alert condition: what is left must have series.
CONDITION = re.compile(r"\s*(==|!=|>=|<=|>|<)\s*[0-9.e+]+\s*$")
# NATS's own health comes from the nodes' monitoring ports (`gamehall deploy nats-metrics`), which
# the embedded nats-server of `gamehall up` does not open: tests/integration/test_nats_cluster.py
# checks those queries against `gamehall deploy up`.
NATS_SERIES = "gamehall_nats_"


def laptop(exprs: dict[str, str]) -> dict[str, str]:
    return {name: expr for name, expr in exprs.items() if NATS_SERIES not in expr}


def alert_expressions() -> dict[str, str]:
    groups = yaml.safe_load((ROOT / "deploy/prometheus/alerts.yml").read_text())["groups"]
    return {r["alert"]: CONDITION.sub("", r["expr"]) for g in groups for r in g["rules"]}


def panel_expressions() -> dict[str, str]:
    dashboard = json.loads((ROOT / "deploy/grafana/gamehall.json").read_text())
    return {f"{p['title']} #{i}": t["expr"] for p in dashboard["panels"] for i, t in enumerate(p["targets"])}


def test_condition_stripping_keeps_the_measured_expression() -> None:
    exprs = alert_expressions()
    assert exprs["GamehallServiceDown"] == 'up{job=~"gamehall.*"}'
    assert exprs["GamehallGatewayErrors"].endswith("or vector(0))")


def scrape_config(targets: dict[str, str]) -> dict[str, object]:
    jobs = []
    for name, url in sorted(targets.items()):
        found = re.match(r"http://([^/]+)(/.*)$", url)
        assert found, url
        jobs.append(
            {
                "job_name": f"gamehall-{name}",
                "metrics_path": found.group(2),
                "static_configs": [{"targets": [found.group(1)]}],
            }
        )
    return {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(ROOT / "deploy/prometheus/alerts.yml")],
        "scrape_configs": jobs,
    }


def query(prom: str, expr: str) -> list[object]:
    answer = httpx.get(f"{prom}/api/v1/query", params={"query": expr}, timeout=10)
    answer.raise_for_status()  # 503 while Prometheus starts: an HTTPError, for the callers that wait
    reply = answer.json()
    assert reply["status"] == "success", (expr, reply)
    return list(reply["data"]["result"])


@pytest.mark.skipif(PROMETHEUS is None, reason="prometheus missing (scripts/ensure-prometheus.sh installs it)")
def test_dashboards_and_alerts_read_real_series(tmp_path: Path) -> None:
    stack = Stack(tmp_path / "data")
    stack.env["GAMEHALL_DOCTOR_EVERY_S"] = "5"  # the standing check of derived data reports soon
    stack.start()
    prom_proc: subprocess.Popen[bytes] | None = None
    try:
        info = stackinfo.read(stack.data_dir)
        assert info is not None and {"gateway", "scoring", "leaderboard"} <= set(info.metrics)
        assert any(name.startswith("referee") for name in info.metrics), info.metrics
        config = tmp_path / "prometheus.yml"
        config.write_text(yaml.safe_dump(scrape_config(info.metrics)))
        port = free_port()
        prom = f"http://127.0.0.1:{port}"
        prom_proc = spawn(
            [
                str(PROMETHEUS),
                f"--config.file={config}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{port}",
            ],
            output=tmp_path / "prometheus.log",
        )
        # Real traffic: a rated match to the leaderboard, a card match, and a refused move.
        for args in (("--game", "ugolki", "--ranked"), ("--game", "kings-corner")):
            done = stack.cli("demo", *args, "--matches", "1")
            assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
        client = httpx.Client(base_url=stack.url, timeout=30)
        created = client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]}).json()
        white = created["seats"][0]["token"]
        refused = client.post(
            f"/api/matches/{created['match_id']}/commands",
            headers={"authorization": f"Bearer {white}"},
            json={"command": {"type": "move_piece.v1", "path": ["a1", "h8"]}},
        )
        assert refused.status_code == 409

        wanted = {**{f"panel {k}": v for k, v in laptop(panel_expressions()).items()},
                  **{f"alert {k}": v for k, v in laptop(alert_expressions()).items()}}
        assert len(wanted) < len(panel_expressions()) + len(alert_expressions())
        empty: dict[str, str] = {}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                empty = {name: expr for name, expr in wanted.items() if not query(prom, expr)}
            except httpx.HTTPError:
                empty = dict(wanted)
            if not empty:
                break
            time.sleep(1)
        assert not empty, f"queries with no series on a running stack: {json.dumps(empty, indent=1)}"
        down = [r for r in query(prom, 'up{job=~"gamehall.*"} == 0')]
        assert not down, f"targets down: {down}"
    finally:
        if prom_proc is not None:
            stop_all([prom_proc], timeout=20)
        stack.stop()
