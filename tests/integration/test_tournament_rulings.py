"""Dispute rulings reach tournaments, on a real nats-server: the tournaments service follows
GH_DISPUTES (the durable consumer ``tournaments-rulings``) and voids or amends the game a ruling
names; a ruling on a match that is no tournament game is ignored; a ruling delivered twice
changes nothing more; a later dispute's ruling (upheld) gives the game the match's own result
again; a ruling that comes before its game's result waits for it."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import msgspec
import pytest
from nats.aio.client import Client

from contracts import subjects
from contracts.codecs import encode
from contracts.disputes import RulingIssued
from contracts.integration import MatchFinished
from contracts.match import Outcome
from contracts.tournaments import (
    AmendResult,
    CloseRegistration,
    CreateTournament,
    JoinTournament,
    ResultAmended,
    ResultVoided,
    StartRound,
    TournamentAccepted,
    TournamentRecord,
    TournamentRequest,
    TournamentSettings,
    VoidResult,
)
from domain.tournaments import current_standings, fold
from domain.tournaments.state import TournamentState
from services.common import natsio
from services.common import tournaments as client
from services.common.tickets import table_match_id
from services.common.tournaments import table_id
from services.tournaments.app import run_tournaments
from tests.support import stackprobe
from tests.support.gateway import open_settings

pytestmark = pytest.mark.integration

DEADLINE_S = 60.0


async def until(check: Callable[[], Awaitable[object]], what: str) -> object:
    return await stackprobe.until(check, what, DEADLINE_S)


@pytest.fixture
async def service(nc: Client, nats_url: str, tmp_path: Path) -> AsyncIterator[asyncio.Task[None]]:
    """The tournaments service (its process's loop: requests, results, rulings, the schedule) on
    its own connection."""
    own = await natsio.connect(nats_url, "test-tournaments-rulings")
    stop = asyncio.Event()
    task = asyncio.create_task(run_tournaments(open_settings(nats_url, tmp_path), stop, own, tick_s=0.1))
    try:
        yield task
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)
        await own.close()


async def records(nc: Client, tournament_id: str) -> list[TournamentRecord]:
    stored = await client.stored(nc.jetstream(), tournament_id)
    return [msgspec.json.decode(s, type=TournamentRecord) for s in stored]


def state_of(found: list[TournamentRecord]) -> TournamentState:
    return fold(e for r in found for e in r.events)


def points(state: TournamentState) -> dict[str, float]:
    return {s.player: s.points for s in current_standings(state)}


async def finish(nc: Client, match_id: str, players: tuple[str, ...], ranks: tuple[int, ...]) -> None:
    """The match's end, as the referee announces it."""
    event = MatchFinished(
        match_id=match_id,
        game="ugolki",
        preset="mini-3x3",
        rules_version="1",
        seats=("white", "black"),
        players=players,
        outcome=Outcome(ranks=ranks, reason="test"),
        moves=10,
        finished_at=int(time.time() * 1000),
        last_seq=1,
    )
    await nc.jetstream().publish(subjects.MATCH_FINISHED, encode(event))


async def rule(nc: Client, match_id: str, n: int, ruling: str, ranks: tuple[int, ...] = ()) -> RulingIssued:
    """A ruling on the match's dispute ``n``, appended to the disputes stream as the disputes
    service appends it."""
    event = RulingIssued(
        dispute_id=f"{match_id}-{n}",
        match_id=match_id,
        game="ugolki",
        ruling=ruling,  # type: ignore[arg-type]
        reason="looked at the record",
        ruled_by="op",
        ruled_at=int(time.time() * 1000),
        ranks=ranks,
    )
    await nc.jetstream().publish(subjects.dispute_subject(match_id), encode(event))
    return event


async def ruled(nc: Client, t: str, dispute_id: str) -> list[TournamentRecord]:
    async def applied() -> list[TournamentRecord] | None:
        found = await records(nc, t)
        return found if any(r.command_id == f"ruling:{dispute_id}" for r in found) else None

    got = await until(applied, f"the ruling {dispute_id} in the tournament")
    assert isinstance(got, list)
    return got


async def test_rulings_void_amend_and_restore_tournament_games_once(
    service: asyncio.Task[None], nc: Client
) -> None:
    t = "t-" + uuid.uuid4().hex[:10]
    settings = TournamentSettings(format="round_robin", game="ugolki", preset="mini-3x3", seed_commitment="")
    for command in (
        CreateTournament(tournament_id=t, settings=settings),
        *(JoinTournament(player=p) for p in ("ann", "bob", "cy", "dee")),
        CloseRegistration(server_seed=""),
        StartRound(),
    ):
        request = TournamentRequest(
            tournament_id=t, command_id=uuid.uuid4().hex, actor="operator", command=command
        )
        assert isinstance(await client.send(nc, request), TournamentAccepted)
    first = state_of(await records(nc, t)).rounds[0]
    (g1, g2) = first.games
    m1, m2 = (table_match_id(table_id(t, 1, g.table)) for g in (g1, g2))
    # both games end, the first seat winning; the schedule starts round 2
    await finish(nc, m1, g1.seats, (1, 2))
    await finish(nc, m2, g2.seats, (1, 2))

    async def round_two() -> TournamentState | None:
        if service.done():
            service.result()  # the service stopped: its error
        state = state_of(await records(nc, t))
        return state if len(state.rounds) == 2 else None

    played = await until(round_two, "round 2 started")
    assert isinstance(played, TournamentState)
    assert points(played) == {g1.seats[0]: 1.0, g1.seats[1]: 0.0, g2.seats[0]: 1.0, g2.seats[1]: 0.0}

    # void: round 1 table 1 counts for nobody
    await rule(nc, m1, 1, "void")
    found = await ruled(nc, t, f"{m1}-1")
    last = found[-1]
    assert last.actor == "system" and isinstance(last.command, VoidResult) and last.command.final
    assert last.events == (
        ResultVoided(round=1, table=1, reason=f"dispute {m1}-1: looked at the record", final=True),
    )
    assert points(state_of(found)) == {g1.seats[0]: 0.0, g1.seats[1]: 0.0, g2.seats[0]: 1.0, g2.seats[1]: 0.0}

    # amended: round 1 table 2 won by the second seat
    await rule(nc, m2, 1, "amended", ranks=(2, 1))
    found = await ruled(nc, t, f"{m2}-1")
    assert isinstance(found[-1].command, AmendResult)
    assert isinstance(found[-1].events[0], ResultAmended) and found[-1].events[0].ranks == (1, 0)
    amended = points(state_of(found))
    assert amended == {g1.seats[0]: 0.0, g1.seats[1]: 0.0, g2.seats[0]: 0.0, g2.seats[1]: 1.0}
    count = len(found)

    # a ruling on a match that is no tournament game, then the void again (delivered twice),
    # then a later dispute of table 1 upheld: only the last one is a decision
    other = "m-" + uuid.uuid4().hex[:12]
    await rule(nc, other, 1, "void")
    await rule(nc, m1, 1, "void")
    await rule(nc, m1, 2, "upheld")
    found = await ruled(nc, t, f"{m1}-2")
    assert len(found) == count + 1
    assert not any(r.command_id == f"ruling:{other}-1" for r in found)
    assert [r.command_id for r in found].count(f"ruling:{m1}-1") == 1
    restored = found[-1]
    assert isinstance(restored.command, AmendResult) and restored.command.ranks == (
        0,
        1,
    )  # the match's result
    assert points(state_of(found)) == {g1.seats[0]: 1.0, g1.seats[1]: 0.0, g2.seats[0]: 0.0, g2.seats[1]: 1.0}
    # the log audits, rulings and all
    assert client.audit_records(t, await client.stored(nc.jetstream(), t)) is None

    # a ruling that comes before its game's result (the match's end still on its way) waits for
    # it, then amends it
    second = state_of(found).rounds[1]
    g = second.games[0]
    m = table_match_id(table_id(t, 2, g.table))
    await rule(nc, m, 1, "amended", ranks=(1, 1))
    await asyncio.sleep(0.5)
    assert not any(r.command_id == f"ruling:{m}-1" for r in await records(nc, t))
    await finish(nc, m, g.seats, (1, 2))
    found = await ruled(nc, t, f"{m}-1")
    commands = [r.command_id for r in found]
    assert commands.index(f"system:result:2:{g.table}") < commands.index(f"ruling:{m}-1")
    assert state_of(found).rounds[1].games[0].ranks == (0, 0)  # the ruling's draw, not the match's win
    assert client.audit_records(t, await client.stored(nc.jetstream(), t)) is None
