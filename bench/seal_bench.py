"""Sealed decisions (domain/core/seal.py): what sealing costs the referee per move and opening
costs a reader per move, for Kings in the Corner.

    .venv/bin/python bench/seal_bench.py [--preset cardgames-zone] [--seats 2] [--matches 4] [--reps 7]

A few matches of the heuristic computer players are played through the match layer and every
decision is built as the referee builds its envelope.  Timed, over every decision of those
matches (best of ``--reps`` passes, CPU time of this process, per decision):

* ``check_us``: the check alone -- the spectator's redaction of the events compared with them
  (every decision of a game with hidden information pays it);
* ``seal_us``: ``seal_envelope`` (the check, and for a sealed decision the plaintext's encoding,
  the XSalsa20-Poly1305 box and base64);
* ``encode_plain_us`` / ``encode_sealed_us``: encoding the envelope unsealed (as before) / as
  stored now;
* ``referee_added_us``: what the command path gains per move: ``seal_us`` plus the sealed
  encoding minus the plain one;
* ``decode_plain_us`` / ``decode_and_open_us``: a reader's decode of the stored bytes before /
  now with the sealed decisions opened (the gateway, the referee's reload, the audit);
* ``open_added_us``: the difference.

Also per sealed decision (``per_sealed``) and the share of decisions sealed.  One JSON line at
the end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from contracts.codecs import codec, encode  # noqa: E402
from contracts.envelope import EventEnvelope, Rejected  # noqa: E402
from contracts.match import CreateMatch  # noqa: E402
from domain.core import match, seal  # noqa: E402
from domain.core.rng import commitment  # noqa: E402
from domain.games import registry  # noqa: E402

GAME_NAME = "kings-corner"


def decisions_of(preset: str, seats: int, seed: bytes, n: int) -> list[EventEnvelope[Any]]:
    """Match ``n``'s decisions as the referee builds them before storing (full events, command)."""
    game = registry.get(GAME_NAME)
    names = game.seat_names(seats)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(game.presets[preset].ruleset),
        seats=names,
        players=names,
        token_hashes=tuple(hashlib.sha256(x.encode()).hexdigest() for x in names),
        seed_commitment=commitment(seed),
    )
    assert game.bots is not None
    r = random.Random(n)
    out: list[EventEnvelope[Any]] = []
    state = None
    seat: str | None = None
    command: Any = create
    while True:
        events = match.decide(game, state, seat, command, seed)
        assert not isinstance(events, Rejected), events
        for e in events:
            state = match.evolve(game, state, e, seed)
        out.append(
            EventEnvelope(
                match_id=f"bench-seal-{n}",
                game=GAME_NAME,
                rules_version=game.rules_version,
                seq=len(out) + 1,
                command_id=f"c{len(out) + 1}",
                correlation_id=f"c{len(out) + 1}",
                recorded_at=1_800_000_000_000 + len(out),
                prev_hash="0" * 64,
                seat=seat,
                command=msgspec.to_builtins(command),
                events=tuple(events),
            )
        )
        assert state is not None
        if state.outcome is not None:
            return out
        seat = r.choice(match.to_move(game, state))
        command = game.bots["heuristic"](state.game_state, seat, r)


def best(fn: Callable[[], Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="cardgames-zone")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()

    game = registry.get(GAME_NAME)
    cdc = codec(GAME_NAME)
    seed = hashlib.sha256(b"seal bench").digest()
    key = seal.seal_key(seed)
    envelopes = [e for n in range(args.matches) for e in decisions_of(args.preset, args.seats, seed, n)]
    sealed = [seal.seal_envelope(game, e, key) for e in envelopes]
    plain_bytes = [encode(e) for e in envelopes]
    sealed_bytes = [encode(e) for e in sealed]
    n = len(envelopes)
    n_sealed = sum(bool(e.sealed) for e in sealed)
    only_sealed = [(e, s, p, b) for e, s, p, b in zip(envelopes, sealed, plain_bytes, sealed_bytes, strict=True) if s.sealed]

    def per(fn: Callable[[], Any], count: int) -> float:
        return round(best(fn, args.reps) / count * 1e6, 2)

    check = per(lambda: [seal.hides_something(game, e.events) for e in envelopes], n)
    seal_us = per(lambda: [seal.seal_envelope(game, e, key) for e in envelopes], n)
    enc_plain = per(lambda: [encode(e) for e in envelopes], n)
    enc_sealed = per(lambda: [encode(e) for e in sealed], n)
    dec_plain = per(lambda: [cdc.decode_envelope(b) for b in plain_bytes], n)
    dec_open = per(lambda: [seal.open_envelope(cdc.decode_envelope(b), key) for b in sealed_bytes], n)
    s_seal = per(lambda: [seal.seal_envelope(game, e, key) for e, _, _, _ in only_sealed], n_sealed)
    s_enc_plain = per(lambda: [encode(e) for e, _, _, _ in only_sealed], n_sealed)
    s_enc_sealed = per(lambda: [encode(s) for _, s, _, _ in only_sealed], n_sealed)
    s_dec_plain = per(lambda: [cdc.decode_envelope(p) for _, _, p, _ in only_sealed], n_sealed)
    s_dec_open = per(lambda: [seal.open_envelope(cdc.decode_envelope(b), key) for _, _, _, b in only_sealed], n_sealed)
    result = {
        "game": GAME_NAME,
        "preset": args.preset,
        "seats": args.seats,
        "decisions": n,
        "sealed_share": round(n_sealed / n, 3),
        "bytes_plain": sum(map(len, plain_bytes)),
        "bytes_stored": sum(map(len, sealed_bytes)),
        "per_decision": {
            "check_us": check,
            "seal_us": seal_us,
            "encode_plain_us": enc_plain,
            "encode_sealed_us": enc_sealed,
            "referee_added_us": round(seal_us + enc_sealed - enc_plain, 2),
            "decode_plain_us": dec_plain,
            "decode_and_open_us": dec_open,
            "open_added_us": round(dec_open - dec_plain, 2),
        },
        "per_sealed": {
            "seal_us": s_seal,
            "referee_added_us": round(s_seal + s_enc_sealed - s_enc_plain, 2),
            "open_added_us": round(s_dec_open - s_dec_plain, 2),
        },
    }
    for section in ("per_decision", "per_sealed"):
        print(section, result[section], file=sys.stderr)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
