"""``GET /api/players/{player}/ratings/history`` through the gateway (SQLite, and PostgreSQL when
GAMEHALL_TEST_PG_URL is set): matches rated by the scoring projection's own apply function and
the leaderboard's, then read back as one series per (game, preset family, model) with one point
per rated match, oldest first, each point's rating before it the rating after the one before; the
current rating and the player's place per season as the leaderboard orders it; a casual match
has no point; ``game`` and ``limit`` narrow it; a name with no rated match is ``404
unknown_player``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from contracts.codecs import encode
from domain.rating.seasons import quarter_of
from services.common import db
from services.common import settings as settings_module
from services.common.projection import flush_inserts
from services.common.settings import ScoringSettings
from services.gateway.app import create_app
from services.leaderboard import logic as leaderboard_logic
from services.scoring import config as scoring_config
from services.scoring import logic as scoring_logic
from tests.integration.ranked_support import finished, throwaway_database

pytestmark = pytest.mark.integration

DAY = 86_400_000
Q1 = 1_767_225_600_000  # 2026-01-01 00:00 UTC
Q2 = 1_775_001_600_000  # 2026-04-01 00:00 UTC


@pytest.fixture(params=["sqlite", "pg"])
def database(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


def score(url: str, matches: list[Any]) -> None:
    """The matches as scoring and the leaderboard apply them, in order."""
    engine = db.open_database(url)
    cfg = scoring_config.load(ScoringSettings())
    produced: list[Any] = []
    apply = scoring_logic.make_apply(cfg, produced)
    try:
        with Session(engine) as session, session.begin():
            cache: dict[Any, Any] = {}
            for seq, match in enumerate(matches, start=1):
                apply(session, seq, encode(match), cache)
            flush_inserts(session, cache)
        with Session(engine) as session, session.begin():
            board: dict[Any, Any] = {}
            for applied in produced:
                leaderboard_logic.apply_event(session, applied, board)
    finally:
        engine.dispose()


async def test_one_point_per_rated_match_per_series(database: str, tmp_path: Path) -> None:
    score(
        database,
        [
            finished("u1", ("ann", "bob"), (1, 2), Q1 + DAY),
            finished("u2", ("bob", "ann"), (1, 2), Q1 + 2 * DAY),
            finished("casual", ("ann", "bob"), (1, 2), Q1 + 3 * DAY, ranked=False),
            finished("u3", ("ann", "cat"), (1, 1), Q1 + 4 * DAY, preset="classic@blitz"),
            finished(
                "k1", ("ann", "bob", "cat", "dan"), (2, 1, 3, 4), Q1 + 5 * DAY, game="king", preset="4p"
            ),
            finished("u4", ("cat", "ann"), (2, 1), Q2 + DAY),  # the next season
        ],
    )
    settings = settings_module.load().replace(
        data_dir=tmp_path, db_url=database, nats_url="nats://127.0.0.1:1"
    )
    app = create_app(settings, "nats://127.0.0.1:1")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw") as client:
        r = await client.get("/api/players/ann/ratings/history")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["player"] == "ann"
        now = quarter_of(int(time.time() * 1000))
        assert body["current_seasons"] == {"king": now, "ugolki": now}
        series = {(s["game"], s["family"], s["model"]): s for s in body["series"]}
        assert list(series) == [("king", "4p", "openskill-pl"), ("ugolki", "classic", "glicko2")]

        ugolki = series[("ugolki", "classic", "glicko2")]
        points = ugolki["points"]
        # the casual match has no point; classic@blitz is the classic family
        assert [p["match_id"] for p in points] == ["u1", "u2", "u3", "u4"]
        assert [p["season"] for p in points] == ["2026-Q1", "2026-Q1", "2026-Q1", "2026-Q2"]
        assert [p["rank"] for p in points] == [1, 2, 1, 1]
        assert [p["finished_at"] for p in points] == sorted(p["finished_at"] for p in points)
        assert points[0]["rating_before"] == 1500.0
        assert points[0]["rating_after"] > 1500.0 and points[1]["rating_after"] < points[0]["rating_after"]
        for before, after in zip(points, points[1:], strict=False):
            assert after["rating_before"] == before["rating_after"]  # idle and season growth move RD only
        assert ugolki["rating"] == points[-1]["rating_after"] and ugolki["games"] == 4
        assert ugolki["season"] == "2026-Q2"
        # the player's standing per season, the latest first, placed as the leaderboard orders it
        assert [
            (s["season"], s["games"], s["wins"], s["draws"], s["losses"]) for s in ugolki["standings"]
        ] == [
            ("2026-Q2", 1, 1, 0, 0),
            ("2026-Q1", 3, 1, 1, 1),
        ]
        for place in ugolki["standings"]:
            board = (await client.get("/api/leaderboard/ugolki", params={"season": place["season"]})).json()
            names = [e["player"] for e in board["entries"] if e["family"] == "classic"]
            assert place["rank"] == names.index("ann") + 1 and place["players"] == len(names)

        king = series[("king", "4p", "openskill-pl")]
        assert [(p["match_id"], p["rank"], p["rating_before"]) for p in king["points"]] == [("k1", 2, 25.0)]
        assert king["rating"] == king["points"][0]["rating_after"]  # OpenSkill: mu

        # the same rows as the player's matches list
        mine = (await client.get("/api/finished", params={"player": "ann"})).json()["matches"]
        changes = {m["match_id"]: (m["rating_before"], m["rating_after"]) for m in mine if m["rated"]}
        assert changes == {
            p["match_id"]: (p["rating_before"], p["rating_after"])
            for s in body["series"]
            for p in s["points"]
        }

        one = (
            await client.get("/api/players/ann/ratings/history", params={"game": "ugolki", "limit": 2})
        ).json()
        assert [s["game"] for s in one["series"]] == ["ugolki"] and list(one["current_seasons"]) == ["ugolki"]
        assert [p["match_id"] for p in one["series"][0]["points"]] == ["u3", "u4"]
        assert one["series"][0]["games"] == 4

        for path in ("/api/players/nobody/ratings/history", "/api/players/ann/ratings/history?game=tablut"):
            r = await client.get(path)
            assert r.status_code == 404 and r.json()["code"] == "unknown_player", r.text
        r = await client.get("/api/players/ann/ratings/history", params={"limit": 0})
        assert r.status_code == 422, r.text
        spec = (await client.get("/openapi.json")).json()
        operation = spec["paths"]["/api/players/{player}/ratings/history"]["get"]
        assert operation["responses"]["404"]["x-error-codes"] == ["unknown_player"]
