"""The first `make run` on a fresh clone, and the second one.

Clones the committed HEAD of this repository into a temporary folder (with ``../shared`` beside
it, a link to this checkout's, as the repository expects), then runs ``make run`` there as a
person would: no ``GAMEHALL_*`` or ``NATS_URL`` settings, so ``up`` uses the clone's own
``.gamehall`` data folder, an embedded nats-server on a free port and port 8000 for the gateway
when it is free (any free port when not); no virtualenv active; the user's pip cache as it is.
Measured from the command to the printed URL and to the gateway answering ``/readyz``, with the
time of each step ``make`` prints (the virtualenv, pip's upgrade, the install, the bytecode,
``gamehall up``); then SIGINT to the process group, as Ctrl-C does, and the seconds until every
process of the clone (any process whose command line or working folder is in the clone) is gone.
Then ``make run`` again in the same clone (its .venv and data folder kept), measured the same way.

``--no-cache`` runs pip without its cache (``PIP_NO_CACHE_DIR``): every wheel fetched again.
Prints one JSON line.

    .venv/bin/python bench/first_run_bench.py [--runs 1] [--no-cache]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.common import stack  # noqa: E402
from services.common.processes import PRINTED_URL, http_ok  # noqa: E402

# The steps of `make run` by the command line make prints before running it.
STEPS = [
    ("venv_s", re.compile(r"-m venv ")),
    ("pip_upgrade_s", re.compile(r"pip install --quiet --upgrade pip")),
    ("install_s", re.compile(r"pip install --quiet -e \.")),
    ("bytecode_s", re.compile(r"-m compileall ")),
    ("up_s", re.compile(r"/gamehall up")),
]


def user_env(no_cache: bool) -> dict[str, str]:
    """This environment as a person's shell has it: no gamehall settings, no active virtualenv."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GAMEHALL_")
        and k
        not in ("NATS_URL", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE", "PYTHONHOME", "MAKEFLAGS", "MAKELEVEL")
    }
    venv_bins = {str(ROOT / ".venv" / "bin"), str(Path(sys.prefix) / "bin")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p not in venv_bins)
    env["PYTHONUNBUFFERED"] = "1"
    if no_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    return env


def pip_cache_mb() -> float:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False
    )
    where = Path(proc.stdout.strip() or Path.home() / ".cache" / "pip")
    total = 0
    if where.is_dir():
        for dirpath, _, files in os.walk(where):
            for name in files:
                try:
                    total += (Path(dirpath) / name).stat().st_size
                except OSError:
                    pass
    return round(total / 2**20, 1)


def clone_processes(clone: Path) -> set[int]:
    """Every process whose command line or working folder lies in the clone."""
    found: set[int] = set()
    mark = str(clone)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if mark in cmdline or cwd == mark or cwd.startswith(mark + os.sep):
            found.add(int(entry.name))
    return found


def one_make_run(clone: Path, env: dict[str, str], timeout: float = 900) -> dict[str, Any]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        ["make", "run"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    marks: dict[str, float] = {}
    seen: list[str] = []
    url = ""
    deadline = t0 + timeout
    while time.perf_counter() < deadline:
        line = proc.stdout.readline()
        now = time.perf_counter() - t0
        if not line:
            if proc.poll() is not None:
                break
            time.sleep(0.01)
            continue
        seen.append(line)
        for name, pattern in STEPS:
            if name not in marks and pattern.search(line):
                marks[name] = now
        found = PRINTED_URL.search(line)
        if found:
            url = found.group(1)
            break
    url_s = time.perf_counter() - t0
    if not url:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise RuntimeError("make run printed no URL:\n" + "".join(seen[-30:]))
    while not http_ok(f"{url}/readyz"):
        if time.perf_counter() > deadline:
            raise RuntimeError(f"{url}/readyz did not answer")
        time.sleep(0.02)
    ready_s = time.perf_counter() - t0
    info = stack.read(clone / ".gamehall")
    started = clone_processes(clone)
    recorded = set(info.children.values()) | {info.pid} if info is not None else set()
    # Ctrl-C: SIGINT to make's process group (make and `gamehall up`; up stops its services).
    stop_t = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    make_exit_s = time.perf_counter() - stop_t
    watched = started | recorded
    while (
        left := {p for p in watched if stack.alive(p)} | clone_processes(clone)
    ) and time.perf_counter() - stop_t < 60:
        time.sleep(0.05)
    gone_s = time.perf_counter() - stop_t
    for pid in left:  # not expected: said in the result, then cleaned up
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    # The step durations: from the line make printed to the next step's line (or to the URL).
    times = sorted(marks.items(), key=lambda kv: kv[1])
    steps = {
        name: round((times[i + 1][1] if i + 1 < len(times) else url_s) - at, 2)
        for i, (name, at) in enumerate(times)
    }
    return {
        "to_url_s": round(url_s, 2),
        "to_readyz_s": round(ready_s, 2),
        "steps_s": steps,
        "url": url,
        "processes": len(watched),
        "stop_to_make_exit_s": round(make_exit_s, 2),
        "stop_to_all_gone_s": round(gone_s, 2),
        "left_running": sorted(left),
    }


def one_clone(no_cache: bool) -> dict[str, Any]:
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    base = Path(tempfile.mkdtemp(prefix="gh-first-run-"))
    clone = base / "main"
    try:
        t0 = time.perf_counter()
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "--quiet", head], cwd=clone, check=True)
        clone_s = time.perf_counter() - t0
        shared = ROOT.parent / "shared"
        if shared.exists():
            (base / "shared").symlink_to(shared)
        env = user_env(no_cache)
        cache_before = pip_cache_mb()
        first = one_make_run(clone, env)
        say(f"first make run: {json.dumps(first)}")
        second = one_make_run(clone, env)
        say(f"second make run: {json.dumps(second)}")
        return {
            "commit": head[:12],
            "clone_s": round(clone_s, 2),
            "pip_cache_mb_before": None if no_cache else cache_before,
            "first": first,
            "second": second,
        }
    finally:
        for pid in clone_processes(clone):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(base, ignore_errors=True)


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=1, help="fresh clones, each run twice (medians reported)")
    ap.add_argument("--no-cache", action="store_true", help="pip without its cache (PIP_NO_CACHE_DIR=1)")
    a = ap.parse_args()
    load_start = round(os.getloadavg()[0], 2)
    runs = [one_clone(a.no_cache) for _ in range(a.runs)]

    def med(which: str, key: str) -> float:
        return round(statistics.median(r[which][key] for r in runs), 2)

    result = {
        "first_run_pip_cache": "off" if a.no_cache else "user",
        "first_run_to_url_s": med("first", "to_url_s"),
        "first_run_to_readyz_s": med("first", "to_readyz_s"),
        "first_run_steps_s": runs[len(runs) // 2]["first"]["steps_s"],
        "second_run_to_url_s": med("second", "to_url_s"),
        "second_run_to_readyz_s": med("second", "to_readyz_s"),
        "second_run_steps_s": runs[len(runs) // 2]["second"]["steps_s"],
        "make_run_stop_to_all_gone_s": med("first", "stop_to_all_gone_s"),
        "make_run_left_running": sum(len(r[w]["left_running"]) for r in runs for w in ("first", "second")),
        "first_run_runs": runs,
        "first_run_loadavg_1m": [load_start, round(os.getloadavg()[0], 2)],
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
