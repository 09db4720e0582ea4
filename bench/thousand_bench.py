"""1000 (Thousand), pure domain: playout rates, the audit time of a full match, the search player's
time per decision and the strength table of the computer players.

    .venv/bin/python bench/thousand_bench.py [--secs 5] [--matches 200] [--preset classic]

Rates and times are CPU time of the benchmark process.

1. Random deals: a full deal (rng_v1 deal, every window, auction, talon, passing, contract and the
   eight tricks, scoring) with random legal commands, as many as fit in ``--secs``.  Random legal
   play does not end a match (declarers fail most deals, so scores drift below zero), so full
   matches per second are measured with three ``heuristic`` players instead.
2. Audit: a full CLASSIC match played by the heuristic players through the match layer is stored
   as hash-chained JSON envelopes; the audit decodes them, walks the chain, folds every event with
   the revealed server seed and re-derives every deal with ``verify_chance``.
3. Strength: ``search`` vs two ``heuristic`` players and ``heuristic`` vs two ``random`` players,
   ``--matches`` full matches each, the tested player taking every seat in turn; its win share
   with a 95 % Wilson interval (1/3 is an even share).  ``search_ms_per_decision`` is the mean
   time of the search player's card-play decisions.

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
from domain.games.thousand import GAME
from domain.games.thousand.rules import PRESETS


def _step(state: Any, seat: str, cmd: Any) -> Any:
    events = GAME.decide(state, seat, cmd)
    assert not isinstance(events, Rejected), (cmd, events)
    for e in events:
        state = GAME.evolve(state, e)
    return state


def bench_random_deals(preset: str, secs: float) -> dict[str, Any]:
    rules = PRESETS[preset]
    seats = GAME.seat_names(rules.players())
    r = random.Random(1)
    deals = decisions = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < secs:
        seed = hashlib.sha256(deals.to_bytes(8, "big")).digest()
        state = GAME.initial_state(rules, seats, seed)
        for s in seats:
            state = _step(state, s, GAME.legal_commands(state, s)[0])
            decisions += 1
        while state.phase != "next_deal" and state.phase != "finished":
            seat = r.choice(sorted(GAME.to_move(state)))
            state = _step(state, seat, r.choice(GAME.legal_commands(state, seat)))
            decisions += 1
        deals += 1
    elapsed = time.process_time() - cpu0
    return {
        "random_deals_per_s": round(deals / elapsed, 1),
        "random_decisions_per_s": round(decisions / elapsed),
        "decisions_per_deal": round(decisions / deals, 1),
    }


def play_match(
    preset: str, lineup: tuple[str, ...], seed: int, timer: list[float] | None = None
) -> tuple[Any, int]:
    """A full match; returns (final state, decisions).  ``timer`` collects search decision times."""
    rules = PRESETS[preset]
    seats = GAME.seat_names(rules.players())
    state = GAME.initial_state(rules, seats, hashlib.sha256(seed.to_bytes(8, "big")).digest())
    r = random.Random(seed)
    decisions = 0
    while GAME.outcome(state) is None:
        seat = sorted(GAME.to_move(state))[0]
        name = lineup[seats.index(seat)]
        t = time.process_time()
        cmd = GAME.bots[name](state, seat, r)
        if timer is not None and name == "search" and state.phase == "play":
            timer.append(time.process_time() - t)
        state = _step(state, seat, cmd)
        decisions += 1
        assert decisions < 200_000, (
            f"match {seed} {lineup} does not end: {state.phase} {len(state.sheet)} deals"
        )
    return state, decisions


def bench_heuristic_matches(preset: str, secs: float) -> dict[str, Any]:
    matches = decisions = deals = 0
    cpu0 = time.process_time()
    while time.process_time() - cpu0 < secs:
        state, d = play_match(preset, ("heuristic",) * 3, matches)
        matches += 1
        decisions += d
        deals += len(state.sheet)
    elapsed = time.process_time() - cpu0
    return {
        "heuristic_matches_per_s": round(matches / elapsed, 2),
        "heuristic_deals_per_match": round(deals / matches, 1),
    }




def strength(
    preset: str, tested: str, against: str, matches: int, timer: list[float] | None
) -> dict[str, Any]:
    wins = 0
    for m in range(matches):
        seat = m % 3
        lineup = tuple(tested if k == seat else against for k in range(3))
        state, _ = play_match(preset, lineup, 10_000 + m, timer)
        wins += state.winner == seat
    lo, hi = wilson(wins, matches)
    return {"matches": matches, "wins": wins, "share": round(wins / matches, 3), "ci95": [lo, hi]}








def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=float, default=5.0)
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--preset", default="classic")
    args = ap.parse_args()

    result: dict[str, Any] = {"thousand_preset": args.preset}
    result.update(bench_random_deals(args.preset, args.secs))
    result.update(bench_heuristic_matches(args.preset, args.secs))
    print(f"playouts: {result}", flush=True)

    bundle = record_match("thousand", PRESETS["classic"], "classic", 3, hashlib.sha256(b"thousand-bench").digest())
    result.update(audit_time(bundle, runs=3))
    print(f"audit: {result}", flush=True)

    timer: list[float] = []
    result["strength_search_vs_heuristic"] = strength(args.preset, "search", "heuristic", args.matches, timer)
    print(f"search: {result['strength_search_vs_heuristic']}", flush=True)
    result["search_ms_per_decision"] = round(1000 * sum(timer) / max(1, len(timer)), 2)
    result["strength_heuristic_vs_random"] = strength(args.preset, "heuristic", "random", args.matches, None)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
