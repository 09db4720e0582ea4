"""WebSocket fan-out under idle sockets (issue 16, "WebSocket fan-out"): 500 sockets that never
read, all on one match (the one a normal client plays, or another), cause no 5xx, the gateway
keeps one JetStream consumer per watched match however many sockets watch it, and the
consumers go when the last socket does.  The normal client's move latency (p95) with and
without them is printed (run with ``-s``)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import socket
import statistics
import time
from collections.abc import Callable

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from contracts import subjects
from services.common.natsio import connect
from services.common.players import PublicFold, choose_command
from tests.support.gateway import OPEN, running_gateway

pytestmark = pytest.mark.integration

IDLE_SOCKETS = 500
MOVES_PER_PHASE = 20


def consumer_count(nats_url: str, *match_ids: str) -> int:
    """Consumers on GH_MATCHES (the stream's own count), and the ones that follow ``match_ids``
    must be all the change: the server is shared with other tests, whose consumers come and go."""

    async def count() -> tuple[int, int]:
        nc = await connect(nats_url, "fanout-test")
        try:
            jsm = nc.jetstream()
            total = (await jsm.stream_info(subjects.MATCH_STREAM)).state.consumer_count
            infos = await nc.jsm().consumers_info(subjects.MATCH_STREAM)
            mine = sum(1 for c in infos if any(m in (c.config.filter_subject or "") for m in match_ids))
            assert total >= mine
            return total, mine
        finally:
            await nc.close()

    return asyncio.run(count())[1]


def wait_for(check: Callable[[], bool], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def idle_socket(host: str, port: int, match_id: str) -> tuple[socket.socket, bytes]:
    """A WebSocket that completes its handshake and then never reads (a tiny receive buffer),
    and the bytes after the handshake's reply that came with it (the start of its first frame)."""
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
        assert chunk, "closed during the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return s, head.split(b"\r\n\r\n", 1)[1]


@pytest.mark.parametrize("idle_on", ["the played match", "another match"])
def test_idle_sockets_on_one_match_share_one_consumer_and_cause_no_errors(
    nats_url: str, tmp_path_factory: pytest.TempPathFactory, idle_on: str
) -> None:
    with running_gateway(nats_url, tmp_path_factory.mktemp("fanout"), OPEN) as url:
        client = httpx.Client(base_url=url, timeout=30)
        created = client.post("/api/matches", json={"game": "ugolki"}).json()
        match_id = created["match_id"]
        watched = match_id
        if idle_on == "another match":
            watched = client.post("/api/matches", json={"game": "ugolki"}).json()["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        before = 0
        statuses: list[int] = []
        rng = random.Random(16)
        fold = PublicFold("ugolki")
        ws_url = url.replace("http://", "ws://") + f"/ws/matches/{match_id}"
        with ws_connect(ws_url, max_size=None, open_timeout=10) as ws:

            def until_seq(seq: int) -> dict:
                while True:
                    msg = json.loads(ws.recv(timeout=30))
                    if msg["type"] == "events":
                        fold.apply(msg["events"])
                    elif msg["type"] == "view" and msg["view"]["seq"] >= seq:
                        return msg["view"]

            view = until_seq(1)

            posts: list[float] = []

            def play(n: int) -> list[float]:
                """Move latency: a POST of a legal move until its view arrives on the socket
                (and, in ``posts``, until the POST's reply)."""
                nonlocal view
                took = []
                for _ in range(n):
                    if view["status"] != "running":
                        break
                    seat = view["to_move"][0]
                    command = choose_command("ugolki", fold, seat, "random", rng)
                    start = time.perf_counter()
                    r = client.post(
                        f"/api/matches/{match_id}/commands",
                        json={"command": command},
                        headers={"Authorization": f"Bearer {tokens[seat]}"},
                    )
                    posts.append(time.perf_counter() - start)
                    statuses.append(r.status_code)
                    assert r.status_code == 200, r.text
                    view = until_seq(view["seq"] + 1)
                    took.append(time.perf_counter() - start)
                return took

            play(3)  # warm up
            posts.clear()
            base = play(MOVES_PER_PHASE)
            base_posts = list(posts)
            assert consumer_count(nats_url, match_id, watched) == before + 1
            feeds = before + (1 if watched == match_id else 2)
            host, port = url.removeprefix("http://").rsplit(":", 1)
            idle = []
            try:
                for _ in range(IDLE_SOCKETS):
                    idle.append(idle_socket(host, int(port), watched)[0])
                statuses.append(client.get(f"/api/matches/{match_id}").status_code)
                posts.clear()
                loaded = play(MOVES_PER_PHASE)
                loaded_posts = list(posts)
                # One consumer per watched match, however many sockets watch it.
                assert consumer_count(nats_url, match_id, watched) == feeds
            finally:
                for s in idle:
                    s.close()
            assert len(base) >= 10 and len(loaded) >= 10, "the match ended too soon to measure"
            p95_base = statistics.quantiles(base, n=20)[-1]
            p95_loaded = statistics.quantiles(loaded, n=20)[-1]
            post_base = statistics.quantiles(base_posts, n=20)[-1]
            post_loaded = statistics.quantiles(loaded_posts, n=20)[-1]
            print(
                f"\nmove p95 (POST to view on the socket) without idle sockets {p95_base * 1000:.1f} ms, "
                f"with {IDLE_SOCKETS}: {p95_loaded * 1000:.1f} ms; POST reply p95 {post_base * 1000:.1f} ms -> "
                f"{post_loaded * 1000:.1f} ms; idle sockets on {idle_on}; "
                f"consumers on {subjects.MATCH_STREAM}: {before} -> {feeds}"
            )
            assert all(status < 500 for status in statuses)
            # The latencies are figures, not asserts (timing belongs to benchmarks): see the
            # report printed above and docs/operations.md "WebSocket fan-out".
            play(2)  # the socket goes on working once the idle ones are gone
        assert wait_for(lambda: consumer_count(nats_url, match_id, watched) == before)


def read_frames(s: socket.socket, data: bytes = b"") -> tuple[list[str], int | None]:
    """Everything a socket was sent, once it starts reading, up to the close frame: its text
    frames and the close code (None when the connection ended without one).  ``data``: what was
    read of it already (after the handshake)."""
    s.settimeout(30)
    texts: list[str] = []
    while True:
        while len(data) >= 2:
            opcode, size, at = data[0] & 0x0F, data[1] & 0x7F, 2
            if size == 126:
                size, at = int.from_bytes(data[2:4], "big"), 4
            elif size == 127:
                size, at = int.from_bytes(data[2:10], "big"), 10
            if len(data) < at + size:
                break
            payload, data = data[at : at + size], data[at + size :]
            if opcode == 1:
                texts.append(payload.decode())
            elif opcode == 8:
                return texts, int.from_bytes(payload[:2], "big")
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return texts, None
        if not chunk:
            return texts, None
        data += chunk


def test_sockets_that_never_read_are_held_and_closed_with_4408_while_a_reading_socket_gets_every_view(
    nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    queue = 8  # frames held for a socket before it is closed: four decisions
    limits = dataclasses.replace(OPEN, ws_send_queue=queue)
    with running_gateway(nats_url, tmp_path_factory.mktemp("fanout"), limits) as url:
        client = httpx.Client(base_url=url, timeout=30)
        created = client.post("/api/matches", json={"game": "ugolki"}).json()
        match_id = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        host, port = url.removeprefix("http://").rsplit(":", 1)
        idle = [idle_socket(host, int(port), match_id) for _ in range(5)]
        fold = PublicFold("ugolki")
        rng = random.Random(4408)
        seqs: list[int] = []
        ws_url = url.replace("http://", "ws://") + f"/ws/matches/{match_id}"
        with ws_connect(ws_url, max_size=None, open_timeout=10) as ws:
            view: dict = {}
            while view.get("seq") != 1:
                msg = json.loads(ws.recv(timeout=30))
                if msg["type"] == "events":
                    fold.apply(msg["events"])
                elif msg["type"] == "view":
                    view = msg["view"]
            # Enough decisions for every idle socket to fill its window (4 KiB), be held and
            # overflow its queue, whatever the window takes exactly.
            for _ in range(40):
                if view["status"] != "running":
                    break
                seat = view["to_move"][0]
                command = choose_command("ugolki", fold, seat, "random", rng)
                r = client.post(
                    f"/api/matches/{match_id}/commands",
                    json={"command": command},
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
                assert r.status_code == 200, r.text
                while True:
                    msg = json.loads(ws.recv(timeout=30))
                    if msg["type"] == "events":
                        fold.apply(msg["events"])
                    elif msg["type"] == "view":
                        view = msg["view"]
                        seqs.append(view["seq"])
                        break
            assert len(seqs) >= 20, "the match ended too soon"
            assert seqs == list(range(2, 2 + len(seqs)))  # the reading socket missed nothing
        for s, start in idle:
            texts, code = read_frames(s, start)
            s.close()
            kinds = [json.loads(t) for t in texts]
            got = [k["view"]["seq"] for k in kinds if k["type"] == "view"]
            # What it was written before it was held, in order, then the close.
            assert got == list(range(1, 1 + len(got))) and len(got) < len(seqs)
            assert kinds[-1]["type"] == "error" and kinds[-1]["code"] == "slow_consumer"
            assert code == 4408
