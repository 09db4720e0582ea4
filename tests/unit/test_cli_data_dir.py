"""One data folder rule for every command, and unknown games and presets refused before anything
starts (issue 15, "The command line")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from services.cli.main import find_data_dir

ROOT = Path(__file__).resolve().parents[2]


def gamehall(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_") and k != "NATS_URL"}
    environ["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "services.cli.main", *args],
        cwd=cwd,
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_variable_wins_then_the_nearest_gamehall_folder_upward(tmp_path: Path) -> None:
    inner = tmp_path / "project" / "src" / "deep"
    inner.mkdir(parents=True)
    assert find_data_dir(inner, None) is None
    (tmp_path / "project" / ".gamehall").mkdir()
    assert find_data_dir(inner, None) == tmp_path / "project" / ".gamehall"
    (tmp_path / "project" / "src" / ".gamehall").mkdir()
    assert find_data_dir(inner, None) == tmp_path / "project" / "src" / ".gamehall"
    assert find_data_dir(inner, Path("/elsewhere")) == Path("/elsewhere")


def test_leaderboard_outside_a_project_is_a_clear_error_and_creates_nothing(tmp_path: Path) -> None:
    done = gamehall(tmp_path, "leaderboard", "--game", "ugolki")
    assert done.returncode == 2
    assert "no gamehall data folder" in done.stderr and "GAMEHALL_DATA_DIR" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_mistyped_data_folder_is_refused_not_created(tmp_path: Path) -> None:
    done = gamehall(tmp_path, "leaderboard", "--game", "ugolki", GAMEHALL_DATA_DIR=str(tmp_path / "typo"))
    assert done.returncode == 2 and "typo" in done.stderr
    assert not (tmp_path / "typo").exists()


def test_leaderboard_inside_a_subfolder_reads_the_projects_data(tmp_path: Path) -> None:
    (tmp_path / ".gamehall").mkdir()
    (tmp_path / "sub").mkdir()
    done = gamehall(tmp_path / "sub", "leaderboard", "--game", "ugolki", "--json")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / ".gamehall" / "gamehall.sqlite3").exists()
    assert not (tmp_path / "sub" / ".gamehall").exists()
    assert done.stderr == ""


def test_unknown_games_and_presets_are_refused_before_anything_starts(tmp_path: Path) -> None:
    for args in (
        ("demo", "--game", "chess"),
        ("demo", "--game", "ugolki", "--preset", "no-such-preset"),
        ("leaderboard", "--game", "chess"),
        ("rules", "presets", "chess"),
        ("rules", "show", "ugolki", "--preset", "no-such-preset"),
    ):
        done = gamehall(tmp_path, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert "unknown" in done.stderr, (args, done.stderr)
        assert "chess" in done.stderr or "no-such-preset" in done.stderr, (args, done.stderr)
    assert list(tmp_path.iterdir()) == []
