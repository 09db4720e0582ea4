"""Starting a process and waiting until it is ready (services/common/processes.py)."""

from __future__ import annotations

import signal
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
