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

from contracts.codecs import codec
from contracts.envelope import EventEnvelope, Rejected
from contracts.games.kings_corner import Ready
from contracts.match import CreateMatch, ServerSeedRevealed
from domain.core import audit, match, rng
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


def record_match(seats: int, seed: bytes) -> tuple[str, list[bytes]]:
    """A 5-round cardgames-zone match as stored, hash-chained envelopes."""
    preset = "cardgames-zone"
    ruleset = msgspec.structs.replace(PRESETS[preset], match_end_value=5)
    names = GAME.seat_names(seats)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=names,
        players=names,
        token_hashes=tuple(hashlib.sha256(n.encode()).hexdigest() for n in names),
        seed_commitment=rng.commitment(seed),
    )
    match_id = "bench-kc-1"
    stored: list[bytes] = []
    prev = audit.genesis_hash(match_id)
    state = None
    r = random.Random(5)
    bots = GAME.bots
    assert bots is not None
    seat: str | None = None
    command: Any = create
    while True:
        events = match.decide(GAME, state, seat, command, seed)
        assert not isinstance(events, Rejected), events
        for e in events:
            state = match.evolve(GAME, state, e, seed)
        env = EventEnvelope(
            match_id=match_id,
            game="kings-corner",
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
        seat = r.choice(match.to_move(GAME, state))
        command = bots["heuristic"](state.game_state, seat, r)


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
    kc = codec("kings-corner")
    envelopes = [kc.decode_envelope(b) for b in stored]
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
                chance += type(e).__name__ in ("RoundDealt", "CardsDrawn")
            state = match.evolve(GAME, state, e, seed)
    assert state is not None and state.outcome is not None
    return {"events": sum(len(e.events) for e in envelopes), "chance_events": chance}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=float, default=5.0)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--preset", default="cardgames-zone")
    args = ap.parse_args()

    result = bench_playouts(args.preset, args.seats, args.secs)
    print(f"playouts: {result}", flush=True)

    seed = hashlib.sha256(b"kc-bench").digest()
    match_id, stored = record_match(args.seats, seed)
    runs = []
    info: dict[str, Any] = {}
    for _ in range(5):
        t = time.process_time()
        info = audit_bundle(match_id, stored)
        runs.append(time.process_time() - t)
    result.update(
        audit_rounds=5,
        audit_envelopes=len(stored),
        audit_bytes=sum(len(b) for b in stored),
        audit_events=info["events"],
        audit_chance_events=info["chance_events"],
        audit_ms_best=round(min(runs) * 1000, 2),
        audit_ms_median=round(sorted(runs)[len(runs) // 2] * 1000, 2),
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
