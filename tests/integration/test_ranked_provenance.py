"""Only matchmaking creates ranked matches (issue 22), against a real nats-server, referee,
matchmaking, gateway, scoring and leaderboard: two accounts queue, matchmaking signs their table,
the gateway creates the match with it, the referee records it and the match is rated; a ranked
creation from anyone else (no table, a table signed by another key, a genuine table that is not
the creation) is refused with ``ranked_needs_matchmaking`` and stores nothing: no envelope, no
seed, no sealing key, no integration event, no rating."""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from nacl.signing import SigningKey, VerifyKey
from nats.js.errors import NotFoundError

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.envelope import Rejected
from contracts.integration import MatchStarted
from contracts.match import MatchCreated, Resign
from domain.audit import audit
from domain.matchmaking.provenance import table_match_id
from services.cli.rebuild import read_subject
from services.cli.stackrun import in_process_stack
from services.common import commands, natsio
from services.common import settings as settings_module
from services.common.natsio import EventStore
from services.common.tablekeys import TableSigner, TrustedTableKeys
from tests.integration.test_identity import join, sign_up
from tests.support import tables
from tests.support.natsserver import nats_server
from tests.support.referees import bundle_of, stored_envelopes

pytestmark = pytest.mark.integration

SERVICES = ("referee", "gateway", "matchmaking", "scoring", "leaderboard")
REFUSED = "ranked_needs_matchmaking"


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, Any, Path]]:
    with nats_server(tmp_path / "nats") as url:
        settings = settings_module.load().replace(nats_url=url, data_dir=tmp_path / "data")
        async with in_process_stack(settings, SERVICES) as base:
            nc = await natsio.connect(url, "test")
            async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                yield client, nc, settings.data_dir
            await nc.drain()


async def until(what: str, probe: Any, timeout: float = 30.0) -> Any:  # noqa: ANN401
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await probe()
        if found:
            return found
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        await asyncio.sleep(0.05)


async def seat_of(client: httpx.AsyncClient, auth: dict[str, str], ticket: str) -> dict[str, Any]:
    async def seated() -> dict[str, Any] | None:
        state = (await client.get(f"/api/queue/{ticket}", headers=auth)).json()
        return state if state.get("state") == "seated" else None

    return await until("a seat at the match", seated)


async def ratings(client: httpx.AsyncClient, players: tuple[str, ...]) -> dict[str, float]:
    entries = (await client.get("/api/leaderboard/ugolki")).json()["entries"]
    return {e["player"]: e["rating"] for e in entries if e["player"] in players}


async def integration_events(nc: Any) -> list[Any]:
    return [integration_decoder.decode(data) for _, data in await read_subject(nc.jetstream(), "integration.>")]


async def resign(client: httpx.AsyncClient, match_id: str, token: str) -> httpx.Response:
    return await client.post(
        f"/api/matches/{match_id}/commands",
        json={"command": {"type": "resign.v1"}},
        headers={"Authorization": f"Bearer {token}"},
    )


async def test_queued_players_get_a_ranked_match_of_the_table_matchmaking_signed(stack) -> None:  # type: ignore[no-untyped-def]
    client, nc, data_dir = stack
    tag = uuid.uuid4().hex[:6]
    names = (f"ann-{tag}", f"bob-{tag}")
    auths = [await sign_up(client, n) for n in names]
    tickets = []
    for auth in auths:
        joined = await join(client, auth, ranked=True)
        assert joined.status_code == 200, joined.text
        tickets.append(joined.json()["ticket_id"])
    seats = [await seat_of(client, auth, t) for auth, t in zip(auths, tickets, strict=True)]
    match_id = seats[0]["match_id"]
    assert seats[1]["match_id"] == match_id

    # The match records the table; an outsider checks it from the doc alone (docs/audit.md).
    created = (await stored_envelopes(nc, "ugolki", match_id))[0].events[0]
    assert isinstance(created, MatchCreated) and created.ranked and created.table is not None
    table = created.table
    public_hex = (data_dir / "keys" / "matchmaking.pub").read_text().split("#")[0].strip()
    public = bytes.fromhex(public_hex)
    assert table.key_id == "mm-" + hashlib.sha256(public).hexdigest()[:16]
    signed = json.dumps(
        ["gamehall.table.v1", table.table_id, created.game, created.preset, created.ranked,
         list(created.players), list(table.bots), table.formed_at],
        separators=(",", ":"), ensure_ascii=False,
    ).encode()  # fmt: skip
    VerifyKey(public).verify(signed, bytes.fromhex(table.signature))  # raises if forged
    assert match_id == hashlib.sha256(f"table:{table.table_id}".encode()).hexdigest()[:16]
    assert sorted(table.players) == sorted(names) and table.players == created.players
    started = [e for e in await integration_events(nc) if isinstance(e, MatchStarted) and e.match_id == match_id]
    assert [s.table_id for s in started] == [table.table_id]

    # It is rated like any ranked match.
    loser = next(s for s in seats if s["seat"] == created.seats[1])
    assert (await resign(client, match_id, loser["token"])).status_code == 200
    rated = await until("both players rated", lambda: _both_rated(client, names))
    assert len(set(rated.values())) == 2

    # The audit confirms where it came from, and refuses a key it was not signed with.
    bundle = await bundle_of(nc, match_id)
    report = audit(bundle, tables=TrustedTableKeys.from_entries([public_hex]).check)
    assert report.ok and report.table_signed_by == table.key_id, report.problems
    stranger = TableSigner(SigningKey(bytes(32)))
    wrong = audit(bundle, tables=TrustedTableKeys([stranger.public_key]).check)
    assert not wrong.ok and any("not among the matchmaking keys" in p for p in wrong.problems)


async def _both_rated(client: httpx.AsyncClient, names: tuple[str, ...]) -> dict[str, float] | None:
    found = await ratings(client, names)
    return found if len(found) == len(names) else None


async def nothing_stored(nc: Any, game: str, match_id: str) -> None:
    js = nc.jetstream()
    assert await EventStore(js).load(subjects.match_subject(game, match_id)) == []
    for stream, subject in (
        (subjects.SECRET_STREAM, subjects.secret_subject(game, match_id)),
        (subjects.SEAL_STREAM, subjects.seal_subject(game, match_id)),
    ):
        with pytest.raises(NotFoundError):
            await js.get_last_msg(stream, subject)


async def test_a_ranked_creation_from_anyone_but_matchmaking_is_refused_and_stores_nothing(stack) -> None:  # type: ignore[no-untyped-def]
    client, nc, data_dir = stack
    # Matchmaking's key in this data folder is the tests' key, so this test can sign a genuine
    # table and then change the creation around it.
    tables.install_key(data_dir)
    tag = uuid.uuid4().hex[:6]
    victims = (f"vic-{tag}", f"tim-{tag}")

    # The victims have ratings from one genuine ranked match.
    first = await tables.create_ranked(nc, "ugolki", victims)
    assert not isinstance(first, Rejected), first
    assert (await resign(client, first.match_id, first.tokens["black"])).status_code == 200
    before = await until("the victims rated", lambda: _both_rated(client, victims))

    forged: list[tuple[str, str]] = []

    async def refused(game: str, match_id: str, **kwargs: Any) -> str:  # noqa: ANN401
        reply = await commands.create_match(nc, game, match_id=match_id, guests=(), **kwargs)
        assert isinstance(reply, Rejected) and reply.code == REFUSED, reply
        forged.append((game, match_id))
        await nothing_stored(nc, game, match_id)
        return reply.detail

    # (a) the finding: a plain ranked creation naming any two accounts, no table
    detail = await refused("ugolki", uuid.uuid4().hex[:16], players=victims, ranked=True)
    assert "matchmaking table" in detail
    await refused("kings-corner", uuid.uuid4().hex[:16], players=victims, ranked=True)  # chance, hidden cards

    # (b) a table signed by a key the referee does not trust
    stranger = TableSigner(SigningKey(bytes(32)))
    theirs = tables.table("ugolki", victims, signer=stranger)
    detail = await refused(
        "ugolki", table_match_id(theirs.table_id), preset=theirs.preset, players=victims, ranked=True, table=theirs
    )
    assert stranger.key_id in detail and "not among" in detail
    claimed = msgspec.structs.replace(theirs, key_id=tables.TEST_SIGNER.key_id)
    detail = await refused(
        "ugolki", table_match_id(claimed.table_id), preset=claimed.preset, players=victims, ranked=True, table=claimed
    )
    assert "does not verify" in detail

    # (c) a genuine table (signed by this matchmaking's key) that is not the creation
    genuine = tables.table("ugolki", victims)
    mid = table_match_id(genuine.table_id)
    swapped = victims[::-1]
    assert "in this order" in await refused(
        "ugolki", mid, preset=genuine.preset, players=swapped, ranked=True, table=genuine
    )
    assert "preset" in await refused(
        "ugolki", mid, preset="gambiter-classic", players=victims, ranked=True, table=genuine
    )
    assert "becomes match" in await refused(
        "ugolki", uuid.uuid4().hex[:16], preset=genuine.preset, players=victims, ranked=True, table=genuine
    )
    assert "for 'ugolki'" in await refused("kings-corner", mid, players=victims, ranked=True, table=genuine)
    cards = tables.table("kings-corner", victims)
    assert "seats" in await refused(
        "kings-corner",
        table_match_id(cards.table_id),
        preset=cards.preset,
        players=(*victims, f"eve-{tag}"),
        ranked=True,
        table=cards,
    )
    assert "ranked" in await refused(
        "ugolki", mid, preset=genuine.preset, players=victims, ranked=False, table=genuine
    )

    # Nothing of any of them reached another service, and no rating moved.
    for game, match_id in forged:
        reply = await commands.send(nc, game, match_id, Resign(), "white", "white.x")
        assert isinstance(reply, Rejected) and reply.code == "match_not_found", reply
    ids = {match_id for _, match_id in forged}
    assert not [e for e in await integration_events(nc) if getattr(e, "match_id", None) in ids]
    assert await ratings(client, victims) == before

    # The genuine table still makes its match once.
    made = await commands.create_match(
        nc, "ugolki", genuine.preset, players=victims, ranked=True, guests=(), match_id=mid, table=genuine
    )
    assert not isinstance(made, Rejected), made
    again = await commands.create_match(
        nc, "ugolki", genuine.preset, players=victims, ranked=True, guests=(), match_id=mid, table=genuine
    )
    assert isinstance(again, Rejected) and again.code == "match_exists"
