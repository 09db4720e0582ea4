"""gamehall up supervises its processes (issue 16): a crashed service restarts with a growing
delay, the others are untouched, and a service that stayed up is healthy again; restarts are
counted; `up` takes only its own gateway and moves it off a taken port; one `up` per data folder."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from services.cli.stackrun import (
    HEALTHY_AFTER_S,
    RESTART_BACKOFF_S,
    Child,
    await_gateway,
    own_gateway_ready,
    restart_delay,
)
from services.common.processes import NotReady, free_port
from services.common.stack import UpLock


def test_restart_delay_grows_and_stops_at_its_ceiling() -> None:
    delays = [restart_delay(n) for n in range(1, 10)]
    assert delays[: len(RESTART_BACKOFF_S)] == list(RESTART_BACKOFF_S)
    assert delays == sorted(delays) and delays[-1] == RESTART_BACKOFF_S[-1]


def child(tmp_path: Path, code: str) -> Child:
    return Child("svc", [sys.executable, "-c", code], {}, tmp_path / "svc.log")


def test_a_crashed_child_is_restarted_after_the_delay(tmp_path: Path) -> None:
    said: list[str] = []
    c = child(tmp_path, "import sys; sys.exit(3)")
    c.start()
    assert c.proc is not None and c.proc.wait(timeout=10) == 3
    now = time.monotonic()
    c.supervise(now, said.append)
    assert c.crashes == 1 and c.restart_at == now + RESTART_BACKOFF_S[0]
    assert said == [
        f"svc exited with 3; restarting in {RESTART_BACKOFF_S[0]:g}s (see {tmp_path / 'svc.log'})"
    ]
    first = c.proc
    c.supervise(now + RESTART_BACKOFF_S[0] / 2, said.append)  # not yet
    assert c.proc is first
    c.supervise(now + RESTART_BACKOFF_S[0], said.append)
    assert c.proc is not first and said[-1] == "restarting svc (restart 1 in a row)"
    assert c.proc.wait(timeout=10) == 3
    c.supervise(time.monotonic(), said.append)
    assert c.crashes == 2 and said[-1].startswith(
        f"svc exited with 3; restarting in {RESTART_BACKOFF_S[1]:g}s"
    )


def test_a_running_child_is_left_alone_and_forgiven_after_a_healthy_spell(tmp_path: Path) -> None:
    c = child(tmp_path, "import time; time.sleep(30)")
    c.start()
    try:
        c.crashes = 3
        c.supervise(c.started_at + 1, lambda _: None)
        assert c.crashes == 3 and c.restart_at is None
        c.supervise(c.started_at + HEALTHY_AFTER_S + 1, lambda _: None)
        assert c.crashes == 0
    finally:
        assert c.proc is not None
        c.proc.kill()
        c.proc.wait()


def sample(name: str, service: str) -> float | None:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, {"service": service})


def test_restarts_and_running_state_are_exported_per_child(tmp_path: Path) -> None:
    c = Child("svc-metrics", [sys.executable, "-c", "import sys; sys.exit(3)"], {}, tmp_path / "svc.log")
    assert sample("gamehall_service_restarts_total", "svc-metrics") == 0
    assert sample("gamehall_service_running", "svc-metrics") == 0
    for restart in (1, 2):
        c.start()
        assert sample("gamehall_service_running", "svc-metrics") == 1
        assert c.proc is not None and c.proc.wait(timeout=10) == 3
        c.supervise(time.monotonic(), lambda _: None)
        assert sample("gamehall_service_running", "svc-metrics") == 0
        assert c.restart_at is not None
        assert c.supervise(c.restart_at, lambda _: None) is True
        assert sample("gamehall_service_restarts_total", "svc-metrics") == restart
    assert c.proc is not None
    c.proc.wait(timeout=10)


# A stand-in for the gateway: binds GAMEHALL_HTTP_PORT like uvicorn (exit 1 when it cannot) and
# answers /readyz with GAMEHALL_INSTANCE.
GATEWAY = """
import http.server, json, os, socket, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"ready": True, "instance": os.environ["GAMEHALL_INSTANCE"]}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
try:
    server = http.server.HTTPServer(("127.0.0.1", int(os.environ["GAMEHALL_HTTP_PORT"])), H)
except OSError as exc:
    print(exc, flush=True); sys.exit(1)
server.serve_forever()
"""


class OtherServer(http.server.BaseHTTPRequestHandler):
    """Another program on the port: it says it is ready, as any server might."""

    def do_GET(self) -> None:  # noqa: N802 - the handler's API
        body = b'{"ready": true}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_up_takes_only_its_own_gateway_and_moves_it_off_a_taken_port(tmp_path: Path) -> None:
    other = http.server.HTTPServer(("127.0.0.1", 0), OtherServer)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    taken = other.server_address[1]
    try:
        assert own_gateway_ready(f"http://127.0.0.1:{taken}", "abc") is False
        env = dict(os.environ, GAMEHALL_HTTP_PORT=str(taken), GAMEHALL_INSTANCE="abc")
        gateway = Child("gateway", [sys.executable, "-c", GATEWAY], env, tmp_path / "gateway.log")
        gateway.start()
        said: list[str] = []
        try:
            port = await_gateway(gateway, "127.0.0.1", "abc", said.append, timeout=60)
            assert port != taken and gateway.env["GAMEHALL_HTTP_PORT"] == str(port)
            assert said == [f"port {taken} is taken by another program; the gateway moves to port {port}"]
            assert own_gateway_ready(f"http://127.0.0.1:{port}", "abc")
            assert not own_gateway_ready(f"http://127.0.0.1:{port}", "another start")
        finally:
            assert gateway.proc is not None
            gateway.proc.kill()
            gateway.proc.wait()
    finally:
        other.shutdown()
        other.server_close()


def test_a_gateway_that_fails_for_another_reason_is_not_ready(tmp_path: Path) -> None:
    env = dict(os.environ, GAMEHALL_HTTP_PORT=str(free_port()), GAMEHALL_INSTANCE="abc")
    gateway = Child(
        "gateway", [sys.executable, "-c", "import sys; sys.exit(2)"], env, tmp_path / "gateway.log"
    )
    gateway.start()
    with pytest.raises(NotReady, match="exited with 2"):
        await_gateway(gateway, "127.0.0.1", "abc", lambda _: None, timeout=60)


def test_one_up_per_data_folder(tmp_path: Path) -> None:
    first, second = UpLock(tmp_path), UpLock(tmp_path)
    assert first.acquire()
    assert not second.acquire() and second.holder() == os.getpid()
    first.release()
    assert second.acquire()
    second.release()
    # The lock goes with its process, however it ends.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\nfrom pathlib import Path\nfrom services.common.stack import UpLock\n"
            f"lock = UpLock(Path({str(tmp_path)!r}))\nif lock.acquire():\n    print('held', flush=True)\n    time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    assert not first.acquire()
    holder.kill()
    holder.wait()
    assert first.acquire()
    first.release()
