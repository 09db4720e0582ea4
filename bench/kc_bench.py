"""Kings in the Corner, pure domain: random playouts per second and the audit time of a match.

    .venv/bin/python bench/kc_bench.py [--secs 5] [--seats 4] [--preset cardgames-zone]

Rates and times are CPU time of the benchmark process (``rounds_per_s_wall`` is wall time).

1. Playouts: a full round (every seat Ready, the rng_v1 deal, random legal commands until the
   round ends) as many times as fit in ``--secs``; reports rounds/s and decisions/s.
2. Audit: a 5-round match played by the heuristic bot through the match layer is stored as
   hash-chained JSON envelopes; the audit decodes them, walks the chain, folds every event with
   the revealed server seed and re-derives every chance event with ``verify_chance``.

The last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

import msgspec
from cardbench import audit_time, record_match

from contracts.envelope import Rejected
from contracts.games.kings_corner import Ready
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS


def one_round(preset: str, seats: int, seed: bytes, r: random.Random) -> int:
    names = GAME.seat_names(seats)
    state = GAME.initial_state(PRESETS[preset], names, seed)
    decisions = 0
    for s in names:
        events = GAME.decide(state, s, Ready())
        assert not isinstance(events, Rejected)
        for e in events:
            state = GAME.evolve(state, e)
        decisions += 1
    while state.in_round:
        seat = names[state.current]
        cmd = r.choice(GAME.legal_commands(state, seat))
        events = GAME.decide(state, seat, cmd)
        assert not isinstance(events, Rejected), events
        for e in events:
            state = GAME.evolve(state, e)
        decisions += 1
    return decisions


def bench_playouts(preset: str, seats: int, secs: float) -> dict[str, Any]:
    r = random.Random(1)
    rounds = decisions = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < secs:
        seed = hashlib.sha256(rounds.to_bytes(8, "big")).digest()
        decisions += one_round(preset, seats, seed, r)
        rounds += 1
    wall = time.perf_counter() - start
    # CPU time of this process: stable when other work shares the machine
    elapsed = time.process_time() - cpu0
    return {
        "rounds_per_s_wall": round(rounds / wall, 1),
        "playout_preset": preset,
        "playout_seats": seats,
        "rounds": rounds,
        "rounds_per_s": round(rounds / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "decisions_per_round": round(decisions / rounds, 1),
    }








def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=float, default=5.0)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--preset", default="cardgames-zone")
    args = ap.parse_args()

    result = bench_playouts(args.preset, args.seats, args.secs)
    print(f"playouts: {result}", flush=True)

    seed = hashlib.sha256(b"kc-bench").digest()
    ruleset = msgspec.structs.replace(PRESETS["cardgames-zone"], match_end_value=5)
    bundle = record_match("kings-corner", ruleset, "cardgames-zone", args.seats, seed)
    result.update(audit_rounds=5, **audit_time(bundle))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
