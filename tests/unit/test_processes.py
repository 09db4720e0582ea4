"""Starting a process and waiting until it is ready (services/common/processes.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.common.processes import NotReady, UpProcess, spawn, stop_all, wait_until


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_wait_until_returns_once_ready() -> None:
    calls = iter([False, False, True])
    wait_until(lambda: next(calls), "thing", timeout=5, interval=0.001)


def test_wait_until_names_a_process_that_exited_first() -> None:
    proc = spawn(python("import sys; sys.exit(3)"))
    with pytest.raises(NotReady, match="nats-server: the process exited with 3"):
        wait_until(lambda: False, "nats-server", proc, timeout=10)


def test_wait_until_gives_up_after_the_timeout() -> None:
    started = time.monotonic()
    with pytest.raises(NotReady, match="not ready after"):
        wait_until(lambda: False, "gateway", timeout=0.2, interval=0.01)
    assert time.monotonic() - started < 5


def test_spawn_appends_output_to_a_log_file(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "x.log"
    log.parent.mkdir()
    log.write_text("before\n")
    proc = spawn(python("print('out'); import sys; print('err', file=sys.stderr)"), output=log)
    assert proc.wait(timeout=10) == 0
    assert log.read_text().splitlines() == ["before", "out", "err"]


def test_stop_all_kills_a_process_that_ignores_the_signal() -> None:
    code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(60)"
    proc = spawn(python(code), output=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    stop_all([proc], timeout=0.5)
    assert proc.returncode == -signal.SIGKILL


def test_up_process_reads_the_printed_url_and_stops_with_ctrl_c() -> None:
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGINT, lambda *a: sys.exit(0))\n"
        "print('embedded nats-server on nats://127.0.0.1:1')\n"
        "print('gamehall is up in 0.1s: open http://127.0.0.1:8123/  (API docs: ...)', flush=True)\n"
        "time.sleep(60)\n"
    )
    up = UpProcess({}, command=python(code))
    assert up.wait_url(timeout=10) == "http://127.0.0.1:8123"
    assert up.stop(timeout=10) == 0


def test_up_process_that_exits_without_a_url_is_not_ready() -> None:
    up = UpProcess({}, command=python("print('the gateway did not come up')"))
    with pytest.raises(NotReady, match="the gateway did not come up"):
        up.wait_url(timeout=10)


def test_port_taken_sees_a_listener_that_a_connect_probe_would_miss() -> None:
    from services.common.processes import free_port, port_open, port_taken

    port = free_port()
    assert not port_taken("127.0.0.1", port)
    with socket.socket() as other:
        other.bind(("127.0.0.2", port))  # another loopback address: nothing on 127.0.0.1 answers
        other.listen()
        assert not port_open("127.0.0.1", port)
        assert port_taken("0.0.0.0", port)  # but a server on every address cannot bind
    with socket.socket() as other:
        other.bind(("127.0.0.1", port))
        other.listen()
        assert port_taken("127.0.0.1", port)


def _gone(pid: int, timeout: float = 30.0) -> bool:
    from services.common.stack import alive

    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# A middle process starts a sleeper the way `gamehall up` starts its children, prints its pid, waits.
MIDDLE = """
import sys, time
from services.common.processes import spawn
child = spawn([sys.executable, "-c", {code!r}], with_parent={with_parent})
print(child.pid, flush=True)
time.sleep(120)
"""
SLEEPER = "import time; time.sleep(120)"
# A sleeper that watches its parent the portable way (no signal from the kernel); it touches a
# file once it watches.
WATCHER = (
    "import asyncio, os, pathlib\n"
    "from services.cli.stackrun import stop_when_orphaned\n"
    "async def main():\n"
    "    stop = asyncio.Event()\n"
    "    parent = os.getppid()\n"
    "    pathlib.Path({flag!r}).touch()\n"
    "    await stop_when_orphaned(parent, stop, every_s=0.1)\n"
    "asyncio.run(main())\n"
)


def _orphan(code: str, with_parent: bool, started: Path | None = None) -> tuple[int, subprocess.Popen[str]]:
    """Start ``code`` under a middle process, then SIGKILL the middle one (once ``started`` exists)."""
    middle = spawn(python(MIDDLE.format(code=code, with_parent=with_parent)), output=subprocess.PIPE, text=True)
    assert middle.stdout is not None
    pid = int(middle.stdout.readline())
    if started is not None:
        wait_until(started.exists, "the watcher", timeout=120)
    middle.kill()
    middle.wait()
    return pid, middle


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_child_spawned_with_its_parent_dies_when_the_parent_is_killed() -> None:
    pid, _ = _orphan(SLEEPER, with_parent=True)
    assert _gone(pid), f"pid {pid} outlived its SIGKILLed parent"


def test_a_child_spawned_without_outlives_its_parent() -> None:
    pid, _ = _orphan(SLEEPER, with_parent=False)
    try:
        time.sleep(0.5)
        assert not _gone(pid, timeout=0.5)
    finally:
        os.kill(pid, signal.SIGKILL)


def test_a_service_watching_its_parent_stops_when_the_parent_is_killed(tmp_path: Path) -> None:
    flag = tmp_path / "watching"
    pid, _ = _orphan(WATCHER.format(flag=str(flag)), with_parent=False, started=flag)
    assert _gone(pid), f"pid {pid} did not notice that its parent died"
