"""A full Ugolki match over HTTP/WebSocket with every service as its own process, then
export, audit, tampering, a restart that keeps the match."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import httpx
import msgspec
import pytest
from websockets.sync.client import connect as ws_connect

from services.common import stack as stack_file
from services.common.players import PublicFold, choose_command
from services.common.processes import UpProcess, free_port

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


class Stack:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.env = dict(os.environ, GAMEHALL_DATA_DIR=str(data_dir), GAMEHALL_HTTP_PORT=str(free_port()))
        self.env.pop("NATS_URL", None)
        self.up: UpProcess | None = None
        self.url = ""

    def start(self) -> Stack:
        self.up = UpProcess(self.env)
        self.url = self.up.wait_url()
        return self

    def stop(self) -> int:
        assert self.up is not None
        return self.up.stop()

    def cli(self, *args: str, input_bytes: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "services.cli.main", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            input=input_bytes,
            timeout=120,
        )


def test_full_match_over_http_and_websocket(tmp_path: Path) -> None:
    stack = Stack(tmp_path / "data").start()
    try:
        client = httpx.Client(base_url=stack.url, timeout=30)
        assert client.get("/docs").status_code == 200
        # /metrics is on the gateway's operations port (stack.json), not on the public one
        public = client.get("/metrics")
        assert public.status_code == 404 and "gamehall_" not in public.text
        info = stack_file.read(stack.data_dir)
        assert info is not None and info.metrics["gateway"] != f"{stack.url}/metrics"
        assert "gamehall_commands_total" in httpx.get(info.metrics["gateway"], timeout=30).text
        bad = client.post("/api/matches", json={"game": "ugolki", "preset": "nope"})
        assert bad.status_code == 400 and bad.json()["code"] == "unknown_preset"
        malformed = client.post("/api/matches", json={"gaem": "ugolki"})
        assert malformed.status_code == 422
        r = client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
        assert r.status_code == 201, r.text
        created = r.json()
        match_id = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        ws_url = stack.url.replace("http", "ws") + f"/ws/matches/{match_id}?token={tokens['white']}"
        rng = random.Random(5)
        fold = PublicFold("ugolki")
        views_seen = 0
        with ws_connect(ws_url) as ws:

            def drain_until_seq(seq: int) -> dict:
                nonlocal views_seen
                while True:
                    msg = json.loads(ws.recv(timeout=30))
                    if msg["type"] == "events":
                        fold.apply(msg["events"])
                    if msg["type"] == "view":
                        views_seen += 1
                        if msg["view"]["seq"] >= seq:
                            return msg["view"]

            view = drain_until_seq(1)
            # Illegal and malformed commands: typed rejections, nothing stored.
            illegal = client.post(
                f"/api/matches/{match_id}/commands",
                json={"command": {"type": "move_piece.v1", "path": ["a1", "a2"]}},
                headers={"Authorization": f"Bearer {tokens['white']}"},
            )
            assert illegal.status_code == 409 and illegal.json()["code"], illegal.text
            wrong_seat = client.post(
                f"/api/matches/{match_id}/commands",
                json={"command": {"type": "move_piece.v1", "path": ["a5", "a4"]}},
                headers={"Authorization": f"Bearer {tokens['black']}"},
            )
            assert wrong_seat.status_code == 409 and wrong_seat.json()["code"] == "not_your_turn"
            no_token = client.post(
                f"/api/matches/{match_id}/commands",
                json={"command": {"type": "move_piece.v1", "path": ["h3", "h5"]}},
            )
            assert no_token.status_code == 401
            garbage = client.post(
                f"/api/matches/{match_id}/commands",
                content=b"{not json",
                headers={"Authorization": f"Bearer {tokens['white']}", "Content-Type": "application/json"},
            )
            assert garbage.status_code == 400 and garbage.json()["code"] == "malformed"
            assert client.get(f"/api/matches/{match_id}").json()["seq"] == 1
            moves = 0
            while view["status"] == "running":
                seat = view["to_move"][0]
                command = choose_command(
                    "ugolki", fold, seat, "greedy" if seat == "white" else "random", rng
                )
                if seat == "white":
                    ws.send(json.dumps({"type": "command", "command": command, "command_id": f"w{moves}"}))
                else:
                    r = client.post(
                        f"/api/matches/{match_id}/commands",
                        json={"command": command},
                        headers={"Authorization": f"Bearer {tokens['black']}"},
                    )
                    assert r.status_code == 200, r.text
                moves += 1
                view = drain_until_seq(view["seq"] + 1)
            assert view["outcome"] is not None
        assert views_seen > moves
        final = client.get(f"/api/matches/{match_id}").json()
        assert final["status"] == "finished"
        # Export and audit through the running stack.
        exported = stack.cli("export", match_id)
        assert exported.returncode == 0, exported.stderr
        bundle_path = tmp_path / "match.json"
        bundle_path.write_bytes(exported.stdout)
        audited = stack.cli("audit", "--file", str(bundle_path))
        assert audited.returncode == 0, audited.stdout + audited.stderr
        assert b"OK: hash chain intact" in audited.stdout
        # Edit one byte inside the 3rd envelope: the audit names it.
        bundle = msgspec.json.decode(exported.stdout)
        third = bundle["envelopes"][2]["data"]
        bundle["envelopes"][2]["data"] = third.replace('"seq":3', '"seq":4', 1)
        tampered = tmp_path / "tampered.json"
        tampered.write_bytes(msgspec.json.encode(bundle))
        failed = stack.cli("audit", "--file", str(tampered))
        assert failed.returncode == 1
        assert b"envelope #3" in failed.stderr or b"envelope #4" in failed.stderr, failed.stderr
        # The documented example client plays a whole match against the same stack.
        example = subprocess.run([sys.executable, str(ROOT / "docs/examples/ugolki_client.py"), stack.url],
                                 capture_output=True, text=True, timeout=300)
        assert example.returncode == 0, example.stdout + example.stderr
        assert "illegal move refused: 409" in example.stdout and "audit bundle:" in example.stdout
    finally:
        assert stack.stop() == 0
    assert not (stack.data_dir / "stack.json").exists()
    # No stack running: audit by id still finds the match.
    offline = stack.cli("audit", match_id, "--quiet")
    assert offline.returncode == 0, offline.stdout + offline.stderr
    # Running it again keeps every stored match.
    stack.start()
    try:
        again = httpx.get(f"{stack.url}/api/matches/{match_id}", timeout=30).json()
        assert again["status"] == "finished" and again["seq"] == final["seq"]
    finally:
        assert stack.stop() == 0
