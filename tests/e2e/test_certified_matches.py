"""A finished match is certified by the referee (issue 14): the export carries the signed
certificate, `gamehall audit --file` says "finished and certified by key K", GET /api/keys and
`gamehall keys` publish the key, and a bundle cut short fails naming the certificate."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import msgspec
import pytest

from domain.core.audit import envelope_hash
from tests.e2e.test_full_match import Stack

pytestmark = pytest.mark.e2e


def test_finished_matches_are_certified_and_cut_bundles_fail(tmp_path: Path) -> None:
    stack = Stack(tmp_path / "data").start()
    try:
        played = stack.cli("demo", "--game", "ugolki", "--matches", "1", "--json")
        assert played.returncode == 0, played.stderr.decode()
        match_id = json.loads(played.stdout.decode().strip().splitlines()[-1])["match_id"]
        exported = stack.cli("export", match_id)
        assert exported.returncode == 0, exported.stderr.decode()
        bundle = json.loads(exported.stdout)
        cert = bundle["certificate"]
        assert cert and json.loads(cert["certificate"])["envelopes"] == len(bundle["envelopes"])
        path = tmp_path / "m.json"
        path.write_bytes(exported.stdout)

        audited = stack.cli("audit", "--file", str(path), "--quiet")
        assert audited.returncode == 0, audited.stdout.decode() + audited.stderr.decode()
        assert f"finished and certified by key {cert['key_id']}" in audited.stdout.decode()

        served = httpx.get(f"{stack.url}/api/keys", timeout=10).json()
        assert [k["key_id"] for k in served["keys"]] == [cert["key_id"]]
        keys_file = tmp_path / "keys.json"
        keys_file.write_text(json.dumps(served))
        listed = stack.cli("keys", "--json")
        assert json.loads(listed.stdout)["keys"] == served["keys"]

        # The last two envelopes removed and the head re-pointed: the chain alone looks whole.
        cut = dict(bundle, envelopes=bundle["envelopes"][:-2])
        cut["head_hash"] = envelope_hash(cut["envelopes"][-1]["data"].encode())
        cut_path = tmp_path / "cut.json"
        cut_path.write_bytes(msgspec.json.encode(cut))
        failed = stack.cli("audit", "--file", str(cut_path), "--quiet", "--keys", str(keys_file))
        assert failed.returncode == 1
        assert (
            f"certificate (key {cert['key_id']}): covers {len(bundle['envelopes'])} envelopes but the bundle holds "
            f"{len(bundle['envelopes']) - 2}" in failed.stderr.decode()
        ), failed.stderr.decode()

        # Without its certificate the same cut bundle can only be called unfinished.
        del cut["certificate"]
        cut_path.write_bytes(msgspec.json.encode(cut))
        unfinished = stack.cli("audit", "--file", str(cut_path), "--quiet")
        assert unfinished.returncode == 3
        assert "the bundle is of an unfinished match (no certificate)" in unfinished.stdout.decode()
        assert "NOT CHECKED: a certificate (the bundle carries none)" in unfinished.stdout.decode()
        allowed = stack.cli("audit", "--file", str(cut_path), "--quiet", "--allow-unfinished")
        assert allowed.returncode == 0, allowed.stdout.decode() + allowed.stderr.decode()

        # A rotation shows in GET /api/keys before any certificate is signed with the new key.
        rotated = stack.cli("keys", "rotate")
        assert rotated.returncode == 0, rotated.stderr.decode()
        fresh = rotated.stdout.decode().split()[3]
        deadline = time.monotonic() + 20
        while True:
            answer = httpx.get(f"{stack.url}/api/keys", timeout=10)
            by_id = {k["key_id"]: k for k in answer.json()["keys"]}
            if fresh in by_id or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert answer.headers["cache-control"] == "no-cache"
        assert by_id[fresh]["retired_at"] is None
        assert by_id[cert["key_id"]]["retired_at"] is not None
    finally:
        assert stack.stop() == 0
