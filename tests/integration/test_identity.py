"""Player identity against a real nats-server, referee, matchmaking and gateway (issue 9,
finding 1): queue routes act only for the player a credential names, tickets are never echoed,
app JWTs map to players, and names without a credential are guests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest

from contracts.envelope import Rejected
from contracts.match import MatchCreated
from services.cli.stackrun import in_process_stack
from services.common import accounts, db, serverkey
from services.common import settings as settings_module
from services.common.natsio import connect
from tests.support.referees import stored_envelopes

pytestmark = pytest.mark.integration


@pytest.fixture
async def stack(nats_url: str, tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, settings_module.Settings]]:
    settings = settings_module.load().replace(nats_url=nats_url, data_dir=tmp_path)
    async with in_process_stack(settings, ("referee", "gateway", "matchmaking")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            yield client, settings


async def sign_up(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await client.post("/api/accounts", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def join(client: httpx.AsyncClient, auth: dict[str, str] | None, **body: Any) -> httpx.Response:
    body = {"game": "ugolki", "preset": "halma-8x8-1234", **body}
    for _ in range(100):  # matchmaking may still be starting
        r = await client.post("/api/queue", json=body, headers=auth or {})
        if r.status_code != 503:
            return r
        await asyncio.sleep(0.2)
    return r


async def test_sign_up_returns_a_token_once_and_names_are_unique(stack) -> None:
    client, settings = stack
    r = await client.post("/api/accounts", json={"name": "ann"})
    assert r.status_code == 201 and r.json()["player"] == "ann"
    token = r.json()["token"]
    assert token.startswith("gh_")
    again = await client.post("/api/accounts", json={"name": "ann"})
    assert again.status_code == 409 and again.json()["code"] == "name_taken" and token not in again.text
    for bad in ("app:ann", "a" * 65, " ann", "an\u00a0n", "", "ann\n", "bob\n"):
        refused = await client.post("/api/accounts", json={"name": bad})
        assert refused.status_code in (400, 422), (bad, refused.text)
    me = await client.get("/api/accounts/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json()["player"] == "ann"
    # Only the token's keyed hash is stored (HMAC with the server key), never its bare sha256.
    engine = db.open_database(settings.database_url)
    try:
        with engine.connect() as conn:
            rows = [tuple(r) for r in conn.exec_driver_sql("SELECT name, token_hash FROM accounts")]
    finally:
        engine.dispose()
    assert rows == [("ann", accounts.token_hash(token, serverkey.load(settings.server_key_file)))]
    assert rows[0][1] != accounts.legacy_token_hash(token)


async def test_a_stranger_cannot_take_or_see_another_players_queue_ticket(stack) -> None:
    client, _ = stack
    alice = await sign_up(client, "alice")
    mallory = await sign_up(client, "mallory")
    assert (await join(client, None)).status_code == 401
    as_seat = await join(client, {"Authorization": "Bearer white.garbage"})
    assert as_seat.status_code == 401 and as_seat.json()["code"] == "bad_credentials"

    # Private queues (invite codes) so that the two are never seated together here.
    queued = await join(client, alice, invite="alice-room")
    assert queued.status_code == 200, queued.text
    ticket = queued.json()["ticket_id"]

    # Seat theft through the queue (finding 1): acting as alice is refused, and nothing names her ticket.
    posing = await join(client, mallory, player="alice", invite="alice-room")
    assert posing.status_code == 403 and ticket not in posing.text
    own = await join(client, mallory, invite="mallory-room")
    assert own.status_code == 200
    twice = await join(client, mallory, invite="alice-room")
    assert twice.status_code == 409 and twice.json()["code"] == "already_queued"
    assert ticket not in twice.text and own.json()["ticket_id"] not in twice.text
    alice_twice = await join(client, alice, invite="alice-room")
    assert alice_twice.status_code == 409 and ticket not in alice_twice.text

    for headers in ({}, mallory):
        peek = await client.get(f"/api/queue/{ticket}", headers=headers)
        assert peek.status_code in (401, 404) and "token" not in peek.json()
    leave = await client.post("/api/queue/leave", json={"player": "alice"}, headers=mallory)
    assert leave.status_code == 403
    mine = await client.get("/api/queue", headers=alice)
    assert mine.json()["state"] == "queued" and mine.json()["ticket_id"] == ticket
    assert (await client.get(f"/api/queue/{ticket}", headers=alice)).status_code == 200
    # Mallory leaves only her own ticket.
    left = await client.post("/api/queue/leave", headers=mallory)
    assert left.status_code == 200 and left.json()["player"] == "mallory"
    assert (await client.get("/api/queue", headers=alice)).json()["state"] == "queued"


def player_jwt(app_id: str, secret: str, sub: str = "u-42", **changes: Any) -> str:
    now = int(time.time())
    claims = {"iss": app_id, "sub": sub, "iat": now, "exp": now + 300, **changes}
    claims = {k: v for k, v in claims.items() if v is not None}
    return jwt.encode(claims, secret, algorithm="HS256")


async def test_an_apps_jwt_presents_its_player(stack) -> None:
    client, settings = stack
    engine = db.open_database(settings.database_url)
    try:
        made = accounts.add_app(engine, "puzzle-club", serverkey.load(settings.server_key_file))
        assert not isinstance(made, Rejected)
        app_id, secret = made

        async def me(token: str) -> httpx.Response:
            return await client.get("/api/accounts/me", headers={"Authorization": f"Bearer {token}"})

        ok = await me(player_jwt(app_id, secret))
        assert ok.status_code == 200 and ok.json() == {"player": "puzzle-club:u-42", "app_id": app_id}
        assert (await me(player_jwt(app_id, secret))).json()["player"] == "puzzle-club:u-42"  # same account
        now = int(time.time())
        refused = {
            "wrong secret": player_jwt(app_id, "not-the-secret-" * 4),
            "expired": player_jwt(app_id, secret, iat=now - 900, exp=now - 600),
            "no exp": player_jwt(app_id, secret, exp=None),
            "too long-lived": player_jwt(app_id, secret, exp=now + 2 * 3600),
            "unknown app": player_jwt("app_nope", secret),
            "alg none": jwt.encode({"iss": app_id, "sub": "x", "iat": now, "exp": now + 60}, None, algorithm="none"),
        }
        for why, token in refused.items():
            r = await me(token)
            assert r.status_code == 401 and r.json()["code"] == "bad_credentials", (why, r.text)
        # The app's player queues like any other.
        queued = await join(client, {"Authorization": f"Bearer {player_jwt(app_id, secret)}"}, invite="club")
        assert queued.status_code == 200 and queued.json()["player"] == "puzzle-club:u-42"
        assert accounts.revoke_app(engine, app_id)
        assert (await me(player_jwt(app_id, secret))).status_code == 401
    finally:
        engine.dispose()


async def test_names_without_a_credential_are_guests_and_never_ranked(stack, nats_url: str) -> None:
    client, _ = stack
    r = await client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"], "ranked": True})
    assert r.status_code == 400 and r.json()["code"] == "ranked_needs_queue"
    r = await client.post("/api/matches", json={"game": "ugolki", "players": ["ann", "bob"]})
    assert r.status_code == 201
    match_id = r.json()["match_id"]
    nc = await connect(nats_url, "test")
    try:
        first = (await stored_envelopes(nc, "ugolki", match_id))[0]
    finally:
        await nc.close()
    created = first.events[0]
    assert isinstance(created, MatchCreated)
    assert created.guests == ("white", "black") and not created.ranked

