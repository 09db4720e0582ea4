"""A stack that heals itself (issue 16): SIGKILL a service or the embedded nats-server under
`gamehall up` and it comes back on its own, the rest keeps running, /readyz says when it is
ready again, and play goes on with nothing lost."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from services.common import stack as stackinfo
from tests.e2e.test_full_match import Stack

pytestmark = pytest.mark.e2e


def child_pid(parent: int, pattern: str) -> int | None:
    """The pid of the one child of ``parent`` whose command line matches, None while there is none."""
    found = subprocess.run(["pgrep", "-P", str(parent), "-f", pattern], capture_output=True, text=True)
    pids = [int(p) for p in found.stdout.split()]
    assert len(pids) <= 1, (pattern, found.stdout)
    return pids[0] if pids else None


def wait_until(what: str, check, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting until {what}")


def ready(url: str) -> bool:
    return httpx.get(url, timeout=5).status_code == 200


def play_one_move(client: httpx.Client) -> None:
    created = client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
    assert created.status_code == 201, created.text
    body = created.json()
    view = client.get(f"/api/matches/{body['match_id']}", headers={"authorization": f"Bearer {body['seats'][0]['token']}"})
    assert view.status_code == 200, view.text
    legal = view.json()["legal_moves"]
    moved = client.post(
        f"/api/matches/{body['match_id']}/commands",
        headers={"authorization": f"Bearer {body['seats'][0]['token']}"},
        json={"command": legal[0]["command"]},
    )
    assert moved.status_code == 200, moved.text


def test_killed_services_and_nats_come_back(tmp_path: Path) -> None:
    stack = Stack(tmp_path / "data").start()
    assert stack.up is not None
    up = stack.up.proc
    try:
        info = stackinfo.read(stack.data_dir)
        assert info is not None
        client = httpx.Client(base_url=stack.url, timeout=30)
        readyz = f"{stack.url}/readyz"
        assert ready(readyz)
        # every service answers /healthz and /readyz beside its /metrics
        for name, metrics_url in info.metrics.items():
            base = metrics_url.removesuffix("/metrics")
            assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200, name
            assert ready(f"{base}/readyz"), (name, httpx.get(f"{base}/readyz", timeout=5).text)
        play_one_move(client)

        # 1. the referee dies: the gateway is not ready, then it is again, and play goes on
        referee = child_pid(up.pid, "serve referee")
        scoring = child_pid(up.pid, "serve scoring")
        assert referee is not None and scoring is not None
        os.kill(referee, signal.SIGKILL)
        wait_until("a new referee runs", lambda: child_pid(up.pid, "serve referee") not in (None, referee))
        wait_until("the gateway is ready again", lambda: ready(readyz))
        play_one_move(client)
        assert child_pid(up.pid, "serve scoring") == scoring, "another service was restarted"

        # 2. the embedded nats-server dies: restarted on the same port, services reconnect
        nats = child_pid(up.pid, "nats-server")
        assert nats is not None
        os.kill(nats, signal.SIGKILL)
        wait_until("nats-server runs again", lambda: child_pid(up.pid, "nats-server") not in (None, nats))
        wait_until("the gateway is ready again", lambda: ready(readyz))
        for name in ("referee", "scoring"):
            wait_until(f"{name} is ready again", lambda n=name: ready(info.metrics[n].removesuffix("/metrics") + "/readyz"))
        play_one_move(client)
    finally:
        assert stack.stop() == 0
    log = up.stdout.read() if up.stdout else ""
    assert re.search(r"referee exited with -9; restarting in [0-9.]+s", log), log
    assert "the embedded nats-server stopped; restarting it on" in log, log
