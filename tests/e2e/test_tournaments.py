"""Two tournaments of 16 computer players each on `gamehall up` (every service its own process):
a Swiss in Ugolki and fair tables of four in Kings in the Corner, created from the command line
with a start time, played by the bots service to the end with no operator step, then audited
with `gamehall tournaments audit` (stored and exported)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from services.common.processes import UpProcess, free_port

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 300.0


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli.main", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def shown(env: dict[str, str], tournament_id: str) -> dict[str, Any]:
    done = cli(env, "tournaments", "show", tournament_id, "--json")
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_sixteen_computer_players_in_two_tournaments_finish_and_audit(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        GAMEHALL_DATA_DIR=str(tmp_path / "data"),
        GAMEHALL_HTTP_PORT=str(free_port()),
        GAMEHALL_BOT_THINK_MS="0",
    )
    env.pop("NATS_URL", None)
    up = UpProcess(env)
    try:
        up.wait_url()
        created = cli(
            env, "tournaments", "create", "swiss16", "--format", "swiss", "--rounds", "4", "--game", "ugolki",
            "--preset", "mini-3x3", "--bots", ",".join(["greedy"] * 16), "--tie-break", "buchholz",
            "--tie-break", "sonneborn_berger", "--start-at", "+3",
        )  # fmt: skip
        assert created.returncode == 0, created.stderr
        created = cli(
            env, "tournaments", "create", "tables16", "--format", "fair_tables", "--rounds", "3", "--table-size", "4",
            "--game", "kings-corner", "--preset", "cardgames-zone", "--bots", ",".join(["random"] * 16),
            "--tie-break", "game_totals", "--start-at", "+3",
        )  # fmt: skip
        assert created.returncode == 0, created.stderr
        assert len(shown(env, "swiss16")["entrants"]) == 16  # the computer entrants joined at once
        deadline = time.monotonic() + DEADLINE_S
        pending = {"swiss16", "tables16"}
        seen: dict[str, dict[str, Any]] = {}
        while pending:
            for tid in sorted(pending):
                seen[tid] = shown(env, tid)
                if seen[tid]["phase"] == "finished":
                    pending.discard(tid)
            assert time.monotonic() < deadline, f"not finished: {[seen[t] for t in pending]}"
            time.sleep(2.0)
        # fair tables report their measure: 16 players at 4 seats over 3 rounds can all meet once at most
        even = seen["tables16"]["evenness"]
        assert even is not None and even["max_meetings"] <= 2 and even["min_meetings"] >= 0
        for tid, rounds in (("swiss16", 4), ("tables16", 3)):
            assert seen[tid]["rounds"] == rounds and len(seen[tid]["standings"]) == 16
            audited = cli(env, "tournaments", "audit", tid)
            assert audited.returncode == 0, audited.stderr
            assert f"the seeding, {rounds} rounds' pairings and the final standings re-derived" in audited.stdout
            bundle = tmp_path / f"{tid}.json"
            exported = cli(env, "tournaments", "export", tid, "-o", str(bundle))
            assert exported.returncode == 0, exported.stderr
        # the bundles audit with no stack at all
        assert up.stop() == 0
        for tid in ("swiss16", "tables16"):
            offline = cli(env, "tournaments", "audit", "--bundle", str(tmp_path / f"{tid}.json"))
            assert offline.returncode == 0, offline.stderr
    finally:
        if up.proc.poll() is None:
            up.stop()
