"""Audit throughput and sizes per game: for every registered game, a full match of its computer
players (pure domain, no network), stored as the referee stores it and certified, the server seed
revealed; then per game:

* the audit of the whole bundle from its bytes, as ``gamehall audit --file BUNDLE --keys KEYS``
  runs it (``domain.audit.decode_bundle`` and ``domain.audit.audit`` with the certificate's
  signature checked): CPU time per bundle (``time.process_time``, median of the runs) and bundles
  per second per core;
* the size in bytes of the bundle's JSON (what ``gamehall export`` writes) and of the portable game
  record (``domain.records.record_of_bundle``, what ``gamehall export --record`` writes);
* ``python docs/examples/verify.py bundle.json --keys keys.json`` run as a subprocess: wall time
  and the child's own CPU time (user + system), median of ``--verify-runs``; the same for a bare
  ``python -c pass`` as the interpreter's start-up.

    .venv/bin/python bench/audit_bench.py [--min-cpu 1.0] [--verify-runs 3] [--games ugolki,king]
        [--verify docs/examples/verify.py]

Each game's computer player is its ``heuristic``, else ``greedy``, else ``random`` one; a match the
players have not ended after ``--max-decisions`` decisions is ended by a resignation.  Progress on
stderr; the last stdout line is one JSON object (keys ``audit_<game>``, e.g. ``audit_kings_corner``).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from contracts.audit import AuditBundle  # noqa: E402
from contracts.codecs import encode  # noqa: E402
from contracts.envelope import Rejected  # noqa: E402
from contracts.match import CreateMatch, Resign  # noqa: E402
from domain import records  # noqa: E402
from domain.audit import audit, decode_bundle  # noqa: E402
from domain.core import match as match_layer  # noqa: E402
from domain.core import seal  # noqa: E402
from domain.core.rng import commitment  # noqa: E402
from domain.games import registry  # noqa: E402
from services.common.certificates import KeyRing, verifier  # noqa: E402
from tests.support.bundles import certify, chain  # noqa: E402

VERIFY = ROOT / "docs" / "examples" / "verify.py"
SEED = b"\x07" * 32
PLAYERS = ("heuristic", "greedy", "random")
SIGNED_AT = 1_800_000_000_000  # unix ms of every certificate (and of the signing key)


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def player_of(game: Any) -> str:
    bots = game.bots or {}
    return next(p for p in PLAYERS if p in bots)


def played(name: str, max_decisions: int) -> tuple[AuditBundle, str, bool]:
    """A full match of ``name``'s default preset between its computer players, chained as the
    referee stores it (decisions that hide something sealed under the seed's key); whether the
    players ended it themselves (else the first seat resigned after ``max_decisions``)."""
    game = registry.get(name)
    preset = game.default_preset
    ruleset = match_layer.resolve_ruleset(game, preset, {})
    assert not isinstance(ruleset, Rejected), ruleset
    seats = game.seat_names(match_layer.default_seats_of(game, preset))
    seed = SEED if game.chance else None
    create = CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(ruleset),
        seats=seats,
        players=seats,
        token_hashes=tuple("0" * 64 for _ in seats),
        seed_commitment=commitment(seed) if seed else "",
    )
    bot = player_of(game)
    r = random.Random(1)
    decisions: list[tuple[str | None, Any, tuple[Any, ...]]] = []
    state = None
    seat: str | None = None
    command: Any = create
    natural = True
    while True:
        events = match_layer.decide(game, state, seat, command, seed)
        assert not isinstance(events, Rejected), (name, events)
        decisions.append((seat, command, tuple(events)))
        for e in events:
            state = match_layer.evolve(game, state, e, seed)
        assert state is not None
        if state.outcome is not None:
            break
        if len(decisions) >= max_decisions:
            natural = False
            seat, command = state.created.seats[0], Resign()
            continue
        seat = match_layer.to_move(game, state)[0]
        command = game.bots[bot](state.game_state, seat, r)
    key = seal.seal_key(seed) if seed else None
    return chain(f"bench-{name}", name, decisions, key), bot, natural


def audit_cpu(data: bytes, check: Any, min_cpu: float) -> tuple[list[float], Any]:
    """CPU seconds of each audit of the bundle's bytes, run until ``min_cpu`` is spent (3 at least)."""
    times: list[float] = []
    report = None
    while len(times) < 3 or sum(times) < min_cpu:
        t = time.process_time()
        report = audit(decode_bundle(data), check, None)
        times.append(time.process_time() - t)
    return times, report


def child_run(args: list[str], runs: int) -> tuple[float, float, int]:
    """Median wall and median own CPU (user + system) seconds of ``runs`` runs of ``args``; the
    last exit code."""
    walls, cpus = [], []
    code = 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=ROOT)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        code = done.returncode
        if code != 0:
            say(f"      {' '.join(args[1:])}: exit {code}: {(done.stdout + done.stderr)[-600:]}")
    return statistics.median(walls), statistics.median(cpus), code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--min-cpu", type=float, default=1.0, help="CPU seconds of audits per game (3 runs at least)"
    )
    ap.add_argument("--verify-runs", type=int, default=3, help="runs of docs/examples/verify.py per bundle")
    ap.add_argument("--max-decisions", type=int, default=3000)
    ap.add_argument(
        "--verify", type=Path, default=VERIFY, help="the verifier script to time (default: %(default)s)"
    )
    ap.add_argument("--games", default="", help="comma-separated game names (default: every registered game)")
    a = ap.parse_args()
    names = [g for g in a.games.split(",") if g] or sorted(registry.GAMES)
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        ring = KeyRing(tmp / "signing")
        ring.current(SIGNED_AT)  # the signing key, made before the public keys are written
        keys_file = tmp / "keys.json"
        keys_file.write_text(json.dumps(msgspec.to_builtins(ring.public())))
        check = verifier(ring.public())
        wall, cpu, _ = child_run([sys.executable, "-c", "pass"], a.verify_runs)
        result["audit_python_startup_ms"] = {"wall": round(wall * 1000, 1), "cpu": round(cpu * 1000, 1)}
        say(f"python -c pass: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
        for name in names:
            say(f"[{name}] playing a match...")
            bundle, bot, natural = played(name, a.max_decisions)
            bundle = certify(ring, bundle, SIGNED_AT)
            data = encode(bundle)
            try:
                record: bytes | None = json.dumps(
                    records.record_of_bundle(bundle), ensure_ascii=False
                ).encode()
                no_record = None
            except ValueError as exc:  # a game without a record format yet
                record, no_record = None, str(exc)
            times, report = audit_cpu(data, check, a.min_cpu)
            assert report.ok and report.finished and not report.unchecked, (
                name,
                report.problems,
                report.unchecked,
            )
            assert report.certified_by is not None, name
            path = tmp / f"{name}.json"
            path.write_bytes(data)
            v_wall, v_cpu, v_code = child_run(
                [sys.executable, str(a.verify), str(path), "--keys", str(keys_file)], a.verify_runs
            )
            median = statistics.median(times)
            found = {
                "player": bot,
                "ended_by_players": natural,
                "envelopes": len(bundle.envelopes),
                "sealed": report.sealed,
                "bundle_bytes": len(data),
                "record_bytes": len(record) if record is not None else None,
                "audit_ms": round(median * 1000, 2),
                "audit_runs": len(times),
                "audits_per_s_per_core": round(1 / median, 1) if median > 0 else None,
                "verify_py_wall_ms": round(v_wall * 1000, 1),
                "verify_py_cpu_ms": round(v_cpu * 1000, 1),
                "verify_py_exit": v_code,
            }
            if no_record is not None:
                found["no_record"] = no_record
            say(f"      {json.dumps(found)}")
            result[f"audit_{name.replace('-', '_')}"] = found
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
