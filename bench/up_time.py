"""`gamehall up` to ready, and a killed `up` to its stack gone.

Each run: an empty data folder, `gamehall up` (every service; ``--referees`` of them referees),
the seconds to the printed URL (the gateway answering its /readyz with this start's instance)
and the CPU seconds the stack had spent by then;
then SIGKILL of `up` and the seconds until every process it started (``stack.json``
``children``) has gone.  Before those, ``gamehall --help`` ``--help-runs`` times: the wall and
the CPU seconds (user + system) of the whole command, the entry-point script as a person runs it.
Prints one JSON object: the medians of ``--runs`` for each referee count and of the help runs.

    .venv/bin/python bench/up_time.py --runs 3 --referees 1,2 --help-runs 10
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.common import stack  # noqa: E402
from services.common.processes import NotReady, UpProcess, free_port  # noqa: E402


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (0 when it has gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(referees: int) -> tuple[float, float, float]:
    data = Path(tempfile.mkdtemp(prefix="gh-up-"))
    env = dict(os.environ, GAMEHALL_DATA_DIR=str(data), GAMEHALL_HTTP_PORT=str(free_port()))
    env["GAMEHALL_REFEREES"] = str(referees)
    env.pop("NATS_URL", None)
    t0 = time.perf_counter()
    up = UpProcess(env, command=[str(ROOT / ".venv" / "bin" / "gamehall"), "up"])
    try:
        up.wait_url(timeout=180)
        ready_s = time.perf_counter() - t0
        info = stack.read(data)
        children = list(info.children.values()) if info is not None else []
        stack_cpu = cpu_s(up.proc.pid) + sum(cpu_s(pid) for pid in children)
        up.proc.kill()
        up.proc.wait()
        killed = time.perf_counter()
        while any(stack.alive(pid) for pid in children) and time.perf_counter() - killed < 60:
            time.sleep(0.05)
        gone_s = time.perf_counter() - killed
    except NotReady:
        ready_s = gone_s = stack_cpu = float("nan")
    finally:
        if up.proc.poll() is None:
            up.stop()
        shutil.rmtree(data, ignore_errors=True)
    return ready_s, gone_s, stack_cpu


def help_time(runs: int) -> dict[str, float]:
    """Median wall and CPU seconds of ``gamehall --help`` (a fresh interpreter each time)."""
    walls, cpus = [], []
    for _ in range(runs):
        before = os.times()
        t0 = time.perf_counter()
        subprocess.run([str(ROOT / ".venv" / "bin" / "gamehall"), "--help"], check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
        after = os.times()
        cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return {
        "help_s": round(statistics.median(walls), 3),
        "help_min_s": round(min(walls), 3),
        "help_cpu_s": round(statistics.median(cpus), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="starts per referee count (the median is reported)")
    ap.add_argument("--referees", default="2", help="referee counts to measure, comma-separated")
    ap.add_argument("--help-runs", type=int, default=10, help="runs of `gamehall --help` (0: none)")
    a = ap.parse_args()
    result: dict[str, object] = {"runs": a.runs, "cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    if a.help_runs:
        result.update(help_time(a.help_runs))
    for referees in (int(x) for x in a.referees.split(",") if a.runs):
        runs = [one_run(referees) for _ in range(a.runs)]
        print(
            json.dumps({"referees": referees, "runs": [[round(x, 2) for x in run] for run in runs]}),
            file=sys.stderr,
        )
        result[f"referees_{referees}"] = {
            "up_to_ready_s": round(statistics.median(r for r, _, _ in runs), 2),
            "killed_up_to_stack_gone_s": round(statistics.median(g for _, g, _ in runs), 2),
            # CPU seconds that `up` and every process it started had spent when the URL came
            "stack_cpu_at_ready_s": round(statistics.median(c for _, _, c in runs), 2),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
