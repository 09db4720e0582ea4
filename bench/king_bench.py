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
import math
import random
import time
from typing import Any

import msgspec

from contracts.codecs import codec
from contracts.envelope import EventEnvelope, Rejected
from contracts.match import CreateMatch, ServerSeedRevealed
from domain.core import audit, match, rng
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


def record_match(seed: bytes) -> tuple[str, list[bytes]]:
    """A full king-4p-classic match (15 deals) as stored, hash-chained envelopes."""
    preset = "king-4p-classic"
    names = GAME.seat_names(4)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(PRESETS[preset]),
        seats=names,
        players=names,
        token_hashes=tuple(hashlib.sha256(n.encode()).hexdigest() for n in names),
        seed_commitment=rng.commitment(seed),
    )
    match_id = "bench-king-1"
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
            game="king",
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
    king = codec("king")
    envelopes = [king.decode_envelope(b) for b in stored]
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
                chance += type(e).__name__ in ("Dealt", "RestDealt")
            state = match.evolve(GAME, state, e, seed)
    assert state is not None and state.outcome is not None
    return {"events": sum(len(e.events) for e in envelopes), "chance_events": chance}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


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

    match_id, stored = record_match(hashlib.sha256(b"king-bench").digest())
    runs = []
    info: dict[str, Any] = {}
    for _ in range(5):
        t = time.process_time()
        info = audit_bundle(match_id, stored)
        runs.append(time.process_time() - t)
    result.update(
        king_audit_envelopes=len(stored),
        king_audit_bytes=sum(len(b) for b in stored),
        king_audit_events=info["events"],
        king_audit_chance_events=info["chance_events"],
        king_audit_ms_best=round(min(runs) * 1000, 2),
        king_audit_ms_median=round(sorted(runs)[len(runs) // 2] * 1000, 2),
    )
    print(f"audit: {result}", flush=True)
    if not args.skip_strength:
        result.update(strength(args.strength_preset, "heuristic", "random", args.matches))
        print(f"heuristic: {result}", flush=True)
        result.update(strength(args.strength_preset, "search", "heuristic", args.search_matches))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
