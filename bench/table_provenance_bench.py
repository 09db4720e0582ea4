"""What the check that only matchmaking creates ranked matches costs on the command path.

Measures, in this process, microseconds per creation of:

- ``check``: the referee's whole check of a ranked creation (``provenance.creation_problem`` with
  the Ed25519 verification by a trusted key), and its parts: the comparisons alone and the
  signature verification alone; the same call for an unranked creation without a table (the path
  every casual match takes);
- ``decode``: decoding the creation's command envelope with and without its signed table;
- ``sign``: matchmaking signing one table;
- ``create`` (unless ``--no-store``): a whole creation decided by a real referee (decode, check,
  decide, append to JetStream on its own nats-server, integration event), ranked with a table
  against unranked without, so the check's share of a creation shows.

Prints one JSON line.

    .venv/bin/python bench/table_provenance_bench.py [--n 20000] [--creations 2000] [--no-store]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402
from nacl.signing import SigningKey  # noqa: E402

from contracts.codecs import codec, encode  # noqa: E402
from contracts.envelope import Accepted, CommandEnvelope  # noqa: E402
from contracts.integration import TableFormed  # noqa: E402
from contracts.match import CreateMatch  # noqa: E402
from domain.games import registry  # noqa: E402
from domain.matchmaking import provenance  # noqa: E402
from services.common.tablekeys import TableSigner, TrustedTableKeys  # noqa: E402

GAME = "ugolki"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def us_per_call(fn: Callable[[], Any], n: int, rounds: int = 5) -> float:
    """The best of ``rounds`` runs of ``n`` calls, in microseconds per call."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - started) / n)
    return round(best * 1e6, 2)


def table_formed(players: tuple[str, ...], at: int) -> TableFormed:
    decider = registry.get(GAME)
    return TableFormed(
        table_id=uuid.uuid4().hex[:20],
        game=GAME,
        preset=decider.default_preset,
        ranked=True,
        players=players,
        formed_at=at,
    )


def creation(table: Any, ranked: bool) -> CreateMatch:
    decider = registry.get(GAME)
    preset = decider.default_preset
    seats = decider.seat_names(2)
    return CreateMatch(
        preset=preset,
        ruleset=msgspec.to_builtins(decider.presets[preset].ruleset),
        seats=seats,
        players=("ann-0123456789", "bob-0123456789"),
        token_hashes=tuple("0" * 64 for _ in seats),
        ranked=ranked,
        guests=() if ranked else seats,
        table=table,
    )


def micro(n: int) -> dict[str, float]:
    signer = TableSigner(SigningKey.generate())
    trusted = TrustedTableKeys([signer.public_key])
    game = registry.get(GAME)
    at = now_ms()
    formed = signer.sign(table_formed(("ann-0123456789", "bob-0123456789"), at))
    table = provenance.signed_table(formed)
    ranked = creation(table, ranked=True)
    casual = creation(None, ranked=False)
    mid = provenance.table_match_id(table.table_id)
    assert provenance.creation_problem(game, mid, ranked, trusted.check, at) is None
    assert provenance.creation_problem(game, mid, casual, trusted.check, at) is None
    cdc = codec(GAME)

    def envelope(command: CreateMatch) -> bytes:
        return encode(CommandEnvelope(command_id="c1", match_id=mid, game=GAME, command=command))

    ranked_bytes, casual_bytes = envelope(ranked), envelope(casual)
    return {
        "check_ranked_us": us_per_call(lambda: provenance.creation_problem(game, mid, ranked, trusted.check, at), n),
        "compare_only_us": us_per_call(lambda: provenance.creation_problem(game, mid, ranked, lambda t: None, at), n),
        "verify_only_us": us_per_call(lambda: trusted.check(table), n),
        "check_unranked_us": us_per_call(
            lambda: provenance.creation_problem(game, mid, casual, trusted.check, at), n
        ),
        "decode_ranked_with_table_us": us_per_call(lambda: cdc.decode_command(ranked_bytes), n),
        "decode_unranked_us": us_per_call(lambda: cdc.decode_command(casual_bytes), n),
        "sign_table_us": us_per_call(lambda: signer.sign(formed), max(n // 4, 1)),
        "command_bytes_ranked": len(ranked_bytes),
        "command_bytes_unranked": len(casual_bytes),
    }


async def store(creations: int) -> dict[str, float]:
    """Whole creations decided by a real referee on its own nats-server."""
    import logging

    import structlog

    from services.common.embedded import EmbeddedNats
    from services.common.natsio import connect, ensure_streams
    from services.referee.core import Referee

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    signer = TableSigner(SigningKey.generate())
    trusted = TrustedTableKeys([signer.public_key])
    with tempfile.TemporaryDirectory(prefix="provenance-bench-") as folder:
        server = EmbeddedNats(Path(folder)).start()
        nc = await connect(server.url, "bench")
        try:
            await ensure_streams(nc.jetstream())
            referee = Referee(nc, nc.jetstream(), table_check=trusted.check)

            def one(ranked: bool, i: int) -> tuple[str, bytes]:
                players = (f"ann-{i}", f"bob-{i}")
                if ranked:
                    table = provenance.signed_table(signer.sign(table_formed(players, now_ms())))
                    mid = provenance.table_match_id(table.table_id)
                    command = msgspec.structs.replace(creation(table, True), players=players)
                else:
                    mid = uuid.uuid4().hex[:16]
                    command = msgspec.structs.replace(creation(None, False), players=players)
                env = CommandEnvelope(command_id=uuid.uuid4().hex, match_id=mid, game=GAME, command=command)
                return mid, encode(env)

            async def run(ranked: bool) -> list[float]:
                batch = [one(ranked, i) for i in range(creations)]  # signed before the clock runs
                took = []
                for mid, data in batch:
                    started = time.perf_counter()
                    reply = await referee.handle_bytes(GAME, mid, data)
                    took.append(time.perf_counter() - started)
                    assert isinstance(reply, Accepted), reply
                    referee.matches.pop(mid, None)  # memory stays flat
                return took

            await run(True)  # warm-up (JetStream, caches)
            results = {}
            for label, ranked in (("unranked", False), ("ranked", True), ("unranked_again", False)):
                took = await run(ranked)
                results[f"create_{label}_median_us"] = round(statistics.median(took) * 1e6, 1)
            return results
        finally:
            await nc.close()
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="calls per micro-measurement round")
    parser.add_argument("--creations", type=int, default=2_000, help="creations per phase of the store run")
    parser.add_argument("--no-store", action="store_true", help="only the in-process measurements")
    args = parser.parse_args()
    result: dict[str, Any] = {"bench": "table_provenance", "cpus": os.cpu_count(), **micro(args.n)}
    if not args.no_store:
        result.update(asyncio.run(store(args.creations)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
