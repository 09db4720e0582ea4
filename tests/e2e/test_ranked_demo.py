"""Ranked play from the command line: rated demo matches through matchmaking, the leaderboard,
and a rebuild of ratings from the log that equals the live tables."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import gamehall

pytestmark = pytest.mark.e2e


def test_ranked_demo_fills_the_leaderboard_and_the_rebuild_checks(tmp_path: Path) -> None:
    env = dict(os.environ, GAMEHALL_DATA_DIR=str(tmp_path / "data"), GAMEHALL_LOG_FORMAT="json")
    env.pop("NATS_URL", None)
    demo = gamehall(env, "demo", "--game", "ugolki", "--matches", "4", "--ranked", "--json")
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-3000:]
    results = [json.loads(line) for line in demo.stdout.splitlines()]
    assert len(results) == 4 and all(r["ranked"] for r in results)
    # Logs go to the data folder's logs/cli.log, not among the results (issue 15).
    assert_no_log_lines(demo)
    assert '"event"' in (tmp_path / "data" / "logs" / "cli.log").read_text()
    players = {p for r in results for p in r["players"].values()}
    board = gamehall(env, "leaderboard", "--game", "ugolki", "--json")
    assert board.returncode == 0, board.stderr
    entries = json.loads(board.stdout)["entries"]
    assert {e["player"] for e in entries} == players
    assert sum(e["games"] for e in entries) == 2 * len(results)
    assert all(e["rd"] < 350 for e in entries)
    check = gamehall(env, "ratings", "rebuild", "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "check: OK" in check.stdout
    assert_no_log_lines(check)


def assert_no_log_lines(done: subprocess.CompletedProcess[str]) -> None:
    for line in (done.stdout + done.stderr).splitlines():
        assert not line.startswith("{") or '"match_id"' in line and '"event"' not in line, line
        assert "[debug" not in line and "[info" not in line and "[warning" not in line, line
