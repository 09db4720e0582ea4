"""gamehall beyond one machine: three "hosts" in network namespaces, a three-node NATS cluster,
1 ms round trips between the hosts.  Needs root (``ip netns``); Linux only.

    sudo .venv/bin/python bench/cluster.py [--secs 8] [--matches 256]

The bench creates the namespaces itself (named ``ghb<pid>-h1`` ... ``-h3`` and a hub ``-hub``
holding a bridge; each host has a veth pair to the hub, 10.77.0.<n>/24 on its end, nothing routed
beyond them) and deletes them on exit, on an error and on SIGINT/SIGTERM too.  Each host runs a
nats-server node (clients on its own 127.0.0.1:4222, routes on 10.77.0.<n>:6222, JetStream) and
services on their own node, as a three-host deployment would:

- h1: the referee (streams with 3 replicas, ``GAMEHALL_STREAM_REPLICAS=3``);
- h2: scoring and leaderboard;
- h3: the load generator (bench/pipeline.py's NATS client: ``--matches`` matches played back to
  back in a closed loop).

Every connection between hosts goes through a delaying TCP proxy in the host it starts from
(``--delay-ms``, default 0.5 each way: a 1 ms round trip; the kernel has no netem here): a node's
routes to the other two are to proxies on its own loopback, and the cluster advertises no other
address.  So a move crosses hosts twice (the client's node to the referee's and back) and its
JetStream append waits for a replica on another host.

Reported, beside the same pipeline on one node (bench/pipeline.py --mode nats --referees 1, run
first in the same run): moves/s, p50/p99 and the CPU per move by process; then recovery after a
node loss: under the same load the node holding the match stream's leadership (moved to h2 first,
the host with no referee and no client, by asking the leader to step down) is SIGKILLed; the
seconds until moves succeed again (the longest gap between successes across the kill), the moves
that failed meanwhile, and the moves/s after.  One JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

HOSTS = ("h1", "h2", "h3")
CLIENT_PORT = 4222
ROUTE_PORT = 6222
MONITOR_PORT = 8222
PROXY_BASE = 16200  # h<i>'s proxy to h<j>'s routes listens on 127.0.0.1:PROXY_BASE + j


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---- the delaying proxy (runs inside a namespace: ``cluster.py --proxy LISTEN=HOST:PORT ...``) ----


def _pump(src: socket.socket, dst: socket.socket, delay: float) -> None:
    """Copy src to dst, each chunk held ``delay`` seconds after it was read (a reader and a
    writer thread, so holding a chunk never stops the next one being read)."""
    queue: deque[tuple[float, bytes]] = deque()
    ready = threading.Condition()
    done = False

    def writer() -> None:
        while True:
            with ready:
                while not queue and not done:
                    ready.wait()
                if not queue:
                    break
                due, data = queue.popleft()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                dst.sendall(data)
            except OSError:
                break
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    while True:
        try:
            data = src.recv(65536)
        except OSError:
            data = b""
        with ready:
            if not data:
                done = True
                ready.notify()
                break
            queue.append((time.monotonic() + delay, data))
            ready.notify()
    t.join()


def _serve_proxy(listen_port: int, target: tuple[str, int], delay: float) -> None:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen_port))
    server.listen(64)
    while True:
        client, _ = server.accept()
        try:
            upstream = socket.create_connection(target, timeout=5)
        except OSError:
            client.close()
            continue
        upstream.settimeout(None)
        for s in (client, upstream):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=_pump, args=(client, upstream, delay), daemon=True).start()
        threading.Thread(target=_pump, args=(upstream, client, delay), daemon=True).start()


def proxy_main(specs: list[str], delay_ms: float) -> None:
    for spec in specs:
        listen, _, target = spec.partition("=")
        host, _, port = target.rpartition(":")
        threading.Thread(
            target=_serve_proxy, args=(int(listen), (host, int(port)), delay_ms / 1e3), daemon=True
        ).start()
    print("proxy ready", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})


# ---- the load generator (runs inside h3: ``cluster.py --client URL ...``) ----


RETRYABLE = {"timeout", "unavailable", "busy"}
AFTER_KILL_S = 25.0


async def client_main(url: str, secs: float, slots: int, kill_at: float | None, out: str) -> None:
    """``slots`` matches played back to back over NATS (precomputed legal games, as
    bench/pipeline.py plays them); a move that fails for a reason that passes (no answer, the
    stream electing a leader) is sent again with the same command id, 50 ms later."""
    import nats
    from pipeline import precompute_games

    from contracts import subjects
    from contracts.codecs import decode_reply, encode
    from contracts.envelope import Accepted, CommandEnvelope, Rejected
    from domain.games import registry
    from services.common import commands

    games = precompute_games(64, registry.get("ugolki").default_preset)
    nc = await nats.connect(url, max_reconnect_attempts=-1)
    stop = False
    measure = False
    lat: list[float] = []
    times: list[float] = []
    fails = 0

    async def slot(i: int) -> None:
        nonlocal fails
        g = i
        while not stop:
            try:
                created = await commands.create_match(nc, "ugolki", match_id=f"c{os.urandom(6).hex()}")
            except Exception:  # noqa: BLE001 - the cluster may be electing
                created = None
            if not hasattr(created, "tokens"):
                fails += 1
                await asyncio.sleep(0.2)
                continue
            assert created is not None
            subject = subjects.command_subject("ugolki", created.match_id)
            for n, (seat, command) in enumerate(games[g % len(games)]):
                if stop:
                    break
                env = CommandEnvelope(
                    command_id=str(n), match_id=created.match_id, game="ugolki", seat=seat,
                    token=created.tokens[seat], command=command,
                )  # fmt: skip
                t = time.perf_counter()
                while not stop:
                    try:
                        reply = decode_reply((await nc.request(subject, encode(env), timeout=5)).data)
                    except Exception:  # noqa: BLE001 - no answer in time: send again
                        reply = Rejected(code="timeout", detail="")
                    if isinstance(reply, Accepted) or reply.code not in RETRYABLE:
                        break
                    fails += 1
                    await asyncio.sleep(0.05)
                if not isinstance(reply, Accepted):
                    break
                times.append(time.time())
                if measure:
                    lat.append(time.perf_counter() - t)
            g += slots

    tasks = [asyncio.create_task(slot(i)) for i in range(slots)]
    await asyncio.sleep(3.0)
    measure = True
    t0 = time.time()
    Path(out + ".measuring").write_text(str(t0))
    await asyncio.sleep(secs)
    measure = False
    steady_s = time.time() - t0
    steady = sorted(lat)
    result: dict[str, Any] = {
        "moves_s": round(len(steady) / steady_s, 1),
        "p50_ms": round(steady[len(steady) // 2] * 1e3, 2) if steady else None,
        "p99_ms": round(steady[int(len(steady) * 0.99)] * 1e3, 2) if steady else None,
        "fail": fails,
    }
    if kill_at is not None:
        fails_before = fails
        # keep playing through the kill (the orchestrator kills at kill_at) and AFTER_KILL_S after it
        while time.time() < kill_at + AFTER_KILL_S:
            await asyncio.sleep(0.1)
        result["fail_after_kill"] = fails - fails_before
        result["times"] = [t for t in times if t >= kill_at - 2.0]
    stop = True
    await asyncio.wait(tasks, timeout=30)
    await nc.close()
    Path(out).write_text(json.dumps(result))


# ---- the orchestrator ----


class Namespaces:
    """The hub with its bridge and one namespace per host, removed on exit whatever happens."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.made: list[str] = []
        self.procs: list[subprocess.Popen[Any]] = []
        atexit.register(self.cleanup)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.cleanup()
        raise SystemExit(128 + signum)

    def ns(self, host: str) -> str:
        return f"{self.prefix}-{host}"

    @staticmethod
    def ip(*args: str) -> None:
        subprocess.run(["ip", *args], check=True, capture_output=True)

    def create(self) -> None:
        hub = self.ns("hub")
        self.ip("netns", "add", hub)
        self.made.append(hub)
        self.ip("-n", hub, "link", "add", "br0", "type", "bridge")
        self.ip("-n", hub, "link", "set", "br0", "up")
        for n, host in enumerate(HOSTS, start=1):
            name = self.ns(host)
            self.ip("netns", "add", name)
            self.made.append(name)
            self.ip("-n", name, "link", "set", "lo", "up")
            self.ip("-n", name, "link", "add", "eth0", "type", "veth", "peer", "name", f"v{host}", "netns", hub)
            self.ip("-n", name, "addr", "add", f"10.77.0.{n}/24", "dev", "eth0")
            self.ip("-n", name, "link", "set", "eth0", "up")
            self.ip("-n", hub, "link", "set", f"v{host}", "master", "br0")
            self.ip("-n", hub, "link", "set", f"v{host}", "up")

    def run(self, host: str, argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[Any]:
        proc = subprocess.Popen(
            ["ip", "netns", "exec", self.ns(host), *argv],
            env=env,
            cwd=ROOT,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def cleanup(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 10
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        self.procs.clear()
        for name in reversed(self.made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self.made.clear()


def stale_namespaces() -> None:
    """Remove what an earlier run killed by SIGKILL left (names ``ghb<pid>-*`` of dead pids)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
    for name in listed:
        if name.startswith("ghb") and "-" in name:
            pid = name[3:].split("-")[0]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                subprocess.run(["ip", "netns", "del", name], capture_output=True)


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def in_ns_wait(nsname: str, port: int, timeout: float = 30.0) -> None:
    """Until something listens on 127.0.0.1:port inside namespace ``nsname``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ok = subprocess.run(
            ["ip", "netns", "exec", nsname, sys.executable, "-c",
             f"import socket; socket.create_connection(('127.0.0.1', {port}), 1).close()"],
            capture_output=True,
        ).returncode == 0  # fmt: skip
        if ok:
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} in {nsname}")


def nats_stream_leader(nsname: str, host_index: int) -> str:
    """The match stream's leader as the node of h<host_index> sees it (its monitoring port)."""
    code = (
        "import json, urllib.request\n"
        f"d = json.load(urllib.request.urlopen('http://127.0.0.1:{MONITOR_PORT}/jsz?streams=1', timeout=2))\n"
        "for a in d.get('account_details', []):\n"
        "    for s in a.get('stream_detail', []):\n"
        "        if s['name'] == 'GH_MATCHES': print(s.get('cluster', {}).get('leader', ''))\n"
    )
    out = subprocess.run(["ip", "netns", "exec", nsname, sys.executable, "-c", code], capture_output=True, text=True)
    return out.stdout.strip()


def single_node(secs: float, matches: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "bench/pipeline.py", "--mode", "nats", "--referees", "1", "--secs", str(secs),
         "--matches", str(matches)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--secs", type=float, default=8.0)
    ap.add_argument("--matches", type=int, default=256)
    ap.add_argument("--delay-ms", type=float, default=0.5, help="added delay each way between hosts")
    ap.add_argument("--no-single", action="store_true", help="skip the one-node run beside it")
    ap.add_argument("--no-kill", action="store_true", help="skip the node loss")
    ap.add_argument("--proxy", nargs="*", help=argparse.SUPPRESS)
    ap.add_argument("--client", help=argparse.SUPPRESS)
    ap.add_argument("--kill-at", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.proxy is not None:
        proxy_main(a.proxy, a.delay_ms)
        return
    if a.client:
        asyncio.run(client_main(a.client, a.secs, a.matches, a.kill_at, a.out))
        return
    if os.geteuid() != 0:
        raise SystemExit("bench/cluster.py needs root (ip netns add)")
    from services.common.embedded import nats_server_binary
    from services.common.processes import gamehall_args

    result: dict[str, Any] = {"delay_ms_each_way": a.delay_ms, "matches": a.matches, "cpus": os.cpu_count()}
    if not a.no_single:
        say("one node: bench/pipeline.py --mode nats --referees 1 ...")
        one = single_node(a.secs, a.matches)
        result["single_moves_s"] = one["moves_s"]
        result["single_p50_ms"] = one["p50_ms"]
        result["single_p99_ms"] = one["p99_ms"]
        prefix = "cpu_us_per_move["
        result["single_cpu_us_per_move"] = {k[len(prefix) : -1]: v for k, v in one.items() if k.startswith(prefix)}
        say(f"      {one['moves_s']} moves/s, p99 {one['p99_ms']} ms")
    stale_namespaces()
    spaces = Namespaces(f"ghb{os.getpid()}")
    work = Path(tempfile.mkdtemp(prefix="gh-cluster-"))
    try:
        spaces.create()
        env = dict(os.environ)
        for k in ("NATS_URL", "GAMEHALL_NATS_CREDENTIALS"):
            env.pop(k, None)
        nodes: dict[str, subprocess.Popen[Any]] = {}
        for i, host in enumerate(HOSTS, start=1):
            others = [j for j in range(1, len(HOSTS) + 1) if j != i]
            specs = [f"{PROXY_BASE + j}=10.77.0.{j}:{ROUTE_PORT}" for j in others]
            spaces.run(
                host,
                [sys.executable, str(Path(__file__).resolve()), "--delay-ms", str(a.delay_ms), "--proxy", *specs],
                env,
                work / f"proxy-{host}.log",
            )
            conf = work / f"{host}.conf"
            routes = ", ".join(f'"nats://127.0.0.1:{PROXY_BASE + j}"' for j in others)
            conf.write_text(
                f'server_name: "n{i}"\nlisten: "127.0.0.1:{CLIENT_PORT}"\nhttp: "127.0.0.1:{MONITOR_PORT}"\n'
                f'jetstream {{ store_dir: "{work / host}" }}\n'
                f'cluster {{ name: "gamehall", listen: "10.77.0.{i}:{ROUTE_PORT}", no_advertise: true, '
                f"routes: [{routes}] }}\n"
            )
            nodes[host] = spaces.run(host, [nats_server_binary(), "-c", str(conf)], env, work / f"nats-{host}.log")
        for host in HOSTS:
            in_ns_wait(spaces.ns(host), CLIENT_PORT)
        local = f"nats://127.0.0.1:{CLIENT_PORT}"
        svc_env = dict(env, NATS_URL=local, GAMEHALL_LOG_FORMAT="json", GAMEHALL_STREAM_REPLICAS="3")
        services: dict[str, subprocess.Popen[Any]] = {}
        for host, name in (("h1", "referee"), ("h2", "scoring"), ("h2", "leaderboard")):
            data = work / f"data-{name}"
            data.mkdir()
            services[name] = spaces.run(
                host, gamehall_args("serve", name), dict(svc_env, GAMEHALL_DATA_DIR=str(data)), work / f"{name}.log"
            )
        time.sleep(1.0)
        # wait for the streams (created by the referee with 3 replicas) to have a leader
        deadline = time.monotonic() + 90
        while not nats_stream_leader(spaces.ns("h2"), 2):
            if time.monotonic() > deadline:
                raise RuntimeError(f"no match stream leader; see {work}")
            time.sleep(0.5)
        say(f"cluster up (3 nodes, 1 referee on h1, scoring and leaderboard on h2); logs in {work}")

        def client(kill_at: float | None, out: Path) -> subprocess.Popen[Any]:
            argv = [sys.executable, str(Path(__file__).resolve()), "--client", local, "--secs", str(a.secs),
                    "--matches", str(a.matches), "--out", str(out)]  # fmt: skip
            if kill_at is not None:
                argv += ["--kill-at", str(kill_at)]
            return spaces.run("h3", argv, env, work / "client.log")

        pids = {name: p.pid for name, p in services.items()}
        pids.update({f"nats-{host}": p.pid for host, p in nodes.items()})
        out = work / "steady.json"
        proc = client(None, out)
        marker = Path(str(out) + ".measuring")
        while not marker.exists():
            if proc.poll() is not None:
                raise RuntimeError(f"the client exited; see {work / 'client.log'}")
            time.sleep(0.02)
        cpu0 = {k: cpu_seconds(v) for k, v in pids.items()}
        cpu0["client"] = cpu_seconds(proc.pid)
        time.sleep(a.secs)
        cpu1 = {k: cpu_seconds(v) for k, v in pids.items()}
        cpu1["client"] = cpu_seconds(proc.pid)
        proc.wait(timeout=120)
        steady = json.loads(out.read_text())
        moves = steady["moves_s"] * a.secs
        result.update(
            {
                "cluster_moves_s": steady["moves_s"],
                "cluster_p50_ms": steady["p50_ms"],
                "cluster_p99_ms": steady["p99_ms"],
                "cluster_fail": steady["fail"],
                "cluster_cpu_us_per_move": {
                    k: round((cpu1[k] - cpu0[k]) / max(moves, 1) * 1e6, 1) for k in cpu1
                },
            }
        )
        say(f"cluster: {json.dumps(result)}")
        if not a.no_kill:
            # the match stream's leader onto h2 (neither the referee's nor the client's node)
            for _ in range(12):
                leader = nats_stream_leader(spaces.ns("h2"), 2)
                if leader == "n2":
                    break
                subprocess.run(
                    ["ip", "netns", "exec", spaces.ns("h1"), sys.executable, "-c",
                     "import asyncio, nats\nasync def m():\n nc = await nats.connect('" + local + "')\n"
                     " await nc.request('$JS.API.STREAM.LEADER.STEPDOWN.GH_MATCHES', b'', timeout=5)\n"
                     " await nc.close()\nasyncio.run(m())"],
                    capture_output=True, env=env, cwd=ROOT,
                )  # fmt: skip
                time.sleep(2.0)
            result["killed_node_was_stream_leader"] = leader == "n2"
            kill_at = time.time() + 6.0 + a.secs
            out = work / "kill.json"
            proc = client(kill_at, out)
            while time.time() < kill_at:
                time.sleep(0.01)
            os.killpg(nodes["h2"].pid, signal.SIGKILL)
            proc.wait(timeout=180)
            found = json.loads(out.read_text())
            times = sorted(found["times"])
            end = kill_at + AFTER_KILL_S
            edges = [t for t in times if t >= kill_at]
            gaps = [b - t for t, b in zip([kill_at, *edges], [*edges, end], strict=False)]
            # recovered: the first half second after the kill with at least half the steady rate
            bucket = 0.5
            recovered = None
            for k in range(int(AFTER_KILL_S / bucket)):
                lo = kill_at + k * bucket
                if sum(1 for t in edges if lo <= t < lo + bucket) >= 0.5 * steady["moves_s"] * bucket:
                    recovered = lo - kill_at
                    break
            late = [t for t in edges if t >= end - 5.0]
            result.update(
                {
                    "kill_recovered_s": round(recovered, 2) if recovered is not None else None,
                    "kill_longest_gap_s": round(max(gaps), 3),
                    "kill_failed_attempts": found["fail_after_kill"],
                    "kill_moves_s_last_5s": round(len(late) / 5.0, 1),
                }
            )
    finally:
        spaces.cleanup()
    result["load_1min_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
