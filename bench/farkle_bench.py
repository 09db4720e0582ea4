"""Farkle Flip, pure domain: random matches per second, ms per decision of each computer player,
and the strength table (rules/thousand-and-farkle-flip.md §3; bots in domain/games/farkle_flip/bots.py).

    .venv/bin/python bench/farkle_bench.py [--secs 5] [--matches 200] [--preset farkle-flip-placeholder]

1. Playouts: two-seat matches of random legal commands (every seat Ready, the rng_v1 deal, play to
   the end) for ``--secs``; matches/s and decisions/s (CPU time of this process).
2. Strength: every pairing of bots plays ``--matches`` two-seat matches, seats alternating, each
   match from its own server seed; the win share of the first bot (a shared win counts half) with
   a 95 % Wilson interval.  Every bot decides on its seat's information state (the draw pile is
   ``??`` there), as the bots service does.
3. Decision time: CPU ms per decision of each bot, measured inside the strength matches.

The last line printed is one JSON object with every number (keys prefixed ``farkle_``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

from cardbench import wilson

from contracts.envelope import Rejected
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.rules import PRESETS
from domain.games.farkle_flip.state import FFState
from domain.games.farkle_flip.view import redact

BOTS = ("random", "heuristic", "search")


def play(
    preset: str, seed: bytes, players: tuple[str, str], r: random.Random, timing: dict[str, list[float]]
) -> tuple[int, ...]:
    """One two-seat match; seat i is played by ``players[i]``.  Returns the ranks."""
    names = GAME.seat_names(2)
    state = GAME.initial_state(PRESETS[preset], names, seed)
    info: dict[str, FFState] = {s: GAME.initial_state(PRESETS[preset], names, None) for s in names}
    while GAME.outcome(state) is None:
        seat = sorted(GAME.to_move(state))[0]
        bot = players[names.index(seat)]
        t = time.process_time()
        cmd = GAME.bots[bot](info[seat], seat, r)
        timing.setdefault(bot, []).append(time.process_time() - t)
        events = GAME.decide(state, seat, cmd)
        assert not isinstance(events, Rejected), (bot, cmd, events)
        for e in events:
            state = GAME.evolve(state, e)
            for s in names:
                shown = redact(e, s)
                if shown is not None:
                    info[s] = GAME.evolve(info[s], shown)
    out = GAME.outcome(state)
    assert out is not None
    return out.ranks


def bench_playouts(preset: str, secs: float) -> dict[str, Any]:
    r = random.Random(1)
    names = GAME.seat_names(2)
    matches = decisions = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < secs:
        state = GAME.initial_state(
            PRESETS[preset], names, hashlib.sha256(matches.to_bytes(8, "big")).digest()
        )
        while GAME.outcome(state) is None:
            seat = sorted(GAME.to_move(state))[0]
            events = GAME.decide(state, seat, r.choice(GAME.legal_commands(state, seat)))
            assert not isinstance(events, Rejected)
            for e in events:
                state = GAME.evolve(state, e)
            decisions += 1
        matches += 1
    elapsed = time.process_time() - cpu0
    return {
        "playout_preset": preset,
        "random_matches": matches,
        "random_matches_per_s": round(matches / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "decisions_per_match": round(decisions / matches, 1),
    }




def strength(preset: str, matches: int) -> tuple[list[dict[str, Any]], dict[str, float]]:
    timing: dict[str, list[float]] = {}
    table = []
    for a_i, a in enumerate(BOTS):
        for b in BOTS[a_i + 1 :]:
            r = random.Random(f"{a}-{b}")
            score = 0.0
            for k in range(matches):
                seed = hashlib.sha256(f"{a}-{b}-{k}".encode()).digest()
                players = (a, b) if k % 2 == 0 else (b, a)
                ranks = play(preset, seed, players, r, timing)
                mine = ranks[players.index(a)]
                other = ranks[players.index(b)]
                score += 1.0 if mine < other else 0.5 if mine == other else 0.0
            lo, hi = wilson(score, matches)
            table.append(
                {
                    "bot": a,
                    "vs": b,
                    "matches": matches,
                    "win_share": round(score / matches, 3),
                    "ci95": [round(lo, 3), round(hi, 3)],
                }
            )
            print(
                f"{a:>9} vs {b:<9} {score / matches:.3f}  95% [{lo:.3f}, {hi:.3f}]  ({matches} matches)",
                flush=True,
            )
    ms = {bot: round(1000 * sum(t) / len(t), 3) for bot, t in timing.items()}
    return table, ms


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=float, default=5.0)
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--preset", default="farkle-flip-placeholder")
    args = ap.parse_args()
    result = bench_playouts(args.preset, args.secs)
    print(f"playouts: {result}", flush=True)
    table, ms = strength(args.preset, args.matches)
    result.update(strength=table, ms_per_decision=ms)
    # prefixed: bench/run.py merges every game benchmark's numbers into one summary
    print(json.dumps({f"farkle_{k}": v for k, v in result.items()}))


if __name__ == "__main__":
    main()
