"""Run a gamehall command with its garbage collector's pauses recorded (a bench's diagnostic).

    python bench/gc_probe.py OUT.json serve gateway

Every collection's duration and generation, by ``gc.callbacks``; at exit (a service stops on
SIGTERM and exits normally) OUT.json gets the count, total and longest pause per generation and
the pauses over 10 ms with their instants (``time.time()``)."""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    out = Path(sys.argv[1])
    stats: dict[int, list[float]] = {0: [], 1: [], 2: []}
    long: list[tuple[float, int, float]] = []
    started = [0.0]

    def probe(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        stats[info["generation"]].append(took)
        if took > 0.01:
            long.append((time.time(), info["generation"], round(took * 1e3, 2)))

    def write() -> None:
        out.write_text(
            json.dumps(
                {
                    "by_generation": {
                        str(g): {
                            "count": len(xs),
                            "total_ms": round(sum(xs) * 1e3, 1),
                            "longest_ms": round(max(xs, default=0.0) * 1e3, 2),
                        }
                        for g, xs in stats.items()
                    },
                    "over_10ms": long,
                }
            )
        )

    gc.callbacks.append(probe)
    atexit.register(write)
    from services.cli.main import app

    if os.environ.get("GH_GC_PROBE_TUNE"):
        # what service_shell does in every other service: start-up's objects out of every
        # collection, the young generation collected less often
        import importlib

        from services.cli.stackrun import SERVICE_MODULES

        importlib.import_module(SERVICE_MODULES[sys.argv[3]])
        gc.freeze()
        gc.set_threshold(100_000, 50, 1000)

    sys.argv = ["gamehall", *sys.argv[2:]]
    app()


if __name__ == "__main__":
    main()
