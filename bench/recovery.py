"""Recovery time after killing a referee under `gamehall up` (issue 16): SIGKILL the referee while
a client keeps moving, and time the first command that succeeds after the kill.

With one referee nothing answers until the supervisor has restarted it (its backoff plus the
start-up of a Python process); with two, the survivor answers at once and only the commands
in flight at the dead one wait for their retry.  Prints one JSON line.
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
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.common.processes import UpProcess, free_port  # noqa: E402


def referee_pid(up: subprocess.Popen[str]) -> int | None:
    found = subprocess.run(["pgrep", "-P", str(up.pid), "-f", "serve referee"], capture_output=True, text=True)
    pids = [int(p) for p in found.stdout.split()]
    return pids[0] if pids else None


def new_match(client: httpx.Client) -> tuple[str, dict[str, str]]:
    r = client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
    r.raise_for_status()
    body = r.json()
    return body["match_id"], {s["seat"]: s["token"] for s in body["seats"]}


def move(client: httpx.Client, match_id: str, tokens: dict[str, str], n: int) -> bool:
    """One legal move of the match (the same command id on every retry); False when it failed."""
    view = client.get(f"/api/matches/{match_id}")
    if view.status_code != 200:
        return False
    seat = view.json()["to_move"][0]
    auth = {"authorization": f"Bearer {tokens[seat]}"}
    legal = client.get(f"/api/matches/{match_id}", headers=auth).json()["legal_moves"]
    r = client.post(
        f"/api/matches/{match_id}/commands",
        headers=auth,
        json={"command": legal[0]["command"], "command_id": f"bench-{n}"},
    )
    if os.environ.get("RECOVERY_DEBUG"):
        print(round(time.perf_counter(), 2), r.status_code, r.text[:120], file=sys.stderr)
    return r.status_code == 200


def one_kill(client: httpx.Client, up: subprocess.Popen[str]) -> float:
    match_id, tokens = new_match(client)
    n = 0
    for _ in range(3):
        assert move(client, match_id, tokens, n)
        n += 1
    pid = referee_pid(up)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    killed = time.perf_counter()
    while not move(client, match_id, tokens, n):
        time.sleep(0.02)
        if time.perf_counter() - killed > 60:
            raise SystemExit("no command succeeded within 60 s of the kill")
    return time.perf_counter() - killed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=3)
    a = ap.parse_args()
    data = tempfile.mkdtemp(prefix="gh-recovery-")
    env = dict(os.environ, GAMEHALL_DATA_DIR=data, GAMEHALL_HTTP_PORT=str(free_port()))
    env.pop("NATS_URL", None)
    up = UpProcess(env, services=("referee", "gateway"))
    try:
        url = up.wait_url()
        client = httpx.Client(base_url=url, timeout=httpx.Timeout(15.0))
        times = []
        for _ in range(a.kills):
            times.append(one_kill(client, up.proc))
            time.sleep(2)  # let the supervisor see the restarted referee healthy again
    finally:
        up.stop()
    print(json.dumps({"recovery_s": [round(t, 2) for t in times], "median_s": round(statistics.median(times), 2)}))


if __name__ == "__main__":
    main()
