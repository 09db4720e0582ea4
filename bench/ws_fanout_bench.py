"""WebSocket fan-out under never-reading sockets (issue 16): a normal client's move latency on a
match with and without ``--idle`` (default 500) sockets that never read watching the same match.

A real gateway and a real referee (``gamehall serve``, each its own process) on an embedded
nats-server.  The client plays Ugolki moves over HTTP and waits for each move's view on its own
WebSocket of the match; the idle sockets complete the handshake and never read.  The two
phases are interleaved, round after round on a fresh match each: ``--moves`` moves without the
idle sockets, then the idle sockets connect and ``--moves`` more are played, then they close,
so both phases see the same machine (it is shared, and drifts); each phase's moves start after
the same pause (``--settle``) and a ``GET`` of the match.  Reports the p50 and p95 of
each phase, their ratio (the target: p95 with / p95 without <= 2), the same for the moves from
``--settled-after`` on in each round (a never-reading socket is written to until its receive
buffer is full and the gateway holds its frames; the idle sockets connect anew each round, so
every round has that start), the p95 until each move's POST is answered (``post_p95``: a move
that waits, waits for its reply or for its view) and the count of 5xx answers.  One JSON line
at the end.

    .venv/bin/python bench/ws_fanout_bench.py [--idle 500] [--rounds 6] [--moves 15]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from services.common.embedded import EmbeddedNats  # noqa: E402
from services.common.players import PublicFold, choose_command  # noqa: E402
from services.common.processes import free_port  # noqa: E402


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def idle_socket(host: str, port: int, match_id: str) -> socket.socket:
    """A WebSocket that completes its handshake and then never reads (a tiny receive buffer)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(10)
    s.connect((host, port))
    s.sendall(
        f"GET /ws/matches/{match_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1024)
        if not chunk:
            raise RuntimeError("closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(head[:200].decode(errors="replace"))
    return s


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class Player:
    """The normal client: moves over HTTP, each timed until its view arrives on the socket."""

    def __init__(self, client: httpx.Client, url: str, rng: random.Random) -> None:
        created = client.post("/api/matches", json={"game": "ugolki"}).json()
        self.client = client
        self.match_id = created["match_id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.rng = rng
        self.fold = PublicFold("ugolki")
        self.statuses: list[int] = []
        self.posts: list[float] = []  # each move until its POST's reply
        self.ws = ws_connect(url.replace("http://", "ws://") + f"/ws/matches/{self.match_id}", max_size=None)
        self.view = self.until_seq(1)

    def until_seq(self, seq: int) -> dict:
        while True:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg["type"] == "events":
                self.fold.apply(msg["events"])
            elif msg["type"] == "view" and msg["view"]["seq"] >= seq:
                return msg["view"]

    def play(self, n: int) -> list[float]:
        took = []
        for _ in range(n):
            if self.view["status"] != "running":
                break
            seat = self.view["to_move"][0]
            command = choose_command("ugolki", self.fold, seat, "random", self.rng)
            start = time.perf_counter()
            r = self.client.post(
                f"/api/matches/{self.match_id}/commands",
                json={"command": command},
                headers={"Authorization": f"Bearer {self.tokens[seat]}"},
            )
            self.posts.append(time.perf_counter() - start)
            self.statuses.append(r.status_code)
            if r.status_code != 200:
                raise RuntimeError(r.text)
            self.view = self.until_seq(self.view["seq"] + 1)
            took.append(time.perf_counter() - start)
        return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=500, help="never-reading sockets on the played match")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--moves", type=int, default=15, help="moves per phase per round")
    parser.add_argument(
        "--settled-after",
        type=int,
        default=5,
        help="moves after which the idle sockets' receive buffers are full and they are held (the steady figure)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=2.0,
        help="seconds before each phase's moves (for the idle sockets: after they connect)",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gh-wsbench-"))
    nats = EmbeddedNats(work / "nats").start()
    port = free_port()
    env = dict(
        os.environ,
        NATS_URL=nats.url,
        GAMEHALL_DATA_DIR=str(work),
        GAMEHALL_HTTP_PORT=str(port),
        GAMEHALL_METRICS_PORT="0",
        GAMEHALL_RATE_ADDRESS="off",
        GAMEHALL_RATE_CREDENTIAL="off",
        GAMEHALL_RATE_CREATE="off",
        GAMEHALL_MAX_CONNECTIONS_PER_ADDRESS="0",
        GAMEHALL_MAX_SOCKETS_PER_ADDRESS="0",
    )
    env.pop("GAMEHALL_NATS_CREDENTIALS", None)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "services.cli.main", "serve", name],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in ("referee", "gateway")
    ]
    url = f"http://127.0.0.1:{port}"
    without: list[float] = []
    loaded: list[float] = []
    steady: list[float] = []  # loaded, from the move after --settled-after on
    statuses: list[int] = []
    posts_without: list[float] = []  # the same moves until their POST's reply
    posts_with: list[float] = []
    try:
        client = httpx.Client(base_url=url, timeout=30)
        for _ in range(300):
            try:
                if client.get("/readyz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        rng = random.Random(16)
        for n in range(args.rounds):
            player = Player(client, url, rng)
            player.play(3)  # warm up
            # The same pause and look-up before each phase: a first move after a pause is
            # slower whatever watches (with --idle 0 the phases would differ otherwise).
            time.sleep(args.settle)
            statuses.append(client.get(f"/api/matches/{player.match_id}").status_code)
            player.posts.clear()
            without += player.play(args.moves)
            posts_without += player.posts
            idle = [idle_socket("127.0.0.1", port, player.match_id) for _ in range(args.idle)]
            time.sleep(args.settle)
            statuses.append(client.get(f"/api/matches/{player.match_id}").status_code)
            player.posts.clear()
            took = player.play(args.moves)
            posts_with += player.posts
            loaded += took
            steady += took[args.settled_after :]
            for s in idle:
                s.close()
            player.ws.close()
            statuses += player.statuses
            say(f"round {n + 1}: {len(without)} and {len(loaded)} moves so far")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(20)
        nats.stop()
    out = {
        "ws_fanout_idle_sockets": args.idle,
        "ws_fanout_samples": [len(without), len(loaded)],
        "ws_fanout_p50_ms_without": round(pct(without, 0.5), 2),
        "ws_fanout_p95_ms_without": round(pct(without, 0.95), 2),
        "ws_fanout_p50_ms_with": round(pct(loaded, 0.5), 2),
        "ws_fanout_p95_ms_with": round(pct(loaded, 0.95), 2),
        "ws_fanout_mean_ms_with": round(statistics.fmean(loaded) * 1000, 2),
        "ws_fanout_p95_ms_with_steady": round(pct(steady, 0.95), 2) if steady else None,
        "ws_fanout_post_p95_ms_without": round(pct(posts_without, 0.95), 2),
        "ws_fanout_post_p95_ms_with": round(pct(posts_with, 0.95), 2),
        "ws_fanout_5xx": sum(1 for s in statuses if s >= 500),
    }
    out["ws_fanout_p95_ratio"] = round(out["ws_fanout_p95_ms_with"] / out["ws_fanout_p95_ms_without"], 2)
    out["ws_fanout_p50_ratio"] = round(out["ws_fanout_p50_ms_with"] / out["ws_fanout_p50_ms_without"], 2)
    if steady:
        out["ws_fanout_p95_ratio_steady"] = round(
            out["ws_fanout_p95_ms_with_steady"] / out["ws_fanout_p95_ms_without"], 2
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
