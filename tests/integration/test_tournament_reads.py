"""The tournaments' read side through a real gateway: records stored on GH_TOURNAMENTS (as the
tournaments service stores them) are listed, viewed in English and Russian, given back as stored
for auditors and pushed over the tournament WebSocket (the ``nc`` fixture's ensure_streams makes
GH_TOURNAMENTS as every service does); unknown, malformed and broken ones get
typed errors."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable

import httpx
import msgspec
import pytest
from nats.aio.client import Client
from websockets.sync.client import connect as ws_connect

from contracts.tournaments import TournamentBundle, TournamentViewFrame
from domain.tournaments import audit
from services.common.tournaments import audit_records, bundle_records
from tests.support.tournament_records import Recorder

pytestmark = pytest.mark.integration

CYRILLIC = re.compile("[\u0400-\u04ff]")


def until(check: Callable[[], object], seconds: float = 10.0) -> object:
    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, "condition not met before the deadline"
        time.sleep(0.05)


async def test_a_round_robin_listed_viewed_in_both_languages_and_given_back_as_stored(
    nc: Client, client: httpx.Client
) -> None:
    js = nc.jetstream()
    t = Recorder("rr-reads").open(["ann", "bob", "cy", "dan"])
    await t.publish(js)
    # a read waits for the gateway's consumer to reach the subject's last record
    view = client.get("/api/tournaments/rr-reads").json()
    assert (view["phase"], view["can_join"], view["seq"]) == ("registration", True, 5)
    assert [e["player"] for e in view["entrants"]] == ["ann", "bob", "cy", "dan"]
    assert view["phase_text"] == "Registration open: 4 players" and view["game_title"] == "Ugolki (corners)"
    listed = client.get("/api/tournaments", params={"status": "registration"}).json()["tournaments"]
    assert "rr-reads" in [s["tournament_id"] for s in listed]
    running = client.get("/api/tournaments", params={"status": "running"}).json()["tournaments"]
    assert "rr-reads" not in [s["tournament_id"] for s in running]
    assert client.get("/api/tournaments", params={"status": "paused"}).status_code == 422

    t.close().play_round()
    await t.publish(js)
    view = client.get("/api/tournaments/rr-reads").json()
    assert (view["phase"], view["round"], view["rounds_total"]) == ("running", 1, 3)
    (rnd,) = view["rounds"]
    assert [g["result"] for g in rnd["games"]] == ["1-0", "1-0"]
    winners = {g["seats"][0] for g in rnd["games"]}
    assert {s["player"] for s in view["standings"] if s["rank"] == 1} == winners
    assert all(s["points"] == (1.0 if s["player"] in winners else 0.0) for s in view["standings"])
    assert {row["player"]: row["cells"][0]["mark"] for row in view["crosstable"]} == {
        p: "1" if p in winners else "0" for p in ("ann", "bob", "cy", "dan")
    }
    ru = client.get("/api/tournaments/rr-reads", params={"lang": "ru"}).json()
    assert ru["phase_text"] == "Тур 1 из 3 сыгран, скоро тур 2" and ru["lang"] == "ru"
    assert ru["game_title"] == "Уголки" and all(CYRILLIC.search(line) for line in ru["settings_text"])
    assert ru["rounds"][0]["title"] == "Тур 1"
    summary = next(
        s
        for s in client.get("/api/tournaments", params={"lang": "ru"}).json()["tournaments"]
        if s["tournament_id"] == "rr-reads"
    )
    assert (summary["phase"], summary["round"], summary["format_name"]) == ("running", 1, "круговой турнир")

    answer = client.get("/api/tournaments/rr-reads/records")
    assert answer.status_code == 200
    bundle = msgspec.json.decode(answer.content, type=TournamentBundle)
    assert bundle.tournament_id == "rr-reads" and len(bundle.records) == len(t.records)
    # each record exactly as stored: the chain checks from this answer alone
    assert answer.content == b'{"tournament_id":"rr-reads","records":[' + b",".join(t.records) + b"]}"
    for before, record in zip(t.records, bundle.records[1:], strict=False):
        assert record.prev_hash == hashlib.sha256(before).hexdigest()
    assert audit([e for r in bundle.records for e in r.events]) is None
    assert audit_records(*bundle_records(answer.content)) is None  # as `gamehall tournaments audit --bundle`


async def test_unknown_malformed_and_broken_tournaments_get_typed_errors(
    nc: Client, client: httpx.Client
) -> None:
    js = nc.jetstream()
    missing = client.get("/api/tournaments/no-such-tournament")
    assert missing.status_code == 404 and missing.json()["code"] == "tournament_not_found"
    assert client.get("/api/tournaments/no-such-tournament/records").json()["code"] == "tournament_not_found"
    bad = client.get("/api/tournaments/bad.id")
    assert bad.status_code == 400 and bad.json()["code"] == "malformed"
    assert client.get("/api/tournaments/x", params={"lang": "de"}).status_code == 422
    # a second record that does not chain to the first: the tournament does not fold
    t = Recorder("broken-chain").open(["ann", "bob"])
    t.records[1] = t.records[1].replace(b'"prev_hash":"', b'"prev_hash":"00', 1)
    await t.publish(js)
    broken = client.get("/api/tournaments/broken-chain")
    assert broken.status_code == 409 and broken.json()["code"] == "unreadable_tournament"
    assert "prev_hash" in broken.json()["detail"]
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert "broken-chain" not in [s["tournament_id"] for s in listed]


async def test_the_tournament_socket_pushes_the_view_after_every_record(
    nc: Client, gateway: str, client: httpx.Client
) -> None:
    js = nc.jetstream()
    t = Recorder("rr-live").open(["ann", "bob", "cy"])
    await t.publish(js)
    until(lambda: client.get("/api/tournaments/rr-live").status_code == 200)
    url = gateway.replace("http", "ws", 1) + "/ws/tournaments/rr-live?lang=ru"
    with ws_connect(url, open_timeout=10) as ws:
        raw = ws.recv(timeout=10)
        assert msgspec.json.decode(raw, type=TournamentViewFrame).view.tournament_id == "rr-live"
        first = json.loads(raw)
        assert first["type"] == "view" and first["view"]["seq"] == 4 and first["view"]["lang"] == "ru"
        t.close()
        await t.publish(js)
        frame = json.loads(ws.recv(timeout=10))
        assert frame["view"]["seq"] == 5 and frame["view"]["phase"] == "running"
        assert frame["view"]["phase_text"] == "Запись закрыта, скоро тур 1"
        t.play_round()
        await t.publish(js)
        seqs = [frame["view"]["seq"]]
        while seqs[-1] < len(t.records):  # a socket behind gets the latest view only
            seqs.append(json.loads(ws.recv(timeout=10))["view"]["seq"])
        assert seqs == sorted(set(seqs)) and seqs[-1] == len(t.records)
    with ws_connect(gateway.replace("http", "ws", 1) + "/ws/tournaments/nobody-here", open_timeout=10) as ws:
        error = json.loads(ws.recv(timeout=10))
        assert error == {
            "type": "error",
            "code": "tournament_not_found",
            "detail": "no tournament 'nobody-here'",
        }


async def test_reads_answer_from_what_is_held_while_nats_does_not(nats_url: str) -> None:
    """The book's look-up of a subject's last record fails on a closed connection: the read
    answers with the tournament as held, not an error."""
    from services.common.natsio import connect
    from services.gateway.tournament_book import TournamentBook

    closed = await connect(nats_url, "test-closed")
    await closed.close()
    book = TournamentBook(lambda: closed)
    t = Recorder("held-only").open(["ann", "bob"])
    for i, data in enumerate(t.records, start=1):
        book.apply("tournament.held-only", data, i)
    held = await book.current("held-only")
    assert held is not None and held.seq == len(t.records)
    assert await book.current("not-held") is None
