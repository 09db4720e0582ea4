"""The tournaments service's own rules, apart from NATS: who may send what, the service's checks
of the settings, a match outcome as a tournament result, and the hash chain of a log."""

from __future__ import annotations

import hashlib

import msgspec

from contracts.match import TimeControl
from contracts.tournaments import (
    CreateTournament,
    JoinTournament,
    StartRound,
    TournamentCreated,
    TournamentRecord,
    TournamentRequest,
    TournamentSettings,
)
from domain.games import registry
from services.common.tournaments import audit_records, chain_problem
from services.tournaments.core import dense_ranks, first_hash, request_problem, settings_problem


def settings(**kw: object) -> TournamentSettings:
    return TournamentSettings(format="round_robin", game="ugolki", preset="mini-3x3", seed_commitment="", **kw)  # type: ignore[arg-type]


def request(command: object, actor: str = "operator", tournament_id: str = "t1") -> TournamentRequest:
    return TournamentRequest(tournament_id=tournament_id, command_id="c", actor=actor, command=command)  # type: ignore[arg-type]


def test_a_player_only_joins_or_withdraws_themself() -> None:
    assert request_problem(request(JoinTournament(player="ann"), actor="ann")) is None
    refused = request_problem(request(JoinTournament(player="bob"), actor="ann"))
    assert refused is not None and refused.code == "not_allowed"
    refused = request_problem(request(StartRound(), actor="ann"))
    assert refused is not None and refused.code == "not_allowed"
    assert request_problem(request(StartRound(), actor="system")) is None


def test_ids_must_fit_a_subject_and_a_creation_names_its_own() -> None:
    for bad in ("a.b", "a b", "", "x" * 65, "t>", "t*"):
        found = request_problem(request(StartRound(), tournament_id=bad))
        assert found is not None and found.code == "malformed", bad
    other = request_problem(request(CreateTournament(tournament_id="t2", settings=settings())))
    assert other is not None and other.code == "malformed"


def test_the_service_refuses_what_it_cannot_run() -> None:
    assert settings_problem(settings()) is None
    assert settings_problem(settings(bots=("greedy", "search"))) is None
    assert "unknown game" in (settings_problem(msgspec.structs.replace(settings(), game="chess")) or "")
    assert "preset" in (settings_problem(msgspec.structs.replace(settings(), preset="nope")) or "")
    assert "computer players" in (settings_problem(settings(bots=("genius",))) or "")
    # rated: served, except for a game that is never rated or a clock that hands a seat to a computer
    assert settings_problem(settings(rated=True)) is None
    helper = msgspec.structs.replace(settings(rated=True), game="kings-cup", preset=registry.get("kings-cup").default_preset)
    assert "never rated" in (settings_problem(helper) or "")
    handed = settings(rated=True, time_control=TimeControl(base_s=60, on_timeout="bot"))
    assert "always forfeit" in (settings_problem(handed) or "")
    assert settings_problem(settings(time_control=TimeControl(base_s=60, on_timeout="bot"))) is None
    assert "time_control" in (settings_problem(settings(time_control=TimeControl(base_s=-1))) or "")
    four = TournamentSettings(format="fair_tables", game="ugolki", preset="mini-3x3", seed_commitment="", rounds=2, table_size=4)
    assert "at 4 seats" in (settings_problem(four) or "")


def test_match_ranks_become_tournament_places() -> None:
    assert dense_ranks((1, 2)) == (0, 1)
    assert dense_ranks((2, 1)) == (1, 0)
    assert dense_ranks((1, 1)) == (0, 0)
    assert dense_ranks((1, 2, 2, 4)) == (0, 1, 1, 2)


def test_the_chain_names_the_first_record_that_breaks_it() -> None:
    created = TournamentCreated(tournament_id="t1", settings=msgspec.structs.replace(settings(), seed_commitment="0" * 64))
    first = TournamentRecord(
        tournament_id="t1", seq=1, command_id="c1", recorded_at=0, prev_hash=first_hash("t1"), actor="operator",
        command=CreateTournament(tournament_id="t1", settings=created.settings), events=(created,),
    )  # fmt: skip
    data = msgspec.json.encode(first)
    assert first_hash("t1") == hashlib.sha256(b"t1").hexdigest()
    assert chain_problem("t1", [data]) == ([first], None)
    assert audit_records("t1", [data]) is None
    assert chain_problem("t2", [data])[1] == "record 1: names tournament 't1'"
    second = msgspec.structs.replace(first, seq=2, command_id="c2", prev_hash="0" * 64)
    assert chain_problem("t1", [data, msgspec.json.encode(second)])[1] == (
        "record 2: the hash chain breaks (prev_hash is not the sha256 of record 1)"
    )
    assert chain_problem("t1", [b"{}"])[1].startswith("record 1: not a tournament record")  # type: ignore[union-attr]
    assert audit_records("t1", []) == "no records of tournament 't1'"


async def test_an_instance_without_a_table_key_refuses_a_rated_tournament() -> None:
    from contracts.envelope import Rejected
    from services.tournaments.core import Held, Tournaments

    unsigned = Tournaments(None, None)  # type: ignore[arg-type]
    rated = CreateTournament(tournament_id="t1", settings=settings(rated=True))
    reply = await unsigned._complete(Held(tournament_id="t1"), rated)
    assert isinstance(reply, Rejected) and reply.code == "bad_settings" and "no table key" in reply.detail
