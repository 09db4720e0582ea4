"""gamehall up supervises its processes (issue 16): a crashed service restarts with a growing
delay, the others are untouched, and a service that stayed up is healthy again."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from services.cli.stackrun import HEALTHY_AFTER_S, RESTART_BACKOFF_S, Child, restart_delay


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
    assert said == [f"svc exited with 3; restarting in {RESTART_BACKOFF_S[0]:g}s (see {tmp_path / 'svc.log'})"]
    first = c.proc
    c.supervise(now + RESTART_BACKOFF_S[0] / 2, said.append)  # not yet
    assert c.proc is first
    c.supervise(now + RESTART_BACKOFF_S[0], said.append)
    assert c.proc is not first and said[-1] == "restarting svc (restart 1 in a row)"
    assert c.proc.wait(timeout=10) == 3
    c.supervise(time.monotonic(), said.append)
    assert c.crashes == 2 and said[-1].startswith(f"svc exited with 3; restarting in {RESTART_BACKOFF_S[1]:g}s")


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

