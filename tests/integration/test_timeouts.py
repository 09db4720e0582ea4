"""Timeouts (issue 14, docs/audit.md "Clocks"): the referee's timer claims a passed deadline as a
platform command stored in the log, once, also after a restart; the audit re-derives it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from contracts.envelope import Accepted, Rejected
from contracts.match import ClaimTimeout, MatchEnded, TimedOut
from domain.audit import audit
from services.common import commands
from services.referee.core import Referee
from tests.support.bundles import claimed_at
from tests.support.referees import (
    bundle_of,
    clocked_referee,
    envelopes_until_ended,
    one_move,
    own_nats,
    stored_envelopes,
)

pytestmark = pytest.mark.integration
MARGIN_MS = 1_500


async def test_a_seat_that_never_moves_loses_on_time_and_the_audit_agrees(nc) -> None:
    async with clocked_referee(nc):
        created = await commands.create_match(nc, "ugolki", time_control={"base_s": 2, "on_timeout": "forfeit"})
        assert not isinstance(created, Rejected), created
        await one_move(nc, created)  # white moves at once; black never does
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        deadline = envs[-1].recorded_at + 2_000
        envs = await envelopes_until_ended(nc, "ugolki", created.match_id, polls=80)
        last = envs[-1]
        assert last.seat is None and last.command["type"] == "claim_timeout.v1"
        timed_out, ended = last.events
        assert timed_out == TimedOut(seat="black", deadline=deadline, at=last.recorded_at)
        assert deadline <= last.recorded_at <= deadline + MARGIN_MS
        assert isinstance(ended, MatchEnded) and ended.outcome.ranks == (1, 2) and ended.outcome.reason == "timeout"

    bundle = await bundle_of(nc, created.match_id)
    report = audit(bundle)
    assert report.ok and report.finished and report.outcome["reason"] == "timeout", report.problems
    # A timeout claimed before it was due does not audit.
    problems = audit(claimed_at(bundle, deadline - 500)).problems
    assert any("not_due" in p for p in problems), problems


async def test_no_client_can_claim_a_timeout(nc) -> None:
    referee = Referee(nc, nc.jetstream())
    await referee.start()
    try:
        created = await commands.create_match(nc, "ugolki", time_control={"move_s": 1})
        assert not isinstance(created, Rejected)
        forged = ClaimTimeout(seat="white", deadline=0, at=10**13)
        for seat, token in ((None, ""), ("black", created.tokens["black"])):
            reply = await commands.send(nc, "ugolki", created.match_id, forged, seat, token)
            assert isinstance(reply, Rejected) and reply.code == "not_a_seat", reply
        bad = await commands.create_match(nc, "ugolki", time_control={"base_s": 1, "move_s": 1})
        assert isinstance(bad, Rejected) and bad.code == "invalid_time_control"
    finally:
        await referee.stop()


async def test_a_referee_restarted_past_the_deadline_times_out_once(tmp_path: Path) -> None:
    async with own_nats(tmp_path / "store") as nc:
        first = Referee(nc, nc.jetstream())
        await first.start()
        created = await commands.create_match(nc, "ugolki", time_control={"base_s": 1, "on_timeout": "forfeit"})
        untimed = await commands.create_match(nc, "ugolki")
        assert not isinstance(created, Rejected) and not isinstance(untimed, Rejected)
        await first.stop()  # the referee is down when white's deadline passes
        await asyncio.sleep(1.3)
        fresh = Referee(nc, nc.jetstream())  # empty memory, as after a restart
        await fresh.start()
        assert await fresh.load_clocked_matches() == 1  # the untimed match is not held
        await fresh.claim_due_timeouts()
        await fresh.claim_due_timeouts()
        # A second referee (or a retry) claiming the same deadline stores nothing more.
        other = Referee(nc, nc.jetstream())
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        deadline = envs[0].recorded_at + 1_000
        again = await other.claim_timeout("ugolki", created.match_id, "white")
        assert again is None or isinstance(again, Rejected) or again.duplicate
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        claims = [e for e in envs if e.command and e.command.get("type") == "claim_timeout.v1"]
        assert len(claims) == 1 and claims[0].command["deadline"] == deadline
        assert claims[0].events[-1].outcome.ranks == (2, 1)
        assert len(await stored_envelopes(nc, "ugolki", untimed.match_id)) == 1
        assert audit(await bundle_of(nc, created.match_id)).ok
        await fresh.stop()


async def test_a_retried_timeout_with_the_same_deadline_is_deduplicated(nc) -> None:
    """Idempotent by deadline: the command id is timeout:<seat>:<deadline>, so a second claim of
    one deadline (a referee that crashed after storing it) is answered from the log."""
    referee = Referee(nc, nc.jetstream())
    await referee.start()
    try:
        created = await commands.create_match(nc, "ugolki", time_control={"move_s": 0.3, "on_timeout": "forfeit"})
        assert not isinstance(created, Rejected)
        await asyncio.sleep(0.4)
        first = await referee.claim_timeout("ugolki", created.match_id, "white")
        assert isinstance(first, Accepted) and not first.duplicate
        assert await referee.claim_timeout("ugolki", created.match_id, "white") is None
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        assert [e.command["type"] for e in envs] == ["create_match.v1", "claim_timeout.v1"]
    finally:
        await referee.stop()


async def test_the_api_creates_a_clocked_match_and_every_view_shows_the_clock(nats_url: str, tmp_path: Path) -> None:
    import httpx

    from services.cli.stackrun import in_process_stack
    from tests.support.gateway import open_settings

    async with in_process_stack(open_settings(nats_url, tmp_path), ("referee", "gateway")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            bad = await client.post("/api/matches", json={"game": "ugolki", "time_control": {"move_s": 0}})
            assert bad.status_code == 400 and bad.json()["code"] == "invalid_time_control", bad.text
            r = await client.post(
                "/api/matches", json={"game": "ugolki", "time_control": {"base_s": 60, "increment_s": 1}}
            )
            assert r.status_code == 201, r.text
            view = (await client.get(f"/api/matches/{r.json()['match_id']}")).json()
            clock = view["clock"]
            assert clock["time_control"] == {
                "base_s": 60,
                "increment_s": 1,
                "move_s": 0,
                "grace_s": 0,
                "on_timeout": "bot",  # the default of a casual match
            }
            assert clock["running"] == ["white"] and clock["remaining_ms"] == [60_000, 60_000]
            assert clock["deadlines"] == [clock["since"] + 60_000, 0]
            plain = await client.post("/api/matches", json={"game": "ugolki"})
            assert (await client.get(f"/api/matches/{plain.json()['match_id']}")).json()["clock"] is None
