"""`gamehall up` to ready, and a killed `up` to its stack gone.

Each run: an empty data folder, `gamehall up` (every service; ``--referees`` of them referees),
the seconds to the printed URL (the gateway answering its /readyz with this start's instance);
then SIGKILL of `up` and the seconds until every process it started (``stack.json``
``children``) has gone.  Prints one JSON object: the median of ``--runs`` for each referee count.

    .venv/bin/python bench/up_time.py --runs 3 --referees 1,2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.common import stack  # noqa: E402
from services.common.processes import NotReady, UpProcess, free_port  # noqa: E402


def one_run(referees: int) -> tuple[float, float]:
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
        up.proc.kill()
        up.proc.wait()
        killed = time.perf_counter()
        while any(stack.alive(pid) for pid in children) and time.perf_counter() - killed < 60:
            time.sleep(0.05)
        gone_s = time.perf_counter() - killed
    except NotReady:
        ready_s = gone_s = float("nan")
    finally:
        if up.proc.poll() is None:
            up.stop()
        shutil.rmtree(data, ignore_errors=True)
    return ready_s, gone_s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="starts per referee count (the median is reported)")
    ap.add_argument("--referees", default="2", help="referee counts to measure, comma-separated")
    a = ap.parse_args()
    result: dict[str, object] = {"runs": a.runs, "cpus": os.cpu_count()}
    for referees in (int(x) for x in a.referees.split(",")):
        runs = [one_run(referees) for _ in range(a.runs)]
        print(
            json.dumps({"referees": referees, "runs": [[round(r, 2), round(g, 2)] for r, g in runs]}),
            file=sys.stderr,
        )
        result[f"referees_{referees}"] = {
            "up_to_ready_s": round(statistics.median(r for r, _ in runs), 2),
            "killed_up_to_stack_gone_s": round(statistics.median(g for _, g in runs), 2),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
