"""The matchmaking service over a real nats-server: join/leave/status, tables on the stream,
no double queueing, bots, private tables and the computer."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from contracts import subjects
from contracts.codecs import encode, integration_decoder
from contracts.envelope import Rejected
from contracts.integration import MatchStarted, TableFormed
from contracts.matchmaking import Idle, JoinQueue, Left, Queued, Seated
from domain.matchmaking.pairing import GapStep, Policy
from domain.matchmaking.provenance import signed_table
from services.cli.rebuild import read_subject
from services.common import matchmaking_client as client
from services.common import natsio
from services.common.settings import Settings
from services.common.tablekeys import TrustedTableKeys
from services.matchmaking import app
from tests.integration import ranked_support
from tests.integration.ranked_support import finished

pytestmark = pytest.mark.integration
ranked_nats = ranked_support.ranked_nats


def settings_for(nats_url: str, tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path,
        nats_url=nats_url,
        db_url=None,
        http_host="127.0.0.1",
        http_port=0,
        partitions=4,
        log_format="json",
    )


async def test_queue_lifecycle(ranked_nats: str, tmp_path: Path) -> None:
    stop = asyncio.Event()
    policy = Policy(steps=(GapStep(0, 50.0), GapStep(300, float("inf"))), bot_fill_after_ms=300)
    service = asyncio.create_task(
        app.run(settings_for(ranked_nats, tmp_path), stop, policy=policy, tick_s=0.02, metrics_port=None)
    )
    nc = await natsio.connect(ranked_nats, "test")
    js = nc.jetstream()
    try:
        for _ in range(100):
            try:
                await client.status(nc, "warmup", timeout=0.2)
                break
            except Exception:  # noqa: BLE001 - service still starting
                await asyncio.sleep(0.05)

        # far ratings wait, then pair once the gap opens; nobody queues twice
        a = await client.join(nc, JoinQueue(player="ann", game="ugolki", preset="classic", rating=1500))
        assert isinstance(a, Queued) and a.position == 1 and a.gap == 50.0
        again = await client.join(nc, JoinQueue(player="ann", game="ugolki", preset="classic", rating=1500))
        assert isinstance(again, Rejected) and again.code == "already_queued"
        b = await client.join(nc, JoinQueue(player="bob", game="ugolki", preset="classic", rating=1800))
        assert isinstance(b, Queued)
        assert isinstance(await client.status(nc, "ann"), Queued)
        await asyncio.sleep(0.5)
        seated = await client.status(nc, "ann")
        assert isinstance(seated, Seated) and sorted(seated.players) == ["ann", "bob"]
        busy = await client.join(nc, JoinQueue(player="bob", game="ugolki", preset="classic"))
        assert isinstance(busy, Rejected) and busy.code == "in_match"

        tables = [integration_decoder.decode(d) for _, d in await read_subject(js, subjects.TABLE_FORMED)]
        table = next(t for t in tables if isinstance(t, TableFormed) and t.table_id == seated.table_id)
        assert table.ranked and table.bots == ()
        # matchmaking signed the ranked table with its key in the data folder (docs/audit.md)
        trusted = TrustedTableKeys.from_entries([str(tmp_path / "keys" / "matchmaking.pub")])
        assert table.key_id in trusted.key_ids and trusted.check(signed_table(table)) is None

        # the gateway creates the match; its end frees the players
        started = MatchStarted(
            match_id="mm-1",
            game="ugolki",
            preset="classic",
            rules_version="1",
            ruleset_hash="x",
            seats=("white", "black"),
            players=table.players,
            created_at=1,
            ranked=True,
            table_id=table.table_id,
        )
        await js.publish(subjects.MATCH_CREATED, encode(started), headers={subjects.MSG_ID: "created:mm-1"})
        for _ in range(100):
            status = await client.status(nc, "ann")
            if isinstance(status, Seated) and status.match_id == "mm-1":
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("MatchStarted not seen")
        done = finished("mm-1", table.players, (1, 2), 2)
        await js.publish(subjects.MATCH_FINISHED, encode(done), headers={subjects.MSG_ID: "finished:mm-1"})
        for _ in range(100):
            if isinstance(await client.status(nc, "ann"), Idle):
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("MatchFinished not seen")

        # leave
        joined = await client.join(
            nc, JoinQueue(player="cid", game="kings-corner", preset="pagat-classic", seats=3, rating=1500)
        )
        assert isinstance(joined, Queued)
        left = await client.leave(nc, "cid")
        assert isinstance(left, Left)
        nope = await client.leave(nc, "cid")
        assert isinstance(nope, Rejected) and nope.code == "not_queued"

        # play the computer: seated at once with bots
        solo = await client.join(
            nc, JoinQueue(player="dan", game="ugolki", preset="classic", vs_computer=True)
        )
        assert isinstance(solo, Queued)
        vs = await client.status(nc, "dan")
        assert isinstance(vs, Seated) and len(vs.bots) == 1

        # private table: different ratings, same code
        await client.join(
            nc, JoinQueue(player="eve", game="ugolki", preset="classic", invite="K1", rating=900)
        )
        await client.join(
            nc, JoinQueue(player="fay", game="ugolki", preset="classic", invite="K1", rating=2400)
        )
        private = await client.status(nc, "fay")
        assert isinstance(private, Seated) and sorted(private.players) == ["eve", "fay"]

        # bots fill a 4-seat table after the wait for whoever asked
        await client.join(
            nc,
            JoinQueue(
                player="gus", game="kings-corner", preset="pagat-classic", seats=4, bots_ok=True, rating=1500
            ),
        )
        await asyncio.sleep(0.5)
        filled = await client.status(nc, "gus")
        assert isinstance(filled, Seated) and len(filled.bots) == 3

        # malformed requests get a reply, not silence
        reply = await nc.request(subjects.MATCHMAKING_JOIN, b"{nonsense", timeout=2)
        assert b"malformed" in reply.data
    finally:
        stop.set()
        await asyncio.wait_for(service, 10)
        await nc.drain()


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the service's /metrics, by name and labels (it is served on this loop)."""
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient() as http:
        body = (await http.get(f"http://127.0.0.1:{port}/metrics", timeout=5)).text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
    }


async def poll(what: str, check: Callable[[], Awaitable[bool]], timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not seen within {timeout:.0f} s: {what}")
        await asyncio.sleep(0.05)


async def test_a_list_of_servers_and_the_queue_metrics(ranked_nats: str, tmp_path: Path) -> None:
    """NATS_URL lists several servers, comma-separated, as for every other service (here the one
    server under two names); /metrics shows the queue depth, the oldest wait and, once a player is
    seated, the wait histogram of the game."""
    from services.common.processes import free_port

    port = free_port()
    other_name = ranked_nats.replace("127.0.0.1", "localhost")
    assert other_name != ranked_nats
    settings = settings_for(f"{ranked_nats}, {other_name}", tmp_path).replace(metrics_port=port)
    stop = asyncio.Event()
    policy = Policy(steps=(GapStep(0, 50.0),), bot_fill_after_ms=600_000)
    service = asyncio.create_task(app.run(settings, stop, policy=policy, tick_s=0.02))
    nc = await natsio.connect(ranked_nats, "test")
    depth = ("gamehall_matchmaking_queue_depth", (("game", "kings-corner"),))
    oldest = ("gamehall_matchmaking_oldest_wait_seconds", (("game", "kings-corner"),))
    seated = ("gamehall_matchmaking_wait_seconds_count", (("game", "kings-corner"),))
    try:
        async def answers() -> bool:
            try:
                await client.status(nc, "warmup", timeout=0.5)
                return True
            except Exception:  # noqa: BLE001 - service still starting
                return service.done()

        for _ in range(200):
            if await answers():
                break
        assert not service.done(), service.exception()
        before = await scrape(port)
        seated_before = before.get(seated, 0.0)

        ann = await client.join(nc, JoinQueue(player="kc-ann", game="kings-corner", preset="pagat-classic", rating=1500))
        assert isinstance(ann, Queued), ann

        async def depth_is(n: float) -> bool:
            return (await scrape(port)).get(depth) == n

        async def oldest_waits() -> bool:
            return (await scrape(port)).get(oldest, 0.0) > 0

        async def one_more_seated() -> bool:
            return (await scrape(port)).get(seated, 0.0) == seated_before + 1

        await poll("queue depth 1", lambda: depth_is(1))
        await poll("the oldest ticket's wait", oldest_waits)

        dan = await client.join(
            nc, JoinQueue(player="kc-dan", game="kings-corner", preset="pagat-classic", vs_computer=True)
        )
        assert isinstance(dan, Queued), dan
        await poll("one more seated player", one_more_seated)
        assert isinstance(await client.status(nc, "kc-dan"), Seated)

        assert isinstance(await client.leave(nc, "kc-ann"), Left)
        await poll("queue depth 0", lambda: depth_is(0))
        assert (await scrape(port)).get(oldest) == 0.0
    finally:
        stop.set()
        await asyncio.wait_for(service, 10)
        await nc.drain()
