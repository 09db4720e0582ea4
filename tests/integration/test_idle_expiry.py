"""Idle matches expire (issue 9, "idle matches expire"; docs/audit.md "Abandoned matches"):
the referee ends a match nobody decided in for the limit with a platform command stored in the
log, and the audit re-checks it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from contracts.envelope import Accepted, Rejected
from contracts.match import ExpireIdle, MatchAbandoned, MatchEnded, Resign
from domain.audit import audit
from services.common import commands
from services.referee.core import Referee
from tests.support.bundles import edited_last
from tests.support.referees import bundle_of, one_move, own_nats, stored_envelopes

pytestmark = pytest.mark.integration
LIMIT_MS = 300


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

    def earlier(data: dict) -> None:
        data["command"]["last_decision_at"] -= 10 * LIMIT_MS

    problems = audit(edited_last(bundle, earlier)).problems
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
    async with own_nats(tmp_path / "store") as nc:  # its own server: the sweep reads every match
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
