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
import math
import random
import time
from typing import Any

import msgspec

from contracts.codecs import codec
from contracts.envelope import EventEnvelope, Rejected
from contracts.match import CreateMatch, ServerSeedRevealed
from domain.core import audit, match, rng
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


def wilson(wins: int, n: int) -> tuple[float, float]:
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 3), round(centre + half, 3))


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


def record_match(seed: bytes) -> tuple[str, list[bytes]]:
    """A full CLASSIC match of three heuristic players as stored, hash-chained envelopes."""
    preset = "classic"
    names = GAME.seat_names(3)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(PRESETS[preset]),
        seats=names,
        players=names,
        token_hashes=tuple(hashlib.sha256(n.encode()).hexdigest() for n in names),
        seed_commitment=rng.commitment(seed),
    )
    match_id = "bench-thousand-1"
    stored: list[bytes] = []
    prev = audit.genesis_hash(match_id)
    state = None
    r = random.Random(5)
    seat: str | None = None
    command: Any = create
    while True:
        events = match.decide(GAME, state, seat, command, seed)
        assert not isinstance(events, Rejected), events
        for e in events:
            state = match.evolve(GAME, state, e, seed)
        env = EventEnvelope(
            match_id=match_id,
            game="thousand",
            rules_version=GAME.rules_version,
            seq=len(stored) + 1,
            command_id=f"c{len(stored) + 1}",
            correlation_id="",
            recorded_at=0,
            prev_hash=prev,
            seat=seat,
            events=tuple(events),
        )
        data = msgspec.json.encode(env)
        stored.append(data)
        prev = audit.envelope_hash(data)
        assert state is not None
        if state.outcome is not None:
            return match_id, stored
        seat = match.to_move(GAME, state)[0]
        command = GAME.bots["heuristic"](state.game_state, seat, r)


def chain_breaks(match_id: str, stored: list[bytes], prev_hashes: list[str]) -> list[int]:
    """Indexes i where envelope i's recorded prev_hash does not match the bytes before it."""
    expected = audit.genesis_hash(match_id)
    broken = []
    for i, (data, recorded) in enumerate(zip(stored, prev_hashes, strict=True)):
        if recorded != expected:
            broken.append(i)
        expected = audit.envelope_hash(data)
    return broken


def audit_bundle(match_id: str, stored: list[bytes]) -> dict[str, Any]:
    assert GAME.verify_chance is not None
    th = codec("thousand")
    envelopes = [th.decode_envelope(b) for b in stored]
    breaks = chain_breaks(match_id, stored, [e.prev_hash for e in envelopes])
    assert not breaks, breaks
    revealed = [e for env in envelopes for e in env.events if isinstance(e, ServerSeedRevealed)]
    seed = bytes.fromhex(revealed[-1].server_seed)
    assert rng.commitment(seed) == envelopes[0].events[0].seed_commitment
    state = None
    chance = 0
    for env in envelopes:
        for e in env.events:
            if state is not None and not match.is_match_event(e):
                problem = GAME.verify_chance(state.game_state, e)
                assert problem is None, problem
                chance += type(e).__name__ == "DealDealt"
            state = match.evolve(GAME, state, e, seed)
    assert state is not None and state.outcome is not None
    return {"events": sum(len(e.events) for e in envelopes), "deals": chance}


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

    match_id, stored = record_match(hashlib.sha256(b"thousand-bench").digest())
    runs = []
    info: dict[str, Any] = {}
    for _ in range(3):
        t = time.process_time()
        info = audit_bundle(match_id, stored)
        runs.append(time.process_time() - t)
    result.update(
        audit_envelopes=len(stored),
        audit_bytes=sum(len(b) for b in stored),
        audit_events=info["events"],
        audit_deals=info["deals"],
        audit_ms_best=round(min(runs) * 1000, 1),
    )
    print(f"audit: {result}", flush=True)

    timer: list[float] = []
    result["strength_search_vs_heuristic"] = strength(args.preset, "search", "heuristic", args.matches, timer)
    print(f"search: {result['strength_search_vs_heuristic']}", flush=True)
    result["search_ms_per_decision"] = round(1000 * sum(timer) / max(1, len(timer)), 2)
    result["strength_heuristic_vs_random"] = strength(args.preset, "heuristic", "random", args.matches, None)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
