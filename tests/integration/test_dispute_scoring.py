"""Rulings on the disputes stream flow into ratings and standings (issue 14 "Disputes";
docs/ranked.md "Disputes"): the scoring and leaderboard services on a real nats-server and a
real database (SQLite and PostgreSQL).  Expected ratings are computed with the rating code over
the amended history, never written down."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import encode
from contracts.integration import MatchFinished
from contracts.match import Outcome
from domain import disputes as d
from domain.rating.ranked import RatingState, rate_match
from domain.rating.seasons import preset_family, season_for
from services.cli import rebuild
from services.common import db, natsio, queries
from services.common import settings as settings_mod
from services.leaderboard import app as leaderboard_app
from services.scoring import app as scoring_app
from services.scoring import config as scoring_config
from tests.integration.ranked_support import finished, throwaway_database
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration
T0 = 1_790_000_000_000
HOUR = 3_600_000
OPERATOR = d.Actor(name="olga", operator=True)


@pytest.fixture(params=["sqlite", "pg"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


@pytest.fixture
def own_nats(tmp_path: Path) -> Iterator[str]:
    with nats_server(tmp_path / "nats") as url:
        yield url


def expected_ratings(history: list[MatchFinished], cfg: scoring_config.ScoringConfig) -> dict[str, RatingState]:
    """Ratings after rating ``history`` (the effective results, voided matches left out) in order."""
    states: dict[str, RatingState] = {}
    for m in history:
        season = season_for(cfg.calendar, m.game, m.finished_at)
        _, new = rate_match(m, season, preset_family(m.preset), {p: states.get(p) for p in m.players}, cfg.policy)
        states.update(new)
    return states


def amended(m: MatchFinished, ranks: tuple[int, ...]) -> MatchFinished:
    return msgspec.structs.replace(m, outcome=Outcome(ranks=ranks, draw=len(set(ranks)) == 1))


async def publish_ruling(js, m: MatchFinished, ruling: str, ranks: tuple[int, ...] = ()) -> None:  # type: ignore[no-untyped-def]
    """A dispute opened by the first player and ruled by an operator, as the gateway appends them."""
    store = natsio.EventStore(js)
    subject = subjects.dispute_subject(m.match_id)
    loaded = await store.load(subject, stream=subjects.DISPUTE_STREAM)
    from contracts.codecs import dispute_decoder

    disputes = d.fold(dispute_decoder.decode(s.data) for s in loaded)
    facts = d.MatchFacts(
        match_id=m.match_id, game=m.game, finished=True, seats=m.seats, players=m.players, ranks=m.outcome.ranks
    )
    opener = d.Actor(name=m.players[0])
    assert d.open_problem(facts, disputes, opener, "the result is wrong") is None
    opened = d.opened(facts, disputes, opener, "the result is wrong", T0)
    await js.publish(subject, encode(opened))
    state = d.fold([*(dispute_decoder.decode(s.data) for s in loaded), opened])[opened.dispute_id]
    assert d.ruling_problem(state, OPERATOR, ruling, ranks, (), "reviewed") is None
    await js.publish(subject, encode(d.ruled(state, OPERATOR, ruling, ranks, (), "reviewed", T0 + 1)))


async def run_services(settings: settings_mod.Settings, js, engine, stop_when_caught_up: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Scoring and leaderboard until they have applied everything on the streams."""
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(scoring_app.run(settings, stop, metrics_port=None)),
        asyncio.create_task(leaderboard_app.run(settings, stop, metrics_port=None)),
    ]
    try:
        for _ in range(600):
            await asyncio.sleep(0.05)
            for task in tasks:
                if task.done():
                    task.result()
            finished_seq = await rebuild.last_seq(js, subjects.MATCH_FINISHED)
            disputes_seq = await rebuild.last_seq(js, subjects.DISPUTE_SUBJECTS, subjects.DISPUTE_STREAM)
            rating_seq = await rebuild.last_seq(js, subjects.RATING_APPLIED)
            try:
                if rebuild.live_caught_up(engine, finished_seq, rating_seq, disputes_seq):
                    break
            except Exception:  # noqa: BLE001 - tables not migrated yet
                continue
        else:
            raise AssertionError("projections did not catch up")
    finally:
        stop.set()
        await asyncio.gather(*tasks)


def live_ratings(engine) -> dict[str, tuple[float, float, float, int]]:  # type: ignore[no-untyped-def]
    with Session(engine) as session:
        return {
            r.player: (r.rating, r.rd, r.volatility, r.games)
            for r in session.scalars(select(db.Rating).where(db.Rating.game == "ugolki"))
        }


def assert_ratings(engine, want: dict[str, RatingState]) -> None:  # type: ignore[no-untyped-def]
    live = live_ratings(engine)
    assert set(live) == set(want)
    for player, state in want.items():
        rating, rd, volatility, games = live[player]
        assert math.isclose(rating, state.rating, rel_tol=1e-12), player
        assert math.isclose(rd, state.rd, rel_tol=1e-12), player
        assert math.isclose(volatility, state.volatility, rel_tol=1e-12), player
        assert games == state.games, player
    with Session(engine) as session:
        standings = {
            s.player: s for s in session.scalars(select(db.Standing).where(db.Standing.game == "ugolki"))
        }
    for player, state in want.items():
        assert math.isclose(standings[player].rating, state.rating, rel_tol=1e-12), player
        assert standings[player].games == state.games, player


def record(engine, match_id: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return next(m for m in queries.match_history(engine, limit=500) if m["match_id"] == match_id)


async def test_rulings_recompute_ratings_as_the_amended_history_and_a_rebuild_agrees(
    own_nats: str, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("NATS_URL", own_nats)
    monkeypatch.setenv("GAMEHALL_DB_URL", db_url)
    settings = settings_mod.load()
    cfg = scoring_config.load(settings.scoring)
    nc = await natsio.connect(own_nats, "test")
    js = nc.jetstream()
    await natsio.ensure_streams(js)
    engine = db.open_database(db_url)

    pairs = [("ann", "bob"), ("bob", "cid"), ("ann", "bob"), ("ann", "cid"), ("cid", "bob"), ("ann", "bob")]
    matches = [
        finished(f"dm-{i}", pair, (1, 2) if i % 2 == 0 else (2, 1), T0 + i * HOUR) for i, pair in enumerate(pairs)
    ]
    for m in matches:
        await js.publish(subjects.MATCH_FINISHED, encode(m), headers={subjects.MSG_ID: f"finished:{m.match_id}"})
    await run_services(settings, js, engine)
    assert_ratings(engine, expected_ratings(matches, cfg))
    before = live_ratings(engine)

    # 1. an amended ranked result: both players' ratings as a rebuild from the amended history
    await publish_ruling(js, matches[2], "amended", (2, 1))
    await run_services(settings, js, engine)
    history = [*matches[:2], amended(matches[2], (2, 1)), *matches[3:]]
    assert_ratings(engine, expected_ratings(history, cfg))
    after = live_ratings(engine)
    assert after["ann"][0] < before["ann"][0] and after["bob"][0] > before["bob"][0]
    entry = record(engine, "dm-2")
    assert entry["status"] == "amended" and entry["ruling"]["ranks"] == [2, 1] and entry["ranks"] == [1, 2]
    assert entry["effective_ranks"] == [2, 1]
    with Session(engine) as session:
        board = {s.player: s for s in session.scalars(select(db.Standing))}
    wins = sum(1 for m in history if "ann" in m.players and m.outcome.ranks[m.players.index("ann")] == 1)
    assert board["ann"].wins == wins

    # 2. a void: the match has no effect at all
    await publish_ruling(js, matches[3], "void")
    await run_services(settings, js, engine)
    history = [*matches[:2], amended(matches[2], (2, 1)), *matches[4:]]
    assert_ratings(engine, expected_ratings(history, cfg))
    assert record(engine, "dm-3")["status"] == "void"
    profile = queries.player_profile(engine, "cid")
    assert profile is not None
    assert {m["match_id"]: m["status"] for m in profile["recent_matches"]}["dm-3"] == "void"

    # 3. a ruling that arrives before scoring has the match: applied when the match comes
    late = finished("dm-late", ("bob", "ann"), (1, 2), T0 + 10 * HOUR)
    await publish_ruling(js, late, "amended", (2, 1))
    await run_services(settings, js, engine)
    await js.publish(subjects.MATCH_FINISHED, encode(late), headers={subjects.MSG_ID: "finished:dm-late"})
    await run_services(settings, js, engine)
    history = [*history, amended(late, (2, 1))]
    want = expected_ratings(history, cfg)
    assert_ratings(engine, want)

    # 4. rebuild --check agrees (rulings folded in), and upheld changes nothing
    report = await rebuild.rebuild(js, engine, cfg, check=True, wait_s=5)
    assert report["ok"], report["differences"]
    assert report["rulings"] == 3
    await publish_ruling(js, matches[5], "upheld")
    await run_services(settings, js, engine)
    assert_ratings(engine, want)
    assert record(engine, "dm-5")["status"] == "upheld"

    # 5. a restart of scoring on the same tables applies nothing twice; scoring started from
    # nothing (an empty database: the only record of a projection's position) rebuilds the same
    # tables from the streams
    await run_services(settings, js, engine)
    assert_ratings(engine, want)
    assert (await rebuild.rebuild(js, engine, cfg, check=True, wait_s=5))["ok"]
    other_url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    monkeypatch.setenv("GAMEHALL_DB_URL", other_url)
    other = db.open_database(other_url)
    await run_services(settings_mod.load(), js, other)
    assert rebuild.compare(engine, other) == []
    assert_ratings(other, want)
    other.dispose()
    engine.dispose()
    await nc.drain()
