"""What the game benchmarks share: a full match recorded as the referee stores it, its audit
time with the project's own audit (`domain/audit.py`: chain, every decision re-decided, every
deal re-derived, the outcome), and Wilson intervals for win shares."""

from __future__ import annotations

import hashlib
import math
import random
import statistics
import time
from typing import Any

import msgspec

from contracts.audit import AuditBundle
from contracts.envelope import Rejected
from contracts.match import CreateMatch
from domain import audit as full_audit
from domain.core import match, seal
from domain.core.rng import commitment
from domain.games import registry
from tests.support.bundles import chain


def record_match(game_name: str, ruleset: Any, preset: str, seats: int, seed: bytes, bot: str = "heuristic") -> AuditBundle:
    """A complete match of ``bot`` players, each decision stored as the referee stores it (the
    decided command included, sealed when it hides something), chained into an audit bundle."""
    game = registry.get(game_name)
    names = game.seat_names(seats)
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=names,
        players=names,
        token_hashes=tuple(hashlib.sha256(n.encode()).hexdigest() for n in names),
        seed_commitment=commitment(seed),
    )
    match_id = f"bench-{game_name}-1"
    decisions: list[tuple[str | None, Any, tuple[Any, ...]]] = []
    state = None
    r = random.Random(5)
    seat: str | None = None
    command: Any = create
    assert game.bots is not None
    while True:
        events = match.decide(game, state, seat, command, seed)
        assert not isinstance(events, Rejected), events
        for e in events:
            state = match.evolve(game, state, e, seed)
        decisions.append((seat, command, tuple(events)))
        assert state is not None
        if state.outcome is not None:
            return chain(match_id, game_name, decisions, seal.seal_key(seed) if game.hidden_info else None)
        seat = r.choice(match.to_move(game, state))
        command = game.bots[bot](state.game_state, seat, r)


def audit_time(bundle: AuditBundle, runs: int = 5) -> dict[str, Any]:
    """CPU time of the full audit of ``bundle`` (best and median of ``runs``), which must pass."""
    times = []
    report = None
    for _ in range(runs):
        t = time.process_time()
        report = full_audit.audit(bundle)
        times.append(time.process_time() - t)
    assert report is not None and report.ok, report.problems if report else None
    return {
        "audit_envelopes": len(bundle.envelopes),
        "audit_bytes": sum(len(e.data) for e in bundle.envelopes),
        "audit_redecided": report.redecided,
        "audit_ms_best": round(min(times) * 1000, 2),
        "audit_ms_median": round(statistics.median(times) * 1000, 2),
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share ``wins / n`` (half points count)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))
