"""The standing check of derived data (``gamehall doctor``, and scoring's periodic run), on a real
nats-server and a real database (SQLite, and PostgreSQL when GAMEHALL_TEST_PG_URL is set).

Pinned: on a stack whose read models agree with the log, ``doctor --full`` and ``--sample``
exit 0 and the periodic check exports 0 differing rows for every model; after one row of each
read model is corrupted directly in the database (a rating edited, a history row deleted, a
match-list status changed, ...), ``doctor --full`` exits 1 naming exactly those rows (table, key,
column, both values), ``ratings rebuild --check`` and ``matches rebuild --check`` name the same
rows, the sample finds the corrupted rows it covers, and the periodic check sets the metric of
each model to its number of corrupted rows; a check that cannot reach NATS or the database
exits 2 saying which."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from prometheus_client import REGISTRY
from sqlalchemy import delete, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from contracts import subjects
from contracts.codecs import encode
from services.cli import derived as doctor
from services.cli import rebuild
from services.cli.doctor import doctor_cmd
from services.cli.ranked import matches_app, ratings_app
from services.cli.stackrun import in_process_stack
from services.common import db, natsio
from services.common.processes import free_port
from services.scoring import config as scoring_config
from tests.integration.ranked_support import finished, throwaway_database
from tests.integration.test_dispute_scoring import publish_ruling
from tests.support.gateway import open_settings
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration
T0 = 1_790_000_000_000
HOUR = 3_600_000


@pytest.fixture(params=["sqlite", "pg"])
def database(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command("doctor")(doctor_cmd)
    app.add_typer(ratings_app, name="ratings")
    app.add_typer(matches_app, name="matches")
    return app


async def invoke(*args: str) -> Any:
    return await asyncio.to_thread(CliRunner().invoke, cli(), list(args))


def gauge(name: str, model: str) -> float | None:
    return REGISTRY.get_sample_value(name, {"model": model})


async def caught_up(js: Any, engine: Any, timeout: float = 60.0) -> None:
    """Until scoring, the leaderboard and the match list have everything on their streams."""
    deadline = time.monotonic() + timeout
    while True:
        finished_seq = await rebuild.last_seq(js, subjects.MATCH_FINISHED)
        disputes_seq = await rebuild.last_seq(js, subjects.DISPUTE_SUBJECTS, subjects.DISPUTE_STREAM)
        rating_seq = await rebuild.last_seq(js, subjects.RATING_APPLIED)
        listed_seq = await rebuild.last_seq(js, subjects.MATCH_SUBJECTS, subjects.MATCH_STREAM)
        try:
            with Session(engine) as session:
                listed = db.get_position(session, subjects.MATCH_LIST_CONSUMER)
            if rebuild.live_caught_up(engine, finished_seq, rating_seq, disputes_seq) and listed >= listed_seq:
                return
        except SQLAlchemyError:
            pass  # not migrated yet
        assert time.monotonic() < deadline, "the projections did not catch up"
        await asyncio.sleep(0.1)


async def periodic_reports(expected: dict[str, int], since: float, timeout: float = 90.0) -> None:
    """Until scoring's periodic check has exported, after ``since``, ``expected`` differing rows
    for every model."""
    deadline = time.monotonic() + timeout
    while True:
        seen = {m: gauge("gamehall_derived_rows_differing", m) for m in doctor.MODELS}
        fresh = all((gauge("gamehall_derived_check_timestamp_seconds", m) or 0) > since for m in doctor.MODELS)
        if fresh and seen == expected:
            return
        assert time.monotonic() < deadline, f"periodic check exported {seen}, not {expected} (fresh: {fresh})"
        await asyncio.sleep(0.2)


def rows_of(report: dict[str, Any]) -> set[tuple[str, tuple[Any, ...], str | None]]:
    return {(r["table"], tuple(r["key"]), r["column"]) for r in report["rows"]}


async def test_doctor_names_every_corrupted_row_and_scoring_exports_their_count(
    database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with nats_server(tmp_path / "nats") as url:
        settings = open_settings(url, tmp_path).replace(db_url=database)
        settings = settings.replace(
            scoring=settings.scoring.model_copy(
                update={"doctor_every_s": 0.5, "doctor_full_every_s": 0.5, "doctor_sample": 100}
            )
        )
        monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("NATS_URL", url)
        monkeypatch.setenv("GAMEHALL_DB_URL", database)
        nc = await natsio.connect(url, "test")
        js = nc.jetstream()
        await natsio.ensure_streams(js)
        engine = db.make_engine(database)
        services = ("referee", "scoring", "leaderboard", "gateway")
        try:
            async with in_process_stack(settings, services) as base, httpx.AsyncClient(base_url=base) as client:
                # ranked results on the integration stream, a ruling, and matches played through
                # the gateway (the match list; two of them resigned: history rows, and no match_players
                # rows, as guests play them)
                pairs = [("ann", "bob"), ("bob", "cid"), ("cid", "dan"), ("dan", "ann"), ("ann", "cid"), ("bob", "dan")]
                ranked = [finished(f"doc-{i}", p, (1, 2) if i % 2 else (2, 1), T0 + i * HOUR) for i, p in enumerate(pairs)]
                for m in ranked:
                    await js.publish(
                        subjects.MATCH_FINISHED, encode(m), headers={subjects.MSG_ID: f"finished:{m.match_id}"}
                    )
                await publish_ruling(js, ranked[1], "amended", (2, 1))
                played = []
                for _ in range(5):
                    r = await client.post("/api/matches", json={"game": "ugolki", "players": ["eve", "fay"]})
                    assert r.status_code == 201, r.text
                    played.append(r.json())
                for created in played[:2]:
                    token = next(s["token"] for s in created["seats"] if s["seat"] == "black")
                    r = await client.post(
                        f"/api/matches/{created['match_id']}/commands",
                        json={"command": {"type": "resign.v1"}},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    assert r.status_code == 200, r.text
                await caught_up(js, engine)
                quiet = time.time()

                # 1. everything agrees: doctor exits 0, in full and on a sample; the metric is 0
                full = await invoke("doctor", "--full", "--json")
                assert full.exit_code == 0, full.output
                report = json.loads(full.stdout)
                assert report["ok"] and report["rows"] == []
                checked = {t: c["checked"] for t, c in report["models"].items()}
                assert set(checked) == set(doctor.MODELS)
                assert checked["match_list"] == 5 and checked["match_history"] == 8 and checked["match_rulings"] == 1
                assert checked["ratings"] == 4 and checked["players"] == 4 and checked["match_players"] == 12
                sampled = await invoke("doctor", "--sample", "100", "--json")
                assert sampled.exit_code == 0, sampled.output
                assert {t: c["checked"] for t, c in json.loads(sampled.stdout)["models"].items()} == {
                    "match_list": 5,
                    "match_history": 8,
                    "match_players": 12,
                }
                await periodic_reports(dict.fromkeys(doctor.MODELS, 0), since=quiet)

                # 2. one row of each read model corrupted in the database
                running = played[4]["match_id"]
                with db.session_scope(engine) as session:
                    rating = session.scalars(select(db.Rating).where(db.Rating.player == "ann")).one()
                    rating_key = (rating.player, rating.game, rating.family, rating.model)
                    rating.rating += 100.0
                    standing = session.scalars(select(db.Standing).where(db.Standing.player == "bob")).one()
                    standing_key = (standing.game, standing.family, standing.season, standing.model, standing.player)
                    standing.wins += 1
                    session.execute(update(db.Player).where(db.Player.player_id == "cid").values(rated_games=99))
                    session.execute(delete(db.MatchRecord).where(db.MatchRecord.match_id == "doc-3"))
                    session.execute(
                        update(db.MatchPlayer)
                        .where(db.MatchPlayer.match_id == "doc-2", db.MatchPlayer.seat_index == 0)
                        .values(rank=7)
                    )
                    session.execute(
                        update(db.MatchRuling).where(db.MatchRuling.match_id == "doc-1").values(reason="edited")
                    )
                    session.execute(
                        update(db.StoredMatch).where(db.StoredMatch.match_id == running).values(status="finished")
                    )
                corrupted = {
                    ("ratings", rating_key, "rating"),
                    ("standings", standing_key, "wins"),
                    ("players", ("cid",), "rated_games"),
                    ("match_history", ("doc-3",), None),
                    ("match_players", ("doc-2", 0), "rank"),
                    ("match_rulings", ("doc-1",), "reason"),
                    ("match_list", (running,), "status"),
                }
                mark = time.time()

                # 3. doctor --full names exactly those rows, with both values
                full = await invoke("doctor", "--full", "--json")
                assert full.exit_code == 1, full.output
                report = json.loads(full.stdout)
                assert rows_of(report) == corrupted
                assert {t: c["differing"] for t, c in report["models"].items()} == dict.fromkeys(doctor.MODELS, 1)
                by_table = {r["table"]: r for r in report["rows"]}
                assert by_table["match_list"]["live"] == "finished" and by_table["match_list"]["rebuilt"] == "running"
                assert by_table["match_players"]["live"] == 7 and by_table["match_players"]["rebuilt"] == 2
                assert by_table["match_history"]["live"] is None
                assert by_table["match_history"]["rebuilt"]["match_id"] == "doc-3"
                assert by_table["ratings"]["live"] == pytest.approx(by_table["ratings"]["rebuilt"] + 100.0)
                text = await invoke("doctor", "--show", "3")
                assert text.exit_code == 1
                assert "doctor: FAILED, 7 row(s) differ" in text.stdout and "... and 4 more" in text.stdout
                everything = await invoke("doctor")
                assert f"match_list ('{running}',): status live='finished' rebuilt='running'" in everything.stdout
                assert "match_history ('doc-3',): missing from the live table" in everything.stdout
                assert "... and" not in everything.stdout

                # the two rebuild checks name the same rows (one comparison)
                ratings = await invoke("ratings", "rebuild", "--check", "--json")
                matches = await invoke("matches", "rebuild", "--check", "--json")
                assert ratings.exit_code == 1 and matches.exit_code == 1
                together = rows_of(json.loads(ratings.stdout)) | rows_of(json.loads(matches.stdout))
                assert together == corrupted

                # 4. the sample finds the corrupted rows it covers (the deleted history row only
                # when a random stream draw lands on it), and only corrupted rows
                sampled = await invoke("doctor", "--sample", "100", "--seed", "3", "--json")
                assert sampled.exit_code == 1, sampled.output
                found = rows_of(json.loads(sampled.stdout))
                assert {("match_list", (running,), "status"), ("match_players", ("doc-2", 0), "rank")} <= found
                assert found <= corrupted
                only = await invoke("doctor", "--sample", "100", "--model", "match_list", "--json")
                assert rows_of(json.loads(only.stdout)) == {("match_list", (running,), "status")}

                # 5. scoring's periodic check exports one differing row per corrupted model
                await periodic_reports(dict.fromkeys(doctor.MODELS, 1), since=mark)

                # 6. a rebuild puts the tables right, and every check agrees again
                assert (await invoke("ratings", "rebuild")).exit_code == 0
                assert (await invoke("matches", "rebuild")).exit_code == 0
                assert (await invoke("doctor", "--full")).exit_code == 0
        finally:
            engine.dispose()
            await nc.drain()


def test_doctor_exits_2_without_nats_or_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("GAMEHALL_DB_URL", f"sqlite:///{tmp_path / 'gamehall.sqlite3'}")
    monkeypatch.setenv("NATS_URL", f"nats://127.0.0.1:{free_port()}")  # nothing listens there
    result = CliRunner().invoke(cli(), ["doctor", "--full"])
    assert result.exit_code == 2, result.output
    assert "doctor: cannot check: NATS at nats://127.0.0.1:" in result.stderr
    assert "is not reachable" in result.stderr

    monkeypatch.setenv("GAMEHALL_DB_URL", f"postgresql+psycopg://nobody:secret@127.0.0.1:{free_port()}/none")
    result = CliRunner().invoke(cli(), ["doctor", "--sample", "5"])
    assert result.exit_code == 2, result.output
    assert "doctor: cannot check: the database postgresql+psycopg://nobody:***@127.0.0.1:" in result.stderr
    assert "secret" not in result.stderr

    for bad in (["--full", "--sample", "3"], ["--model", "nope"], ["--sample", "3", "--model", "ratings"]):
        result = CliRunner().invoke(cli(), ["doctor", *bad])
        assert result.exit_code == 2 and "doctor: " in result.stderr, (bad, result.output)


async def test_a_ruling_applied_during_the_check_makes_it_check_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruling recomputes a whole group of ratings, and no row's source sequence says so: a full
    check during which one is applied live compares again, rather than report the group."""
    with nats_server(tmp_path / "nats") as url:
        settings = open_settings(url, tmp_path).replace(db_url=f"sqlite:///{tmp_path / 'gh.sqlite3'}")
        settings = settings.replace(scoring=settings.scoring.model_copy(update={"doctor_every_s": 0}))
        nc = await natsio.connect(url, "test")
        js = nc.jetstream()
        await natsio.ensure_streams(js)
        engine = db.make_engine(settings.database_url)
        ranked = [finished(f"rr-{i}", ("ann", "bob"), (1, 2), T0 + i * HOUR) for i in range(4)]
        try:
            async with in_process_stack(settings, ("scoring", "leaderboard")):
                for m in ranked:
                    await js.publish(
                        subjects.MATCH_FINISHED, encode(m), headers={subjects.MSG_ID: f"finished:{m.match_id}"}
                    )
                await caught_up(js, engine)
                cfg = scoring_config.load(settings.scoring)
                waited = rebuild.wait_caught_up
                rulings = iter([("rr-0", (2, 1)), ("rr-1", (2, 1))])

                async def and_a_ruling(*args: Any) -> bool:
                    done = await waited(*args)
                    pick = next(rulings, None)
                    if pick is not None:  # a ruling applied live after the rebuild read the disputes
                        match = next(m for m in ranked if m.match_id == pick[0])
                        before = await rebuild.last_seq(js, subjects.DISPUTE_SUBJECTS, subjects.DISPUTE_STREAM)
                        await publish_ruling(js, match, "amended", pick[1])
                        deadline = time.monotonic() + 60
                        while True:
                            with Session(engine) as session:
                                if db.get_position(session, subjects.RULINGS_CONSUMER) > before + 1:
                                    break
                            assert time.monotonic() < deadline, "scoring did not apply the ruling"
                            await asyncio.sleep(0.05)
                        await caught_up(js, engine)
                    return done

                monkeypatch.setattr(rebuild, "wait_caught_up", and_a_ruling)
                once = await rebuild.rebuild(js, engine, cfg, check=True, wait_s=10, attempts=1)
                assert not once["ok"] and once["differing"]["ratings"] == 2  # the group, recomputed live
                again = await rebuild.rebuild(js, engine, cfg, check=True, wait_s=10)
                assert again["ok"], again["differences"]
                assert again["rulings"] == 2
        finally:
            engine.dispose()
            await nc.drain()
