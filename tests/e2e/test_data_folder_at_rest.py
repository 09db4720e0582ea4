"""``gamehall up`` on a data folder an older version left readable by everyone (0755, 0644 files,
an app secret in clear, an API token's bare sha256): after the start the folder and everything
gamehall keeps in it are its user's alone, the old app and the old account still sign in, and
what is stored from now on holds no secret in clear."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import jwt
import pytest
from sqlalchemy import text

from services.common import db
from services.common.processes import UpProcess, free_port

pytestmark = pytest.mark.e2e

OLD_SECRET = "legacy-" + "s" * 57
OLD_TOKEN = "gh_" + "t" * 43


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def an_old_folder(data: Path) -> None:
    old = os.umask(0o022)
    try:
        for folder in ("bots", "keys", "logs"):
            (data / folder).mkdir(parents=True)
        engine = db.open_database(f"sqlite:///{data / 'gamehall.sqlite3'}")
        with engine.begin() as conn:
            conn.execute(
                text("INSERT INTO app_keys (app_id, name, secret, created_at) VALUES ('app_old', 'old-club', :s, 1)"),
                {"s": OLD_SECRET},
            )
            conn.execute(
                text(
                    "INSERT INTO accounts (account_id, name, name_key, token_hash, created_at, role) "
                    "VALUES ('acc-old', 'veteran', 'veteran', :h, 1, 'player')"
                ),
                {"h": hashlib.sha256(OLD_TOKEN.encode()).hexdigest()},
            )
        engine.dispose()
        (data / "gateway.secret").write_text("ab" * 32)
        (data / "bots" / "seats.json").write_text("[]")
        (data / "logs" / "gateway.log").write_text("")
        (data / "notes.txt").write_text("the operator's own file")
        for path in (data, *data.rglob("*")):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    finally:
        os.umask(old)


def readable_by_others(data: Path) -> list[str]:
    found = []
    for root, dirs, files in os.walk(data):
        for name in (*dirs, *files):
            path = Path(root) / name
            if path.name != "notes.txt" and not path.is_symlink() and mode(path) & 0o077:
                found.append(f"{path.relative_to(data)}: {mode(path):o}")
    return found


def test_up_on_an_old_world_readable_folder_makes_it_private_and_signs_everyone_in(tmp_path: Path) -> None:
    data = tmp_path / "data"
    an_old_folder(data)
    env = dict(os.environ, GAMEHALL_DATA_DIR=str(data), GAMEHALL_HTTP_PORT=str(free_port()))
    env.pop("NATS_URL", None)
    env.pop("GAMEHALL_DB_URL", None)
    up = UpProcess(env)
    try:
        url = up.wait_url(timeout=120)
        with httpx.Client(base_url=url, timeout=30) as client:
            now = int(time.time())
            old_app = jwt.encode({"iss": "app_old", "sub": "u-1", "iat": now, "exp": now + 300}, OLD_SECRET, algorithm="HS256")
            for token, player in ((old_app, "old-club:u-1"), (OLD_TOKEN, "veteran"), (OLD_TOKEN, "veteran")):
                r = client.get("/api/accounts/me", headers={"Authorization": f"Bearer {token}"})
                assert r.status_code == 200 and r.json()["player"] == player, r.text
            fresh = client.post("/api/accounts", json={"name": "fresh"})
            assert fresh.status_code == 201
            added = subprocess.run(
                [sys.executable, "-m", "services.cli.main", "apps", "add", "new-club"],
                env=env, capture_output=True, text=True, timeout=120,
            )
            assert added.returncode == 0, added.stderr
            new_secret = added.stdout.split("secret:")[1].split()[0]
            new_id = added.stdout.split("key id:")[1].split()[0]
            new_app = jwt.encode({"iss": new_id, "sub": "u-2", "iat": now, "exp": now + 300}, new_secret, algorithm="HS256")
            assert client.get("/api/accounts/me", headers={"Authorization": f"Bearer {new_app}"}).status_code == 200
        assert mode(data) == 0o700
        assert readable_by_others(data) == []
        assert mode(data / "notes.txt") == 0o644  # not gamehall's: left alone
        assert mode(data / "keys" / "server.key") == 0o600
    finally:
        up.stop()
    assert readable_by_others(data) == []
    stored = b"".join(p.read_bytes() for p in data.glob("gamehall.sqlite3*"))
    token = fresh.json()["token"]
    assert new_secret.encode() not in stored
    assert token.encode() not in stored and hashlib.sha256(token.encode()).hexdigest().encode() not in stored
    engine = db.make_engine(f"sqlite:///{data / 'gamehall.sqlite3'}")
    with engine.connect() as conn:
        secrets_stored = list(conn.execute(text("SELECT secret FROM app_keys")).scalars())
        old_hash = conn.execute(text("SELECT token_hash FROM accounts WHERE name = 'veteran'")).scalar()
    engine.dispose()
    assert len(secrets_stored) == 2 and all(s.startswith("sealed-v1:") for s in secrets_stored)
    assert old_hash != hashlib.sha256(OLD_TOKEN.encode()).hexdigest()
