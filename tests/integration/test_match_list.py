"""The list of stored matches (``GET /api/matches``, ``GET /api/match-summaries``): a read model
that scoring projects from the match stream, on a real nats-server and a real database (SQLite,
and PostgreSQL when GAMEHALL_TEST_PG_URL is set).

Pinned: paging over more matches than a page, newest first; no match missing or repeated across
pages while new matches are created; running matches listed with their status, the seats to
move and their decisions, following them until they are finished (outcome and its sentence in
English and Russian, as the view of the log has them); a cursor the listing did not give out is
``400 invalid_cursor``; the projection killed mid-batch and every message delivered twice still
leaves the rows a rebuild from the stream gives (``gamehall matches rebuild``, ``--check``); a
database without the table answers empty pages."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from sqlalchemy import select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from contracts import subjects
from services.cli import rebuild
from services.cli.ranked import matches_app
from services.cli.stackrun import in_process_stack
from services.common import db, listing, natsio
from services.common.matchlist import MatchList
from services.common.natsio import EventStore
from services.common.projection import ProjectionOptions
from services.gateway.app import create_app
from tests.integration.ranked_support import throwaway_database
from tests.support.gateway import open_settings
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", "pg"])
def database(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


class Stack:
    def __init__(self, client: httpx.AsyncClient, nc: Any, engine: Any, nats_url: str = "") -> None:
        self.client, self.nc, self.engine, self.nats_url = client, nc, engine, nats_url

    async def caught_up(self, name: str = subjects.MATCH_LIST_CONSUMER, timeout: float = 60.0) -> None:
        """Until the match list has every message stored so far (its position in the database)."""
        js = self.nc.jetstream()
        last = await rebuild.last_seq(js, subjects.MATCH_SUBJECTS, subjects.MATCH_STREAM)
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            try:
                with Session(self.engine) as session:
                    position = db.get_position(session, name)
            except SQLAlchemyError:  # a fresh database the scoring service has not migrated yet
                position = -1
            if position >= last:
                return
            assert asyncio.get_running_loop().time() < deadline, f"{name} did not reach {last}"
            await asyncio.sleep(0.05)

    async def pages(self, path: str, limit: int, cursor: str | None = None, **params: Any) -> list[dict]:
        out: list[dict] = []
        while True:
            r = await self.client.get(path, params={"limit": limit, **params, **({"cursor": cursor} if cursor else {})})
            assert r.status_code == 200, r.text
            assert len(r.json()["matches"]) <= limit
            out += r.json()["matches"]
            cursor = r.json()["next_cursor"]
            if cursor is None:
                return out

    async def create(self) -> dict:
        r = await self.client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
        assert r.status_code == 201, r.text
        return r.json()

    async def view(self, match_id: str, **params: str) -> dict:
        r = await self.client.get(f"/api/matches/{match_id}", params=params)
        assert r.status_code == 200, r.text
        return r.json()

    async def command(self, created: dict, seat: str, command: dict) -> None:
        token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
        r = await self.client.post(
            f"/api/matches/{created['match_id']}/commands",
            json={"command": command},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text

    async def move(self, created: dict) -> None:
        """The first legal move of the seat to move."""
        seat = (await self.view(created["match_id"]))["to_move"][0]
        token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
        mine = await self.view(created["match_id"], token=token)
        await self.command(created, seat, mine["legal_moves"][0]["command"])


@pytest.fixture
async def stack(database: str, tmp_path: Path) -> AsyncIterator[Stack]:
    with nats_server(tmp_path / "nats") as url:
        settings = open_settings(url, tmp_path).replace(db_url=database)
        async with in_process_stack(settings, ("referee", "scoring", "gateway")) as base:
            nc = await natsio.connect(url, "test")
            engine = db.make_engine(database)
            try:
                async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                    yield Stack(client, nc, engine, url)
            finally:
                engine.dispose()
                await nc.drain()


def same_as_view(summary: dict, view: dict, view_ru: dict) -> None:
    """A summary says what the spectator's view of the log says."""
    for key in ("match_id", "game", "preset", "seats", "players", "status", "to_move", "outcome"):
        assert summary[key] == view[key], key
    assert summary["decisions"] == view["seq"]


async def test_the_list_pages_follows_matches_to_the_end_and_rebuilds_the_same(
    stack: Stack, database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    originals = [await stack.create() for _ in range(7)]
    await stack.caught_up()

    # paging over more matches than a page: every match once, newest first, both routes alike
    listed = await stack.pages("/api/matches", 3)
    summaries = await stack.pages("/api/match-summaries", 3)
    ids = [m["match_id"] for m in listed]
    assert sorted(ids) == sorted(c["match_id"] for c in originals) and len(set(ids)) == 7
    assert [m["match_id"] for m in summaries] == ids
    keys = [(m["created_at"], m["match_id"]) for m in summaries]
    assert keys == sorted(keys, reverse=True)
    for row, summary in zip(listed, summaries, strict=True):
        assert row == {"match_id": summary["match_id"], "game": "ugolki", "decisions": 1}
        # running, as the view of the log shows it
        same_as_view(summary, await stack.view(row["match_id"]), await stack.view(row["match_id"], lang="ru"))
        assert summary["status"] == "running" and summary["to_move"] and summary["outcome"] is None
        assert summary["outcome_text"] is None and summary["finished_at"] is None
        assert summary["title"] == "Ugolki (corners)"

    # new matches created while a client pages: none of the originals missing or repeated, and
    # the new ones come before the first page (newest first by creation)
    first = (await stack.client.get("/api/matches", params={"limit": 3})).json()
    newer = [await stack.create() for _ in range(4)]
    await stack.caught_up()
    rest = await stack.pages("/api/matches", 3, cursor=first["next_cursor"])
    assert [m["match_id"] for m in first["matches"] + rest] == ids
    everything = [m["match_id"] for m in await stack.pages("/api/matches", 4)]
    assert everything == [c["match_id"] for c in reversed(newer)] + ids

    # a running match followed: a move, then a resignation ends another one
    moved, ended = originals[0], originals[1]
    await stack.move(moved)
    await stack.command(ended, "black", {"type": "resign.v1"})
    await stack.caught_up()
    by_id = {m["match_id"]: m for m in await stack.pages("/api/match-summaries", 100)}
    ru = {m["match_id"]: m for m in await stack.pages("/api/match-summaries", 100, lang="ru")}
    for created in (moved, ended):
        mid = created["match_id"]
        view, view_ru = await stack.view(mid), await stack.view(mid, lang="ru")
        same_as_view(by_id[mid], view, view_ru)
        assert by_id[mid]["outcome_text"] == view.get("outcome_text")
        assert ru[mid]["outcome_text"] == view_ru.get("outcome_text")
        assert by_id[mid]["decisions"] == 2 and by_id[mid]["updated_at"] >= by_id[mid]["created_at"]
    assert by_id[moved["match_id"]]["status"] == "running" and by_id[moved["match_id"]]["finished_at"] is None
    done = by_id[ended["match_id"]]
    assert done["status"] == "finished" and done["to_move"] == [] and done["outcome"]["ranks"] == [1, 2]
    assert done["outcome_text"] == "ann (white) wins: bob (black) resigned."
    assert ru[ended["match_id"]]["outcome_text"] == "Побеждает ann (белые): игрок bob (чёрные) сдался."
    assert done["finished_at"] == done["updated_at"]
    assert {m["match_id"]: m["decisions"] for m in await stack.pages("/api/matches", 100)}[ended["match_id"]] == 2

    # one cursor code for every paged route: garbage, another listing's cursor, a cursor of these
    # routes given to another listing
    ours = (await stack.client.get("/api/matches", params={"limit": 1})).json()["next_cursor"]
    foreign = listing.encode_cursor("players", {}, ["ann"])
    for path in ("/api/matches", "/api/match-summaries"):
        for bad in ("garbage!", "W10", foreign):
            r = await stack.client.get(path, params={"cursor": bad})
            assert r.status_code == 400 and r.json()["code"] == "invalid_cursor" and r.json()["detail"], r.text
    for path in ("/api/finished", "/api/history", "/api/players"):
        r = await stack.client.get(path, params={"cursor": ours})
        assert r.status_code == 400 and r.json()["code"] == "invalid_cursor", r.text
    spec = (await stack.client.get("/openapi.json")).json()
    for path in ("/api/matches", "/api/match-summaries"):
        assert spec["paths"][path]["get"]["responses"]["400"]["x-error-codes"] == ["invalid_cursor"]

    # gamehall matches rebuild --check agrees; a tampered row is reported; a rebuild puts it right
    js = stack.nc.jetstream()
    report = await rebuild.rebuild_match_list(js, stack.engine, check=True, wait_s=5)
    assert report["ok"], report["differences"]
    assert report["matches"] == 11
    before = rebuild.snapshot(stack.engine, rebuild.MATCH_LIST)
    with db.session_scope(stack.engine) as session:
        session.execute(update(db.StoredMatch).where(db.StoredMatch.match_id == moved["match_id"]).values(decisions=9))
    report = await rebuild.rebuild_match_list(js, stack.engine, check=True, wait_s=0)
    assert not report["ok"] and "decisions" in report["differences"][0]
    report = await rebuild.rebuild_match_list(js, stack.engine, check=False)
    assert report["ok"] and rebuild.snapshot(stack.engine, rebuild.MATCH_LIST) == before
    assert [m["match_id"] for m in await stack.pages("/api/matches", 5)] == everything

    # the command: gamehall matches rebuild --check
    monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("NATS_URL", stack.nats_url)
    monkeypatch.setenv("GAMEHALL_DB_URL", database)
    command = typer.Typer()
    command.add_typer(matches_app, name="matches")
    checked = await asyncio.to_thread(CliRunner().invoke, command, ["matches", "rebuild", "--check", "--json"])
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.output)["matches"] == 11


async def test_a_crash_mid_batch_and_every_message_twice_leave_the_rows_of_a_rebuild(
    database: str, tmp_path: Path
) -> None:
    with nats_server(tmp_path / "nats") as url:
        settings = open_settings(url, tmp_path).replace(db_url=database)
        async with in_process_stack(settings, ("referee", "gateway")) as base:  # no scoring: run by hand
            nc = await natsio.connect(url, "test")
            engine = db.open_database(database)
            try:
                async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                    stack = Stack(client, nc, engine)
                    matches = [await stack.create() for _ in range(6)]
                    for i, created in enumerate(matches):
                        for _ in range(i):
                            await stack.move(created)
                    await stack.command(matches[5], "white", {"type": "resign.v1"})
                    js = nc.jetstream()
                    await js.publish("match.ugolki.junk-1", b"\x00not an envelope")
                    name = f"list-{id(engine)}"

                    def crash_at(n: int) -> Any:
                        def fault(applied: int) -> None:
                            if applied == n:
                                raise RuntimeError(f"killed after {n} applied messages")

                        return fault

                    first = MatchList(EventStore(js))
                    crashing = first.projection(js, engine, name, options=ProjectionOptions(batch_size=8, linger_s=0.05, fault=crash_at(5)))
                    with pytest.raises(RuntimeError, match="killed"):
                        await asyncio.wait_for(crashing.run(asyncio.Event()), 20)
                    with Session(engine) as session:
                        assert db.get_position(session, name) == 0
                        assert session.scalars(select(db.StoredMatch)).first() is None

                    # again with nothing held, small batches, every message delivered twice, and
                    # room for two matches only: a match's later decisions come in batches without
                    # its beginning, which is read from the stream
                    again = MatchList(EventStore(js), kept=2)
                    stop = asyncio.Event()
                    projection = again.projection(js, engine, name, options=ProjectionOptions(batch_size=3, replay_once=True))
                    task = asyncio.create_task(projection.run(stop))
                    await stack.caught_up(name)
                    await asyncio.sleep(0.3)  # the second deliveries arrive and are skipped
                    stop.set()
                    await task
                    assert projection.options.replayed and again.reads > 0

                    # restarted (nothing held) after more decisions of running matches
                    for created in matches[1:4]:
                        await stack.move(created)
                    restarted = MatchList(EventStore(js))
                    stop = asyncio.Event()
                    projection = restarted.projection(js, engine, name)
                    task = asyncio.create_task(projection.run(stop))
                    await stack.caught_up(name)
                    stop.set()
                    await task
                    assert restarted.reads == 3

                    # a new database: its position (none) decides, so the list is filled from the start
                    # (a file: an in-memory engine is one connection, which the projection's
                    # thread and this test's reads would share)
                    other = db.open_database(f"sqlite:///{tmp_path / 'other.sqlite3'}")
                    refill = MatchList(EventStore(js))
                    stop = asyncio.Event()
                    projection = refill.projection(js, other, name)
                    task = asyncio.create_task(projection.run(stop))
                    await Stack(client, nc, other).caught_up(name)
                    stop.set()
                    await task
                    assert rebuild.compare(engine, other, models=rebuild.MATCH_LIST) == []
                    other.dispose()

                    fresh = rebuild.fresh_engine()
                    chunks = rebuild.read_chunks(js, subjects.MATCH_SUBJECTS, stream=subjects.MATCH_STREAM, size=4)
                    await rebuild.rebuild_match_list_into(fresh, MatchList(EventStore(js)), chunks)
                    assert rebuild.compare(engine, fresh, models=rebuild.MATCH_LIST) == []
                    with Session(engine) as session:
                        rows = {r.match_id: r for r in session.scalars(select(db.StoredMatch))}
                    assert set(rows) == {m["match_id"] for m in matches}  # the junk is left out
                    for i, created in enumerate(matches[:5]):
                        assert rows[created["match_id"]].decisions == 1 + i + (1 <= i <= 3)
                    assert rows[matches[5]["match_id"]].status == "finished"
                    fresh.dispose()
            finally:
                engine.dispose()
                await nc.drain()


async def test_a_database_without_the_match_list_answers_empty_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bare.sqlite3'}"
    settings = open_settings("nats://127.0.0.1:1", tmp_path).replace(db_url=url)
    app = create_app(settings, "nats://127.0.0.1:1")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw") as client:
        for path in ("/api/matches", "/api/match-summaries"):
            r = await client.get(path)
            assert r.status_code == 200 and r.json() == {"matches": [], "next_cursor": None}, r.text
