"""King, pure domain: random matches per second, the audit of a full match, computer players.

    .venv/bin/python bench/king_bench.py [--secs 5] [--preset king-4p-classic]
        [--matches 200] [--search-matches 40] [--skip-strength]

Rates and times are CPU time of the benchmark process.

1. Playouts: full matches of ``--preset`` between random legal players (every Ready, every
   rng_v1 deal) for ``--secs``: matches/s and decisions/s.
2. Audit: a full ``king-4p-classic`` match played by the heuristic through the match layer,
   stored as hash-chained JSON envelopes; the audit decodes them, walks the chain, checks the
   seed commitment, folds every event with the revealed server seed and re-derives every deal
   with ``verify_chance`` (best and median of 5).
3. Strength: heuristic against three random players, and search against three heuristics, over
   ``--matches`` / ``--search-matches`` matches of ``--strength-preset`` (the stronger player
   sits in each seat in turn); the win share (rank 1, shared first places counted) with a 95 %
   Wilson interval, the mean ms per decision of each player, and the stronger player's mean ms
   per card play with more than one legal card (where the search player searches).

The last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

from cardbench import audit_time, record_match, wilson

from contracts.envelope import Rejected
from domain.games.king import GAME
from domain.games.king.rules import PRESETS


def one_match(preset: str, seed: bytes, r: random.Random) -> int:
    ruleset = PRESETS[preset]
    names = GAME.seat_names(ruleset.players)
    state = GAME.initial_state(ruleset, names, seed)
    decisions = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_move(state))
        cmd = r.choice(GAME.legal_commands(state, seat))
        events = GAME.decide(state, seat, cmd)
        assert not isinstance(events, Rejected), events
        for e in events:
            state = GAME.evolve(state, e)
        decisions += 1
    return decisions


def bench_playouts(preset: str, secs: float) -> dict[str, Any]:
    r = random.Random(1)
    matches = decisions = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < secs or matches == 0:
        seed = hashlib.sha256(matches.to_bytes(8, "big")).digest()
        decisions += one_match(preset, seed, r)
        matches += 1
    elapsed = time.process_time() - cpu0
    return {
        "king_playout_preset": preset,
        "king_matches": matches,
        "king_matches_per_s": round(matches / elapsed, 2),
        "king_decisions_per_s": round(decisions / elapsed),
        "king_decisions_per_match": round(decisions / matches, 1),
    }










def strength(preset: str, strong: str, weak: str, matches: int) -> dict[str, Any]:
    """``strong`` in one seat (each seat in turn) against ``weak`` in the others."""
    ruleset = PRESETS[preset]
    names = GAME.seat_names(ruleset.players)
    n = len(names)
    wins = 0.0
    timing = {strong: [0, 0.0], weak: [0, 0.0]}
    card_play = [0, 0.0]  # the strong player's card plays with a choice (the search proper)
    for m in range(matches):
        me = m % n
        who = [weak] * n
        who[me] = strong
        r = random.Random(m)
        state = GAME.initial_state(ruleset, names, hashlib.sha256(b"strength%d" % m).digest())
        while GAME.outcome(state) is None:
            seat = min(GAME.to_move(state))
            kind = who[names.index(seat)]
            choice = kind == strong and state.phase == "playing" and len(GAME.legal_commands(state, seat)) > 1
            t = time.process_time()
            cmd = GAME.bots[kind](state, seat, r)
            spent = time.process_time() - t
            timing[kind][1] += spent
            timing[kind][0] += 1
            if choice:
                card_play[0] += 1
                card_play[1] += spent
            events = GAME.decide(state, seat, cmd)
            assert not isinstance(events, Rejected), (kind, cmd, events)
            for e in events:
                state = GAME.evolve(state, e)
        ranks = state.ranks
        if ranks[me] == 1:
            wins += 1 / sum(1 for x in ranks if x == 1)
    low, high = wilson(wins, matches)
    key = f"king_{strong}_vs_{weak}"
    return {
        f"{key}_matches": matches,
        f"{key}_win_share": round(wins / matches, 3),
        f"{key}_win_share_95": [low, high],
        f"{key}_baseline": round(1 / n, 3),
        f"king_{strong}_ms_per_decision": round(1000 * timing[strong][1] / max(1, timing[strong][0]), 3),
        f"king_{weak}_ms_per_decision": round(1000 * timing[weak][1] / max(1, timing[weak][0]), 3),
        f"king_{strong}_ms_per_card_choice": round(1000 * card_play[1] / max(1, card_play[0]), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=float, default=5.0)
    ap.add_argument("--preset", default="king-4p-classic")
    ap.add_argument("--strength-preset", default="king-4p-classic")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--search-matches", type=int, default=40)
    ap.add_argument("--skip-strength", action="store_true")
    args = ap.parse_args()

    result = bench_playouts(args.preset, args.secs)
    print(f"playouts: {result}", flush=True)

    bundle = record_match(
        "king", PRESETS["king-4p-classic"], "king-4p-classic", 4, hashlib.sha256(b"king-bench").digest(), bot="random"
    )
    result.update({f"king_{k}": v for k, v in audit_time(bundle).items()})
    print(f"audit: {result}", flush=True)
    if not args.skip_strength:
        result.update(strength(args.strength_preset, "heuristic", "random", args.matches))
        print(f"heuristic: {result}", flush=True)
        result.update(strength(args.strength_preset, "search", "heuristic", args.search_matches))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
