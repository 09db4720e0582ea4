"""Paged listings of the read models through the gateway's routes (SQLite, and PostgreSQL when
GAMEHALL_TEST_PG_URL is set): every finished match exactly once, newest first, following
``next_cursor``; one game's and one player's matches; players by name; a cursor that this
listing did not give out (or gave out for other filters) is ``400 invalid_cursor``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gamehall.client import GamehallClient
from services.common import db
from services.common import settings as settings_module
from services.gateway.app import create_app
from tests.integration.ranked_support import throwaway_database

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import listing_bench  # noqa: E402

pytestmark = pytest.mark.integration
MATCHES = 1_234


@pytest.fixture(params=["sqlite", "pg"])
def database(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


async def pages(client: httpx.AsyncClient, path: str, key: str, **params: object) -> list[dict]:
    out: list[dict] = []
    cursor = None
    while True:
        r = await client.get(path, params={**params, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.text
        body = r.json()
        assert len(body[key]) <= int(params.get("limit", 50))  # type: ignore[call-overload]
        out.extend(body[key])
        cursor = body["next_cursor"]
        if cursor is None:
            return out


async def test_listings_page_through_every_row_once(database: str, tmp_path: Path) -> None:
    listing_bench.fill(database, MATCHES)
    settings = settings_module.load().replace(data_dir=tmp_path, db_url=database, nats_url="nats://127.0.0.1:1")
    app = create_app(settings, "nats://127.0.0.1:1")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw") as client:
        every = await pages(client, "/api/finished", "matches", limit=100)
        ids = [m["match_id"] for m in every]
        assert len(ids) == MATCHES and len(set(ids)) == MATCHES
        assert [m["finished_at"] for m in every] == sorted((m["finished_at"] for m in every), reverse=True)

        king = await pages(client, "/api/finished", "matches", limit=37, game="king")
        assert {m["game"] for m in king} == {"king"}
        assert [m["match_id"] for m in king] == [i for i, m in zip(ids, every, strict=True) if m["game"] == "king"]

        engine = db.open_database(database)
        try:
            with engine.connect() as conn:
                busiest, count = conn.exec_driver_sql(
                    "SELECT player, COUNT(*) AS n FROM match_players GROUP BY player ORDER BY n DESC, player LIMIT 1"
                ).one()
        finally:
            engine.dispose()
        mine = await pages(client, "/api/finished", "matches", limit=2, player=busiest)
        assert len(mine) == count and all(busiest in m["players"] for m in mine)
        assert all(m["players"][m["seat_index"]] == busiest for m in mine)

        people = await pages(client, "/api/players", "players", limit=400)
        names = [p["player"] for p in people]
        assert names == sorted(names) and len(names) == listing_bench.PLAYERS

        # cursors are checked: garbage, a cursor of another listing, a cursor for other filters
        first = (await client.get("/api/finished", params={"limit": 5})).json()
        for bad in ("garbage!", "W10", (await client.get("/api/players", params={"limit": 1})).json()["next_cursor"]):
            r = await client.get("/api/finished", params={"cursor": bad})
            assert r.status_code == 400 and r.json()["code"] == "invalid_cursor", r.text
        r = await client.get("/api/finished", params={"cursor": first["next_cursor"], "game": "king"})
        assert r.status_code == 400 and r.json()["code"] == "invalid_cursor" and r.json()["detail"]
        # the routes and their error codes are in the OpenAPI description
        spec = (await client.get("/openapi.json")).json()
        for path in ("/api/finished", "/api/players", "/api/history"):
            operation = spec["paths"][path]["get"]
            assert "cursor" in {p["name"] for p in operation["parameters"]}
            assert "invalid_cursor" in operation["responses"]["400"]["x-error-codes"]

        # /api/history: the same pages as /api/finished, a bare list, the next cursor in a header
        for params, paged in (({}, every), ({"game": "king"}, king), ({"player": busiest}, mine)):
            rows: list[dict] = []
            cursor = None
            while True:
                r = await client.get(
                    "/api/history", params={**params, "limit": 97, **({"cursor": cursor} if cursor else {})}
                )
                assert r.status_code == 200 and isinstance(r.json(), list), r.text
                assert len(r.json()) <= 97
                rows.extend(r.json())
                cursor = r.headers.get("next-cursor")
                if cursor is None:
                    break
            assert rows == paged
        # the client library follows the header
        async with GamehallClient("http://gw", transport=httpx.ASGITransport(app=app)) as library:
            rows, cursor = await library.history_page(game="king", limit=40)
            while cursor is not None:
                more, cursor = await library.history_page(game="king", limit=40, cursor=cursor)
                rows.extend(more)
            assert rows == king
            assert await library.history(game="king", limit=3) == king[:3]
        r = await client.get("/api/history", params={"cursor": first["next_cursor"], "player": busiest})
        assert r.status_code == 400 and r.json()["code"] == "invalid_cursor"
        for bad in ({"limit": 0}, {"limit": 501}, {"limit": "x"}):
            r = await client.get("/api/history", params=bad)
            assert r.status_code == 422 and r.json()["code"], r.text
