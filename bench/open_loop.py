"""Latency at a given load, open loop: moves offered at a fixed rate, arrivals independent of replies.

    python bench/open_loop.py --mode nats|gateway|both [--secs 10] [--loads 0.5,0.8] [--matches 384]

One fresh stack (an embedded nats-server, ``--referees`` referees, scoring, leaderboard and the
gateway, each its own process; the gateway always runs: it serves the WebSockets).  Per mode:

1. Saturation: ``--sat-matches`` matches (``--sat-connections`` through the gateway), each with
   the same WebSocket open as below, every match sending its next move the moment the previous
   one is answered, for ``--sat-secs``: the moves per second the stack sustains with its views
   (``--pipeline-saturation``: also without sockets, bench/pipeline.py's closed-loop client).
2. For each load in ``--loads`` (a share of that saturation): ``--matches`` matches
   (``--gateway-matches`` through the gateway, so that each keep-alive connection is used before
   the gateway closes it as idle) created
   beforehand, each with a WebSocket open as its black seat; a scheduler fires moves at fixed
   instants (``rate`` a second, round-robin over the matches) and never waits for a reply: each
   move is sent by a task of its own the moment it is due, or, when its match's previous move is
   still unanswered (a match takes one move at a time), the moment that reply comes.  Latency is
   counted from the instant the move was due, so a stall is charged to every move it delays
   (no coordinated omission); the first ``--warm`` seconds are not counted.  Reported: p50 / p99 / p99.9 of the command's reply, and of the view
   arriving on the other seat's WebSocket (white's moves, seen on black's socket: the first view
   whose ``seq`` reaches the move's), the rate achieved, how late the scheduler fired (p99), the
   CPU per move by process and the client's longest garbage-collection pause (it measures with
   its collector off: at 80 % its own full collections paused it for up to half a second).

``--mode nats``: commands straight to the referee over NATS (request/reply); ``--mode gateway``:
``POST /api/matches/{id}/commands`` over keep-alive HTTP/1.1 (one connection per match).
The gateway runs under bench/gc_probe.py: ``gateway_gc`` holds its collector's pauses over the
whole run (count, total and longest per generation, those over 10 ms).  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import msgspec  # noqa: E402
from pipeline import Phase, RawHttp, cpu_seconds, http_client, nats_client, precompute_games  # noqa: E402

from contracts.codecs import encode  # noqa: E402
from contracts.envelope import Accepted, CommandEnvelope  # noqa: E402
from domain.games import registry  # noqa: E402
from services.common import commands  # noqa: E402
from services.common.embedded import EmbeddedNats  # noqa: E402
from services.common.processes import free_port, gamehall_args, port_open, spawn, stop_all, wait_until  # noqa: E402

TICK_S = 0.002  # the scheduler wakes this often and fires every move that is due


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class _ViewSeq(msgspec.Struct):
    seq: int


class _Frame(msgspec.Struct):
    type: str
    view: _ViewSeq | None = None


_frame = msgspec.json.Decoder(_Frame)


@dataclass
class Match:
    match_id: str
    tokens: dict[str, str]
    moves: list[tuple[str, dict]]
    next_move: int = 0
    busy: bool = False
    backlog: list[float] = field(default_factory=list)  # due instants waiting for the previous reply
    views: list[tuple[int, float]] = field(default_factory=list)  # (seq, arrival) on black's socket
    conn: RawHttp | None = None
    ws: Any = None


@dataclass
class Sample:
    due: float
    replied: float
    seq: int
    seat: str
    match: Match


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * q))] * 1e3, 2)


class GcPauses:
    """The client's own garbage-collection pauses (gc.callbacks), longest and total."""

    def __init__(self) -> None:
        self.start = 0.0
        self.longest = 0.0
        self.total = 0.0
        self.count = 0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.start = time.perf_counter()
        else:
            took = time.perf_counter() - self.start
            self.longest = max(self.longest, took)
            self.total += took
            self.count += 1


class Stack:
    def __init__(self, referees: int) -> None:
        self.store = Path(tempfile.mkdtemp(prefix="gh-openloop-"))
        self.server = EmbeddedNats(self.store / "nats").start()
        self.port = free_port()
        self.gc_file = self.store / "gateway-gc.json"
        env = dict(
            os.environ,
            NATS_URL=self.server.url,
            GAMEHALL_DATA_DIR=str(self.store),
            GAMEHALL_LOG_FORMAT="json",
            GAMEHALL_HTTP_PORT=str(self.port),
            GAMEHALL_METRICS_PORT="0",
            GAMEHALL_RATE_ADDRESS="off",
            GAMEHALL_RATE_CREDENTIAL="off",
            GAMEHALL_RATE_CREATE="off",
            GAMEHALL_MAX_CONNECTIONS_PER_ADDRESS="0",
            GAMEHALL_MAX_SOCKETS_PER_ADDRESS="0",
        )
        env.pop("GAMEHALL_NATS_CREDENTIALS", None)
        self.procs: dict[str, Any] = {}
        from contracts.subjects import DEFAULT_PARTITIONS

        for i in range(referees):
            owned = ",".join(str(p) for p in range(DEFAULT_PARTITIONS) if p % referees == i)
            extra = {"GAMEHALL_REFEREE_PARTITIONS": owned} if referees > 1 else {}
            name = f"referee{i}" if referees > 1 else "referee"
            self.procs[name] = spawn(
                gamehall_args("serve", "referee"), dict(env, **extra), output=self.store / f"{name}.log"
            )
        for name in ("scoring", "leaderboard", "gateway"):
            # the gateway with its collector's pauses recorded (bench/gc_probe.py)
            argv = (
                [sys.executable, str(ROOT / "bench" / "gc_probe.py"), str(self.gc_file), "serve", name]
                if name == "gateway"
                else gamehall_args("serve", name)
            )
            self.procs[name] = spawn(argv, env, output=self.store / f"{name}.log")
        wait_until(lambda: port_open("127.0.0.1", self.port), "the gateway", self.procs["gateway"], 60.0)
        self.url = f"http://127.0.0.1:{self.port}"

    def pids(self) -> dict[str, int]:
        out = {name: p.pid for name, p in self.procs.items()}
        out["nats-server"] = self.server.proc.pid
        out["client"] = os.getpid()
        return out

    def stop(self) -> None:
        stop_all(self.procs.values())
        self.server.stop()


async def saturation(stack: Stack, mode: str, secs: float, slots: int, games: list) -> float:
    """Closed-loop moves/s: ``slots`` matches played back to back (bench/pipeline.py's clients)."""
    phase = Phase()
    client = (
        nats_client(stack.server.url, games, slots, phase)
        if mode == "nats"
        else http_client(stack.url, games, slots, phase)
    )
    task = asyncio.create_task(client)
    await asyncio.sleep(2.0)
    phase.measure = True
    t0 = time.perf_counter()
    await asyncio.sleep(secs)
    phase.measure = False
    elapsed = time.perf_counter() - t0
    phase.stop = True
    await task
    return phase.ok / elapsed


async def open_loop(
    stack: Stack,
    nc: Any,
    mode: str,
    rate: float,
    secs: float,
    n_matches: int,
    games: list,
    warm: float,
    closed: bool = False,
) -> dict[str, Any]:
    """One level of offered load (``rate`` moves a second), or with ``closed`` the saturation:
    every match sends its next move the moment the previous one is answered.  The CPU per move
    counts the measured seconds only."""
    import websockets

    from contracts import subjects
    from contracts.codecs import decode_reply

    host = "127.0.0.1"
    matches: list[Match] = []

    async def make(i: int) -> Match:
        if mode == "nats":
            created = await commands.create_match(nc, "ugolki", match_id=f"o{uuid.uuid4().hex[:12]}")
            m = Match(created.match_id, dict(created.tokens), games[i % len(games)])
        else:
            conn = RawHttp(host, stack.port)
            await conn.connect()
            status, data = await conn.post("/api/matches", msgspec.json.encode({"game": "ugolki"}))
            if status != 201:
                raise RuntimeError(f"create: {status} {data[:200]!r}")
            got = msgspec.json.decode(data)
            m = Match(got["match_id"], {s["seat"]: s["token"] for s in got["seats"]}, games[i % len(games)])
            m.conn = conn
        m.ws = await websockets.connect(
            f"ws://{host}:{stack.port}/ws/matches/{m.match_id}?token={m.tokens['black']}", max_size=None
        )
        return m

    for start in range(0, n_matches, 32):
        matches += await asyncio.gather(*(make(i) for i in range(start, min(n_matches, start + 32))))

    frame_bytes: list[int] = []

    async def watch(m: Match) -> None:
        try:
            async for frame in m.ws:
                frame_bytes.append(len(frame))
                got = _frame.decode(frame)
                if got.type == "view" and got.view is not None:
                    m.views.append((got.view.seq, time.perf_counter()))
        except websockets.ConnectionClosed:
            pass

    watchers = [asyncio.create_task(watch(m)) for m in matches]
    await asyncio.sleep(1.0)  # each socket's first view
    samples: list[Sample] = []
    failures = 0
    reconnects = 0
    why: dict[str, int] = {}
    measuring = False
    stopping = False

    async def send(m: Match, due: float) -> None:
        nonlocal failures, reconnects
        m.busy = True
        while True:
            seat, command = m.moves[m.next_move]
            m.next_move += 1
            try:
                if mode == "nats":
                    env = CommandEnvelope(
                        command_id=str(m.next_move),
                        match_id=m.match_id,
                        game="ugolki",
                        seat=seat,
                        token=m.tokens[seat],
                        command=command,
                    )
                    subject = subjects.command_subject("ugolki", m.match_id)
                    reply = decode_reply((await nc.request(subject, encode(env), timeout=30)).data)
                    ok = isinstance(reply, Accepted)
                    seq = reply.seq if isinstance(reply, Accepted) else 0
                    status = "accepted" if ok else getattr(reply, "code", "?")
                else:
                    assert m.conn is not None
                    body = msgspec.json.encode({"command": command, "command_id": str(m.next_move)})
                    path = f"/api/matches/{m.match_id}/commands"
                    try:
                        status, data = await m.conn.post(path, body, m.tokens[seat])
                    except (IndexError, ConnectionError, asyncio.IncompleteReadError):
                        # the gateway closed an idle keep-alive connection: open it again and
                        # send the move again (same command id), as a browser would
                        reconnects += 1
                        await m.conn.connect()
                        status, data = await m.conn.post(path, body, m.tokens[seat])
                    ok = status == 200
                    seq = msgspec.json.decode(data).get("seq", 0) if ok else 0
            except Exception as exc:  # noqa: BLE001 - a failed move is counted, the run goes on
                ok, seq, status = False, 0, type(exc).__name__
            replied = time.perf_counter()
            if ok and measuring and due >= begin:
                samples.append(Sample(due, replied, seq, seat, m))
            elif not ok:
                failures += 1
                why[str(status)] = why.get(str(status), 0) + 1
                m.next_move = len(m.moves)  # this match is out of step: no more moves on it
            if closed and ok and not stopping and m.next_move < len(m.moves):
                due = time.perf_counter()
                continue
            if not m.backlog or m.next_move >= len(m.moves):
                m.backlog.clear()
                break
            due = m.backlog.pop(0)
        m.busy = False

    pids = stack.pids()
    cpu0: dict[str, float] = {}
    pauses = GcPauses()
    # The load generator keeps every sample and every frame's arrival: the collector's full
    # passes over them paused it for up to half a second at 80 % (moves sent late, frames read
    # late, charged to the stack).  Its objects hold no cycles, so it runs without collections
    # while it measures (the pauses reported show none happened).
    gc.collect()
    gc.freeze()
    gc.disable()
    interval = 1.0 / rate if rate > 0 else 1.0
    lateness: list[float] = []
    skipped = 0
    tasks: set[asyncio.Task] = set()
    t0 = time.perf_counter()
    begin = t0 + warm  # the first ``warm`` seconds of the offered load are not counted
    end = begin + secs
    k = 0
    cursor = 0
    if closed:
        for m in matches:
            task = asyncio.create_task(send(m, time.perf_counter()))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    while True:
        now = time.perf_counter()
        if now >= end:
            break
        if not measuring and now >= begin:
            measuring = True
            lateness.clear()
            gc.callbacks.append(pauses)
            cpu0 = {name: cpu_seconds(pid) for name, pid in pids.items()}
        while not closed and t0 + k * interval <= now:
            due = t0 + k * interval
            k += 1
            lateness.append(now - due)
            for _ in range(len(matches)):  # round-robin; a finished match is passed over
                m = matches[cursor % len(matches)]
                cursor += 1
                if m.next_move + len(m.backlog) < len(m.moves):
                    break
            else:
                skipped += 1
                continue
            if m.busy:
                m.backlog.append(due)
            else:
                task = asyncio.create_task(send(m, due))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        await asyncio.sleep(TICK_S)
    elapsed = time.perf_counter() - begin
    cpu1 = {name: cpu_seconds(pid) for name, pid in pids.items()}
    measuring = False
    stopping = True
    if tasks:
        await asyncio.wait(set(tasks), timeout=30)
    await asyncio.sleep(0.5)  # the last views
    gc.callbacks.remove(pauses)
    gc.enable()
    gc.unfreeze()
    for m in matches:
        await m.ws.close()
        if m.conn is not None and m.conn.writer is not None:
            m.conn.writer.close()
    for w in watchers:
        w.cancel()
    reply_lat = [s.replied - s.due for s in samples]
    view_lat = []
    for s in samples:
        if s.seat != "white":
            continue
        seen = next((t for seq, t in s.match.views if seq >= s.seq), None)
        if seen is not None:
            view_lat.append(seen - s.due)
    return {
        "offered_moves_s": round(rate, 1),
        "achieved_moves_s": round(len(samples) / elapsed, 1),
        "moves": len(samples),
        "failures": failures,
        "failed_as": why,
        "http_reconnects": reconnects,
        "skipped": skipped,
        "reply_p50_ms": pct(reply_lat, 0.5),
        "reply_p99_ms": pct(reply_lat, 0.99),
        "reply_p999_ms": pct(reply_lat, 0.999),
        "view_p50_ms": pct(view_lat, 0.5),
        "view_p99_ms": pct(view_lat, 0.99),
        "view_p999_ms": pct(view_lat, 0.999),
        "views_seen": len(view_lat),
        "white_moves": sum(1 for s in samples if s.seat == "white"),
        "scheduler_late_p99_ms": pct(lateness, 0.99),
        "ws_frame_bytes_median": sorted(frame_bytes)[len(frame_bytes) // 2] if frame_bytes else None,
        "ws_frame_bytes_max": max(frame_bytes, default=None),
        "client_gc_longest_ms": round(pauses.longest * 1e3, 2),
        "client_gc_total_ms": round(pauses.total * 1e3, 1),
        "cpu_us_per_move": {
            name: round((cpu1[name] - cpu0.get(name, cpu1[name])) / max(len(samples), 1) * 1e6, 1) for name in pids
        },
    }


async def run_mode(stack: Stack, mode: str, a: argparse.Namespace, games: list) -> dict[str, Any]:
    import nats

    nc = await nats.connect(stack.server.url) if mode == "nats" else None
    out: dict[str, Any] = {}
    try:
        slots = a.sat_matches if mode == "nats" else a.sat_connections
        say(f"[{mode}] saturation: {slots} matches in a closed loop for {a.sat_secs:g} s, their sockets open...")
        closed = await open_loop(stack, nc, mode, 0.0, a.sat_secs, slots, games, 2.0, closed=True)
        sat = closed["achieved_moves_s"]
        say(f"      {sat:.0f} moves/s: {json.dumps(closed)}")
        out["saturation_moves_s"] = sat
        out["saturation"] = closed
        if a.pipeline_saturation:
            bare = await saturation(stack, mode, a.sat_secs, slots, games)
            out["saturation_no_sockets_moves_s"] = round(bare, 1)
            say(f"      without the sockets (bench/pipeline.py's client): {bare:.0f} moves/s")
        for load in (float(x) for x in a.loads.split(",")):
            rate = sat * load
            matches = a.matches if mode == "nats" else a.gateway_matches
            found = await open_loop(stack, nc, mode, rate, a.secs, matches, games, a.warm)
            say(f"      at {load:.0%} ({rate:.0f} moves/s): {json.dumps(found)}")
            out[f"load_{int(round(load * 100))}"] = found
    finally:
        if nc is not None:
            await nc.close()
    return out


async def main_async(a: argparse.Namespace) -> dict[str, Any]:
    games = precompute_games(64, registry.get("ugolki").default_preset)
    modes = ("nats", "gateway") if a.mode == "both" else (a.mode,)
    result: dict[str, Any] = {"referees": a.referees, "matches": a.matches, "secs": a.secs, "cpus": os.cpu_count()}
    stack = Stack(a.referees)
    try:
        await asyncio.sleep(2.0)
        for mode in modes:
            result[mode] = await run_mode(stack, mode, a, games)
    finally:
        stack.stop()
    try:
        result["gateway_gc"] = json.loads(stack.gc_file.read_text())
    except (OSError, ValueError):
        result["gateway_gc"] = None
    result["load_1min_after"] = round(os.getloadavg()[0], 2)
    result["logs"] = str(stack.store)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("nats", "gateway", "both"), default="both")
    ap.add_argument("--secs", type=float, default=10.0, help="seconds of offered load per level")
    ap.add_argument("--warm", type=float, default=3.0, help="seconds of offered load before the counted ones")
    ap.add_argument("--loads", default="0.5,0.8", help="shares of the measured saturation to offer")
    ap.add_argument("--matches", type=int, default=384, help="matches the open loop spreads its moves over")
    ap.add_argument(
        "--gateway-matches",
        type=int,
        default=128,
        help="matches (one keep-alive connection each) through the gateway: each used about once a second",
    )
    ap.add_argument("--sat-secs", type=float, default=6.0, help="seconds of the closed-loop saturation run")
    ap.add_argument("--sat-matches", type=int, default=256, help="matches in flight in the saturation run")
    ap.add_argument(
        "--sat-connections", type=int, default=64, help="HTTP connections (a match each) of the gateway's saturation run"
    )
    ap.add_argument(
        "--pipeline-saturation",
        action="store_true",
        help="also the saturation without WebSockets (bench/pipeline.py's closed-loop client)",
    )
    ap.add_argument("--referees", type=int, default=1)
    a = ap.parse_args()
    print(json.dumps(asyncio.run(main_async(a))), flush=True)


if __name__ == "__main__":
    main()
