"""An arena's schedule on a real nats-server, driven by the service's own clock (no gateway, no
bots: the test finishes the games itself with ``MatchFinished``): the window opens at its start,
a finished game's players are paired again as soon as two may meet (right after the result, no
tick), a restarted instance announces the open games of every pairing, no-shows forfeit at a
pairing's deadline, and at the window's end the arena finishes without the games still running,
whose late results are refused."""

from __future__ import annotations

import uuid

import msgspec
import pytest
from nats.aio.client import Client

from contracts import subjects
from contracts.integration import MatchFinished
from contracts.match import Outcome
from contracts.tournaments import (
    CreateTournament,
    JoinTournament,
    PairArena,
    TournamentAccepted,
    TournamentRecord,
    TournamentRequest,
    TournamentSettings,
)
from services.common import natsio
from services.common import tournaments as client
from services.common.tickets import table_match_id
from services.common.tournaments import table_id
from services.tournaments.core import Tournaments

pytestmark = pytest.mark.integration

T0 = 1_900_000_000_000


def finished(t: str, rnd: int, table: int, players: tuple[str, ...], ranks: tuple[int, ...]) -> MatchFinished:
    return MatchFinished(
        match_id=table_match_id(table_id(t, rnd, table)),
        game="ugolki",
        preset="mini-3x3",
        rules_version="test",
        seats=("white", "black"),
        players=players,
        outcome=Outcome(ranks=ranks, reason="test"),
        moves=10,
        finished_at=0,
        last_seq=0,
    )


async def test_an_arena_pairs_at_once_after_results_forfeits_at_deadlines_and_ends_with_its_window(
    nc: Client,
) -> None:
    js = nc.jetstream()
    seeds = await natsio.ensure_own_bucket(js, subjects.TOURNAMENT_SEEDS_BUCKET)
    now = [T0]
    service = Tournaments(js, seeds, clock=lambda: now[0])
    t = "arena-" + uuid.uuid4().hex[:8]
    settings = TournamentSettings(
        format="arena",
        game="ugolki",
        preset="mini-3x3",
        seed_commitment="",
        round_deadline_s=30,
        window_start=T0 + 1_000,
        window_end=T0 + 60_000,
    )

    async def ask(command: object, actor: str = "operator") -> None:
        reply = await service.handle(
            TournamentRequest(tournament_id=t, command_id=uuid.uuid4().hex, actor=actor, command=command)  # type: ignore[arg-type]
        )
        assert isinstance(reply, TournamentAccepted), reply

    await ask(CreateTournament(tournament_id=t, settings=settings))
    for p in ("ann", "bob", "cid", "dan"):
        await ask(JoinTournament(player=p), actor=p)
    await service.tick()
    assert service.held[t].state.phase == "registration"  # the window has not opened
    now[0] = T0 + 1_000
    await service.tick()
    state = service.held[t].state
    assert state.phase == "running" and len(state.rounds) == 1 and len(state.rounds[0].games) == 2
    assert {table_id(t, 1, g.table) for g in state.rounds[0].games} <= set(service.announced)
    first, second = state.rounds[0].games

    # the first game ends: its two players just met, so nobody is paired yet
    await service.on_finished(finished(t, 1, 1, first.seats, (1, 2)))
    assert len(service.held[t].state.rounds) == 1
    # the second ends: the four are paired again at once, each with someone new
    await service.on_finished(finished(t, 1, 2, second.seats, (1, 1)))
    state = service.held[t].state
    assert len(state.rounds) == 2, state.rounds
    met = {frozenset(g.seats) for g in state.rounds[0].games}
    assert all(frozenset(g.seats) not in met for g in state.rounds[1].games)
    # paired by the result itself: no tick ran since the first pairing

    # a restarted instance announces the open games of every pairing (pairing 2's), none closed
    again = Tournaments(js, seeds, clock=lambda: now[0])
    await again.load_all()
    await again.reannounce()
    assert {k for k in again.announced if k.startswith(f"{t}:")} == {table_id(t, 2, 1), table_id(t, 2, 2)}

    # nobody plays pairing 2: at its deadline the first seats (they never moved) forfeit and the
    # four are paired a third time in the same tick
    now[0] = T0 + 1_000 + 30_000
    await again.tick()
    state = again.held[t].state
    assert [g.forfeit for g in state.rounds[1].games] == [g.seats[0] for g in state.rounds[1].games]
    assert len(state.rounds) == 3

    # the window ends: the arena finishes; pairing 3's games are running and do not count
    now[0] = T0 + 60_000
    await again.tick()
    state = again.held[t].state
    assert state.phase == "finished"
    counted = sum(1 for r in state.rounds for g in r.games if g.ranks is not None)
    assert counted == 4
    standings = {s.player: s.points for s in state.standings}
    late = state.rounds[2].games[0]
    await again.on_finished(finished(t, 3, 1, late.seats, (1, 2)))  # after the end: refused
    assert again.held[t].state.standings == state.standings and len(again.held[t].state.rounds) == 3
    assert sum(standings.values()) == 2 + 2 + 2 + 2  # a win, a draw, two forfeits: 2 points each
    records = await client.stored(js, t)
    assert client.audit_records(t, records) is None
    decoded = [msgspec.json.decode(r, type=TournamentRecord) for r in records]
    pairings = [r for r in decoded if isinstance(r.command, PairArena)]
    assert [r.command_id for r in pairings] == ["system:pair:1", "system:pair:2", "system:pair:3"]
    assert {r.actor for r in pairings} == {"system"}
