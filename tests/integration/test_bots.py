"""The bots service against a real nats-server, referee and gateway: computer seats from the
create-match body, a whole match between two bots, a person against a bot in a card game, and a
restarted bots service that picks its seat up again."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.bots import app as bots_app
from services.cli.stackrun import in_process_stack
from services.common import settings as settings_module
from services.common.players import PublicFold, choose_command
from tests.support.gateway import OPEN

pytestmark = pytest.mark.integration


@dataclasses.dataclass
class Bots:
    settings: settings_module.Settings
    stop: asyncio.Event | None = None
    task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.stop = asyncio.Event()
        self.task = asyncio.create_task(bots_app.run(self.settings, self.stop, metrics_port=None))
        await asyncio.sleep(0.3)  # subscribed

    async def halt(self) -> None:
        assert self.stop is not None and self.task is not None
        self.stop.set()
        await self.task


@contextlib.asynccontextmanager
async def stack(nats_url: str, data_dir: Path) -> AsyncIterator[tuple[httpx.AsyncClient, Bots]]:
    # These clients poll as fast as they can: the gateway's rate limits (tested in test_edge) are off.
    settings = settings_module.load().replace(
        nats_url=nats_url, data_dir=data_dir, gateway=settings_module.GatewaySettings.of(OPEN)
    )
    bots = Bots(settings)
    await bots.start()
    try:
        async with in_process_stack(settings, ("referee", "gateway")) as url:
            async with httpx.AsyncClient(base_url=url, timeout=30) as client:
                yield client, bots
    finally:
        if bots.stop is not None and not bots.stop.is_set():
            await bots.halt()


async def wait_for(
    client: httpx.AsyncClient, match_id: str, check: Any, timeout: float = 60.0
) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        view = (await client.get(f"/api/matches/{match_id}")).json()
        if check(view):
            return view
        assert asyncio.get_running_loop().time() < deadline, f"timed out; last view {view}"
        await asyncio.sleep(0.05)


async def test_two_bots_play_an_ugolki_match_to_the_end(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as (client, _):
        r = await client.post(
            "/api/matches",
            json={
                "game": "ugolki",
                "preset": "mini-3x3",
                "bots": {"white": "greedy", "black": "search"},
                "bot_think_ms": 0,
            },
        )
        assert r.status_code == 201, r.text
        created = r.json()
        assert created["seats"] == [] and created["invites"] == []  # no token leaves for a bot seat
        assert [b["status"] for b in created["bots"]] == ["seated", "seated"]
        final = await wait_for(client, created["match_id"], lambda v: v["status"] == "finished", 120)
        assert final["outcome"] is not None
        assert final["game_view"]["moves_made"]["white"] > 5


async def test_bad_bot_seats_are_refused_before_a_match_exists(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as (client, _):
        before = len((await client.get("/api/matches")).json()["matches"])
        for bots in ({"white": "grandmaster"}, {"green": "random"}):
            r = await client.post("/api/matches", json={"game": "ugolki", "bots": bots})
            assert r.status_code == 400 and r.json()["code"] == "invalid_bots", r.text
        assert len((await client.get("/api/matches")).json()["matches"]) == before


async def test_a_person_against_a_bot_at_kings_in_the_corner(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as (client, _):
        r = await client.post(
            "/api/matches",
            json={
                "game": "kings-corner",
                "players": ["ann", "cpu"],
                "bots": {"p2": "heuristic"},
                "bot_think_ms": 0,
            },
        )
        assert r.status_code == 201, r.text
        created = r.json()
        match_id = created["match_id"]
        assert [s["seat"] for s in created["seats"]] == ["p1"]
        assert created["invites"][0]["url"].startswith(f"/#/play/{match_id}?token=p1.")
        token = created["seats"][0]["token"]
        rng = random.Random(3)
        decisions = 0
        mine = PublicFold("kings-corner")  # ann's own information state: her events, redacted for her
        view = (await client.get(f"/api/matches/{match_id}", params={"token": token})).json()
        while view["status"] != "finished" and decisions < 400:
            if "p1" in view["to_move"]:
                shown = await client.get(
                    f"/api/matches/{match_id}/events", params={"token": token, "since": mine.seq}
                )
                mine.apply(shown.json())
                assert mine.seq >= view["seq"]
                command = choose_command("kings-corner", mine, "p1", "random", rng)
                reply = await client.post(
                    f"/api/matches/{match_id}/commands", json={"command": command}, params={"token": token}
                )
                assert reply.status_code == 200, reply.text
                decisions += 1
            else:
                await asyncio.sleep(0.02)
            view = (await client.get(f"/api/matches/{match_id}", params={"token": token})).json()
        assert view["status"] == "finished", "the match should finish within 400 of ann's decisions"
        events = (await client.get(f"/api/matches/{match_id}/events")).json()
        assert any(d["seat"] == "p2" for d in events), "the bot played its seat"
        # A spectator's replay shows no hand while a round is being played.
        frames = (await client.get(f"/api/matches/{match_id}/replay")).json()["frames"]
        assert len(frames) == view["seq"]
        assert all(f["view"]["game_view"]["hand"] == [] for f in frames)


async def test_a_restarted_bots_service_resumes_its_seat(nats_url: str, tmp_path: Path) -> None:
    async with stack(nats_url, tmp_path) as (client, bots):
        r = await client.post(
            "/api/matches", json={"game": "ugolki", "bots": {"black": "random"}, "bot_think_ms": 0}
        )
        created = r.json()
        match_id, token = created["match_id"], created["seats"][0]["token"]
        await bots.halt()
        assert (tmp_path / "bots" / "seats.json").exists()
        view = (await client.get(f"/api/matches/{match_id}", params={"token": token})).json()
        move = view["game_view"]["legal"][0].split("-")
        reply = await client.post(
            f"/api/matches/{match_id}/commands",
            json={"command": {"type": "move_piece.v1", "path": move}},
            params={"token": token},
        )
        assert reply.status_code == 200, reply.text
        await asyncio.sleep(0.5)
        assert (await client.get(f"/api/matches/{match_id}")).json()["to_move"] == ["black"]
        await bots.start()
        answered = await wait_for(client, match_id, lambda v: v["to_move"] == ["white"], 30)
        assert len(answered["game_view"]["history"]) == 2


async def test_quick_match_fills_the_table_with_a_bot(
    nats_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lobby quick match: queue through the gateway, matchmaking fills the seat with a computer
    player, the gateway creates the match and hands the person's seat token to their ticket."""
    monkeypatch.setenv("GAMEHALL_MM_BOT_FILL_MS", "300")
    settings = settings_module.load().replace(nats_url=nats_url, data_dir=tmp_path)
    bots = Bots(settings)
    await bots.start()
    try:
        async with in_process_stack(settings, ("referee", "gateway", "matchmaking")) as url:
            async with httpx.AsyncClient(base_url=url, timeout=30) as client:
                signed = await client.post("/api/accounts", json={"name": "quinn"})
                assert signed.status_code == 201, signed.text
                auth = {"Authorization": f"Bearer {signed.json()['token']}"}
                for _ in range(100):  # matchmaking may still be migrating its database
                    r = await client.post(
                        "/api/queue",
                        json={"game": "ugolki", "preset": "mini-3x3", "bots_ok": True},
                        headers=auth,
                    )
                    if r.status_code != 503:
                        break
                    await asyncio.sleep(0.2)
                assert r.status_code == 200 and r.json()["state"] == "queued", r.text
                ticket = r.json()["ticket_id"]
                deadline = asyncio.get_running_loop().time() + 30
                while True:
                    seat = (await client.get(f"/api/queue/{ticket}", headers=auth)).json()
                    if seat["state"] == "seated":
                        break
                    assert asyncio.get_running_loop().time() < deadline, seat
                    await asyncio.sleep(0.1)
                view = (
                    await client.get(f"/api/matches/{seat['match_id']}", params={"token": seat["token"]})
                ).json()
                assert view["viewer"] == seat["seat"] and "quinn" in view["players"]
                again = await client.post("/api/queue", json={"game": "ugolki"}, headers=auth)
                assert again.status_code == 409 and again.json()["code"] == "in_match"
                if seat["seat"] == "black":  # the bot moves first
                    await wait_for(client, seat["match_id"], lambda v: v["to_move"] == ["black"], 30)
    finally:
        await bots.halt()


async def test_a_bot_answers_a_draw_offer(nats_url: str, tmp_path: Path) -> None:
    """Draw offers to a computer player are answered (issue 14): at the start neither side is
    behind in the race home, so the bot declines, and the offer no longer stands."""
    async with stack(nats_url, tmp_path) as (client, _):
        r = await client.post(
            "/api/matches",
            json={"game": "ugolki", "players": ["ann", "cpu"], "bots": {"black": "greedy"}, "bot_think_ms": 0},
        )
        assert r.status_code == 201, r.text
        created = r.json()
        match_id, token = created["match_id"], created["seats"][0]["token"]
        offer = await client.post(
            f"/api/matches/{match_id}/commands",
            headers={"authorization": f"Bearer {token}"},
            json={"command": {"type": "offer_draw.v1"}},
        )
        assert offer.status_code in (200, 201), offer.text
        await wait_for(client, match_id, lambda v: v["seq"] >= 3 and v["draw_offer"] is None, 30)
        decisions = (await client.get(f"/api/matches/{match_id}/events")).json()
        types = [e["type"] for d in decisions for e in d["events"]]
        assert "draw_declined.v1" in types, types

