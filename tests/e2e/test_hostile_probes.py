"""The hostile-client probe set (tests/support/hostile.py) against a fresh ``gamehall up``: its
public edge, NATS with each service's own credential, the data folder at rest and the CLI's file
readers.  Every probe must hold."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from services.common.processes import UpProcess, free_port
from tests.support import hostile

pytestmark = pytest.mark.e2e
BODY_TIMEOUT_S = 3.0


def test_every_probe_holds_against_a_fresh_stack(tmp_path: Path) -> None:
    data = tmp_path / "data"
    # An old folder left readable by everyone: `up` makes it private again.
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    env = dict(
        os.environ,
        GAMEHALL_DATA_DIR=str(data),
        GAMEHALL_HTTP_PORT=str(free_port()),
        GAMEHALL_BODY_TIMEOUT_S=str(BODY_TIMEOUT_S),
    )
    env.pop("NATS_URL", None)
    up = UpProcess(env)
    try:
        up.wait_url(timeout=120)
        results = hostile.run(hostile.target_of(data, BODY_TIMEOUT_S))
    finally:
        up.stop()
    failed = [f"{p.kind}: {p.name} [{p.detail}]" for p in results if not p.ok]
    assert not failed, "probes that did not hold:\n" + "\n".join(failed)
    # The set is what it says: every kind ran, and every service identity was tried inside.
    assert {p.kind for p in results} == {"edge", "at rest", "files", "inside"}
    inside = " ".join(p.name for p in results if p.kind == "inside")
    for user in ("gateway", "bots", "scoring", "leaderboard", "matchmaking", "cli"):
        assert f"{user}:" in inside
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
