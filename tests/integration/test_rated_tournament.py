"""A rated tournament on a real nats-server with a referee, a gateway, the tournaments service,
scoring and the bots service: a round robin of four computer players in Ugolki whose games are
ranked matches created for tables the tournaments service signed with its own key, confirmed by
the audit under the tournament keys (and not under matchmaking's), and rated by scoring in the
season in force (docs/audit.md "Where a ranked match came from", docs/ranked.md)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import uuid
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nacl.signing import VerifyKey
from nats.aio.client import Client
from sqlalchemy import select
from sqlalchemy.orm import Session

from contracts.match import MatchCreated
from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    StartRound,
    TournamentAccepted,
    TournamentCreated,
    TournamentFinished,
    TournamentRecord,
    TournamentRequest,
    TournamentSettings,
)
from domain.audit import audit
from domain.tournaments import fold
from services.cli.stackrun import in_process_stack
from services.common import db, natsio
from services.common import settings as settings_module
from services.common import tournaments as client
from services.common.tablekeys import TableTrust, TrustedTableKeys
from services.common.tickets import table_match_id
from services.common.tournaments import table_id
from services.scoring import config as scoring_config
from tests.support import stackprobe
from tests.support.gateway import running_bots
from tests.support.natsserver import nats_server
from tests.support.referees import bundle_of, stored_envelopes

pytestmark = pytest.mark.integration

DEADLINE_S = 150.0
SERVICES = ("referee", "gateway", "tournaments", "scoring")


async def until(check: Callable[[], Awaitable[Any]], what: str, seconds: float = DEADLINE_S) -> Any:  # noqa: ANN401
    return await stackprobe.until(check, what, seconds)


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[Client, settings_module.Settings]]:
    with nats_server(tmp_path / "nats") as url:
        settings = settings_module.load().replace(nats_url=url, data_dir=tmp_path / "data")
        async with in_process_stack(settings, SERVICES) as base, running_bots(settings, base):
            nc = await natsio.connect(url, "test-rated-tournaments")
            try:
                yield nc, settings
            finally:
                await nc.close()


async def send(nc: Client, tournament_id: str, command: Any) -> Any:  # noqa: ANN401
    request = TournamentRequest(
        tournament_id=tournament_id, command_id=uuid.uuid4().hex, actor="operator", command=command
    )
    return await client.send(nc, request)


async def gamehall(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "services.cli.main", *args, env=env, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def public_key(data_dir: Path, name: str) -> str:
    return (data_dir / "keys" / f"{name}.pub").read_text().split("#")[0].strip()


async def test_a_rated_round_robin_of_four_computer_players_is_ranked_audited_and_rated(stack) -> None:  # type: ignore[no-untyped-def]
    nc, settings = stack
    t = "rated-" + uuid.uuid4().hex[:8]
    rated = TournamentSettings(
        format="round_robin",
        game="ugolki",
        preset="mini-3x3",
        seed_commitment="",
        rated=True,
        bots=("greedy",) * 4,
    )
    created = await send(nc, t, CreateTournament(tournament_id=t, settings=rated))
    assert isinstance(created, TournamentAccepted), created
    made = created.events[0]
    assert isinstance(made, TournamentCreated) and made.settings.rated
    # a rated game has a ranked match's clock, recorded with the tournament
    assert made.settings.time_control is not None and made.settings.time_control.on_timeout == "forfeit"
    assert isinstance(await send(nc, t, CloseRegistration(server_seed="")), TournamentAccepted)
    assert isinstance(await send(nc, t, StartRound()), TournamentAccepted)

    async def done() -> list[TournamentRecord] | None:
        stored = await client.stored(nc.jetstream(), t)
        found = [msgspec.json.decode(s, type=TournamentRecord) for s in stored]
        return found if found and any(isinstance(e, TournamentFinished) for e in found[-1].events) else None

    log = await until(done, f"tournament {t} finished")
    state = fold(e for r in log for e in r.events)
    assert state.phase == "finished" and len(state.rounds) == 3
    games = [(r.round, g) for r in state.rounds for g in r.games]
    assert len(games) == 6 and all(g.ranks is not None and not g.forfeit for _, g in games)
    assert client.audit_records(t, await client.stored(nc.jetstream(), t)) is None

    data_dir = settings.data_dir
    tournaments_pub = public_key(data_dir, "tournaments")
    assert (data_dir / "keys" / "tournaments.key").stat().st_mode & 0o077 == 0  # the service's alone
    key_id = "tn-" + hashlib.sha256(bytes.fromhex(tournaments_pub)).hexdigest()[:16]
    trust = TableTrust.from_entries([], [tournaments_pub])
    matchmaking_only = TrustedTableKeys([bytes.fromhex(tournaments_pub)]).check  # the same key as matchmaking's
    match_ids = []
    for rnd, game in games:
        mid = table_match_id(table_id(t, rnd, game.table))
        match_ids.append(mid)
        first = (await stored_envelopes(nc, "ugolki", mid))[0].events[0]
        assert isinstance(first, MatchCreated) and first.ranked and first.table is not None
        table = first.table
        assert (table.signer, table.tournament_id, table.key_id) == ("tournaments", t, key_id)
        assert first.players == game.seats and first.time_control == made.settings.time_control
        # an outsider checks the signature from the doc alone (docs/audit.md)
        signed = json.dumps(
            ["gamehall.tournament-table.v1", table.table_id, first.game, first.preset, first.ranked,
             list(first.players), list(table.bots), table.formed_at, t],
            separators=(",", ":"), ensure_ascii=False,
        ).encode()  # fmt: skip
        VerifyKey(bytes.fromhex(tournaments_pub)).verify(signed, bytes.fromhex(table.signature))
        bundle = await bundle_of(nc, mid)
        report = audit(bundle, tables=trust.check)
        assert report.ok, report.problems
        assert (report.table_signed_by, report.table_signer, report.table_tournament) == (key_id, "tournaments", t)
        wrong = audit(bundle, tables=matchmaking_only)
        assert not wrong.ok and any("not checked with matchmaking keys" in p for p in wrong.problems)

    # `gamehall audit` with the data folder's trusted keys says so, and refuses another tournament key
    env = dict(os.environ, NATS_URL=settings.nats_url or "", GAMEHALL_DATA_DIR=str(data_dir))
    code, out, err = await gamehall(env, "audit", match_ids[0], "--quiet")
    assert code == 0, out + err
    assert f"ranked: created for a table of rated tournament {t}, signed by the tournaments service's key {key_id}" in out
    stranger = dict(env, GAMEHALL_TOURNAMENT_KEYS="ab" * 32)
    code, out, err = await gamehall(stranger, "audit", match_ids[0], "--quiet")
    assert code == 1 and f"key '{key_id}' is not among the tournaments keys trusted here" in err, out + err

    # scoring rates every game as a ranked match, in the season in force
    engine = db.make_engine(settings.database_url)
    season_of = scoring_config.load(settings.scoring).season_for

    def recorded() -> list[db.MatchRecord]:
        with Session(engine) as session:
            rows = session.scalars(select(db.MatchRecord).where(db.MatchRecord.match_id.in_(match_ids))).all()
            session.expunge_all()
            return list(rows)

    async def all_recorded() -> list[db.MatchRecord] | None:
        rows = await asyncio.to_thread(recorded)
        return rows if len(rows) == len(match_ids) else None

    try:
        rows = await until(all_recorded, "every tournament game recorded by scoring", 60)
        assert all(r.ranked and r.rated and r.model for r in rows), [(r.match_id, r.ranked, r.rated) for r in rows]
        assert all(r.season == season_of("ugolki", r.finished_at) for r in rows)
        with Session(engine) as session:
            ratings = session.scalars(select(db.Rating).where(db.Rating.game == "ugolki")).all()
            entrants = set(state.entrants)
            by_player = {r.player: r for r in ratings if r.player in entrants}
        assert set(by_player) == entrants and len(entrants) == 4
        assert all(r.games == 3 for r in by_player.values())  # three games each, every one rated
        assert {r.season for r in by_player.values()} == {rows[-1].season}
    finally:
        engine.dispose()
