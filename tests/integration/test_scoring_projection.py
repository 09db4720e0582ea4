"""Scoring and leaderboard projections against a real nats-server and a real database:
every message delivered twice, the projector killed mid-batch, and the tables still equal a
rebuild from the log."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import encode
from services.cli import rebuild
from services.common import db, natsio, queries
from services.common.projection import Projection, ProjectionOptions
from services.common.settings import ScoringSettings
from services.leaderboard import logic as leaderboard_logic
from services.scoring import config as scoring_config
from services.scoring import logic as scoring_logic
from services.scoring import outbox
from tests.integration import ranked_support
from tests.integration.ranked_support import finished, throwaway_database

pytestmark = pytest.mark.integration
ranked_nats = ranked_support.ranked_nats
DAY = 86_400_000
T0 = 1_790_000_000_000


@pytest.fixture(params=["sqlite", "pg"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


class Crash(Exception):
    pass


def _matches(count: int, seed: int = 7) -> list:
    rng = random.Random(seed)
    people = [f"player-{i}" for i in range(12)]
    out = []
    for i in range(count):
        at = T0 + i * DAY // 7
        kind = i % 5
        if kind == 4:
            players = tuple(rng.sample(people, 4))
            ranks = tuple(rng.choice([(1, 2, 3, 4), (2, 1, 4, 3), (1, 1, 3, 4), (4, 3, 2, 1)]))
            out.append(finished(f"m-{i}", players, ranks, at, preset="classic@fast"))
        else:
            players = tuple(rng.sample(people, 2))
            ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
            out.append(finished(f"m-{i}", players, ranks, at, ranked=kind != 3))
    return out


async def _until(predicate, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while not await predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_redelivery_and_a_crash_mid_batch_leave_the_same_tables(ranked_nats: str, db_url: str) -> None:
    nc = await natsio.connect(ranked_nats, "test")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    engine = db.open_database(db_url)
    cfg = scoring_config.load(ScoringSettings())
    matches = _matches(60)
    for m in matches:
        await js.publish(
            subjects.MATCH_FINISHED, encode(m), headers={subjects.MSG_ID: f"finished:{m.match_id}"}
        )
    # the same events again under other ids: a republish outside the dedupe window
    for m in matches[:20]:
        await js.publish(subjects.MATCH_FINISHED, encode(m), headers={subjects.MSG_ID: f"again:{m.match_id}"})
    last_finished = await rebuild.last_seq(js, subjects.MATCH_FINISHED)

    scoring_name = f"scoring-{id(engine)}"
    board_name = f"leaderboard-{id(engine)}"

    def crash_at(n: int):  # type: ignore[no-untyped-def]
        def fault(applied: int) -> None:
            if applied == n:
                raise Crash(f"killed after {n} applied messages")

        return fault

    # 1. scoring dies in the middle of its first batch: nothing of that batch may stick
    first = Projection(
        js,
        engine,
        scoring_name,
        subjects.MATCH_FINISHED,
        scoring_logic.make_apply(cfg),
        options=ProjectionOptions(batch_size=25, fault=crash_at(10), linger_s=0.05),
    )
    with pytest.raises(Crash):
        await asyncio.wait_for(first.run(asyncio.Event()), 20)
    with Session(engine) as session:
        assert db.get_position(session, scoring_name) == 0
        assert session.scalar(select(func.count()).select_from(db.MatchRecord)) == 0

    # 2. scoring again, every message delivered twice; the leaderboard alongside, also twice
    stop = asyncio.Event()
    scoring = Projection(
        js,
        engine,
        scoring_name,
        subjects.MATCH_FINISHED,
        scoring_logic.make_apply(cfg),
        after_commit=lambda: outbox.flush(js, engine),
        options=ProjectionOptions(batch_size=16, replay_once=True),
    )
    board = Projection(
        js,
        engine,
        board_name,
        subjects.RATING_APPLIED,
        leaderboard_logic.apply,
        options=ProjectionOptions(batch_size=16, replay_once=True),
    )
    tasks = [asyncio.create_task(scoring.run(stop)), asyncio.create_task(board.run(stop))]

    async def caught_up() -> bool:
        rating_seq = await rebuild.last_seq(js, subjects.RATING_APPLIED)
        with Session(engine) as session:
            return (
                db.get_position(session, scoring_name) >= last_finished
                and rating_seq > 0
                and db.get_position(session, board_name) >= rating_seq
                and (session.scalar(select(func.count()).select_from(db.Outbox)) or 0) == 0
            )

    await _until(caught_up)
    await asyncio.sleep(0.3)  # let the second deliveries arrive and be skipped
    stop.set()
    await asyncio.gather(*tasks)
    assert scoring.options.replayed  # every message really came twice

    # 3. the live tables equal a rebuild from the log
    fresh = rebuild.fresh_engine()
    logged = await rebuild.read_subject(js, subjects.MATCH_FINISHED)
    rebuild.rebuild_into(fresh, logged, cfg)
    assert rebuild.compare(engine, fresh) == []

    ranked_two = [m for m in matches if m.ranked and len(m.players) == 2]
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(db.MatchRecord)) == len(matches)
        rated = session.scalar(select(func.count()).select_from(db.MatchRecord).where(db.MatchRecord.rated))
        assert rated == sum(1 for m in matches if m.ranked)
        games = session.scalar(select(func.sum(db.Standing.games)).where(db.Standing.model == "glicko2"))
        assert games == 2 * len(ranked_two)

    # 4. the read side the gateway and CLI use
    board_rows = queries.leaderboard(engine, "ugolki")
    assert board_rows["entries"]
    assert {e["family"] for e in board_rows["entries"]} == {"classic"}
    top = board_rows["entries"][0]
    profile = queries.player_profile(engine, top["player"])
    assert profile is not None and profile["ratings"] and profile["recent_matches"]
    history = queries.match_history(engine, limit=5)
    assert len(history) == 5 and history[0]["finished_at"] >= history[-1]["finished_at"]
    assert queries.player_profile(engine, "nobody") is None

    # 5. rebuild --check agrees; a tampered live row is reported
    report = await rebuild.rebuild(js, engine, cfg, check=True, wait_s=2)
    assert report["ok"], report["differences"]
    with db.session_scope(engine) as session:
        row = session.scalars(select(db.Standing)).first()
        assert row is not None
        row.wins += 1
    report = await rebuild.rebuild(js, engine, cfg, check=True, wait_s=0)
    assert not report["ok"] and "wins" in report["differences"][0]
    # rebuild without --check repairs the tables
    await rebuild.rebuild(js, engine, cfg, check=False)
    assert (await rebuild.rebuild(js, engine, cfg, check=True, wait_s=0))["ok"]
    engine.dispose()
    await nc.drain()
