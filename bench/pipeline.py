"""gamehall's own pipeline under load, every stage its own process, on one fresh nats-server.

    python bench/pipeline.py --mode nats|gateway|ws --secs 8 --matches 256

Clients replay precomputed legal Ugolki games (so the client spends no CPU on rules) against
real referees that validate every move with the full rules, append with expected sequence and
reply; the scoring/leaderboard-side consumers that exist read the integration stream.  With
``--mode gateway`` clients speak HTTP to the gateway instead of NATS, with ``--mode ws`` they send
their commands on the seats' WebSockets (each match created over HTTP).  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contracts.codecs import encode  # noqa: E402
from contracts.envelope import Accepted, CommandEnvelope  # noqa: E402
from domain.core import match as match_layer  # noqa: E402
from domain.games import registry  # noqa: E402
from services.common import commands  # noqa: E402
from services.common.embedded import EmbeddedNats  # noqa: E402
from services.common.processes import free_port, gamehall_args, port_open, spawn, stop_all, wait_until  # noqa: E402


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def precompute_games(n: int, preset: str, seed: int = 1) -> list[list[tuple[str, dict]]]:
    """Complete legal games (seat, command) played by the random computer player."""
    game = registry.get("ugolki")
    rng = random.Random(seed)
    out = []
    ruleset = match_layer.resolve_ruleset(game, preset, {})
    for _ in range(n):
        state = game.initial_state(ruleset, ("white", "black"), None)
        seq = []
        while game.outcome(state) is None and len(seq) < game.max_decisions:
            seat = next(iter(game.to_move(state)))
            command = game.bots["random"](state, seat, rng)
            events = game.decide(state, seat, command)
            for e in events:
                state = game.evolve(state, e)
            seq.append((seat, command))
        out.append(seq)
    return out


def median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0.0


class Phase:
    def __init__(self) -> None:
        self.measure = False
        self.stop = False
        self.ok = 0
        self.fail = 0
        self.created = 0  # matches created while measured: decisions beside the moves
        self.lat: list[float] = []


async def nats_client(url: str, games: list, slots: int, phase: Phase) -> None:
    import nats

    from contracts import subjects
    from contracts.codecs import decode_reply

    nc = await nats.connect(url)

    async def slot(i: int) -> None:
        g = i
        while not phase.stop:
            created = await commands.create_match(nc, "ugolki", match_id=f"b{uuid.uuid4().hex[:12]}")
            if not hasattr(created, "tokens"):  # referee still starting
                await asyncio.sleep(0.2)
                continue
            phase.created += phase.measure
            subject = subjects.command_subject("ugolki", created.match_id)
            for n, (seat, command) in enumerate(games[g % len(games)]):
                if phase.stop:
                    break
                env = CommandEnvelope(
                    command_id=f"{n}",
                    match_id=created.match_id,
                    game="ugolki",
                    seat=seat,
                    token=created.tokens[seat],
                    command=command,
                )
                t = time.perf_counter()
                reply = decode_reply((await nc.request(subject, encode(env), timeout=30)).data)
                if not isinstance(reply, Accepted):
                    phase.fail += 1
                    break
                if phase.measure:
                    phase.ok += 1
                    phase.lat.append(time.perf_counter() - t)
            g += slots

    await asyncio.gather(*(slot(i) for i in range(slots)))
    await nc.close()


class RawHttp:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: the load generator must cost
    far less CPU than the gateway it measures (httpx spends milliseconds per request)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        import socket

        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        sock = self.writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    async def post(self, path: str, body: bytes, token: str = "") -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"{auth}Content-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        return status, await self.reader.readexactly(length)


async def http_client(url: str, games: list, slots: int, phase: Phase) -> None:
    import msgspec

    host, port = url.rsplit("//", 1)[1].split(":")
    create_body = msgspec.json.encode({"game": "ugolki"})

    async def slot(i: int) -> None:
        conn = RawHttp(host, int(port))
        await conn.connect()
        g = i
        while not phase.stop:
            status, data = await conn.post("/api/matches", create_body)
            if status != 201:
                await asyncio.sleep(0.2)
                continue
            created = msgspec.json.decode(data)
            phase.created += phase.measure
            mid = created["match_id"]
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            path = f"/api/matches/{mid}/commands"
            for n, (seat, command) in enumerate(games[g % len(games)]):
                if phase.stop:
                    break
                body = msgspec.json.encode({"command": command, "command_id": str(n)})
                t = time.perf_counter()
                status, _ = await conn.post(path, body, tokens[seat])
                if status != 200:
                    phase.fail += 1
                    break
                if phase.measure:
                    phase.ok += 1
                    phase.lat.append(time.perf_counter() - t)
            g += slots
        assert conn.writer is not None
        conn.writer.close()

    await asyncio.gather(*(slot(i) for i in range(slots)))


async def ws_client(url: str, games: list, slots: int, phase: Phase) -> None:
    """Each match created over HTTP, then played on its seats' WebSockets: every command sent on
    the socket of the seat that makes it (``{"type": "command", ...}``) and its ``reply`` frame
    awaited there, the view and events frames of every decision read on both sockets as they
    come (docs/api.md "WebSocket")."""
    import msgspec
    from websockets.asyncio.client import connect

    host, port = url.rsplit("//", 1)[1].split(":")
    create_body = msgspec.json.encode({"game": "ugolki"})
    frame = msgspec.json.Decoder()

    async def slot(i: int) -> None:
        conn = RawHttp(host, int(port))
        await conn.connect()
        g = i
        while not phase.stop:
            try:
                status, data = await conn.post("/api/matches", create_body)
            except ConnectionResetError:
                # Idle while its match was played on the sockets, the connection was closed by
                # the gateway (keep-alive timeout, 5 s): open another.
                assert conn.writer is not None
                conn.writer.close()
                await conn.connect()
                continue
            if status != 201:
                await asyncio.sleep(0.2)
                continue
            created = msgspec.json.decode(data)
            phase.created += phase.measure
            mid = created["match_id"]
            sockets = {
                s["seat"]: await connect(
                    f"ws://{host}:{port}/ws/matches/{mid}?token={s['token']}", compression=None, max_queue=None
                )
                for s in created["seats"]
            }
            try:
                for n, (seat, command) in enumerate(games[g % len(games)]):
                    if phase.stop:
                        break
                    ws = sockets[seat]
                    command_id = str(n)
                    t = time.perf_counter()
                    await ws.send(msgspec.json.encode({"type": "command", "command": command, "command_id": command_id}).decode())
                    while True:  # the frames of earlier decisions first, then this command's reply
                        got = frame.decode(await ws.recv(decode=False))
                        if got.get("type") == "reply" and got.get("command_id") == command_id:
                            break
                    if got["reply"].get("type") == "rejected.v1" or "seq" not in got["reply"]:
                        phase.fail += 1
                        break
                    if phase.measure:
                        phase.ok += 1
                        phase.lat.append(time.perf_counter() - t)
            finally:
                for ws in sockets.values():
                    await ws.close()
            g += slots
        assert conn.writer is not None
        conn.writer.close()

    await asyncio.gather(*(slot(i) for i in range(slots)))


def spawn_service(name: str, env: dict) -> subprocess.Popen:
    return spawn(gamehall_args("serve", name), env)


async def projections_reading(url: str, services: list[str], timeout: float = 120.0) -> None:
    """Until the projections of ``services`` have their readers on the server (their service has
    imported, migrated and started reading): measuring earlier counts their start-up as the
    moves' CPU on a loaded machine."""
    import nats
    from nats.js.errors import NotFoundError

    from contracts import subjects

    wanted = {
        (subjects.MATCH_STREAM, subjects.MATCH_LIST_CONSUMER): "scoring",
        (subjects.INTEGRATION_STREAM, subjects.SCORING_CONSUMER): "scoring",
        (subjects.INTEGRATION_STREAM, subjects.LEADERBOARD_CONSUMER): "leaderboard",
    }
    wanted = {key: name for key, name in wanted.items() if name in services}
    nc = await nats.connect(url)
    js = nc.jetstream()
    deadline = time.monotonic() + timeout
    try:
        while wanted:
            for stream, prefix in list(wanted):
                try:
                    names = [c.name for c in await js.consumers_info(stream)]
                except NotFoundError:  # the referee has not created the streams yet
                    continue
                if any(n.startswith(prefix + "-") for n in names):
                    del wanted[(stream, prefix)]
            if time.monotonic() > deadline:
                raise RuntimeError(f"projections not reading after {timeout} s: {sorted(wanted)}")
            await asyncio.sleep(0.2)
    finally:
        await nc.close()


async def run(mode: str, secs: float, warm: float, slots: int, referees: int = 1) -> dict:
    from services.cli.stackrun import available_services

    games = precompute_games(64, registry.get("ugolki").default_preset)
    store = Path(tempfile.mkdtemp(prefix="gh-bench-"))
    server = EmbeddedNats(store / "nats").start()
    env = dict(os.environ, NATS_URL=server.url, GAMEHALL_DATA_DIR=str(store), GAMEHALL_LOG_FORMAT="json")
    # The gateway's rate limits stay on (their cost is measured) but far above what one
    # loopback client driving every match at once sends (docs/operations.md "Limits").
    env.setdefault("GAMEHALL_RATE_ADDRESS", "1000000/1000000")
    env.setdefault("GAMEHALL_RATE_CREDENTIAL", "1000000/1000000")
    env.setdefault("GAMEHALL_RATE_CREATE", "1000000/1000000")
    env.setdefault("GAMEHALL_MAX_CONNECTIONS_PER_ADDRESS", "100000")
    procs: dict[str, subprocess.Popen] = {}
    wanted = ["referee"] + [s for s in available_services() if s in ("scoring", "leaderboard")]
    port = free_port()
    if mode in ("gateway", "ws"):
        wanted.append("gateway")
        env["GAMEHALL_HTTP_PORT"] = str(port)
        env.setdefault("GAMEHALL_MAX_SOCKETS_PER_ADDRESS", "0")  # two sockets per match in flight
    try:
        for name in wanted:
            if name == "referee" and referees > 1:
                # Scale out by partition: referee i owns the partitions p with p % referees == i.
                from contracts.subjects import DEFAULT_PARTITIONS

                for i in range(referees):
                    owned = ",".join(str(p) for p in range(DEFAULT_PARTITIONS) if p % referees == i)
                    procs[f"referee{i}"] = spawn_service(name, dict(env, GAMEHALL_REFEREE_PARTITIONS=owned))
                continue
            procs[name] = spawn_service(name, env)
        await asyncio.sleep(2.0)
        await projections_reading(server.url, wanted)
        if mode in ("gateway", "ws"):
            await asyncio.to_thread(
                wait_until, lambda: port_open("127.0.0.1", port), "the gateway", procs["gateway"], 10.0
            )
        phase = Phase()
        pids = {name: p.pid for name, p in procs.items()}
        pids["nats-server"] = server.proc.pid
        pids["client"] = os.getpid()
        client = (
            nats_client(server.url, games, slots, phase)
            if mode == "nats"
            else (http_client if mode == "gateway" else ws_client)(f"http://127.0.0.1:{port}", games, slots, phase)
        )
        task = asyncio.create_task(client)
        await asyncio.sleep(warm)
        cpu0 = {k: cpu_seconds(v) for k, v in pids.items()}
        phase.measure = True
        t0 = time.perf_counter()
        await asyncio.sleep(secs)
        phase.measure = False
        elapsed = time.perf_counter() - t0
        cpu1 = {k: cpu_seconds(v) for k, v in pids.items()}
        phase.stop = True
        await task
    finally:
        stop_all(procs.values())
        server.stop()
    lat = sorted(phase.lat)
    moves = phase.ok
    result = {
        "mode": mode,
        "moves_s": round(moves / elapsed, 1),
        "p50_ms": round(median(lat) * 1e3, 2),
        "p99_ms": round(lat[int(len(lat) * 0.99)] * 1e3, 2) if lat else None,
        "fail": phase.fail,
        "concurrent_matches": slots,
        "referees": referees,
    }
    for name in pids:
        result[f"cpu_us_per_move[{name}]"] = round((cpu1[name] - cpu0[name]) / max(moves, 1) * 1e6, 1)
    result["cpu_us_per_move_excl_client"] = round(
        sum(v for k, v in result.items() if k.startswith("cpu_us_per_move[") and "client" not in k), 1
    )
    # Every decision the match stream stored while measured (the moves and the creations): what
    # the match-list projection in scoring reads; scoring's other projections read only the
    # integration events of a match's start and end.
    decisions = moves + phase.created
    result["decisions"] = decisions
    if "scoring" in pids:
        result["cpu_us_per_decision[scoring]"] = round((cpu1["scoring"] - cpu0["scoring"]) / max(decisions, 1) * 1e6, 1)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("nats", "gateway", "ws"), default="nats", help="ws: commands and replies on the seats' WebSockets")
    ap.add_argument("--secs", type=float, default=8.0)
    ap.add_argument("--warm", type=float, default=2.0)
    ap.add_argument("--matches", type=int, default=256, help="concurrent matches")
    ap.add_argument("--referees", type=int, default=1, help="referee processes, partitions split among them")
    a = ap.parse_args()
    print(json.dumps(asyncio.run(run(a.mode, a.secs, a.warm, a.matches, a.referees))), flush=True)


if __name__ == "__main__":
    main()
