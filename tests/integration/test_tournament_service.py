"""The tournaments service on a real nats-server with a referee, a gateway and the bots service:
a round robin of four computer players in Ugolki is played to the end, a game nobody plays is
forfeited at the round's deadline, a retried command gets its first reply, malformed and refused
commands get typed rejections, and a tampered record is found by the audit."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import time
import uuid
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from nats.aio.client import Client
from nats.js.api import DeliverPolicy

from contracts import subjects
from contracts.envelope import Rejected
from contracts.integration import TableFormed
from contracts.match import TimeControl
from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    Forfeit,
    JoinTournament,
    PairArena,
    RecordResult,
    ResultRecorded,
    RoundStarted,
    StartRound,
    TournamentAccepted,
    TournamentBundle,
    TournamentCommand,
    TournamentCreated,
    TournamentFinished,
    TournamentRecord,
    TournamentRequest,
    TournamentSettings,
)
from domain.tournaments import arena, current_standings, fold
from services.cli.stackrun import in_process_stack
from services.common import accounts, db, natsio
from services.common import tournaments as client
from services.common.tickets import table_match_id
from services.tournaments.core import Tournaments
from tests.support import stackprobe
from tests.support.gateway import open_settings, running_bots

pytestmark = pytest.mark.integration

DEADLINE_S = 120.0


async def until(check: Callable[[], Awaitable[object]], what: str, seconds: float = DEADLINE_S) -> object:
    return await stackprobe.until(check, what, seconds)


@pytest.fixture
async def stack(nats_url: str, tmp_path: Path) -> AsyncIterator[Client]:
    """A referee, a gateway and the tournaments service in this process, the bots service
    playing through the gateway; yields a connection to the nats-server."""
    settings = open_settings(nats_url, tmp_path)
    async with (
        in_process_stack(settings, ("referee", "gateway", "tournaments")) as url,
        running_bots(settings, url),
    ):
        nc = await natsio.connect(nats_url, "test-tournaments")
        try:
            yield nc
        finally:
            await nc.close()


def tid() -> str:
    return "t-" + uuid.uuid4().hex[:10]


async def send(
    nc: Client, tournament_id: str, command: TournamentCommand, actor: str = "operator", command_id: str = ""
) -> TournamentAccepted | Rejected:
    request = TournamentRequest(
        tournament_id=tournament_id, command_id=command_id or uuid.uuid4().hex, actor=actor, command=command
    )
    return await client.send(nc, request)


def ugolki(**kw: object) -> TournamentSettings:
    return TournamentSettings(
        format="round_robin", game="ugolki", preset="mini-3x3", seed_commitment="", **kw
    )  # type: ignore[arg-type]


async def records(nc: Client, tournament_id: str) -> list[TournamentRecord]:
    stored = await client.stored(nc.jetstream(), tournament_id)
    return [msgspec.json.decode(s, type=TournamentRecord) for s in stored]


async def finished(nc: Client, tournament_id: str) -> list[TournamentRecord]:
    async def done() -> list[TournamentRecord] | None:
        found = await records(nc, tournament_id)
        return found if found and any(isinstance(e, TournamentFinished) for e in found[-1].events) else None

    got = await until(done, f"tournament {tournament_id} finished")
    assert isinstance(got, list)
    return got


async def test_a_round_robin_of_four_computer_players_runs_to_the_end(stack: Client) -> None:
    t = tid()
    created = await send(stack, t, CreateTournament(tournament_id=t, settings=ugolki(bots=("greedy",) * 4)))
    assert isinstance(created, TournamentAccepted), created
    made = created.events[0]
    assert isinstance(made, TournamentCreated)
    commitment = made.settings.seed_commitment
    assert len(commitment) == 64  # the service's own seed, committed
    closed = await send(stack, t, CloseRegistration(server_seed=""))
    assert isinstance(closed, TournamentAccepted), closed
    assert (
        closed.events[0].server_seed
        and hashlib.sha256(bytes.fromhex(closed.events[0].server_seed)).hexdigest() == commitment
    )  # type: ignore[union-attr]
    started = await send(stack, t, StartRound())
    assert isinstance(started, TournamentAccepted), started
    log = await finished(stack, t)
    state = fold(e for r in log for e in r.events)
    assert state.phase == "finished" and len(state.rounds) == 3
    assert all(g.ranks is not None and not g.forfeit for r in state.rounds for g in r.games)
    assert sum(s.points for s in state.standings) == 6  # six games, a point each
    # results and the later rounds came from the system; the operator only closed and started
    assert [r.actor for r in log if isinstance(r.command, StartRound)] == ["operator", "system", "system"]
    assert {r.actor for r in log if any(isinstance(e, ResultRecorded) for e in r.events)} == {"system"}
    stored = await client.stored(stack.jetstream(), t)
    assert client.audit_records(t, stored) is None


async def test_a_game_nobody_plays_is_forfeited_at_the_deadline(stack: Client) -> None:
    t = tid()
    # two people who never come, against each other: the deadline forfeits the first seat (it
    # never moved); the computer players' game is played
    settings = ugolki(bots=("greedy", "greedy"), round_deadline_s=3)
    assert isinstance(
        await send(stack, t, CreateTournament(tournament_id=t, settings=settings)), TournamentAccepted
    )
    for p in ("ann", "bob"):
        joined = await send(stack, t, JoinTournament(player=p), actor=p)
        assert isinstance(joined, TournamentAccepted), joined
    assert isinstance(await send(stack, t, CloseRegistration(server_seed="")), TournamentAccepted)
    assert isinstance(await send(stack, t, StartRound()), TournamentAccepted)
    log = await finished(stack, t)
    forfeits = [(r.actor, e) for r in log for e in r.events if isinstance(e, Forfeit)]
    state = fold(e for r in log for e in r.events)
    people = [g for rnd in state.rounds for g in rnd.games if set(g.seats) == {"ann", "bob"}]
    assert len(people) == 1 and people[0].forfeit == people[0].seats[0]
    assert all(actor == "system" for actor, _ in forfeits) and len(forfeits) >= 1
    assert client.audit_records(t, await client.stored(stack.jetstream(), t)) is None


async def test_retries_malformed_and_refused_commands(stack: Client) -> None:
    t = tid()
    first = await send(stack, t, CreateTournament(tournament_id=t, settings=ugolki()), command_id="c1")
    again = await send(stack, t, CreateTournament(tournament_id=t, settings=ugolki()), command_id="c1")
    assert isinstance(first, TournamentAccepted) and isinstance(again, TournamentAccepted)
    assert (again.duplicate, again.seq, again.events) == (True, first.seq, first.events)
    assert len(await records(stack, t)) == 1
    other = await send(stack, t, CreateTournament(tournament_id=t, settings=ugolki()))
    assert isinstance(other, Rejected) and other.code == "already_created"
    bad = await send(stack, t, JoinTournament(player="bot:ugolki:1"))
    assert isinstance(bad, Rejected) and bad.code == "not_computer_player"
    not_self = await send(stack, t, JoinTournament(player="bob"), actor="ann")
    assert isinstance(not_self, Rejected) and not_self.code == "not_allowed"
    wrong_game = await send(
        stack, "x-" + t, CreateTournament(tournament_id="x-" + t, settings=ugolki(bots=("genius",)))
    )
    assert isinstance(wrong_game, Rejected) and wrong_game.code == "bad_settings"
    handed = ugolki(rated=True, time_control=TimeControl(base_s=60, on_timeout="bot"))
    rated = await send(stack, "r-" + t, CreateTournament(tournament_id="r-" + t, settings=handed))
    assert isinstance(rated, Rejected) and rated.code == "bad_settings" and "always forfeit" in rated.detail
    for data in (b"{not json", b'{"type": "tournament_request.v1"}', msgspec.json.encode({"type": "nope"})):
        reply = await stack.request(subjects.TOURNAMENT_COMMANDS, data, timeout=10)
        answer = msgspec.json.decode(reply.data, type=Rejected)
        assert answer.code == "malformed", data
    bad_id = await send(stack, "a.b", JoinTournament(player="ann"), actor="ann")
    assert isinstance(bad_id, Rejected) and bad_id.code == "malformed"


async def test_a_tampered_record_is_found_by_the_audit(stack: Client) -> None:
    t = tid()
    assert isinstance(
        await send(stack, t, CreateTournament(tournament_id=t, settings=ugolki(bots=("greedy",) * 3))),
        TournamentAccepted,
    )
    assert isinstance(await send(stack, t, CloseRegistration(server_seed="")), TournamentAccepted)
    assert isinstance(await send(stack, t, StartRound()), TournamentAccepted)
    await finished(stack, t)
    stored = await client.stored(stack.jetstream(), t)
    assert client.audit_records(t, stored) is None
    bundle = client.bundle_of(t, stored)
    assert client.audit_records(*client.bundle_records(bundle)) is None
    # a round's pairing changed in the bundle: the chain breaks at the next record
    started_at = next(i for i, s in enumerate(stored) if b"tournament_round_started" in s)
    decoded = [msgspec.json.decode(s, type=TournamentRecord) for s in stored]
    rs = decoded[started_at].events[0]
    swapped = msgspec.structs.replace(
        rs,
        tables=tuple(msgspec.structs.replace(tb, seats=tb.seats[::-1]) for tb in rs.tables),  # type: ignore[union-attr]
    )
    decoded[started_at] = msgspec.structs.replace(
        decoded[started_at], events=(swapped, *decoded[started_at].events[1:])
    )
    forged = [msgspec.json.encode(r) for r in decoded]
    problem = client.audit_records(t, forged)
    assert (
        problem
        == f"record {started_at + 2}: the hash chain breaks (prev_hash is not the sha256 of record {started_at + 1})"
    )
    # the chain made again over the changed record: the audit names the round whose pairings differ
    rechained: list[bytes] = []
    prev = hashlib.sha256(t.encode()).hexdigest()
    for r in decoded:
        data = msgspec.json.encode(msgspec.structs.replace(r, prev_hash=prev))
        rechained.append(data)
        prev = hashlib.sha256(data).hexdigest()
    problem = client.audit_records(t, rechained)
    assert problem is not None and "round 1 pairings differ" in problem, problem


async def gamehall(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "services.cli.main", *args, env=env, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_command_line_runs_exports_and_audits_a_tournament(
    stack: Client, nats_url: str, tmp_path: Path
) -> None:
    env = dict(os.environ, NATS_URL=nats_url, GAMEHALL_DATA_DIR=str(tmp_path / "cli"))
    (tmp_path / "cli").mkdir()
    t = tid()
    code, out, err = await gamehall(
        env, "tournaments", "create", t, "--format", "swiss", "--rounds", "2", "--game", "ugolki",
        "--preset", "mini-3x3", "--bots", "greedy,greedy,random,random", "--tie-break", "buchholz",
    )  # fmt: skip
    assert code == 0, err
    assert f"tournament {t}: decision 1" in out and "seed commitment" in out
    code, _, err = await gamehall(env, "tournaments", "close", t, "--command-id", "close-1")
    assert code == 0, err
    code, out, _ = await gamehall(env, "tournaments", "close", t, "--command-id", "close-1")
    assert code == 0 and "a retry: the first reply" in out
    code, _, err = await gamehall(env, "tournaments", "join", t, "late")
    assert code == 1 and err.startswith("registration_closed"), err
    code, out, err = await gamehall(env, "tournaments", "start-round", t)
    assert code == 0 and "round 1 started" in out, err
    await finished(stack, t)
    code, out, err = await gamehall(env, "tournaments", "audit", t)
    assert code == 0, err
    assert "ok: hash chain intact; the seeding, 2 rounds' pairings and the final standings re-derived" in out
    bundle = tmp_path / "t.json"
    code, out, err = await gamehall(env, "tournaments", "export", t, "-o", str(bundle))
    assert code == 0 and bundle.exists(), err
    offline = {k: v for k, v in env.items() if k != "NATS_URL"}
    code, out, err = await gamehall(offline, "tournaments", "audit", "--bundle", str(bundle))
    assert code == 0, err
    assert msgspec.json.decode(bundle.read_bytes(), type=TournamentBundle).tournament_id == t
    # a result changed in the file (its command and its event): the next record's hash no longer matches
    data = bundle.read_bytes()
    stored = await client.stored(stack.jetstream(), t)
    won, lost = b'"ranks":[0,1]', b'"ranks":[1,0]'
    changed = next(i for i, r in enumerate(stored) if won in r or lost in r)
    swapped = stored[changed].replace(won, b"@").replace(lost, won).replace(b"@", lost)
    bundle.write_bytes(data.replace(stored[changed], swapped))
    code, out, err = await gamehall(offline, "tournaments", "audit", "--bundle", str(bundle))
    assert code == 1, err
    assert f"differs: record {changed + 2}: the hash chain breaks" in err, err
    bundle.write_text("{nope")
    code, _, err = await gamehall(offline, "tournaments", "audit", "--bundle", str(bundle))
    assert code == 2 and "not a tournament bundle" in err
    code, out, _ = await gamehall(env, "tournaments", "show", t, "--json")
    shown = json.loads(out)
    assert shown["phase"] == "finished" and len(shown["standings"]) == 4


@pytest.fixture
async def api(nats_url: str, tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    """The stack as ``stack``, and an HTTP client of its gateway; yields (client, database)."""
    settings = open_settings(nats_url, tmp_path)
    async with (
        in_process_stack(settings, ("referee", "gateway", "tournaments")) as url,
        running_bots(settings, url),
    ):
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            engine = db.open_database(settings.database_url)
            try:
                yield http, engine
            finally:
                engine.dispose()


async def sign_up(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await http.post("/api/accounts", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def test_the_write_routes_create_join_close_start_and_seat_a_player(
    api: tuple[httpx.AsyncClient, Any],
) -> None:
    http, engine = api
    t = tid()
    olga, ann, bob = [await sign_up(http, f"{n}-{t}") for n in ("olga", "ann", "bob")]
    assert accounts.set_role(engine, f"olga-{t}", accounts.OPERATOR)
    settings = {"format": "round_robin", "game": "ugolki", "preset": "mini-3x3", "bots": ["greedy", "greedy"]}
    body = {"tournament_id": t, "settings": settings, "command_id": "make"}
    refused = await http.post("/api/tournaments", json=body, headers=ann)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_an_operator")
    assert (await http.post("/api/tournaments", json=body)).status_code == 401
    bad = await http.post("/api/tournaments", json={**body, "settings": {"format": "ladder"}}, headers=olga)
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_settings")
    made = await http.post("/api/tournaments", json=body, headers=olga)
    assert made.status_code == 201, made.text
    assert made.json()["events"][0]["settings"]["seed_commitment"]
    again = await http.post("/api/tournaments", json=body, headers=olga)
    assert again.status_code == 201 and again.json()["duplicate"] is True
    for who, name in ((ann, "ann"), (bob, "bob")):
        joined = await http.post(f"/api/tournaments/{t}/join", json={}, headers=who)
        assert joined.status_code == 200, joined.text
        assert joined.json()["events"] == [
            {"type": "tournament_player_joined.v1", "player": f"{name}-{t}", "rating": 0.0}
        ]
    twice = await http.post(f"/api/tournaments/{t}/join", json={}, headers=ann)
    assert (twice.status_code, twice.json()["code"]) == (409, "already_joined")
    other = await http.post(f"/api/tournaments/{t}/withdraw", json={"player": f"bob-{t}"}, headers=ann)
    assert (other.status_code, other.json()["code"]) == (403, "not_an_operator")
    nowhere = await http.post("/api/tournaments/no-such-one/join", json={}, headers=ann)
    assert (nowhere.status_code, nowhere.json()["code"]) == (404, "not_created")
    early = await http.post(f"/api/tournaments/{t}/rounds", json={}, headers=olga)
    assert (early.status_code, early.json()["code"]) == (409, "registration_open")
    unseated = await http.get(f"/api/tournaments/{t}/seat", headers=ann)
    assert (unseated.status_code, unseated.json()["code"]) == (404, "not_seated")
    closed = await http.post(f"/api/tournaments/{t}/close", json={}, headers=olga)
    assert closed.status_code == 200 and closed.json()["events"][0]["server_seed"], closed.text
    started = await http.post(f"/api/tournaments/{t}/rounds", json={}, headers=olga)
    assert started.status_code == 200, started.text
    tables = started.json()["events"][0]["tables"]
    mine = next(tb for tb in tables if f"ann-{t}" in tb["seats"])

    async def seated() -> Any:
        r = await http.get(f"/api/tournaments/{t}/seat", headers=ann)
        return r.json() if r.status_code == 200 else None

    seat = await until(seated, "ann's seat")
    assert isinstance(seat, dict) and seat["round"] == 1 and seat["table"] == mine["table"]
    assert seat["players"] == mine["seats"] and seat["token"].startswith(seat["seat"] + ".")

    async def viewed() -> Any:  # the gateway creates the match from the announced table
        r = await http.get(
            f"/api/matches/{seat['match_id']}", headers={"Authorization": f"Bearer {seat['token']}"}
        )
        return r.json() if r.status_code == 200 else None

    view = await until(viewed, "ann's match")
    assert isinstance(view, dict) and view["players"] == mine["seats"]


async def test_an_operator_records_and_voids_results_by_hand(
    stack: Client, nats_url: str, tmp_path: Path
) -> None:
    env = dict(os.environ, NATS_URL=nats_url, GAMEHALL_DATA_DIR=str(tmp_path / "cli"))
    (tmp_path / "cli").mkdir()
    t = tid()
    assert isinstance(
        await send(stack, t, CreateTournament(tournament_id=t, settings=ugolki())), TournamentAccepted
    )
    for p in ("ann", "bob", "cy"):
        assert isinstance(await send(stack, t, JoinTournament(player=p)), TournamentAccepted)
    assert isinstance(await send(stack, t, CloseRegistration(server_seed="")), TournamentAccepted)
    started = await send(stack, t, StartRound())
    assert isinstance(started, TournamentAccepted)
    code, _, err = await gamehall(env, "tournaments", "void", t, "1", "1", "--reason", "nothing yet")
    assert code == 1 and err.startswith("not_recorded"), err
    code, _, err = await gamehall(env, "tournaments", "result", t, "1", "1", "--ranks", "0,x")
    assert code == 2 and "--ranks" in err
    code, out, err = await gamehall(env, "tournaments", "result", t, "1", "1", "--ranks", "0,1")
    assert code == 0 and "round 1 table 1: ranks [0, 1]" in out, err

    async def round_two() -> bool:  # three players: one game and a bye a round; the schedule starts the next
        return any(isinstance(r.command, StartRound) and r.actor == "system" for r in await records(stack, t))

    await until(round_two, "round 2 started by the schedule")
    code, out, err = await gamehall(env, "tournaments", "void", t, "1", "1", "--reason", "wrong board")
    assert code == 0 and "result voided" in out, err
    # a game of a closed round stays void; the standings follow
    code, out, err = await gamehall(env, "tournaments", "result", t, "1", "1", "--ranks", "0,0")
    assert code == 1 and err.startswith("round_closed"), err
    state = fold(e for r in await records(stack, t) for e in r.events)
    voided = state.rounds[0].games[0]
    assert voided.voided and voided.ranks is None and len(state.rounds) == 2
    # what is left of the points: the two rounds' byes (a point each), round 2's game not played yet
    assert sum(s.points for s in current_standings(state)) == 2


async def test_a_table_whose_match_never_came_is_announced_again(nc: Client) -> None:
    """No gateway turns the round's table into a match (every gateway was down longer than the
    30 s a gateway still takes a table): 15 s later the service announces it again, fresh; once
    the match exists it stops."""
    js = nc.jetstream()
    seeds = await natsio.ensure_own_bucket(js, subjects.TOURNAMENT_SEEDS_BUCKET)
    now = [1_800_000_000_000]
    service = Tournaments(js, seeds, clock=lambda: now[0])
    seen: list[TableFormed] = []

    async def on_table(msg: Any) -> None:
        found = msgspec.json.decode(msg.data, type=TableFormed)
        if found.tournament_id == t:
            seen.append(found)

    t = tid()
    sub = await js.subscribe(
        subjects.TABLE_FORMED, cb=on_table, ordered_consumer=True, deliver_policy=DeliverPolicy.NEW
    )
    try:
        for command in (
            CreateTournament(tournament_id=t, settings=ugolki(bots=("greedy", "random"))),
            CloseRegistration(server_seed=""),
            StartRound(),
        ):
            reply = await service.handle(
                TournamentRequest(
                    tournament_id=t, command_id=uuid.uuid4().hex, actor="operator", command=command
                )
            )
            assert isinstance(reply, TournamentAccepted), reply

        async def announced(n: int) -> bool:
            return len(seen) >= n

        await until(lambda: announced(1), "the round's table")
        assert seen[0].players and seen[0].strengths and seen[0].bots == (0, 1)
        await service.tick()
        now[0] += 10_000
        await service.tick()
        await asyncio.sleep(0.5)
        assert len(seen) == 1  # not yet: 15 s
        now[0] += 6_000
        await service.tick()
        await until(lambda: announced(2), "the table again")
        assert seen[1].table_id == seen[0].table_id and seen[1].formed_at == seen[0].formed_at + 16_000
        # the match is made now (any message on its subject): no more announcements
        await js.publish(subjects.match_subject("ugolki", table_match_id(seen[0].table_id)), b"{}")
        now[0] += 16_000
        await service.tick()
        now[0] += 16_000
        await service.tick()
        await asyncio.sleep(0.5)
        assert len(seen) == 2
    finally:
        await sub.unsubscribe()


async def test_a_log_that_does_not_read_is_refused_never_decided_on(nc: Client) -> None:
    js = nc.jetstream()
    seeds = await natsio.ensure_own_bucket(js, subjects.TOURNAMENT_SEEDS_BUCKET)
    t = tid()
    service = Tournaments(js, seeds)
    made = await service.handle(
        TournamentRequest(
            tournament_id=t,
            command_id="c1",
            actor="operator",
            command=CreateTournament(tournament_id=t, settings=ugolki()),
        )
    )
    assert isinstance(made, TournamentAccepted)
    await js.publish(subjects.tournament_subject(t), b"not a record")
    fresh = Tournaments(js, seeds)
    await fresh.load_all()  # a start with a broken log among the tournaments goes on
    refused = await fresh.handle(
        TournamentRequest(tournament_id=t, command_id="c2", actor="ann", command=JoinTournament(player="ann"))
    )
    assert isinstance(refused, Rejected) and refused.code == "unreadable_tournament"
    assert "not a tournament record" in refused.detail
    await fresh.tick()  # the schedule leaves it alone
    assert len(await client.stored(js, t)) == 2


def arena_points(state: Any) -> dict[str, float]:
    """Lichess's arena scoring worked out here, independently of the rules: 2 a win, 1 a draw;
    after two wins in a row every game scores double until one is not won."""
    games = sorted(
        (g for r in state.rounds for g in r.games if g.ranks is not None), key=lambda g: g.finished_seq
    )
    total = dict.fromkeys(state.order, 0.0)
    run = dict.fromkeys(state.order, 0)
    for g in games:
        for seat, player in enumerate(g.seats):
            mine, other = g.ranks[seat], g.ranks[1 - seat]
            base = 2 if mine < other else 1 if mine == other else 0
            total[player] += base * (2 if run[player] >= 2 else 1)
            run[player] = run[player] + 1 if base == 2 else 0
    return total


async def test_an_arena_of_six_computer_players_pairs_again_scores_streaks_and_audits_from_the_command_line(
    stack: Client, nats_url: str, tmp_path: Path
) -> None:
    """The arena runs until its log shows what the format promises (players paired again after
    finishing, a player on fire), however fast the machine plays: its window is long, and the
    operator then finishes it (the end at the window's close, on the service's own clock, is
    tests/integration/test_arena_schedule.py's)."""
    env = dict(os.environ, NATS_URL=nats_url, GAMEHALL_DATA_DIR=str(tmp_path / "cli"))
    (tmp_path / "cli").mkdir()
    t = tid()
    # one strong player among five random ones: it wins game after game and catches fire
    code, out, err = await gamehall(
        env, "tournaments", "create", t, "--format", "arena", "--game", "ugolki", "--preset", "mini-3x3",
        "--bots", "search,random,random,random,random,random", "--window-start", "+1", "--window-end", "+3600",
    )  # fmt: skip
    assert code == 0, err
    assert "created: arena of ugolki" in out

    async def far_enough() -> bool:
        state = fold(e for r in await records(stack, t) for e in r.events)
        counted = [g for r in state.rounds for g in r.games if g.ranks is not None]
        played = {p: sum(p in g.seats for g in counted) for p in state.order}
        on_fire = any(any(x == 4 for x in sc.sheet) for sc in arena.current_scores(state).values())
        return bool(state.order) and len(state.rounds) >= 4 and min(played.values()) >= 2 and on_fire

    await until(far_enough, "every player paired again after finishing, and one on fire", 300)
    ended = await send(stack, t, FinishTournament())
    assert isinstance(ended, TournamentAccepted), ended
    log = await finished(stack, t)
    # replayed record by record: a pairing seats only players without a game in progress
    state = fold([])
    for record in log:
        for event in record.events:
            if isinstance(event, RoundStarted):
                busy = {
                    p
                    for r in state.rounds
                    for g in r.games
                    if g.ranks is None and not g.voided
                    for p in g.seats
                }
                seated = [p for tb in event.tables for p in tb.seats]
                assert not busy & set(seated) and len(seated) == len(set(seated)), (event, busy)
            state = fold([event], state)
    assert state.phase == "finished" and state.settings is not None
    games = [g for r in state.rounds for g in r.games]
    counted = [g for g in games if g.ranks is not None]
    assert all(not g.forfeit for g in counted), counted  # every game was played (no deadline set)
    # the pairings came from the system, and every result from a finished match
    assert {r.actor for r in log if isinstance(r.command, PairArena)} == {"system"}
    assert {r.actor for r in log if any(isinstance(e, ResultRecorded) for e in r.events)} == {"system"}
    # each game its own match: table ids <tournament>:<pairing>:<table>
    matches = {table_match_id(f"{t}:{r.round}:{g.table}") for r in state.rounds for g in r.games}
    assert len(matches) == len(games)
    # the standings are the points with streak bonuses, and the strong player was on fire
    expected = arena_points(state)
    assert {s.player: s.points for s in state.standings} == expected
    assert sum(expected.values()) > 2 * len(counted)  # more than the base points: bonuses counted
    assert any(isinstance(e, TournamentFinished) for e in log[-1].events)
    code, out, err = await gamehall(env, "tournaments", "show", t)
    assert code == 0, err
    assert f"tournament {t}: arena of ugolki (mini-3x3), finished" in out and "pairings:" in out
    assert "*" in out  # a game scored double is marked
    code, out, err = await gamehall(env, "tournaments", "audit", t)
    assert code == 0, err
    assert "ok: hash chain intact" in out


async def test_an_arena_forfeits_no_shows_at_the_deadline_and_pairs_a_late_entrant(stack: Client) -> None:
    t = tid()
    now = time.time_ns() // 1_000_000
    settings = TournamentSettings(
        format="arena",
        game="ugolki",
        preset="mini-3x3",
        seed_commitment="",
        round_deadline_s=2,
        window_start=now + 1_000,
        window_end=now + 20_000,
    )
    assert isinstance(
        await send(stack, t, CreateTournament(tournament_id=t, settings=settings)), TournamentAccepted
    )
    for p in ("ann", "bob"):
        assert isinstance(await send(stack, t, JoinTournament(player=p), actor=p), TournamentAccepted)

    async def paired() -> bool:
        return len(fold(e for r in await records(stack, t) for e in r.events).rounds) >= 1

    await until(paired, "the window opened and the first pairing made", 30)
    late = await send(stack, t, JoinTournament(player="cid"), actor="cid")  # the arena is running
    assert isinstance(late, TournamentAccepted), late
    log = await finished(stack, t)
    state = fold(e for r in log for e in r.events)
    assert state.order[-1] == "cid"  # a late entrant is seeded last
    games = [g for r in state.rounds for g in r.games]
    # nobody moves: each game is forfeited at its deadline by its first seat (it never moved);
    # the one still open at the window's end does not count
    done = [g for g in games if g.ranks is not None]
    assert len(done) >= 3 and all(g.forfeit == g.seats[0] for g in done), games
    assert len(games) - len(done) <= 1
    assert {r.actor for r in log if any(isinstance(e, Forfeit) for e in r.events)} == {"system"}
    assert any("cid" in g.seats for g in games)  # the late entrant was paired once a game ended
    assert client.audit_records(t, await client.stored(stack.jetstream(), t)) is None


async def test_an_arena_seats_each_player_at_their_open_game_of_any_pairing_and_takes_late_entries(
    api: tuple[httpx.AsyncClient, Any], nats_url: str
) -> None:
    http, engine = api
    t = tid()
    olga = await sign_up(http, f"olga-{t}")
    assert accounts.set_role(engine, f"olga-{t}", accounts.OPERATOR)
    names = [f"p{i}-{t}" for i in range(6)]
    heads = {n: await sign_up(http, n) for n in names}
    now = time.time_ns() // 1_000_000
    settings = {
        "format": "arena", "game": "ugolki", "preset": "mini-3x3",
        "window_start": now + 6_000, "window_end": now + 120_000,
    }  # fmt: skip
    made = await http.post("/api/tournaments", json={"tournament_id": t, "settings": settings}, headers=olga)
    assert made.status_code == 201, made.text
    for n in names:
        joined = await http.post(f"/api/tournaments/{t}/join", json={}, headers=heads[n])
        assert joined.status_code == 200, joined.text
    nc = await natsio.connect(nats_url, "test-arena-seats")
    try:

        async def pairings(n: int) -> Any:
            state = fold(e for r in await records(nc, t) for e in r.events)
            return state if len(state.rounds) >= n else None

        state = await until(lambda: pairings(1), "the window opened and the six paired")
        first = state.rounds[0].games
        assert len(first) == 3 and {p for g in first for p in g.seats} == set(names)
        for g in first[:2]:  # two games end; the third goes on
            recorded = await send(nc, t, RecordResult(round=1, table=g.table, ranks=(0, 1)))
            assert isinstance(recorded, TournamentAccepted), recorded
        state = await until(lambda: pairings(2), "the four who finished paired again")
    finally:
        await nc.close()
    still = first[2]
    assert not set(still.seats) & {p for g in state.rounds[1].games for p in g.seats}

    async def seat_of(name: str) -> Any:
        r = await http.get(f"/api/tournaments/{t}/seat", headers=heads[name])
        return r.json() if r.status_code == 200 else None

    # a player of the game still running in pairing 1 is seated there, not "not seated"
    old = await until(lambda: seat_of(still.seats[0]), "the seat in pairing 1")
    assert isinstance(old, dict) and (old["round"], old["table"]) == (1, still.table)
    assert old["match_id"] == table_match_id(f"{t}:1:{still.table}")
    fresh_player = state.rounds[1].games[0].seats[0]
    new = await until(lambda: seat_of(fresh_player), "the seat in pairing 2")
    assert isinstance(new, dict) and (new["round"], new["table"]) == (2, 1)
    view = (await http.get(f"/api/tournaments/{t}")).json()
    assert view["phase"] == "running" and view["can_join"] is True  # an arena takes late entries
    late = await sign_up(http, f"late-{t}")
    joined = await http.post(f"/api/tournaments/{t}/join", json={}, headers=late)
    assert joined.status_code == 200, joined.text
