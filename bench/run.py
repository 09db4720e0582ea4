"""``make bench``: gamehall against the reference pipeline, measured in one run.

Runs, each on its own fresh nats-server:
  1. the bare reference pipeline (../shared/bench/raw_pipeline.py --configs main),
  2. gamehall's pipeline with commands straight over NATS (bench/pipeline.py --mode nats),
  3. the same through the gateway over HTTP (--mode gateway),
then the time from `gamehall up` to its printed URL and from a SIGKILL of `up` to its stack gone
(bench/up_time.py, median of 3, with `gamehall --help`'s time), latency at a fixed offered load in
an open loop at half and 80 % of the saturation it measures first, over NATS and through the
gateway (bench/open_loop.py), with ``--cluster`` the same pipeline across network namespaces
(bench/cluster.py: a three-node NATS cluster, 1 ms round trips; needs root), the recovery from a referee's SIGKILL
(bench/recovery.py: one and two referees, median of 5), the first and the second `make run` of a
fresh clone to its URL (bench/first_run_bench.py), the players' page's bytes of JS/CSS and time to
a drawn table in headless Chromium (bench/page_bench.py), and the game benchmarks that exist
(bench/ugolki_perft.py, bench/kc_bench.py, bench/thousand_bench.py,
bench/farkle_bench.py, bench/king_bench.py, bench/ranked_bench.py, bench/projection_bench.py,
bench/listing_bench.py, bench/ws_fanout_bench.py, bench/audit_bench.py, bench/tournament_bench.py, and
bench/<module>_bench.py of every other registered game, e.g. bench/draughts_bench.py).  Prints each result and
ends with one JSON line holding the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


SHARED_BENCH = Path(os.environ.get("GAMEHALL_SHARED_BENCH", ROOT.parent / "shared" / "bench"))


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def last_json(text: str) -> dict:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    raise ValueError("no JSON line in output:\n" + text[-2000:])


def run_json(args: list[str], cwd: Path, timeout: float = 600) -> dict:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return last_json(proc.stdout)


def raw_reference(secs: float) -> dict:
    script = SHARED_BENCH / "raw_pipeline.py"
    if not script.exists():
        raise SystemExit(f"reference pipeline not found at {script} (set GAMEHALL_SHARED_BENCH)")
    proc = subprocess.run(
        [sys.executable, str(script), "--reps", "1", "--secs", str(secs), "--configs", "main"],
        cwd=SHARED_BENCH,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    for line in proc.stdout.splitlines():
        if line.startswith("main {"):
            return json.loads(line[len("main ") :])
    return last_json(proc.stdout)


def cpu_per_move(run: dict) -> dict:
    """CPU microseconds per move of each process of a pipeline run."""
    prefix = "cpu_us_per_move["
    return {k[len(prefix) : -1]: v for k, v in run.items() if k.startswith(prefix)}


def game_benches() -> list[str]:
    """The game benchmarks: the long-standing ones, then ``bench/<module>_bench.py`` of every
    registered game that has one (a game added later brings its own, named after its module)."""
    from contracts.games import BUILT_IN

    fixed = [
        "ugolki_perft.py",
        "kc_bench.py",
        "thousand_bench.py",
        "farkle_bench.py",
        "king_bench.py",
        "ranked_bench.py",
        "projection_bench.py",
        "listing_bench.py",
        "ws_fanout_bench.py",
        "audit_bench.py",
        "tournament_bench.py",
    ]
    return fixed + [s for s in (f"{m}_bench.py" for m in BUILT_IN) if s not in fixed]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--secs", type=float, default=8.0, help="measured seconds per pipeline run")
    ap.add_argument("--skip-games", action="store_true", help="only the pipelines")
    ap.add_argument(
        "--cluster",
        action="store_true",
        help="also bench/cluster.py: network namespaces, a three-node NATS cluster (needs root)",
    )
    a = ap.parse_args()
    py = sys.executable
    say("[1/4] reference pipeline (raw nats-py, trivial rule)...")
    raw = raw_reference(a.secs)
    say(f"      {raw['moves_s']:.0f} moves/s, p99 {raw['p99_ms']} ms")
    pipeline = [py, "bench/pipeline.py", "--secs", str(a.secs)]
    say("[2/4] gamehall over NATS (full Ugolki rules), two referees splitting the partitions...")
    nats_run = run_json([*pipeline, "--mode", "nats", "--referees", "2"], ROOT)
    say(f"      {nats_run['moves_s']:.0f} moves/s, p99 {nats_run['p99_ms']} ms: {json.dumps(nats_run)}")
    say("      ...and one referee, like the reference")
    single = run_json([*pipeline, "--mode", "nats", "--referees", "1"], ROOT)
    say(f"      {single['moves_s']:.0f} moves/s, p99 {single['p99_ms']} ms: {json.dumps(single)}")
    say("      ...and three referees")
    triple = run_json([*pipeline, "--mode", "nats", "--referees", "3"], ROOT)
    say(f"      {triple['moves_s']:.0f} moves/s, p99 {triple['p99_ms']} ms: {json.dumps(triple)}")
    say("[3/4] gamehall through the gateway (HTTP), two referees...")
    gw_run = run_json([*pipeline, "--mode", "gateway", "--matches", "64", "--referees", "2"], ROOT)
    say(f"      {gw_run['moves_s']:.0f} moves/s, p99 {gw_run['p99_ms']} ms: {json.dumps(gw_run)}")
    from cpu_table import table as cpu_table  # bench/cpu_table.py, beside this script

    cpu_text, cpu_figures = cpu_table(
        raw, {"NATS, 1 referee": single, "NATS, 2 referees": nats_run, "gateway (HTTP), 2 referees": gw_run}
    )
    say("      CPU per move by process (bench/cpu_table.py):\n" + cpu_text)
    say("[4/4] time from `gamehall up` to the printed URL (its own gateway ready), and a killed up to its stack gone...")
    up_run = run_json([py, "bench/up_time.py", "--runs", "3", "--referees", "2"], ROOT)
    up_s = up_run["referees_2"]["up_to_ready_s"]
    say(f"      {up_s} s (median of 3, two referees): {json.dumps(up_run)}")
    say(f"      gamehall --help: {up_run.get('help_s')} s (CPU {up_run.get('help_cpu_s')} s, median of 10)")
    say("      latency at a fixed offered load, open loop (bench/open_loop.py: half and 80 % of saturation)...")
    open_loop: dict = {}
    try:
        open_loop = run_json([py, "bench/open_loop.py", "--mode", "both"], ROOT, timeout=1800)
        for mode in ("nats", "gateway"):
            for level in ("load_50", "load_80"):
                found = open_loop[mode][level]
                say(
                    f"      {mode} {level}: {found['achieved_moves_s']} moves/s, reply p50/p99/p99.9 "
                    f"{found['reply_p50_ms']}/{found['reply_p99_ms']}/{found['reply_p999_ms']} ms, view "
                    f"{found['view_p50_ms']}/{found['view_p99_ms']}/{found['view_p999_ms']} ms"
                )
    except (RuntimeError, ValueError, subprocess.TimeoutExpired, KeyError) as exc:
        say(f"      failed: {exc}")
    cluster: dict = {}
    if a.cluster:
        say("      across network namespaces: a three-node NATS cluster, 1 ms round trips (bench/cluster.py)...")
        try:
            cluster = run_json([py, "bench/cluster.py"], ROOT, timeout=1800)
            say(f"      {json.dumps(cluster)}")
        except (RuntimeError, ValueError, subprocess.TimeoutExpired) as exc:
            say(f"      failed: {exc}")
    say("      recovery: a referee SIGKILLed under `gamehall up` and load, 5 kills, one and two referees...")
    recovery = run_json([py, "bench/recovery.py", "--kills", "5", "--referees", "1,2"], ROOT, timeout=1800)
    for count in (1, 2):
        found = recovery[f"referees_{count}"]
        say(
            f"      {count} referee(s): first success after the kill {found['median_recovery_s']} s, "
            f"longest client wait {found['median_gap_s']} s, client errors {found['errors']} (medians of 5); "
            f"phases {json.dumps(found['median_phases_s'])}"
        )
    say("      the first `make run` of a fresh clone to its URL, and the second (bench/first_run_bench.py)...")
    first_run: dict = {}
    try:
        first_run = run_json([py, "bench/first_run_bench.py"], ROOT, timeout=1800)
        say(
            f"      first {first_run['first_run_to_url_s']} s (steps {json.dumps(first_run['first_run_steps_s'])}), "
            f"second {first_run['second_run_to_url_s']} s"
        )
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as exc:
        say(f"      failed: {exc}")
    say("      the players' page: bytes of JS/CSS and time to a drawn table in Chromium (bench/page_bench.py)...")
    page: dict = {}
    try:
        page = run_json([py, "bench/page_bench.py"], ROOT, timeout=1800)
        say(
            f"      lobby {page['page_lobby']['raw_bytes']} B ({page['page_lobby']['gzip_bytes']} gzip); a table "
            f"{page['page_table_cold_ms_median']} ms cold, {page['page_table_warm_ms_median']} ms warm (median of games)"
        )
    except (RuntimeError, ValueError, subprocess.TimeoutExpired, KeyError) as exc:
        say(f"      failed: {exc}")
    summary: dict = {
        "raw_moves_s": raw["moves_s"],
        "raw_p99_ms": raw["p99_ms"],
        "raw_cpu_us_per_move_excl_client": raw.get("cpu_us_per_move_excl_client"),
        "nats_moves_s": nats_run["moves_s"],
        "nats_ratio": round(nats_run["moves_s"] / raw["moves_s"], 3),
        "nats_referees": nats_run["referees"],
        "p50_ms": nats_run["p50_ms"],
        "p99_ms": nats_run["p99_ms"],
        "nats_cpu_us_per_move": cpu_per_move(nats_run),
        "nats_1_referee_moves_s": single["moves_s"],
        "nats_1_referee_ratio": round(single["moves_s"] / raw["moves_s"], 3),
        "nats_1_referee_p99_ms": single["p99_ms"],
        "nats_1_referee_cpu_us_per_move": cpu_per_move(single),
        "gateway_moves_s": gw_run["moves_s"],
        "gateway_ratio": round(gw_run["moves_s"] / raw["moves_s"], 3),
        "gateway_p50_ms": gw_run["p50_ms"],
        "gateway_p99_ms": gw_run["p99_ms"],
        "gateway_cpu_us_per_move": cpu_per_move(gw_run),
        "cpu_table": cpu_figures,
        "nats_3_referees_moves_s": triple["moves_s"],
        "nats_3_referees_ratio": round(triple["moves_s"] / raw["moves_s"], 3),
        "up_to_url_s": up_s,
        "up_stack_cpu_at_url_s": up_run["referees_2"].get("stack_cpu_at_ready_s"),
        "help_s": up_run.get("help_s"),
        "help_cpu_s": up_run.get("help_cpu_s"),
        "killed_up_to_stack_gone_s": up_run["referees_2"]["killed_up_to_stack_gone_s"],
        "referee_recovery_s": recovery["recovery_s"],
        "referee_recovery_errors": recovery["referees_1"]["errors"],
        "two_referees_kill_gap_s": recovery["two_referees_gap_s"],
        "two_referees_kill_errors": recovery["two_referees_errors"],
    }
    for mode in ("nats", "gateway"):
        for level, found in open_loop.get(mode, {}).items():
            if not level.startswith("load_"):
                continue
            for key in ("achieved_moves_s", "reply_p50_ms", "reply_p99_ms", "reply_p999_ms", "view_p50_ms", "view_p99_ms", "view_p999_ms"):
                summary[f"open_loop_{mode}_{level}_{key}"] = found[key]
        if mode in open_loop:
            summary[f"open_loop_{mode}_saturation_moves_s"] = open_loop[mode]["saturation_moves_s"]
    summary.update({f"cluster_{k}": v for k, v in cluster.items()})
    summary.update({k: v for k, v in first_run.items() if k != "first_run_runs"})
    summary.update({k: v for k, v in page.items() if k != "page_tables"})
    summary["page_tables"] = {
        game: {k: t[k] for k in ("raw_bytes", "gzip_bytes", "cold_frame_ms", "warm_frame_ms")}
        for game, t in page.get("page_tables", {}).items()
    }
    if not a.skip_games:
        for script in game_benches():
            path = ROOT / "bench" / script
            if not path.exists():
                continue
            say(f"[games] {script}...")
            try:
                # the 1000 strength table plays 2 x 200 full matches
                result = run_json(
                    [py, str(path)], ROOT, timeout=2400 if script == "thousand_bench.py" else 900
                )
            except (RuntimeError, ValueError, subprocess.TimeoutExpired) as exc:
                say(f"      failed: {exc}")
                continue
            say(f"      {json.dumps(result)}")
            summary.update(result)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
