"""CPU per move by process, gamehall against the reference pipeline, measured in one run.

    .venv/bin/python bench/cpu_table.py [--secs 8] [--rounds 1]

Runs the bare reference pipeline (../shared/bench/raw_pipeline.py --configs main), then
bench/pipeline.py over NATS with one referee and with two, through the gateway over HTTP and on
the seats' WebSockets (64 matches, two referees each), each on a fresh nats-server, ``--rounds`` times in that order (the
figures of a round are measured minutes apart on the same machine).  Prints a Markdown table per
round on stderr: moves/s and the ratio to the reference, the CPU microseconds per move of every
process (referees, scoring, leaderboard, nats-server, gateway, client), the total outside the
client and its multiple of the reference's, and the CPU of scoring per decision stored on the
match stream (the match-list projection's cost on the command path; its other projections read
two integration events per match).  Ends with one JSON line.  ``make bench`` (bench/run.py)
prints the same table for its own pipeline runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

# What each process of a run is called in the table (the reference's referee is ``referee0``).
ROWS = ("referee(s)", "scoring", "leaderboard", "nats-server", "gateway", "client")


def by_process(run: dict[str, Any]) -> dict[str, float]:
    """A run's CPU µs per move by the table's rows (referees summed)."""
    prefix = "cpu_us_per_move["
    cpu = {k[len(prefix) : -1]: float(v) for k, v in run.items() if k.startswith(prefix)}
    out: dict[str, float] = {}
    referees = [v for k, v in cpu.items() if k.startswith("referee")]
    if referees:
        out["referee(s)"] = round(sum(referees), 1)
    for name in ROWS[1:]:
        if name in cpu:
            out[name] = cpu[name]
    out["outside the client"] = round(sum(v for k, v in out.items() if k != "client"), 1)
    return out


def table(raw: dict[str, Any], runs: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The Markdown table of ``runs`` (title -> pipeline result) beside the reference ``raw``, and
    the same figures as a dict for the JSON line."""
    columns = {"reference": raw, **runs}
    cpu = {title: by_process(run) for title, run in columns.items()}
    base = cpu["reference"]["outside the client"]
    lines = [
        "| per move | " + " | ".join(columns) + " |",
        "|---" * (len(columns) + 1) + "|",
        "| moves/s | " + " | ".join(f"{run['moves_s']:,.0f}" for run in columns.values()) + " |",
        "| ratio to the reference | "
        + " | ".join(f"{run['moves_s'] / raw['moves_s']:.2f}" for run in columns.values())
        + " |",
    ]
    for row in (*ROWS, "outside the client"):
        cells = [f"{cpu[t][row]:.0f}" if row in cpu[t] else "—" for t in columns]
        lines.append(f"| {row} (µs) | " + " | ".join(cells) + " |")
    lines.append(
        "| outside the client / reference's | "
        + " | ".join(f"{cpu[t]['outside the client'] / base:.2f}" for t in columns)
        + " |"
    )
    lines.append(
        "| scoring per stored decision (µs) | "
        + " | ".join(
            f"{run['cpu_us_per_decision[scoring]']:.0f}" if "cpu_us_per_decision[scoring]" in run else "—"
            for run in columns.values()
        )
        + " |"
    )
    figures: dict[str, Any] = {
        title: {
            "moves_s": run["moves_s"],
            "ratio": round(run["moves_s"] / raw["moves_s"], 3),
            "cpu_us_per_move": cpu[title],
            "outside_client_vs_reference": round(cpu[title]["outside the client"] / base, 2),
            "scoring_cpu_us_per_decision": run.get("cpu_us_per_decision[scoring]"),
        }
        for title, run in columns.items()
    }
    return "\n".join(lines), figures


def main() -> None:
    from run import ROOT as BENCH_ROOT
    from run import raw_reference, run_json, say

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--secs", type=float, default=8.0, help="measured seconds per pipeline run")
    ap.add_argument("--rounds", type=int, default=1, help="the whole set, this many times")
    a = ap.parse_args()
    pipeline = [sys.executable, "bench/pipeline.py", "--secs", str(a.secs)]
    rounds = []
    for n in range(a.rounds):
        say(f"[round {n + 1}/{a.rounds}] the reference pipeline...")
        raw = raw_reference(a.secs)
        runs = {}
        for title, args in (
            ("NATS, 1 referee", ["--mode", "nats", "--referees", "1"]),
            ("NATS, 2 referees", ["--mode", "nats", "--referees", "2"]),
            ("gateway (HTTP), 2 referees", ["--mode", "gateway", "--matches", "64", "--referees", "2"]),
            ("WebSocket, 2 referees", ["--mode", "ws", "--matches", "64", "--referees", "2"]),
        ):
            say(f"      {title}...")
            runs[title] = run_json([*pipeline, *args], BENCH_ROOT)
        text, figures = table(raw, runs)
        say(text)
        rounds.append(figures)
    print(json.dumps({"cpu_table_rounds": rounds}), flush=True)


if __name__ == "__main__":
    main()
