"""The tournament as a Decider: typed refusals, withdrawals, voided games."""

from __future__ import annotations

import msgspec

from contracts.tournaments import (
    REJECTION_CODES,
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    Forfeit,
    JoinTournament,
    RecordForfeit,
    RecordResult,
    StartRound,
    TournamentEvent,
    VoidResult,
    WithdrawFromTournament,
)
from domain.tournaments import current_standings, decide, fold, initial_state
from domain.tournaments.pairing import next_round
from tests.unit.tournaments.support import SEED_HEX, Run, opened, play_all, settings


def test_refusals_before_and_around_registration() -> None:
    run = Run()
    assert run.refuse(JoinTournament(player="a")) == "not_created"
    bad = msgspec.structs.replace(settings("swiss"), rounds=0)
    assert run.refuse(CreateTournament(tournament_id="t", settings=bad)) == "bad_settings"
    four_seats = msgspec.structs.replace(settings("round_robin"), table_size=4)
    assert run.refuse(CreateTournament(tournament_id="t", settings=four_seats)) == "bad_settings"
    twice = msgspec.structs.replace(settings("knockout"), tie_breaks=("wins", "wins"))
    assert run.refuse(CreateTournament(tournament_id="t", settings=twice)) == "bad_settings"
    run.do(CreateTournament(tournament_id="t", settings=settings("round_robin")))
    assert (
        run.refuse(CreateTournament(tournament_id="t", settings=settings("round_robin"))) == "already_created"
    )
    run.do(JoinTournament(player="a"))
    assert run.refuse(JoinTournament(player="a")) == "already_joined"
    assert run.refuse(CloseRegistration(server_seed=SEED_HEX)) == "too_few_players"
    assert run.refuse(StartRound()) == "registration_open"
    assert run.refuse(WithdrawFromTournament(player="zed")) == "unknown_player"
    run.do(JoinTournament(player="b"))
    run.do(WithdrawFromTournament(player="a"))
    run.do(JoinTournament(player="a"))  # back before the close
    run.do(JoinTournament(player="c"))
    assert run.refuse(CloseRegistration(server_seed="00" * 32)) == "seed_mismatch"
    assert run.refuse(CloseRegistration(server_seed="not hex")) == "seed_mismatch"
    run.do(CloseRegistration(server_seed=SEED_HEX))
    assert run.refuse(JoinTournament(player="late")) == "registration_closed"
    assert run.refuse(CloseRegistration(server_seed=SEED_HEX)) == "registration_closed"


def test_refusals_of_results() -> None:
    run = opened("swiss", [f"p{i}" for i in range(6)], rounds=2)
    assert run.refuse(RecordResult(round=1, table=1, ranks=(0, 1))) == "unknown_game"
    run.start()
    assert run.refuse(RecordResult(round=1, table=4, ranks=(0, 1))) == "unknown_game"
    assert run.refuse(RecordResult(round=2, table=1, ranks=(0, 1))) == "unknown_game"
    assert run.refuse(RecordResult(round=1, table=1, ranks=(0, 1, 2))) == "bad_result"
    assert run.refuse(RecordResult(round=1, table=1, ranks=(1, 1))) == "bad_result"
    assert run.refuse(RecordResult(round=1, table=1, ranks=(0, 1), scores=(1,))) == "bad_result"
    assert run.refuse(VoidResult(round=1, table=1)) == "not_recorded"
    assert run.refuse(RecordForfeit(round=1, table=1, player="nobody")) == "not_at_table"
    assert run.refuse(StartRound()) == "round_in_progress"
    assert run.refuse(FinishTournament()) == "rounds_remaining"
    run.do(RecordResult(round=1, table=1, ranks=(0, 0)))
    assert run.refuse(RecordResult(round=1, table=1, ranks=(0, 1))) == "result_exists"
    play_all(run, finish=False)
    assert run.refuse(RecordResult(round=1, table=2, ranks=(0, 1))) == "round_closed"
    assert run.refuse(StartRound()) == "no_more_rounds"
    run.do(FinishTournament())
    assert run.refuse(StartRound()) == "finished"
    assert run.refuse(JoinTournament(player="x")) == "finished"


def test_every_refusal_code_is_declared() -> None:
    seen = {
        "not_created", "bad_settings", "already_created", "already_joined", "too_few_players",
        "registration_open", "unknown_player", "seed_mismatch", "registration_closed",
        "unknown_game", "bad_result", "not_recorded", "not_at_table", "round_in_progress",
        "rounds_remaining", "result_exists", "round_closed", "no_more_rounds", "finished",
        "draw_not_allowed", "no_pairing", "not_computer_player",
        "wrong_format",  # tests/unit/tournaments/test_arena.py
    }  # fmt: skip
    assert seen == set(REJECTION_CODES)


def test_computer_entrants_are_those_the_settings_name() -> None:
    run = Run()
    run.do(CreateTournament(tournament_id="t", settings=settings("round_robin", bots=("random", "greedy"))))
    run.do(JoinTournament(player="bot:ugolki:1"))
    run.do(JoinTournament(player="bot:ugolki:2"))
    assert run.refuse(JoinTournament(player="bot:ugolki:3")) == "not_computer_player"
    assert run.refuse(JoinTournament(player="bot:kingscorner:1")) == "not_computer_player"
    run.do(JoinTournament(player="ann"))
    assert run.state.entrants == ("bot:ugolki:1", "bot:ugolki:2", "ann")
    unnamed = msgspec.structs.replace(settings("round_robin"), bots=("",))
    assert Run().refuse(CreateTournament(tournament_id="t", settings=unnamed)) == "bad_settings"


def test_a_withdrawn_round_robin_player_forfeits_the_remaining_games() -> None:
    run = opened("round_robin", ["a", "b", "c", "d"])
    run.start()
    for g in run.state.rounds[-1].games:
        run.do(RecordResult(round=1, table=g.table, ranks=(0, 1)))
    run.do(WithdrawFromTournament(player="a"))
    started = decide(run.state, StartRound())
    assert not isinstance(started, type(None)) and isinstance(started, tuple)
    forfeits = [e for e in started if isinstance(e, Forfeit)]
    assert [f.player for f in forfeits] == ["a"]
    play_all(run)
    a_games = [g for r in run.state.rounds[1:] for g in r.games if "a" in g.seats]
    assert all(g.forfeit == "a" for g in a_games)


def test_voiding_a_game_recomputes_standings_and_the_next_pairing() -> None:
    run = opened("swiss", [f"p{i:02d}" for i in range(12)], rounds=4)
    run.start()
    for g in run.state.rounds[-1].games:
        run.do(RecordResult(round=1, table=g.table, ranks=(0, 1)))
    run.start()
    for g in run.state.rounds[-1].games:
        run.do(RecordResult(round=2, table=g.table, ranks=(1, 0)))
    before_points = {s.player: s.points for s in current_standings(run.state)}
    before_pairing = next_round(run.state)
    changed = []
    for table in range(1, 7):
        voided = decide(run.state, VoidResult(round=2, table=table, reason="misreported"))
        assert isinstance(voided, tuple)
        after = fold(voided, run.state)
        points = {s.player: s.points for s in current_standings(after)}
        winner = after.rounds[1].games[table - 1].seats[1]
        assert points[winner] == before_points[winner] - 1.0
        assert sum(points.values()) == sum(before_points.values()) - 1.0
        pairing = next_round(after)
        assert not isinstance(pairing, type(None))
        changed.append(pairing.tables != before_pairing.tables)  # type: ignore[union-attr]
    assert any(changed)
    # a voided game of the current round can be recorded again
    run.do(VoidResult(round=2, table=1))
    assert run.refuse(StartRound()) == "round_in_progress"
    run.do(RecordResult(round=2, table=1, ranks=(0, 0)))
    run.start()
    # one of a finished round stays void: the round is closed
    run.do(VoidResult(round=1, table=2))
    assert run.refuse(RecordResult(round=1, table=2, ranks=(0, 1))) == "round_closed"


def test_the_fold_equals_the_incremental_state() -> None:
    run = opened("fair_tables", [f"p{i}" for i in range(7)], rounds=3, table_size=4, min_table_size=3)
    play_all(run, lambda started, t: tuple(range(len(started.tables[t - 1].seats))))
    events: list[TournamentEvent] = list(run.events)
    assert fold(events, initial_state()) == run.state
