"""Every service exports its readiness as gauges (``gamehall_ready_check{check}``), sampled in the
background: a nats-server that hangs (SIGSTOP) or dies under running services turns their
``nats``/``streams`` gauges to 0 while ``/metrics`` still answers, and back to 1 when it returns.
Real processes: a nats-server, ``gamehall serve leaderboard`` and ``gamehall serve gateway``."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from services.common.embedded import EmbeddedNats
from services.common.processes import free_port, gamehall_args, spawn, stop_all

pytestmark = pytest.mark.integration


def ready_gauges(metrics_url: str) -> dict[str, float]:
    """The ``gamehall_ready_check`` samples of one /metrics, by check ({} when it does not answer)."""
    try:
        body = httpx.get(metrics_url, timeout=2).text
    except httpx.HTTPError:
        return {}
    return {
        s.labels["check"]: s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
        if s.name == "gamehall_ready_check"
    }


def wait_for(what: str, condition: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.2)


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[tuple[EmbeddedNats, dict[str, str]]]:
    nats = EmbeddedNats(tmp_path / "nats", log_file=tmp_path / "nats.log").start()
    ports = {"leaderboard": free_port(), "gateway": free_port()}  # their /metrics (the gateway's operations port)
    env = dict(
        os.environ,
        NATS_URL=nats.url,
        GAMEHALL_DATA_DIR=str(tmp_path / "data"),
        GAMEHALL_LOG_FORMAT="json",
        GAMEHALL_HTTP_PORT=str(free_port()),
    )
    env.pop("GAMEHALL_DB_URL", None)
    env.pop("GAMEHALL_NATS_CREDENTIALS", None)
    procs = [
        spawn(
            gamehall_args("serve", name),
            dict(env, GAMEHALL_METRICS_PORT=str(port)),
            output=tmp_path / f"{name}.log",
        )
        for name, port in ports.items()
    ]
    urls = {name: f"http://127.0.0.1:{port}/metrics" for name, port in ports.items()}
    try:
        yield nats, urls
    finally:
        if nats.proc is not None:
            nats.proc.send_signal(signal.SIGCONT)
        stop_all(procs)
        nats.stop()


def test_a_hung_or_dead_nats_server_reads_0_and_a_returned_one_1(
    stack: tuple[EmbeddedNats, dict[str, str]],
) -> None:
    nats, urls = stack

    def every(check: str, value: float) -> bool:
        return all(ready_gauges(url).get(check) == value for url in urls.values())

    wait_for("both services ready on NATS", lambda: every("nats", 1) and every("streams", 1))
    # the gateway has no referee to ask here: its own check says so, the NATS ones do not
    assert ready_gauges(urls["gateway"]).get("referee") == 0

    # hung: the process is there, the socket open, nothing answers
    assert nats.proc is not None
    nats.proc.send_signal(signal.SIGSTOP)
    wait_for("streams 0 while nats-server hangs", lambda: every("streams", 0))
    nats.proc.send_signal(signal.SIGCONT)
    wait_for("streams 1 once it answers again", lambda: every("streams", 1) and every("nats", 1))

    # dead: /metrics still answers, the gauges say what is wrong
    nats.kill()
    wait_for("nats 0 and streams 0 while nats-server is down", lambda: every("nats", 0) and every("streams", 0))
    nats.start()
    wait_for("nats 1 and streams 1 after its restart", lambda: every("nats", 1) and every("streams", 1))
