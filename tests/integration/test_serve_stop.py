"""Every service run by `gamehall serve` stops when told to, also while its nats-server is gone
(services/cli/stackrun.serve bounds the stop: services/common/shutdown.py).  A referee told to
stop while it still connected to an unreachable NATS retried the connection for ever."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from services.common.processes import free_port, gamehall_args, spawn, wait_until

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("service", ["referee", "leaderboard", "matchmaking", "bots", "gateway"])
def test_a_service_told_to_stop_while_nats_is_unreachable_stops(service: str, tmp_path: Path) -> None:
    log = tmp_path / f"{service}.log"
    env = dict(
        os.environ,
        NATS_URL=f"nats://127.0.0.1:{free_port()}",  # nothing listens: refused again and again
        GAMEHALL_DATA_DIR=str(tmp_path),
        GAMEHALL_LOG_FORMAT="json",
    )
    env.pop("GAMEHALL_NATS_CREDENTIALS", None)
    proc = spawn(gamehall_args("serve", service), env, output=log)
    try:
        # well into its start-up: it tries to reach NATS
        wait_until(lambda: "nats: encountered error" in log.read_text(errors="replace"), f"{service} to start", proc, 180)
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        # generous: the bound is 5 s after the signal; without it the process never ends
        assert proc.wait(timeout=120) is not None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.returncode is not None
    assert proc.returncode != -signal.SIGKILL, log.read_text()[-2000:]
