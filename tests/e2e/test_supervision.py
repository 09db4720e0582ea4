"""A stack that heals itself (issue 16): SIGKILL a service or the embedded nats-server under
`gamehall up` and it comes back on its own, the rest keeps running, /readyz says when it is
ready again, and play goes on with nothing lost; the supervisor counts each restart.  The stack
dies with its supervisor (issue 21): SIGKILL `gamehall up` and every process it started goes,
what an older `up` left running is stopped, and a new `up` serves the stored matches; `up`
reports only its own gateway, on another port when another server holds the configured one."""

from __future__ import annotations

import http.server
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from services.common import stack as stackinfo
from services.common.processes import UpProcess, free_port, spawn
from tests.e2e.test_full_match import Stack

pytestmark = pytest.mark.e2e


def child_pid(parent: int, pattern: str) -> int | None:
    """The pid of the child of ``parent`` whose command line matches (the oldest when several do:
    two referees), None while there is none."""
    found = subprocess.run(["pgrep", "-o", "-P", str(parent), "-f", pattern], capture_output=True, text=True)
    pids = [int(p) for p in found.stdout.split()]
    return pids[0] if pids else None


def supervisor_sample(data_dir: Path, metric: str, service: str) -> float | None:
    """One series of the supervisor's /metrics (its address is in stack.json)."""
    info = stackinfo.read(data_dir)
    assert info is not None and "supervisor" in info.metrics, info
    text = httpx.get(info.metrics["supervisor"], timeout=5).text
    found = re.search(rf'^{metric}\{{service="{re.escape(service)}"\}} (\S+)$', text, re.MULTILINE)
    return float(found.group(1)) if found else None


def recorded_pid(data_dir: Path, name: str) -> int | None:
    info = stackinfo.read(data_dir)
    return info.children.get(name) if info is not None else None


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


def play_one_move(client: httpx.Client) -> str:
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
    return str(body["match_id"])


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

        # 1. a referee dies: it is restarted (and counted), the gateway is ready again, play goes on
        referee = child_pid(up.pid, "serve referee")
        scoring = child_pid(up.pid, "serve scoring")
        assert referee is not None and scoring is not None
        name = next(n for n, pid in info.children.items() if pid == referee)
        assert name.startswith("referee") and info.children["scoring"] == scoring
        assert supervisor_sample(stack.data_dir, "gamehall_service_restarts_total", name) == 0
        assert supervisor_sample(stack.data_dir, "gamehall_service_running", name) == 1
        os.kill(referee, signal.SIGKILL)
        wait_until("a new referee runs", lambda: recorded_pid(stack.data_dir, name) not in (None, referee))
        assert stackinfo.alive(recorded_pid(stack.data_dir, name) or 0)
        assert supervisor_sample(stack.data_dir, "gamehall_service_restarts_total", name) == 1
        assert supervisor_sample(stack.data_dir, "gamehall_service_running", name) == 1
        assert supervisor_sample(stack.data_dir, "gamehall_service_restarts_total", "scoring") == 0
        wait_until("the gateway is ready again", lambda: ready(readyz))
        play_one_move(client)
        assert child_pid(up.pid, "serve scoring") == scoring, "another service was restarted"

        # 2. the embedded nats-server dies: restarted on the same port, services reconnect
        nats = child_pid(up.pid, "nats-server")
        assert nats is not None and info.children["nats-server"] == nats
        os.kill(nats, signal.SIGKILL)
        wait_until("nats-server runs again", lambda: child_pid(up.pid, "nats-server") not in (None, nats))
        wait_until("the gateway is ready again", lambda: ready(readyz))
        for each in (name, "scoring"):
            wait_until(f"{each} is ready again", lambda n=each: ready(info.metrics[n].removesuffix("/metrics") + "/readyz"))
        play_one_move(client)
        assert supervisor_sample(stack.data_dir, "gamehall_service_restarts_total", "nats-server") == 1
    finally:
        assert stack.stop() == 0
    log = up.stdout.read() if up.stdout else ""
    assert re.search(r"referee exited with -9; restarting in [0-9.]+s", log), log
    assert "the embedded nats-server stopped; restarting it on" in log, log


def orphaned(args: list[str], env: dict[str, str], log: Path) -> int:
    """Start ``args`` from a middle process that exits at once, so that nothing supervises it (as
    the services an older `gamehall up` left behind when it was killed); its pid."""
    code = (
        "import sys\nfrom services.common.processes import spawn\nfrom pathlib import Path\n"
        f"print(spawn({args!r}, output=Path({str(log)!r})).pid, flush=True)\n"
    )
    middle = spawn([sys.executable, "-c", code], env, output=subprocess.PIPE, text=True)
    out, _ = middle.communicate(timeout=60)
    return int(out.split()[-1])


def test_a_killed_up_takes_its_stack_with_it(tmp_path: Path) -> None:
    stack = Stack(tmp_path / "data").start()
    assert stack.up is not None
    up = stack.up.proc
    leftover: int | None = None
    try:
        info = stackinfo.read(stack.data_dir)
        assert info is not None and info.pid == up.pid
        kids = dict(info.children)
        assert {"gateway", "scoring", "nats-server"} <= set(kids) and any(n.startswith("referee") for n in kids)
        assert all(stackinfo.alive(pid) for pid in kids.values()), kids
        client = httpx.Client(base_url=stack.url, timeout=30)
        match_id = play_one_move(client)

        # A second `up` on the same data folder refuses, naming the first.
        second = stack.cli("up")
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"pid {up.pid}" in second.stdout.decode() and stack.url in second.stdout.decode()

        # A service nothing supervises (what an older `up` left behind when it was killed).
        leftover = orphaned(
            [sys.executable, "-m", "services.cli.main", "serve", "scoring"], stack.env, tmp_path / "leftover.log"
        )
        wait_until("the leftover service runs", lambda: "metrics" in (tmp_path / "leftover.log").read_text(), 120)
        assert stackinfo.alive(leftover)

        up.kill()
        up.wait()
        wait_until(
            "every process the killed gamehall up started is gone",
            lambda: not [n for n, pid in kids.items() if stackinfo.alive(pid)],
            60,
        )
        assert stackinfo.alive(leftover), "the leftover service stopped by itself"

        again = Stack(stack.data_dir).start()
        assert again.up is not None
        try:
            assert not stackinfo.alive(leftover), "a new up left the old service running beside its own"
            view = httpx.get(f"{again.url}/api/matches/{match_id}", timeout=30)
            assert view.status_code == 200 and view.json()["seq"] >= 2, view.text
            renewed = stackinfo.read(stack.data_dir)
            assert renewed is not None and renewed.pid == again.up.proc.pid
            assert not set(renewed.children.values()) & set(kids.values())
        finally:
            assert again.stop() == 0
    finally:
        if up.poll() is None:
            stack.stop()
        if leftover is not None and stackinfo.alive(leftover):
            os.kill(leftover, signal.SIGKILL)


class OtherServer(http.server.BaseHTTPRequestHandler):
    """Another program on the configured port, answering every path (``/readyz`` too) with 200."""

    def do_GET(self) -> None:  # noqa: N802 - the handler's API
        body = b'{"ready": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_up_reports_its_own_gateway_when_another_server_holds_the_port(tmp_path: Path) -> None:
    other = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), OtherServer)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    taken = other.server_address[1]
    data = tmp_path / "data"
    env = dict(os.environ, GAMEHALL_DATA_DIR=str(data), GAMEHALL_HTTP_PORT=str(taken))
    env.pop("NATS_URL", None)
    up = UpProcess(env, services=("referee", "gateway"))
    try:
        url = up.wait_url()
        assert url != f"http://127.0.0.1:{taken}" and url.startswith("http://127.0.0.1:")
        info = stackinfo.read(data)
        assert info is not None and info.gateway_url == url and len(info.instance) >= 16
        own = httpx.get(f"{url}/readyz", timeout=10)
        assert own.status_code == 200 and own.json()["instance"] == info.instance, own.text
        assert "instance" not in httpx.get(f"http://127.0.0.1:{taken}/readyz", timeout=10).json()
    finally:
        assert up.stop() == 0
        other.shutdown()
        other.server_close()
