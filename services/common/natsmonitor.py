"""NATS's own health as Prometheus series, read from the monitoring port of each nats-server
(``http:`` in its config: ``/varz``, ``/jsz``, ``/routez``, ``/healthz``).

No NATS exporter installs from the package registries this project uses, so this collector does
the exporter's job for the few series the dashboard and the alerts need.  ``gamehall deploy
nats-metrics`` runs it (``deploy/compose.yaml``, ``gamehall deploy up``); every series is
labelled with ``server``, the monitoring address as configured, so a server that does not answer
keeps its series (``gamehall_nats_up`` 0).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
from prometheus_client import REGISTRY
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

POLL_INTERVAL_S = 10.0
TIMEOUT_S = 2.0

GAUGES = {
    "gamehall_nats_up": "1 while the server's monitoring port answers, 0 while it does not",
    "gamehall_nats_healthy": "1 while the server's /healthz says ok (JetStream current), else 0",
    "gamehall_nats_connections": "Client connections open at the server",
    "gamehall_nats_subscriptions": "Subscriptions the server holds",
    "gamehall_nats_jetstream_storage_bytes": "File storage JetStream uses on the server",
    "gamehall_nats_jetstream_storage_limit_bytes": "File storage JetStream may use on the server (max_file_store)",
    "gamehall_nats_jetstream_memory_bytes": "Memory storage JetStream uses on the server",
    "gamehall_nats_jetstream_memory_limit_bytes": "Memory storage JetStream may use on the server",
    "gamehall_nats_cluster_peers": "Other cluster nodes the server has a route to",
    "gamehall_nats_cluster_size": "Nodes of the server's JetStream cluster (1 on a single server)",
}
COUNTERS = {
    "gamehall_nats_slow_consumers": "Clients the server cut off or dropped messages for as slow consumers",
    "gamehall_nats_in_msgs": "Messages the server received",
    "gamehall_nats_out_msgs": "Messages the server sent",
}


def server_label(url: str) -> str:
    """``http://nats-1:8222/`` -> ``nats-1:8222``."""
    return url.split("://", 1)[-1].rstrip("/")


def sample(varz: dict[str, Any] | None, jsz: dict[str, Any] | None, routez: dict[str, Any] | None,
           healthy: bool) -> dict[str, float]:
    """The series of one server from its monitoring answers (``None``: that endpoint did not answer)."""
    out: dict[str, float] = {"gamehall_nats_up": 1.0 if varz is not None else 0.0,
                             "gamehall_nats_healthy": 1.0 if healthy else 0.0}
    if varz is not None:
        out["gamehall_nats_connections"] = float(varz.get("connections", 0))
        out["gamehall_nats_subscriptions"] = float(varz.get("subscriptions", 0))
        out["gamehall_nats_slow_consumers"] = float(varz.get("slow_consumers", 0))
        out["gamehall_nats_in_msgs"] = float(varz.get("in_msgs", 0))
        out["gamehall_nats_out_msgs"] = float(varz.get("out_msgs", 0))
    if jsz is not None:
        config = jsz.get("config") or {}
        out["gamehall_nats_jetstream_storage_bytes"] = float(jsz.get("storage", 0))
        out["gamehall_nats_jetstream_storage_limit_bytes"] = float(config.get("max_storage", 0))
        out["gamehall_nats_jetstream_memory_bytes"] = float(jsz.get("memory", 0))
        out["gamehall_nats_jetstream_memory_limit_bytes"] = float(config.get("max_memory", 0))
        meta = jsz.get("meta_cluster") or {}
        out["gamehall_nats_cluster_size"] = float(meta.get("cluster_size") or 1)
    if routez is not None:
        # nats-server 2.10 pools several routes per peer: count the peers, not the routes
        peers = {r.get("remote_name") or r.get("remote_id") for r in routez.get("routes") or []}
        out["gamehall_nats_cluster_peers"] = float(len(peers - {None, ""}))
    return out


@dataclasses.dataclass
class NatsMonitor:
    """Polls the monitoring ports every ``interval_s``; ``collect`` gives the last poll's series."""

    urls: list[str]
    interval_s: float = POLL_INTERVAL_S
    timeout_s: float = TIMEOUT_S
    last: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)

    async def poll_once(self, http: httpx.AsyncClient) -> None:
        async def get(base: str, path: str) -> dict[str, Any] | None:
            try:
                answer = await http.get(base.rstrip("/") + path, timeout=self.timeout_s)
                body = answer.json()
            except (httpx.HTTPError, ValueError):
                return None
            if path == "/healthz":
                return body if answer.status_code == 200 else None
            return body if answer.status_code == 200 and isinstance(body, dict) else None

        async def one(base: str) -> tuple[str, dict[str, float]]:
            varz, jsz, routez, health = await asyncio.gather(
                get(base, "/varz"), get(base, "/jsz"), get(base, "/routez"), get(base, "/healthz")
            )
            healthy = isinstance(health, dict) and health.get("status") == "ok"
            return server_label(base), sample(varz, jsz, routez, healthy)

        results = await asyncio.gather(*(one(u) for u in self.urls))
        self.last = dict(results)

    async def run(self) -> None:
        """Poll until cancelled."""
        async with httpx.AsyncClient() as http:
            while True:
                await self.poll_once(http)
                await asyncio.sleep(self.interval_s)

    def answering(self) -> int:
        return sum(1 for s in self.last.values() if s.get("gamehall_nats_up") == 1.0)


def families(last: dict[str, dict[str, float]]) -> Iterator[Metric]:
    for name, doc in GAUGES.items():
        gauge = GaugeMetricFamily(name, doc, labels=["server"])
        for server, values in sorted(last.items()):
            if name in values:
                gauge.add_metric([server], values[name])
        yield gauge
    for name, doc in COUNTERS.items():
        counter = CounterMetricFamily(name, doc, labels=["server"])
        for server, values in sorted(last.items()):
            if name in values:
                counter.add_metric([server], values[name])
        yield counter


class _Registered(Collector):
    """The monitor of this process, registered once so that the names are known at import (the
    dashboard test checks every queried name against the registry)."""

    monitor: NatsMonitor | None = None

    def collect(self) -> Iterable[Metric]:
        return list(families(self.monitor.last if self.monitor is not None else {}))


PROCESS = _Registered()
REGISTRY.register(PROCESS)


def install(monitor: NatsMonitor | None) -> None:
    """Make ``monitor`` the one this process's /metrics shows (None: none)."""
    PROCESS.monitor = monitor
