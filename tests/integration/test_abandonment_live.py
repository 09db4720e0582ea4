"""Abandonment after ``grace_s`` and seats handed to computer players (docs/architecture.md
"Abandonment"), against a real nats-server: the referee's timer issues ``claim_abandon.v1`` once,
also after a restart; the audit re-derives it; a casual match's timed-out seats go to the bots
service and the match finishes; a ranked match forfeits."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import msgspec
import pytest

from contracts.audit import AuditBundle
from contracts.envelope import Rejected
from contracts.match import MatchCreated, MatchEnded, SeatAbandoned, SeatHandedToBot
from domain.audit import audit
from services.cli.stackrun import in_process_stack
from services.common import commands
from services.common import settings as settings_module
from services.common.natsio import connect
from services.referee.core import Referee
from tests.support import tables
from tests.support.bundles import claimed_at
from tests.support.gateway import open_settings, running_bots
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


async def test_a_seat_gone_past_grace_is_abandoned_once_and_the_audit_rederives_it(nc) -> None:
    """ugolki.md has no abandonment rule: the seat that is gone loses (reason ``abandoned``)."""
    async with clocked_referee(nc):
        tc = {"base_s": 600, "grace_s": 1, "on_timeout": "forfeit"}
        created = await commands.create_match(nc, "ugolki", time_control=tc)
        assert not isinstance(created, Rejected), created
        await one_move(nc, created)  # white moves at once; black's client is gone
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        deadline = envs[-1].recorded_at + 1_000
        envs = await envelopes_until_ended(nc, "ugolki", created.match_id, polls=60)
        last = envs[-1]
        assert last.seat is None and last.command["type"] == "claim_abandon.v1"
        assert last.command_id == f"abandon:black:{deadline}"
        abandoned, ended = last.events
        assert abandoned == SeatAbandoned(seat="black", deadline=deadline, at=last.recorded_at)
        assert deadline <= last.recorded_at <= deadline + MARGIN_MS
        assert isinstance(ended, MatchEnded) and ended.outcome.ranks == (1, 2)
        assert ended.outcome.reason == "abandoned"
        # Fires once: the timer keeps running and stores nothing more.
        await asyncio.sleep(0.6)
        assert len(await stored_envelopes(nc, "ugolki", created.match_id)) == len(envs)
    bundle = await bundle_of(nc, created.match_id)
    report = audit(bundle)
    assert report.ok and report.outcome["reason"] == "abandoned", report.problems
    problems = audit(claimed_at(bundle, deadline - 300)).problems
    assert any("claim_abandon" in p and "not_due" in p for p in problems), problems


async def test_a_referee_restarted_past_the_grace_abandons_the_seat_once(tmp_path: Path) -> None:
    async with own_nats(tmp_path / "store") as nc:
        first = Referee(nc, nc.jetstream())
        await first.start()
        tc = {"base_s": 600, "grace_s": 0.8, "on_timeout": "forfeit"}
        created = await commands.create_match(nc, "ugolki", time_control=tc)
        assert not isinstance(created, Rejected)
        await first.stop()  # no referee runs when white's grace runs out
        await asyncio.sleep(1.1)
        fresh = Referee(nc, nc.jetstream())
        await fresh.start()
        assert await fresh.load_clocked_matches() == 1
        await fresh.claim_due_timeouts()
        await fresh.claim_due_timeouts()
        other = Referee(nc, nc.jetstream())  # a second referee (or a retry) claiming it again
        again = await other.claim_abandon("ugolki", created.match_id, "white")
        assert again is None or isinstance(again, Rejected) or again.duplicate
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        claims = [e for e in envs if e.command and e.command.get("type") == "claim_abandon.v1"]
        assert len(claims) == 1 and claims[0].command["deadline"] == envs[0].recorded_at + 800
        assert claims[0].events[-1].outcome.ranks == (2, 1)
        assert audit(await bundle_of(nc, created.match_id)).ok
        await fresh.stop()


async def test_a_ranked_match_forfeits_on_time(nc) -> None:
    async with clocked_referee(nc):
        refused = await tables.create_ranked(
            nc, "ugolki", ("ann", "bob"), time_control={"base_s": 1, "on_timeout": "bot"}
        )
        assert isinstance(refused, Rejected) and refused.code == "invalid_time_control"
        created = await tables.create_ranked(nc, "ugolki", ("ann", "bob"), time_control={"base_s": 1})
        assert not isinstance(created, Rejected), created
        envs = await stored_envelopes(nc, "ugolki", created.match_id)
        first = envs[0].events[0]
        assert isinstance(first, MatchCreated) and first.time_control is not None
        assert first.time_control.on_timeout == "forfeit"  # a ranked match's default
        envs = await envelopes_until_ended(nc, "ugolki", created.match_id, polls=40)
        assert envs[-1].command["type"] == "claim_timeout.v1"
        assert not any(isinstance(e, SeatHandedToBot) for env in envs for e in env.events)
        assert envs[-1].events[-1].outcome.ranks == (2, 1)


async def test_a_casual_match_hands_timed_out_seats_to_computer_players_and_finishes(
    nats_url: str, tmp_path: Path
) -> None:
    settings = open_settings(nats_url, tmp_path)
    async with in_process_stack(settings, ("referee", "gateway")) as url, running_bots(settings, url):
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            r = await client.post(
                "/api/matches",
                json={"game": "ugolki", "preset": "mini-3x3", "time_control": {"move_s": 1}},
            )
            assert r.status_code == 201, r.text
            match_id = r.json()["match_id"]
            old_white = r.json()["seats"][0]["token"]
            view: dict = {}
            for _ in range(600):
                view = (await client.get(f"/api/matches/{match_id}")).json()
                if view["status"] == "finished":
                    break
                await asyncio.sleep(0.1)
            assert view["status"] == "finished", view
            assert view["clock"]["bots"] == ["white", "black"]  # both people stayed away
            assert view["outcome"]["reason"] not in ("timeout", "abandoned"), view["outcome"]
            refused = await client.post(
                f"/api/matches/{match_id}/commands",
                headers={"authorization": f"Bearer {old_white}"},
                json={"command": {"type": "resign.v1"}},
            )
            assert refused.status_code in (401, 403, 409) and refused.json()["code"] in (
                "bad_token",
                "match_over",
            ), refused.text
            bundle = (await client.get(f"/api/matches/{match_id}/export")).json()
    report = audit(msgspec.convert(bundle, AuditBundle))
    assert report.ok and report.finished, report.problems
    handed = [
        e
        for env in bundle["envelopes"]
        for e in json.loads(env["data"])["events"]
        if e["type"] == "seat_handed_to_bot.v1"
    ]
    assert [e["seat"] for e in handed] == ["white", "black"]


async def test_a_handover_no_bots_service_took_is_offered_again(nats_url: str, tmp_path: Path) -> None:
    """The bots service is away when the seat times out: the referee's timer offers the seat
    again, and once a bots service runs the computer player takes it and moves."""
    settings = open_settings(nats_url, tmp_path)
    async with in_process_stack(settings, ("referee", "gateway")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            r = await client.post(
                "/api/matches", json={"game": "ugolki", "preset": "mini-3x3", "time_control": {"move_s": 3}}
            )
            assert r.status_code == 201, r.text
            match_id = r.json()["match_id"]
            view: dict = {}
            for _ in range(200):
                view = (await client.get(f"/api/matches/{match_id}")).json()
                if view["clock"]["bots"]:
                    break
                await asyncio.sleep(0.05)
            assert view["clock"]["bots"] == ["white"] and view["seq"] == 2, view
            await asyncio.sleep(0.3)
            assert (await client.get(f"/api/matches/{match_id}")).json()["seq"] == 2  # nobody plays white
            async with running_bots(settings, url):
                for _ in range(100):
                    view = (await client.get(f"/api/matches/{match_id}")).json()
                    if view["seq"] > 2:
                        break
                    await asyncio.sleep(0.05)
                # The computer player took white and moved (before its fresh 3 s ran out).
                assert view["seq"] == 3 and view["to_move"] == ["black"], view


async def test_matchmaking_creates_ranked_matches_with_the_presets_clock(
    nats_url: str, tmp_path: Path
) -> None:
    """docs/ranked.md "Time controls": a ranked table gets its queue preset's clock, forfeit on
    time; a casual one none."""
    from domain.matchmaking.clocks import ranked_time_control

    settings = settings_module.load().replace(nats_url=nats_url, data_dir=tmp_path)
    async with in_process_stack(settings, ("referee", "gateway", "matchmaking")) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            nc = await connect(nats_url, "test")
            try:
                for ranked in (True, False):
                    room = f"clock-{ranked}"
                    tickets = []
                    for name in (f"ann{ranked:d}", f"bob{ranked:d}"):
                        signed = await client.post("/api/accounts", json={"name": name})
                        assert signed.status_code == 201, signed.text
                        auth = {"Authorization": f"Bearer {signed.json()['token']}"}
                        body = {
                            "game": "ugolki",
                            "preset": "halma-8x8-1234",
                            "invite": room,
                            "ranked": ranked,
                        }
                        for _ in range(100):  # matchmaking may still be starting
                            joined = await client.post("/api/queue", json=body, headers=auth)
                            if joined.status_code != 503:
                                break
                            await asyncio.sleep(0.2)
                        assert joined.status_code == 200, joined.text
                        tickets.append((joined.json()["ticket_id"], auth))
                    seated: dict = {}
                    for _ in range(200):
                        seated = (
                            await client.get(f"/api/queue/{tickets[0][0]}", headers=tickets[0][1])
                        ).json()
                        if seated.get("state") == "seated":
                            break
                        await asyncio.sleep(0.05)
                    assert seated.get("state") == "seated", seated
                    envs = await stored_envelopes(nc, "ugolki", seated["match_id"])
                    created = envs[0].events[0]
                    assert isinstance(created, MatchCreated) and created.ranked is ranked
                    if ranked:
                        assert created.time_control == ranked_time_control("ugolki", "halma-8x8-1234")
                        assert (
                            created.time_control is not None and created.time_control.on_timeout == "forfeit"
                        )
                    else:
                        assert created.time_control is None
            finally:
                await nc.close()
