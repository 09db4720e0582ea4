"""Disputes through the gateway against a real nats-server, referee, gateway, scoring and
leaderboard (issue 14 "Disputes"; docs/api.md "Disputes"): who may open, note and rule, the
typed refusals, that a refused request stores nothing, and that an amended ranked result reaches
the player pages with the ratings of the amended history."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from contracts import subjects
from contracts.integration import MatchFinished
from contracts.match import Outcome
from domain.rating.ranked import rate_match
from domain.rating.seasons import preset_family, season_for
from services.cli.stackrun import in_process_stack
from services.common import accounts, commands, db, natsio
from services.common import settings as settings_module
from services.scoring import config as scoring_config
from tests.support import tables
from tests.support.natsserver import nats_server

pytestmark = pytest.mark.integration


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, settings_module.Settings, Any]]:
    with nats_server(tmp_path / "nats") as url:
        settings = settings_module.load().replace(nats_url=url, data_dir=tmp_path)
        tables.install_key(tmp_path)  # the referee trusts the tables the tests sign as matchmaking
        async with in_process_stack(settings, ("referee", "gateway", "scoring", "leaderboard")) as base:
            nc = await natsio.connect(url, "test")
            async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                yield client, settings, nc
            await nc.drain()


async def sign_up(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await client.post("/api/accounts", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def finished_match(client: httpx.AsyncClient, nc: Any, players: tuple[str, str], finish: bool = True) -> str:
    """A ranked Ugolki match of two accounts; the second seat resigns (the first wins)."""
    created = await tables.create_ranked(nc, "ugolki", players)
    assert not isinstance(created, commands.Rejected), created
    if finish:
        loser = created.seats[1]
        r = await client.post(
            f"/api/matches/{created.match_id}/commands",
            json={"command": {"type": "resign.v1"}},
            headers={"Authorization": f"Bearer {created.tokens[loser]}"},
        )
        assert r.status_code == 200, r.text
    return created.match_id


async def stream_count(nc: Any) -> int:
    info = await nc.jetstream().stream_info(subjects.DISPUTE_STREAM)
    return int(info.state.messages)


async def until(predicate, timeout: float = 30.0) -> Any:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await predicate()
        if found:
            return found
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def test_disputes_through_the_api(stack) -> None:  # type: ignore[no-untyped-def]
    client, settings, nc = stack
    ann, bob, cid, olga = [await sign_up(client, n) for n in ("ann", "bob", "cid", "olga")]
    engine = db.open_database(settings.database_url)
    assert accounts.set_role(engine, "olga", accounts.OPERATOR)
    match_id = await finished_match(client, nc, ("ann", "bob"))
    running = await finished_match(client, nc, ("ann", "bob"), finish=False)
    guests = (await client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})).json()

    async def refused(method: str, url: str, auth: dict[str, str] | None, body: Any, status: int, code: str) -> None:
        before = await stream_count(nc)
        r = await client.request(method, url, json=body, headers=auth or {})
        assert r.status_code == status and r.json()["code"] == code, (url, r.text)
        assert set(r.json()) <= {"code", "detail", "retry_after"}
        assert await stream_count(nc) == before  # nothing stored

    reason = {"reason": "bob says the resignation was a misclick"}
    await refused("POST", f"/api/matches/{match_id}/disputes", None, reason, 401, "unauthenticated")
    await refused("POST", "/api/matches/nosuchmatch/disputes", ann, reason, 404, "match_not_found")
    await refused("POST", "/api/matches/a*b/disputes", ann, reason, 400, "malformed")
    await refused("GET", "/api/disputes/a.b-1", olga, None, 400, "malformed")
    await refused("POST", f"/api/matches/{running}/disputes", ann, reason, 409, "match_not_finished")
    await refused("POST", f"/api/matches/{match_id}/disputes", cid, reason, 403, "not_a_player")
    await refused("POST", f"/api/matches/{guests['match_id']}/disputes", ann, reason, 403, "not_a_player")

    r = await client.post(f"/api/matches/{match_id}/disputes", json=reason, headers=bob)
    assert r.status_code == 201, r.text
    dispute = r.json()
    dispute_id = dispute["dispute_id"]
    assert dispute["status"] == "open" and dispute["opened_by"] == "bob" and dispute["recorded"]["ranks"] == [1, 2]
    await refused("POST", f"/api/matches/{match_id}/disputes", ann, reason, 409, "dispute_open")

    # reading: operators see all; players of the match see theirs; nobody else
    await refused("GET", "/api/disputes", ann, None, 403, "not_an_operator")
    await refused("GET", f"/api/disputes/{dispute_id}", cid, None, 403, "not_allowed")
    assert (await client.get(f"/api/disputes/{dispute_id}", headers=ann)).json()["dispute_id"] == dispute_id
    listed = (await client.get("/api/disputes?status=open", headers=olga)).json()
    assert [d["dispute_id"] for d in listed] == [dispute_id]
    r = await client.get(f"/api/disputes/{match_id}-9", headers=olga)
    assert r.status_code == 404 and r.json()["code"] == "dispute_not_found"

    # only an operator notes and rules; a non-operator's ruling leaves nothing on the stream
    amend = {"ruling": "amended", "ranks": [2, 1], "reason": "the resignation was sent by the wrong seat"}
    await refused("POST", f"/api/disputes/{dispute_id}/ruling", bob, amend, 403, "not_an_operator")
    await refused("POST", f"/api/disputes/{dispute_id}/notes", ann, {"text": "x"}, 403, "not_an_operator")
    await refused("POST", f"/api/disputes/{dispute_id}/ruling", olga, {**amend, "ranks": [1]}, 400, "invalid_ruling")
    await refused("POST", "/api/disputes/nosuch-1/ruling", olga, amend, 404, "dispute_not_found")
    r = await client.post(f"/api/disputes/{dispute_id}/notes", json={"text": "checked the log"}, headers=olga)
    assert r.status_code == 200 and r.json()["notes"][0]["author"] == "olga"

    # the rating before the ruling, as scoring recorded it
    async def rated() -> Any:
        history = (await client.get("/api/history", params={"player": "ann"})).json()
        return next((m for m in history if m["match_id"] == match_id and m["rating_after"] is not None), None)

    original = await until(rated)
    assert original["status"] == ""

    r = await client.post(f"/api/disputes/{dispute_id}/ruling", json=amend, headers=olga)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "ruled" and r.json()["ruling"]["ranks"] == [2, 1]
    await refused("POST", f"/api/disputes/{dispute_id}/ruling", olga, amend, 409, "dispute_closed")
    await refused("POST", f"/api/disputes/{dispute_id}/notes", olga, {"text": "late"}, 409, "dispute_closed")

    # the amendment reaches the player pages with the ratings of the amended history
    async def amended() -> Any:
        profile = (await client.get("/api/players/ann")).json()
        entry = next(m for m in profile["recent_matches"] if m["match_id"] == match_id)
        return (profile, entry) if entry["status"] == "amended" else None

    profile, entry = await until(amended)
    assert entry["effective_ranks"] == [2, 1] and entry["ranks"] == [1, 2] and entry["ruling"]["ruled_by"] == "olga"
    cfg = scoring_config.load(settings.scoring)
    m = MatchFinished(
        match_id=match_id,
        game="ugolki",
        preset=original["preset"],
        rules_version="",
        seats=tuple(original["seats"]),
        players=("ann", "bob"),
        outcome=Outcome(ranks=(2, 1)),
        moves=original["moves"],
        finished_at=original["finished_at"],
        last_seq=0,
        ranked=True,
    )
    season = season_for(cfg.calendar, "ugolki", m.finished_at)
    _, want = rate_match(m, season, preset_family(m.preset), {}, cfg.policy)

    async def board_updated() -> Any:
        board = (await client.get("/api/leaderboard/ugolki")).json()["entries"]
        rows = {e["player"]: e for e in board}
        return rows if rows.get("ann", {}).get("losses") == 1 else None

    board = await until(board_updated)
    for player in ("ann", "bob"):
        assert math.isclose(board[player]["rating"], want[player].rating, rel_tol=1e-12)
    assert board["ann"]["wins"] == 0 and board["bob"]["wins"] == 1
    assert math.isclose(entry["rating_after"], want["ann"].rating, rel_tol=1e-12)
    assert profile["ratings"][0]["rating"] == pytest.approx(want["ann"].rating, rel=1e-12)
    engine.dispose()
