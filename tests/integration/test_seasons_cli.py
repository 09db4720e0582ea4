"""Seasons as operations against a real nats-server and database, with the real scoring and
leaderboard services (docs/ranked.md "Seasons and divisions"): ``gamehall seasons open`` places
players by rating, ranked matches of the season's window are rated in it, ``close`` freezes each
division's standings and promotes and relegates, ``show`` and ``list`` print them, a match
after the close is in the calendar's season again, and ``ratings rebuild --check`` agrees with
the live tables before and after."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from contracts import subjects
from contracts.codecs import encode, season_decoder
from contracts.seasons import PlayerPromoted, PlayerRelegated, SeasonClosed
from domain.rating.seasons import quarter_of
from services.cli import rebuild
from services.cli.main import app
from services.common import db, natsio
from services.common import settings as settings_mod
from services.gateway.app import create_app
from services.leaderboard import app as leaderboard_app
from services.scoring import app as scoring_app
from tests.integration.ranked_support import finished, throwaway_database
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration
DEADLINE_S = 30.0


@pytest.fixture(params=["sqlite", "pg"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


async def cli(*args: str) -> Any:
    """``gamehall ARGS`` in a thread of its own (it runs its own event loop)."""
    return await asyncio.to_thread(CliRunner().invoke, app, list(args), prog_name="gamehall")


async def caught_up(js: Any, engine: Any) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        finished_seq = await rebuild.last_seq(js, subjects.MATCH_FINISHED)
        rating_seq = await rebuild.last_seq(js, subjects.RATING_APPLIED)
        try:
            if rebuild.live_caught_up(engine, finished_seq, rating_seq):
                return
        except Exception:  # noqa: BLE001 - tables not migrated yet
            pass
        assert time.monotonic() < deadline, "scoring and leaderboard did not catch up"
        await asyncio.sleep(0.1)


def seasons_of(engine: Any) -> dict[str, str]:
    with Session(engine) as session:
        return {m: s for m, s in session.execute(select(db.MatchRecord.match_id, db.MatchRecord.season))}


async def test_open_play_close_show_and_rebuild(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with nats_server(tmp_path / "nats") as url:
        monkeypatch.setenv("GAMEHALL_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("NATS_URL", url)
        monkeypatch.setenv("GAMEHALL_DB_URL", db_url)
        settings = settings_mod.load()
        nc = await natsio.connect(url, "test")
        js = nc.jetstream()
        await natsio.ensure_streams(js)
        engine = db.open_database(db_url)
        app_ = create_app(settings, url)
        gw = app_.state.gateway
        await gw.start()
        api = httpx.AsyncClient(transport=httpx.ASGITransport(app=app_), base_url="http://gw")
        stop = asyncio.Event()
        services = [
            asyncio.create_task(scoring_app.run(settings, stop, metrics_port=None)),
            asyncio.create_task(leaderboard_app.run(settings, stop, metrics_port=None)),
        ]

        async def play(match_id: str, winner: str, loser: str) -> None:
            event = finished(match_id, (winner, loser), (1, 2), now_ms())
            await js.publish(subjects.MATCH_FINISHED, encode(event), headers={subjects.MSG_ID: match_id})

        try:
            # before any season: ratings ann > bob > cat > dan
            for i, (w, lo) in enumerate([("ann", "bob"), ("bob", "cat"), ("cat", "dan"), ("ann", "dan")]):
                await play(f"pre-{i}", w, lo)
            await caught_up(js, engine)

            bad = await cli("seasons", "open", "l1", "--division", "top:x")
            assert bad.exit_code == 1 and "bad_input" in bad.output
            bad = await cli("seasons", "open", "l1", "--division", "top", "--division", "top")
            assert bad.exit_code == 1 and "bad_settings" in bad.output
            bad = await cli("seasons", "close", "l1")
            assert bad.exit_code == 1 and "season_not_opened" in bad.output

            opened = await cli(
                "seasons", "open", "l1", "--game", "ugolki", "--division", "top:2", "--division", "low",
                "--move", "1/1", "--lead", "1", "--by", "olga",
            )  # fmt: skip
            assert opened.exit_code == 0, opened.output
            assert "ugolki top: 2 placed by rating" in opened.output
            overlap = await cli("seasons", "open", "l2", "--lead", "1")
            assert overlap.exit_code == 1 and "overlapping_season" in overlap.output
            shown = json.loads((await cli("seasons", "show", "l1", "--json")).output)
            tables = {t["division"]: [r["player"] for r in t["rows"]] for t in shown["standings"]}
            assert tables == {"top": ["ann", "bob"], "low": ["cat", "dan"]}
            starts_at = shown["starts_at"]
            listed = (await api.get("/api/seasons")).json()["seasons"]
            assert [(x["season_id"], x["status"], x["games"]) for x in listed] == [("l1", "open", ["ugolki"])]
            assert [d["name"] for d in listed[0]["divisions"]] == ["top", "low"]
            assert listed[0]["boundaries"] == [{"promote": 1, "relegate": 1}]
            while now_ms() <= starts_at:
                await asyncio.sleep(0.05)

            # the season: dan beats cat twice, bob beats ann; eve (a newcomer) beats dan once
            for i, (w, lo) in enumerate([("dan", "cat"), ("dan", "cat"), ("bob", "ann"), ("eve", "dan")]):
                await play(f"in-{i}", w, lo)
            await caught_up(js, engine)
            seasons = seasons_of(engine)
            assert {seasons[f"in-{i}"] for i in range(4)} == {"l1"}
            assert seasons["pre-0"] == quarter_of(now_ms())  # before the season: the calendar quarter
            check = await cli("ratings", "rebuild", "--check")
            assert check.exit_code == 0, check.output
            # the API: the live division table with its zones, the leaderboard of one division
            live = (await api.get("/api/seasons/l1", params={"division": "low"})).json()
            ((table,),) = [live["standings"]]
            assert [(r["player"], r["points"], r["zone"]) for r in table["rows"]] == [
                ("dan", 2.0, "promotion"),
                ("eve", 1.0, ""),
                ("cat", 0.0, ""),
            ]
            board = (await api.get("/api/leaderboard/ugolki", params={"season": "l1", "division": "top"})).json()
            assert board["divisions"] == ["top", "low"] and board["division"] == "top"
            assert sorted(e["player"] for e in board["entries"]) == ["ann", "bob"]
            assert [e["rank"] for e in board["entries"]] == [1, 2]
            missing = await api.get("/api/leaderboard/ugolki", params={"season": "l1", "division": "gold"})
            assert missing.status_code == 404 and missing.json()["code"] == "unknown_division"
            assert (await api.get("/api/seasons/nope")).status_code == 404
            # a player's rating history names their division in the season in force: place and zone
            history = (await api.get("/api/players/dan/ratings/history")).json()
            assert history["current_seasons"] == {"ugolki": "l1"}
            assert history["divisions"] == [
                {"game": "ugolki", "season": "l1", "status": "open", "division": "low", "place": 1, "players": 3,
                 "points": 2.0, "games": 3, "zone": "promotion"},
            ]  # fmt: skip
            ann_at = (await api.get("/api/players/ann/ratings/history")).json()["divisions"]
            assert [(d["division"], d["place"], d["players"], d["zone"]) for d in ann_at] == [("top", 2, 2, "relegation")]

            closed = await cli("seasons", "close", "l1", "--lead", "1", "--by", "olga")
            assert closed.exit_code == 0, closed.output
            assert "1 promoted, 1 relegated" in closed.output
            again = await cli("seasons", "close", "l1")
            assert again.exit_code == 1 and "season_closed" in again.output

            # the stored record: frozen standings, dan up, ann down
            stored = await natsio.EventStore(js).load(subjects.SEASON_SUBJECTS, stream=subjects.SEASON_STREAM)
            events = [e for s in stored for e in season_decoder.decode(s.data).events]
            frozen = next(e for e in events if isinstance(e, SeasonClosed))
            rows = {(t.division, r.player): (r.place, r.points, r.zone) for t in frozen.standings for r in t.rows}
            assert rows == {
                ("top", "bob"): (1, 1.0, ""),
                ("top", "ann"): (2, 0.0, "relegation"),
                ("low", "dan"): (1, 2.0, "promotion"),
                ("low", "eve"): (2, 1.0, ""),
                ("low", "cat"): (3, 0.0, ""),
            }
            assert [(e.player, e.to_division) for e in events if isinstance(e, PlayerPromoted)] == [("dan", "top")]
            assert [(e.player, e.to_division) for e in events if isinstance(e, PlayerRelegated)] == [("ann", "low")]

            # after the close a match is in the calendar's season again
            await play("after-0", "cat", "eve")
            await caught_up(js, engine)
            assert seasons_of(engine)["after-0"] == quarter_of(now_ms())
            # the season in force is the calendar's again: no division
            after = (await api.get("/api/players/dan/ratings/history")).json()
            assert after["current_seasons"] == {"ugolki": quarter_of(now_ms())} and after["divisions"] == []
            check = await cli("ratings", "rebuild", "--check")
            assert check.exit_code == 0, check.output

            frozen_api = (await api.get("/api/seasons/l1", params={"game": "ugolki"})).json()
            assert frozen_api["status"] == "closed"
            assert [(m["player"], m["to_division"]) for m in frozen_api["promoted"]] == [("dan", "top")]
            assert [(m["player"], m["to_division"]) for m in frozen_api["relegated"]] == [("ann", "low")]
            top = next(t for t in frozen_api["standings"] if t["division"] == "top")
            assert [(r["player"], r["zone"]) for r in top["rows"]] == [("bob", ""), ("ann", "relegation")]
            shown = await cli("seasons", "show", "l1")
            assert shown.exit_code == 0
            assert "final standings (frozen)" in shown.output and "promoted  ugolki dan: low -> top" in shown.output
            listed = json.loads((await cli("seasons", "list", "--json")).output)
            assert [(s["season_id"], s["status"]) for s in listed] == [("l1", "closed")]

            # the next season places by the result: dan up, ann down
            nxt = await cli("seasons", "open", "l2", "--game", "ugolki", "--division", "top:2", "--division", "low", "--lead", "1")
            assert nxt.exit_code == 0, nxt.output
            shown = json.loads((await cli("seasons", "show", "l2", "--json")).output)
            tables = {t["division"]: sorted(r["player"] for r in t["rows"]) for t in shown["standings"]}
            assert tables == {"top": ["bob", "dan"], "low": ["ann", "cat", "eve"]}
        finally:
            stop.set()
            await asyncio.gather(*services)
            await api.aclose()
            await gw.stop()
            await nc.drain()
            engine.dispose()
