"""One matchmaking queue served by several matchmakers and gateways over a real nats-server
(the queue is the key-value bucket GH_TICKETS): players are paired exactly once, a restart of a
matchmaker or a gateway keeps a waiting ticket, and nobody sits in two matches."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.matchmaking import JoinQueue, Queued, Seated
from domain.matchmaking.pairing import GapStep, Policy
from services.cli.rebuild import read_subject
from services.cli.stackrun import free_port, http_ok, service_runner
from services.common import matchmaking_client as client
from services.common import natsio
from services.common import settings as settings_module
from services.matchmaking import app
from tests.integration import ranked_support

pytestmark = pytest.mark.integration
ranked_nats = ranked_support.ranked_nats

# Ratings far apart never pair under this policy: such tickets wait for as long as a test needs.
NEVER_WIDENS = Policy(steps=(GapStep(0, 50.0),), bot_fill_after_ms=10**9)


def settings_for(nats_url: str, tmp_path: Path) -> settings_module.Settings:
    return settings_module.load().replace(
        nats_url=nats_url, data_dir=tmp_path, db_url=f"sqlite:///{tmp_path / 'gamehall.sqlite3'}"
    )


@contextlib.asynccontextmanager
async def matchmaker(settings: settings_module.Settings, policy: Policy) -> AsyncIterator[asyncio.Task[None]]:
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(settings, stop, policy=policy, tick_s=0.02, metrics_port=None))
    try:
        yield task
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


async def answering(nc: object) -> None:
    for _ in range(200):
        try:
            await client.status(nc, "warmup", timeout=0.3)  # type: ignore[arg-type]
            return
        except Exception:  # noqa: BLE001 - still starting
            await asyncio.sleep(0.05)
    raise AssertionError("no matchmaker answers")


async def tables_of(js: object, prefix: str) -> list[TableFormed]:
    out = []
    for _, data in await read_subject(js, subjects.TABLE_FORMED):  # type: ignore[arg-type]
        event = integration_decoder.decode(data)
        if isinstance(event, TableFormed) and event.players and event.players[0].startswith(prefix):
            out.append(event)
    return out


async def test_two_matchmakers_pair_every_player_exactly_once(ranked_nats: str, tmp_path: Path) -> None:
    settings = settings_for(ranked_nats, tmp_path)
    policy = Policy(steps=(GapStep(0, float("inf")),), bot_fill_after_ms=10**9)
    nc = await natsio.connect(ranked_nats, "test")
    try:
        async with matchmaker(settings, policy), matchmaker(settings, policy):
            await answering(nc)
            players = [f"x{i:02d}" for i in range(40)]
            # every player joins twice at once (requests spread over both matchmakers)
            requests = [
                client.join(nc, JoinQueue(player=p, game="ugolki", preset="classic", rating=1500.0))
                for p in players
                for _ in range(2)
            ]
            replies = await asyncio.gather(*requests)
            queued = Counter(r.player for r in replies if isinstance(r, Queued))
            refused = [r for r in replies if isinstance(r, Rejected)]
            assert queued == Counter(players), queued  # one ticket per player...
            assert len(refused) == 40 and {r.code for r in refused} <= {"already_queued", "in_match"}
            for _ in range(200):
                statuses = await asyncio.gather(*(client.status(nc, p) for p in players))
                if all(isinstance(s, Seated) for s in statuses):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError([s for s in statuses if not isinstance(s, Seated)])
            js = nc.jetstream()
            tables = await tables_of(js, "x")
            seated = Counter(p for t in tables for p in t.players)
            assert seated == Counter(players)  # ...and every player at exactly one table
            assert len(tables) == 20 and len({t.table_id for t in tables}) == 20
            by_player = {p: t.table_id for t in tables for p in t.players}
            assert all(s.table_id == by_player[s.player] for s in statuses if isinstance(s, Seated))
    finally:
        await nc.drain()


async def test_a_restarted_matchmaker_keeps_the_waiting_tickets(ranked_nats: str, tmp_path: Path) -> None:
    settings = settings_for(ranked_nats, tmp_path)
    nc = await natsio.connect(ranked_nats, "test")
    try:
        async with matchmaker(settings, NEVER_WIDENS):
            await answering(nc)
            low = await client.join(nc, JoinQueue(player="r-low", game="ugolki", preset="classic", rating=900.0))
            high = await client.join(nc, JoinQueue(player="r-high", game="ugolki", preset="classic", rating=2400.0))
            assert isinstance(low, Queued) and isinstance(high, Queued)
        # no matchmaker runs now: the tickets are in the bucket, not in a process
        async with matchmaker(settings, NEVER_WIDENS):
            await answering(nc)
            kept = await client.status(nc, "r-low")
            assert isinstance(kept, Queued) and kept.ticket_id == low.ticket_id and kept.joined_at == low.joined_at
            again = await client.join(nc, JoinQueue(player="r-low", game="ugolki", preset="classic", rating=900.0))
            assert isinstance(again, Rejected) and again.code == "already_queued"
            # a partner within the gap arrives after the restart: the kept ticket is paired
            await client.join(nc, JoinQueue(player="r-mid", game="ugolki", preset="classic", rating=920.0))
            for _ in range(200):
                seated = await client.status(nc, "r-low")
                if isinstance(seated, Seated):
                    break
                await asyncio.sleep(0.05)
            assert isinstance(seated, Seated) and sorted(seated.players) == ["r-low", "r-mid"]
            assert isinstance(await client.status(nc, "r-high"), Queued)
    finally:
        await nc.drain()


@contextlib.asynccontextmanager
async def service(name: str, settings: settings_module.Settings) -> AsyncIterator[str]:
    stop = asyncio.Event()
    url = ""
    if name == "gateway":
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        task = asyncio.create_task(service_runner(name)(settings, stop, port=port))
        for _ in range(300):
            if await asyncio.to_thread(http_ok, f"{url}/healthz"):
                break
            await asyncio.sleep(0.05)
    else:
        task = asyncio.create_task(service_runner(name)(settings, stop))
    try:
        yield url
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


async def sign_up(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await http.post("/api/accounts", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def queue(http: httpx.AsyncClient, auth: dict[str, str]) -> str:
    for _ in range(200):  # matchmaking may still be starting
        r = await http.post("/api/queue", json={"game": "ugolki", "preset": "mini-3x3"}, headers=auth)
        if r.status_code != 503:
            break
        await asyncio.sleep(0.1)
    assert r.status_code == 200 and r.json()["state"] == "queued", r.text
    return str(r.json()["ticket_id"])


async def seat_of(http: httpx.AsyncClient, ticket: str, auth: dict[str, str]) -> dict[str, str]:
    for _ in range(300):
        r = await http.get(f"/api/queue/{ticket}", headers=auth)
        assert r.status_code == 200, r.text
        if r.json()["state"] == "seated":
            return dict(r.json())
        await asyncio.sleep(0.05)
    raise AssertionError(r.json())


async def test_two_gateways_and_two_matchmakers_serve_one_queue(
    ranked_nats: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMEHALL_MM_STEPS", "0:inf")
    settings = settings_for(ranked_nats, tmp_path)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(service("referee", settings))
        await stack.enter_async_context(service("matchmaking", settings))
        await stack.enter_async_context(service("matchmaking", settings))
        url_b = await stack.enter_async_context(service("gateway", settings))
        http_b = await stack.enter_async_context(httpx.AsyncClient(base_url=url_b, timeout=30))
        gateway_a = contextlib.AsyncExitStack()
        url_a = await gateway_a.enter_async_context(service("gateway", settings))
        http_a = await gateway_a.enter_async_context(httpx.AsyncClient(base_url=url_a, timeout=30))

        ann, bob, cid, dot = [await sign_up(http_a, n) for n in ("g-ann", "g-bob", "g-cid", "g-dot")]
        # ann queues at gateway A, bob at gateway B: one table, and each collects the seat at the
        # other gateway
        ticket_ann = await queue(http_a, ann)
        ticket_bob = await queue(http_b, bob)
        seat_ann = await seat_of(http_b, ticket_ann, ann)
        seat_bob = await seat_of(http_a, ticket_bob, bob)
        assert seat_ann["match_id"] == seat_bob["match_id"] and seat_ann["seat"] != seat_bob["seat"]
        for http, seat in ((http_a, seat_ann), (http_b, seat_bob)):
            view = await http.get(f"/api/matches/{seat['match_id']}", params={"token": seat["token"]})
            assert view.status_code == 200 and view.json()["viewer"] == seat["seat"], view.text
        # another player's ticket is no ticket at all, at either gateway
        assert (await http_b.get(f"/api/queue/{ticket_ann}", headers=bob)).status_code == 404
        # nobody sits in two matches: a seated player is refused at every gateway
        for http in (http_a, http_b):
            again = await http.post("/api/queue", json={"game": "ugolki", "preset": "mini-3x3"}, headers=ann)
            assert again.status_code == 409 and again.json()["code"] == "in_match", again.text

        # cid waits at gateway A; gateway A stops; dot arrives at gateway B; gateway A comes back
        ticket_cid = await queue(http_a, cid)
        await gateway_a.aclose()
        ticket_dot = await queue(http_b, dot)
        seat_dot = await seat_of(http_b, ticket_dot, dot)
        async with service("gateway", settings) as url_a2, httpx.AsyncClient(base_url=url_a2, timeout=30) as http_a2:
            seat_cid = await seat_of(http_a2, ticket_cid, cid)
        assert seat_cid["match_id"] == seat_dot["match_id"] != seat_ann["match_id"]
        js_nc = await natsio.connect(ranked_nats, "test")
        try:
            tables = await tables_of(js_nc.jetstream(), "")
        finally:
            await js_nc.drain()
        mine = [t for t in tables if set(t.players) & {"g-ann", "g-bob", "g-cid", "g-dot"}]
        assert len(mine) == 2 and Counter(p for t in mine for p in t.players) == Counter(
            ["g-ann", "g-bob", "g-cid", "g-dot"]
        )
