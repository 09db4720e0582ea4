"""The data folder at rest (issue 22): private modes for a fresh and an old folder, the SQLite
files 0600, and the server key that seals app secrets and keys API token hashes."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from services.common import datadir, db, serverkey
from services.common.serverkey import ServerKey, ServerKeyError


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def old_folder(root: Path) -> Path:
    """A data folder as an older version left it: 0755 folders, 0644 files."""
    old = os.umask(0o022)
    try:
        data = root / "data"
        for folder in ("bots", "keys", "credentials/nats", "logs", "nats/jetstream"):
            (data / folder).mkdir(parents=True)
        con = sqlite3.connect(data / "gamehall.sqlite3")
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("CREATE TABLE t (x)")
        con.execute("INSERT INTO t VALUES (1)")
        con.commit()
        for name in ("gamehall.sqlite3-wal", "gamehall.sqlite3-shm"):
            if (data / name).exists():
                os.chmod(data / name, 0o644)
        (data / "gateway.secret").write_text("ab" * 32)
        (data / "bots" / "seats.json").write_text("[]")
        (data / "keys" / "k1.key").write_text("00" * 32)
        (data / "credentials" / "nats" / "gateway.json").write_text("{}")
        (data / "logs" / "gateway.log").write_text("")
        (data / "stack.json").write_text("{}")
        (data / "notes.txt").write_text("the operator's own file")
        con.close()
    finally:
        os.umask(old)
    assert mode(data) == 0o755 and mode(data / "gamehall.sqlite3") == 0o644
    return data


def group_or_other_readable(data: Path, skip: tuple[str, ...] = ()) -> list[str]:
    found = []
    for root, dirs, files in os.walk(data):
        for name in (*dirs, *files):
            path = Path(root) / name
            rel = str(path.relative_to(data))
            if not path.is_symlink() and mode(path) & 0o077 and rel not in skip:
                found.append(f"{rel}: {mode(path):o}")
    return found


def test_secure_makes_a_fresh_folder_0700(tmp_path: Path) -> None:
    datadir.secure(tmp_path / "fresh" / "data")
    assert mode(tmp_path / "fresh" / "data") == 0o700


def test_secure_closes_an_old_folder_and_leaves_other_files_alone(tmp_path: Path) -> None:
    data = old_folder(tmp_path)
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("x")
    os.chmod(outside, 0o644)
    (data / "link").symlink_to(outside)
    datadir.secure(data)
    assert mode(data) == 0o700
    assert group_or_other_readable(data, skip=("notes.txt", "nats/jetstream")) == []
    assert mode(data / "notes.txt") == 0o644  # not gamehall's: not touched
    assert mode(outside) == 0o644  # never through a symlink
    assert mode(data / "nats") == 0o700


def test_secure_without_create_makes_no_folder(tmp_path: Path) -> None:
    datadir.secure(tmp_path / "none", create=False)
    assert not (tmp_path / "none").exists()


def test_sqlite_files_are_0600_fresh_and_old(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh" / "gamehall.sqlite3"
    engine = db.open_database(f"sqlite:///{fresh}")
    with engine.begin() as conn:
        conn.exec_driver_sql("SELECT count(*) FROM accounts")
    engine.dispose()
    sides = [p for p in fresh.parent.iterdir() if p.name.startswith("gamehall.sqlite3")]
    assert {p.name for p in sides} >= {"gamehall.sqlite3"}
    assert {p.name: mode(p) for p in sides} == {p.name: 0o600 for p in sides}
    assert mode(fresh.parent) == 0o700

    data = old_folder(tmp_path)
    engine = db.make_engine(f"sqlite:///{data / 'gamehall.sqlite3'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT x FROM t").scalar() == 1  # nothing stored is lost
        sides = [p for p in data.iterdir() if p.name.startswith("gamehall.sqlite3")]
        assert len(sides) == 3  # the main file, -wal and -shm, each 0600 now
        assert {p.name: mode(p) for p in sides} == {p.name: 0o600 for p in sides}
    engine.dispose()


def test_every_command_runs_with_a_private_umask_and_closes_an_old_folder(tmp_path: Path) -> None:
    data = old_folder(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
    env["GAMEHALL_DATA_DIR"] = str(data)
    out = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "apps", "add", "club"], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "secret:" in out.stdout
    assert mode(data) == 0o700
    assert group_or_other_readable(data, skip=("notes.txt", "nats/jetstream")) == []
    # What the command made (the server key, its log) is private from the start.
    assert mode(data / "keys" / "server.key") == 0o600
    assert mode(data / "logs" / "cli.log") == 0o600


# ---------------------------------------------------------------------- server key
def test_the_server_key_is_made_once_0600_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "data" / "keys" / "server.key"
    first = serverkey.load(path)
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    again = serverkey.load(path)
    assert again.key_id == first.key_id
    assert again.unseal(first.seal("s3cret")) == "s3cret"
    assert again.token_hash("gh_x") == first.token_hash("gh_x")


def test_a_key_file_that_is_not_a_key_is_refused_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "server.key"
    path.write_text("not a key\n")
    with pytest.raises(ServerKeyError, match="does not hold 32 bytes"):
        serverkey.load(path)
    assert path.read_text() == "not a key\n"
    (tmp_path / "dir.key").mkdir()
    with pytest.raises(ServerKeyError, match="folder"):
        serverkey.load(tmp_path / "dir.key")


def test_a_key_file_left_readable_is_made_0600(tmp_path: Path) -> None:
    path = tmp_path / "server.key"
    path.write_text("11" * 32)
    os.chmod(path, 0o644)
    serverkey.load(path)
    assert mode(path) == 0o600


def _load_id(path: str) -> str:
    return serverkey.load(Path(path)).key_id


def test_processes_that_make_the_key_at_once_agree(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "server.key"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        ids = pool.map(_load_id, [str(path)] * 8)
    assert len(set(ids)) == 1 and serverkey.load(path).key_id == ids[0]
    assert [p.name for p in path.parent.iterdir()] == ["server.key"]  # no temporary file left


def test_sealing_hides_the_secret_and_needs_the_same_key() -> None:
    key, other = ServerKey.generate(), ServerKey.generate()
    secret = "pfl-" + "x" * 60
    sealed = key.seal(secret)
    assert serverkey.is_sealed(sealed) and secret not in sealed and len(sealed) <= 256
    assert key.seal(secret) != sealed  # a fresh nonce each time
    assert key.unseal(sealed) == secret
    with pytest.raises(ServerKeyError, match="sealed with server key"):
        other.unseal(sealed)
    tampered = sealed[:-3] + ("AAA" if sealed[-3:] != "AAA" else "BBB")
    with pytest.raises(ServerKeyError, match="does not open"):
        key.unseal(tampered)
    with pytest.raises(ServerKeyError):
        key.unseal(secret)


def test_token_hashes_are_keyed() -> None:
    key, other = ServerKey.generate(), ServerKey.generate()
    token = "gh_" + "a" * 43
    hashed = key.token_hash(token)
    assert len(hashed) == 64 and hashed != hashlib.sha256(token.encode()).hexdigest()
    assert hashed != other.token_hash(token)
