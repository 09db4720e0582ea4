"""The CLI's file readers (issue 22): ``rules replay FILE``, ``audit --file BUNDLE``, ``audit
--keys KEYS.json`` and ``rules show --set @file.json`` refuse what is not a regular file of at most
64 MiB before reading it, and a file that is not the JSON they read is exit 2 with a one-line
message, never a traceback (exit 1 stays an illegal action / a failed audit)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from services.cli import files
from services.cli.main import app

ROOT = Path(__file__).resolve().parents[2]


def zero_link(tmp_path: Path) -> Path:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    return link


def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)  # nobody ever writes: a reader that opened it blocking would hang
    return path


def directory(tmp_path: Path) -> Path:
    path = tmp_path / "folder.json"
    path.mkdir()
    return path


def oversize(tmp_path: Path) -> Path:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(files.MAX_INPUT_BYTES + 1)  # sparse: no disk, and nothing read
    return path


def nested(tmp_path: Path) -> Path:
    path = tmp_path / "nested.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


def not_utf8(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "gamehall-record-1", "game": "\xff\xfe"}')
    return path


def not_json(tmp_path: Path) -> Path:
    path = tmp_path / "text.json"
    path.write_text("{not json")
    return path


def wrong_types(tmp_path: Path) -> Path:
    path = tmp_path / "types.json"
    path.write_text('{"format": 1, "players": {"a": 2}, "actions": "x", "type": 5, "envelopes": 7}')
    return path


BAD_FILES: dict[str, Callable[[Path], Path]] = {
    "a symlink to /dev/zero": zero_link,
    "a FIFO": fifo,
    "a directory": directory,
    "a file over 64 MiB": oversize,
    "JSON nested 100000 deep": nested,
    "invalid UTF-8": not_utf8,
    "invalid JSON": not_json,
    "wrong types": wrong_types,
}
REFUSED_UNREAD = {"a symlink to /dev/zero": "a character device", "a FIFO": "a FIFO", "a directory": "a directory",
                  "a file over 64 MiB": "64 MiB"}


def one_line_refusal(result: object, what: str) -> str:
    out: str = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 2, (what, result.exit_code, out[-500:])  # type: ignore[attr-defined]
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception  # type: ignore[attr-defined]
    assert "Traceback" not in out and out.strip() and len(out.strip().splitlines()) == 1, out[-500:]
    return out


@pytest.mark.parametrize("what", sorted(BAD_FILES))
@pytest.mark.parametrize(
    "command",
    [["rules", "replay", "{}"], ["rules", "replay", "{}", "--json"], ["audit", "--file", "{}", "--quiet"]],
    ids=["replay", "replay-json", "audit"],
)
def test_a_bad_file_is_exit_2_with_one_line(tmp_path: Path, what: str, command: list[str]) -> None:
    path = BAD_FILES[what](tmp_path)
    result = CliRunner().invoke(app, [part.replace("{}", str(path)) for part in command])
    out = one_line_refusal(result, what)
    if what in REFUSED_UNREAD:
        assert REFUSED_UNREAD[what] in out, out


@pytest.mark.parametrize("what", ["a symlink to /dev/zero", "a FIFO", "JSON nested 100000 deep", "invalid UTF-8"])
def test_the_keys_and_a_ruleset_file_are_read_the_same_way(tmp_path: Path, what: str) -> None:
    path = BAD_FILES[what](tmp_path)
    bundle = tmp_path / "bundle.json"
    bundle.write_text("{}")
    keys = CliRunner().invoke(app, ["audit", "--file", str(bundle), "--keys", str(path)])
    one_line_refusal(keys, what)
    show = CliRunner().invoke(app, ["rules", "show", "ugolki", "--set", f"@{path}"])
    assert show.exit_code == 2 and "Traceback" not in show.output, show.output


def test_the_readers_refuse_before_reading(tmp_path: Path) -> None:
    for make in (zero_link, fifo, directory, oversize):
        folder = tmp_path / make.__name__
        folder.mkdir()
        with pytest.raises(files.Unreadable, match="not a regular file|64 MiB"):
            files.read_input(make(folder))
    small = tmp_path / "small.json"
    small.write_bytes(b"[1]")
    assert files.read_input(small) == b"[1]"
    with pytest.raises(files.Unreadable, match="over the 2 bytes"):
        files.read_input(small, limit=2)
    assert files.read_json(small) == [1]


def test_a_process_on_a_symlink_to_dev_zero_ends_at_once_with_exit_2(tmp_path: Path) -> None:
    """Not only under CliRunner: the real command on a real terminal-less process."""
    link = zero_link(tmp_path)
    for args in (["rules", "replay", str(link)], ["audit", "--file", str(link)]):
        done = subprocess.run(
            [sys.executable, "-m", "services.cli.main", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "not a regular file" in done.stderr
