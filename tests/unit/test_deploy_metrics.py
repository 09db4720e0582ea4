"""Every metric that the Grafana dashboard or an alert rule queries is one the services export."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client import REGISTRY

import services.common.metrics  # noqa: F401 - registers the metrics
import services.common.natsmonitor  # noqa: F401 - registers the gamehall_nats_* series

ROOT = Path(__file__).resolve().parents[2]
METRIC = re.compile(r"\b(gamehall_[a-z0-9_]+)")


def exported_names() -> set[str]:
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",),
                "summary": ("_sum", "_count")}
    names = set()
    for family in REGISTRY.collect():
        for suffix in suffixes.get(family.type, ("",)):
            names.add(family.name + suffix)
    return names


def queried(text: str) -> set[str]:
    return set(METRIC.findall(text))


def test_dashboard_queries_only_exported_metrics() -> None:
    dashboard = json.loads((ROOT / "deploy/grafana/gamehall.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    wanted = set().union(*(queried(e) for e in exprs))
    assert wanted, "the dashboard queries no gamehall metric"
    missing = wanted - exported_names()
    assert not missing, f"dashboard queries metrics nobody exports: {sorted(missing)}"


def test_alert_rules_query_only_exported_metrics() -> None:
    wanted = queried((ROOT / "deploy/prometheus/alerts.yml").read_text())
    assert wanted
    missing = wanted - exported_names()
    assert not missing, f"alerts query metrics nobody exports: {sorted(missing)}"


def test_dashboard_is_well_formed_grafana_json() -> None:
    dashboard = json.loads((ROOT / "deploy/grafana/gamehall.json").read_text())
    assert dashboard["uid"] and dashboard["title"]
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    cells: set[tuple[int, int]] = set()
    for panel in dashboard["panels"]:
        assert panel["title"] and panel["type"] in {"timeseries", "stat", "gauge", "table"}
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        refs = [t["refId"] for t in panel["targets"]]
        assert refs and len(refs) == len(set(refs)), panel["title"]
        grid = panel["gridPos"]
        assert 0 <= grid["x"] and grid["x"] + grid["w"] <= 24, panel["title"]
        cell = (grid["x"], grid["y"])
        assert cell not in cells, f"two panels at {cell}"
        cells.add(cell)
