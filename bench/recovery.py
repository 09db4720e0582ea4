"""Referee recovery after SIGKILL under `gamehall up`, with one referee and with two.

Each kill runs on a fresh stack (so every kill is the supervisor's first restart, not the
back-off of a crash loop): ``--stored`` unfinished matches are stored first (a start-up that
replays running matches shows here), then ``--clients`` clients play their own Ugolki matches
through the gateway without pause (a steady command load; a client retries a failed command
with the same command id after 20 ms, as a client should), and the supervised referee is
killed with SIGKILL.

One referee: ``recovery_s`` is the time from the kill to the first success of a command sent
after it (every command meanwhile is a 503 ``unavailable``), split from the restarted
referee's start-up log into the supervisor's delay before the new process, the process's start
and imports, the shell (NATS connection, streams), the secrets stream, the subscriptions and
the first command.  Two referees (``GAMEHALL_REFEREES=2``; a second referee is started beside
the stack when ``gamehall up`` starts only one): ``errors`` counts the client-visible failures
(any answer but 200) from the kill on, and ``gap_s`` is the longest a client waited for one
command to succeed across the kill.  Prints one JSON line; the medians are of ``--kills`` kills.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.common.processes import UpProcess, free_port, gamehall_args, spawn, stop_all  # noqa: E402

# The bench's own clients hammer one address: no rate limits in the way.
SERVED_S = 8.0  # the referee has run this long when it is killed
NO_LIMITS = {"GAMEHALL_RATE_ADDRESS": "off", "GAMEHALL_RATE_CREDENTIAL": "off", "GAMEHALL_RATE_CREATE": "off"}


def referee_pids(up: subprocess.Popen[str]) -> list[int]:
    found = subprocess.run(
        ["pgrep", "-P", str(up.pid), "-f", "serve referee"], capture_output=True, text=True
    )
    return sorted(int(p) for p in found.stdout.split())


def new_match(client: httpx.Client, clock: bool = False) -> tuple[str, dict[str, str]]:
    body: dict = {"game": "ugolki", "players": ["ann", "bob"]}
    if clock:
        body["time_control"] = {"base_s": 3600}
    r = client.post("/api/matches", json=body)
    r.raise_for_status()
    got = r.json()
    return got["match_id"], {s["seat"]: s["token"] for s in got["seats"]}


@dataclass
class Command:
    """One command of a client: first sent, answered with success, and every attempt's status."""

    first_sent: float
    succeeded: float | None = None
    attempts: list[tuple[float, int]] = field(default_factory=list)  # (sent at, status)


class Player(threading.Thread):
    """A client playing its own matches back to back, one command at a time."""

    def __init__(self, url: str, name: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=url, timeout=httpx.Timeout(30.0))
        self.name = name
        self.stop = stop
        self.commands: list[Command] = []
        self.read_errors: Counter[int] = Counter()

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            match_id, tokens = new_match(self.client)
            while not self.stop.is_set():
                view = self.client.get(f"/api/matches/{match_id}")
                if view.status_code != 200:
                    self.read_errors[view.status_code] += 1
                    time.sleep(0.02)
                    continue
                movers = view.json()["to_move"]
                if not movers:
                    break  # finished: the next match
                auth = {"authorization": f"Bearer {tokens[movers[0]]}"}
                mine = self.client.get(f"/api/matches/{match_id}", headers=auth)
                if mine.status_code != 200:
                    self.read_errors[mine.status_code] += 1
                    continue
                body = {"command": mine.json()["legal_moves"][0]["command"], "command_id": f"{self.name}-{n}"}
                n += 1
                command = Command(first_sent=time.time())
                self.commands.append(command)
                while not self.stop.is_set():
                    sent = time.time()
                    r = self.client.post(f"/api/matches/{match_id}/commands", headers=auth, json=body)
                    command.attempts.append((sent, r.status_code))
                    if r.status_code == 200:
                        command.succeeded = time.time()
                        break
                    time.sleep(0.02)


def last_started(log: Path) -> dict | None:
    """The last ``referee_started`` line of a referee log."""
    found = None
    for line in log.read_text(errors="replace").splitlines():
        if '"referee_started"' in line:
            try:
                found = json.loads(line)
            except ValueError:
                continue
    return found


def restarted(data: Path, killed: float) -> dict | None:
    """The start-up line of the referee that started after the kill (``referee.log``, or
    ``referee-1.log``, ``referee-2.log``... with several)."""
    for log in sorted((data / "logs").glob("referee*.log")):
        line = last_started(log)
        if line is not None and log_time(line) > killed:
            return line
    return None


def log_time(line: dict) -> float:
    return datetime.fromisoformat(line["timestamp"].replace("Z", "+00:00")).timestamp()


def wait_for(cond, what: str, timeout: float = 90.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise SystemExit(f"{what}: not within {timeout:.0f}s")
        time.sleep(0.05)


def one_kill(referees: int, clients: int, stored: int, watch_s: float) -> dict:
    data = Path(tempfile.mkdtemp(prefix="gh-recovery-"))
    env = dict(
        os.environ,
        **NO_LIMITS,
        GAMEHALL_DATA_DIR=str(data),
        GAMEHALL_HTTP_PORT=str(free_port()),
        GAMEHALL_REFEREES=str(referees),
        GAMEHALL_LOG_FORMAT="json",
    )
    env.pop("NATS_URL", None)
    up = UpProcess(env, services=("referee", "gateway"))
    extra: list[subprocess.Popen[bytes]] = []
    stop = threading.Event()
    players: list[Player] = []
    try:
        url = up.wait_url()
        have = referee_pids(up.proc)
        for i in range(referees - len(have)):
            extra_env = dict(env, GAMEHALL_METRICS_PORT="0")
            extra.append(
                spawn(
                    gamehall_args("serve", "referee"),
                    extra_env,
                    output=data / "logs" / f"referee-extra-{i}.log",
                )
            )
        client = httpx.Client(base_url=url, timeout=httpx.Timeout(30.0))
        for i in range(stored):
            new_match(client, clock=i % 2 == 0)
        if extra:
            wait_for(
                lambda: all(
                    last_started(data / "logs" / f"referee-extra-{i}.log") for i in range(len(extra))
                ),
                "the extra referee",
            )
        players = [Player(url, f"c{i}", stop) for i in range(clients)]
        for p in players:
            p.start()
        wait_for(lambda: all(any(c.succeeded for c in p.commands) for p in players), "the load")
        # a referee that has served a while (it writes its bytecode after 5 s: services.referee.app)
        time.sleep(max(1.0, SERVED_S - (time.monotonic() - up.started)))
        victim = referee_pids(up.proc)[0]
        os.kill(victim, signal.SIGKILL)
        killed = time.time()
        if referees == 1:

            def recovered() -> bool:
                return any(
                    c.succeeded and any(s >= killed and st == 200 for s, st in c.attempts)
                    for p in players
                    for c in p.commands
                )

            wait_for(recovered, "no command succeeded after the kill", 120)
        wait_for(lambda: restarted(data, killed) is not None, "the restarted referee", 120)
        time.sleep(watch_s)
    finally:
        stop.set()
        for p in players:
            p.join(timeout=35)
        stop_all(extra)
        up.stop()
    return measure(players, killed, restarted(data, killed), referees)


def measure(players: list[Player], killed: float, started: dict | None, referees: int) -> dict:
    commands = [c for p in players for c in p.commands]
    errors: Counter[int] = Counter()
    for c in commands:
        for sent, status in c.attempts:
            if sent >= killed - 0.5 and status != 200:
                errors[status] += 1
    # One referee: the first success once the restarted referee is up (a reply in transit at
    # the kill is not one).  Two: the first success after the kill (the survivor's).
    since = log_time(started) if started is not None and referees == 1 else killed
    first_ok = min((c.succeeded for c in commands if c.succeeded and c.succeeded >= since), default=None)
    across = [c.succeeded - c.first_sent for c in commands if c.succeeded and c.succeeded >= killed - 0.5]
    out: dict = {
        "recovery_s": round(first_ok - killed, 2) if first_ok else None,
        "gap_s": round(max(across), 2) if across else None,
        "errors": sum(errors.values()),
        "error_statuses": dict(errors),
        "read_errors": sum(sum(p.read_errors.values()) for p in players),
        "commands": sum(1 for c in commands if c.succeeded),
    }
    if started is not None:
        phases = started.get("startup_s") or {}
        at = log_time(started)
        spent = sum(v for v in phases.values() if v)
        out["phases_s"] = {
            "supervisor": round(at - spent - killed, 2),
            **{k: round(v, 2) for k, v in phases.items() if v is not None},
            "first_command": round(first_ok - at, 2) if first_ok and referees == 1 else None,
        }
    return out


def summary(runs: list[dict]) -> dict:
    def med(key: str) -> float | None:
        values = [r[key] for r in runs if r.get(key) is not None]
        return round(statistics.median(values), 2) if values else None

    phases: dict[str, float] = {}
    for name in runs[0].get("phases_s", {}):
        values = [r["phases_s"][name] for r in runs if r.get("phases_s", {}).get(name) is not None]
        if values:
            phases[name] = round(statistics.median(values), 2)
    return {
        "median_recovery_s": med("recovery_s"),
        "median_gap_s": med("gap_s"),
        "errors": sum(r["errors"] for r in runs),
        "median_phases_s": phases,
        "kills": runs,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=5, help="kills per referee count (a fresh stack each)")
    ap.add_argument("--referees", default="1,2", help="referee counts to measure, comma-separated")
    ap.add_argument("--clients", type=int, default=4, help="clients playing during the kill")
    ap.add_argument("--stored", type=int, default=40, help="unfinished matches stored before the kill")
    ap.add_argument("--watch", type=float, default=2.0, help="seconds to keep the load on after the restart")
    a = ap.parse_args()
    result: dict = {}
    for referees in (int(x) for x in a.referees.split(",")):
        runs = []
        for _ in range(a.kills):
            run = one_kill(referees, a.clients, a.stored, a.watch)
            print(json.dumps({"referees": referees, **run}), file=sys.stderr, flush=True)
            runs.append(run)
        result[f"referees_{referees}"] = summary(runs)
    one, two = result.get("referees_1"), result.get("referees_2")
    if one:
        result["recovery_s"] = one["median_recovery_s"]
    if two:
        result["two_referees_gap_s"] = two["median_gap_s"]
        result["two_referees_errors"] = two["errors"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
