"""A queue for a seat count its preset cannot play, over a real nats-server: matchmaking refuses
the join with ``unplayable_seats`` (ranked and unranked) and stores no ticket, so the player is
never seated at a table that cannot become a match; the gateway answers the refusal 400 with its
code."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import httpx
import pytest

from contracts.envelope import Rejected
from contracts.matchmaking import Idle, JoinQueue, Queued
from domain.matchmaking.pairing import GapStep, Policy
from services.cli.stackrun import in_process_stack
from services.common import matchmaking_client as client
from services.common import natsio
from services.common import settings as settings_module
from services.matchmaking import app
from tests.integration import ranked_support
from tests.integration.test_identity import join, sign_up
from tests.integration.test_matchmaking_service import settings_for

pytestmark = pytest.mark.integration
ranked_nats = ranked_support.ranked_nats


async def test_matchmaking_refuses_a_seat_count_the_preset_cannot_play(ranked_nats: str, tmp_path: Path) -> None:
    stop = asyncio.Event()
    policy = Policy(steps=(GapStep(0, float("inf")),), bot_fill_after_ms=0)
    service = asyncio.create_task(
        app.run(settings_for(ranked_nats, tmp_path), stop, policy=policy, tick_s=0.02, metrics_port=None)
    )
    nc = await natsio.connect(ranked_nats, "test")
    try:
        for _ in range(100):
            try:
                await client.status(nc, "warmup", timeout=0.2)
                break
            except Exception:  # noqa: BLE001 - service still starting
                await asyncio.sleep(0.05)
        players = ("ann", "bob", "cid")
        for ranked in (True, False):
            for player in players:
                request = JoinQueue(
                    player=player, game="king", preset="king-4p-classic", seats=3, ranked=ranked, bots_ok=True
                )
                refused = await client.join(nc, request)
                assert isinstance(refused, Rejected) and refused.code == "unplayable_seats", refused
                assert refused.detail == "Classic King is played with 4 seats, not 3"
        # Nothing was stored: three players who would have made a table are idle, not seated.
        await asyncio.sleep(0.2)
        for player in players:
            assert isinstance(await client.status(nc, player), Idle)
        # The same players join the preset at the count it plays, and the 3-seat preset at 3.
        ok = await client.join(nc, JoinQueue(player="ann", game="king", preset="king-3p", seats=3))
        assert isinstance(ok, Queued)
    finally:
        stop.set()
        await asyncio.wait_for(service, 10)
        await nc.drain()


async def test_the_gateway_answers_the_refusal_400_with_its_code(nats_url: str, tmp_path: Path) -> None:
    settings = settings_module.load().replace(nats_url=nats_url, data_dir=tmp_path)
    async with in_process_stack(settings, ("referee", "gateway", "matchmaking")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            me = await sign_up(http, f"kim-{uuid.uuid4().hex[:6]}")
            for ranked in (True, False):
                r = await join(http, me, game="king", preset="king-4p-classic", seats=3, ranked=ranked)
                assert r.status_code == 400, r.text
                assert r.json()["code"] == "unplayable_seats"
                assert "4 seats, not 3" in r.json()["detail"]
            mine = await http.get("/api/queue", headers=me)
            assert mine.status_code == 200 and mine.json()["state"] == "idle"
            r = await join(http, me, game="king", preset="king-4p-classic", seats=4)
            assert r.status_code == 200 and r.json()["state"] == "queued", r.text
