"""Idle matches expire (issue 9, "idle matches expire"; docs/audit.md "Abandoned matches"):
the referee ends a match nobody decided in for the limit with a platform command stored in the
log, and the audit re-checks it."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from contracts import subjects
from contracts.audit import AuditBundle, StoredEnvelope
from contracts.codecs import codec
from contracts.envelope import Accepted, Rejected
from contracts.match import ExpireIdle, MatchAbandoned, MatchEnded, Resign
from domain.audit import audit
from domain.core.audit import envelope_hash
from services.common import commands
from services.common.embedded import EmbeddedNats
from services.common.natsio import EventStore, connect, ensure_streams
from services.referee.core import Referee
from tests.support.referees import fold_log, stored_envelopes

pytestmark = pytest.mark.integration
LIMIT_MS = 300


@pytest.fixture
async def nc(nats_url: str):
    client = await connect(nats_url, "test")
    await ensure_streams(client.jetstream())
    yield client
    await client.close()


@pytest.fixture
async def referee(nc):
    ref = Referee(nc, nc.jetstream())
    await ref.start()
    yield ref
    await ref.stop()


async def one_move(nc, created: commands.CreatedMatch) -> None:
    from domain.games import registry

    state = await fold_log(nc, "ugolki", created.match_id)
    move = registry.get("ugolki").legal_commands(state.game_state, "white")[0]
    reply = await commands.send(nc, "ugolki", created.match_id, move, "white", created.tokens["white"])
    assert isinstance(reply, Accepted)


async def bundle_of(nc, match_id: str) -> AuditBundle:
    stored = await EventStore(nc.jetstream()).load(subjects.match_subject("ugolki", match_id))
    return AuditBundle(
        match_id=match_id,
        game="ugolki",
        rules_version=codec("ugolki").decode_envelope(stored[0].data).rules_version,
        exported_at=int(time.time() * 1000),
        head_hash=envelope_hash(stored[-1].data),
        envelopes=tuple(StoredEnvelope(stream_seq=s.stream_seq, data=s.data.decode()) for s in stored),
    )


async def test_an_idle_match_ends_as_abandoned_and_the_audit_rechecks_it(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    assert not isinstance(created, Rejected)
    await one_move(nc, created)
    assert await referee.sweep_idle(LIMIT_MS) == 0  # it just moved
    await asyncio.sleep(LIMIT_MS / 1000 + 0.1)
    assert await referee.sweep_idle(LIMIT_MS) >= 1
    envs = await stored_envelopes(nc, "ugolki", created.match_id)
    last = envs[-1]
    assert last.seat is None and last.command["type"] == "expire_idle.v1"
    assert last.command["at"] == last.recorded_at and last.command["last_decision_at"] == envs[-2].recorded_at
    abandoned, ended = last.events
    assert isinstance(abandoned, MatchAbandoned) and abandoned.idle_seats == ("black",)
    assert abandoned.idle_ms >= LIMIT_MS
    assert isinstance(ended, MatchEnded) and ended.outcome.reason == "abandoned"
    assert ended.outcome.ranks == (1, 2)  # black was to move and did not
    # Nothing more happens to it.
    assert await referee.sweep_idle(LIMIT_MS) == 0
    assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == len(envs)

    bundle = await bundle_of(nc, created.match_id)
    report = audit(bundle)
    assert report.ok and report.finished and report.outcome["reason"] == "abandoned", report.problems
    # A referee claiming a longer idle time than the log shows is caught.
    data = json.loads(bundle.envelopes[-1].data)
    data["command"]["last_decision_at"] -= 10 * LIMIT_MS
    forged = json.dumps(data, separators=(",", ":"))
    edited = AuditBundle(
        match_id=bundle.match_id,
        game=bundle.game,
        rules_version=bundle.rules_version,
        exported_at=bundle.exported_at,
        head_hash=envelope_hash(forged.encode()),
        envelopes=(*bundle.envelopes[:-1], StoredEnvelope(stream_seq=bundle.envelopes[-1].stream_seq, data=forged)),
    )
    problems = audit(edited).problems
    assert any("expire_idle says the last decision was at" in p for p in problems), problems


async def test_no_client_can_send_the_expiry_command(nc, referee) -> None:
    created = await commands.create_match(nc, "ugolki")
    assert not isinstance(created, Rejected)
    forged = ExpireIdle(last_decision_at=0, at=10**13, limit_ms=1)
    for seat, token in ((None, ""), ("white", created.tokens["white"])):
        reply = await commands.send(nc, "ugolki", created.match_id, forged, seat, token)
        assert isinstance(reply, Rejected) and reply.code == "not_a_seat", reply
    assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == 1


async def test_a_restarted_referee_expires_matches_from_the_log(tmp_path: Path) -> None:
    server = EmbeddedNats(tmp_path / "store").start()  # its own server: the sweep reads every match
    nc = await connect(server.url, "test")
    try:
        await ensure_streams(nc.jetstream())
        first = Referee(nc, nc.jetstream())
        await first.start()
        created = await commands.create_match(nc, "ugolki")
        finished = await commands.create_match(nc, "ugolki")
        assert not isinstance(created, Rejected) and not isinstance(finished, Rejected)
        resigned = await commands.send(nc, "ugolki", finished.match_id, Resign(), "white", finished.tokens["white"])
        assert isinstance(resigned, Accepted)
        await first.stop()
        await asyncio.sleep(LIMIT_MS / 1000 + 0.1)
        fresh = Referee(nc, nc.jetstream())  # empty memory, as after a restart
        await fresh.start()
        assert await fresh.sweep_idle(LIMIT_MS, stored=True) == 1  # the running one, not the finished one
        last = (await stored_envelopes(nc, "ugolki", created.match_id))[-1]
        assert isinstance(last.events[-1], MatchEnded) and last.events[-1].outcome.ranks == (2, 1)
        assert len(await stored_envelopes(nc, "ugolki", finished.match_id)) == 2
        await fresh.stop()
    finally:
        await nc.close()
        server.stop()
