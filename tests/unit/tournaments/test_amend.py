"""Amending and voiding a recorded game (a dispute's ruling): the standings follow, the rounds
not yet started pair from the results as they now are, the rounds already started keep their
tables, and the audit re-decides every amendment."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.tournaments import (
    AmendResult,
    FinishTournament,
    PairArena,
    RecordForfeit,
    RecordResult,
    ResultAmended,
    ResultRecorded,
    ResultVoided,
    StartRound,
    TournamentEvent,
    TournamentFinished,
    VoidResult,
)
from domain.tournaments import audit, current_standings, fold
from domain.tournaments.pairing import next_round
from tests.unit.tournaments.support import Run, opened, play_all


def _points(run: Run) -> dict[str, float]:
    return {s.player: s.points for s in current_standings(run.state)}


def _table_of(run: Run, a: str, b: str) -> tuple[int, int, tuple[str, ...]]:
    for r in run.state.rounds:
        for g in r.games:
            if set(g.seats) == {a, b}:
                return r.round, g.table, g.seats
    raise AssertionError(f"{a} and {b} never met")


def _first_wins(seats: tuple[str, ...], winner: str) -> tuple[int, ...]:
    return tuple(0 if p == winner else 1 for p in seats)


def _alphabetical(run: Run) -> Run:
    """A round robin of a, b, c, d where the name first in the alphabet wins every game:
    a 3, b 2, c 1, d 0."""
    play_all(
        run,
        lambda started, t: _first_wins(started.tables[t - 1].seats, min(started.tables[t - 1].seats)),
        finish=False,
    )
    assert _points(run) == {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0}
    return run


def test_an_amended_result_of_a_closed_round_moves_the_standings() -> None:
    run = _alphabetical(opened("round_robin", ["a", "b", "c", "d"], tie_breaks=("wins",)))
    rnd, table, seats = _table_of(run, "a", "b")
    events = run.do(AmendResult(round=rnd, table=table, ranks=_first_wins(seats, "b"), reason="ruling"))
    assert events == (ResultAmended(round=rnd, table=table, ranks=_first_wins(seats, "b"), reason="ruling"),)
    # b now beat a: b 3, a 2; wins follow
    assert [(s.rank, s.player, s.points, s.tie_breaks) for s in current_standings(run.state)] == [
        (1, "b", 3.0, (3.0,)),
        (2, "a", 2.0, (2.0,)),
        (3, "c", 1.0, (1.0,)),
        (4, "d", 0.0, (0.0,)),
    ]
    # amended again, to a draw: a 2.5, b 2.5, and each beat c and d: level on wins too, they
    # share first
    run.do(AmendResult(round=rnd, table=table, ranks=(0, 0)))
    top = current_standings(run.state)[:2]
    assert {s.player for s in top} == {"a", "b"} and all(s.rank == 1 and s.points == 2.5 for s in top)
    game = run.state.rounds[rnd - 1].games[table - 1]
    assert game.ranks == (0, 0) and not game.voided and game.forfeit == ""
    assert audit(run.events) is None


def test_a_voided_game_may_be_amended_and_then_counts_again() -> None:
    run = _alphabetical(opened("round_robin", ["a", "b", "c", "d"]))
    rnd, table, seats = _table_of(run, "a", "d")
    run.do(VoidResult(round=rnd, table=table, reason="void"))
    assert _points(run) == {"a": 2.0, "b": 2.0, "c": 1.0, "d": 0.0}
    if rnd < len(run.state.rounds):  # a closed round's void stays void for a result ...
        assert run.refuse(RecordResult(round=rnd, table=table, ranks=(0, 1))) == "round_closed"
    run.do(AmendResult(round=rnd, table=table, ranks=_first_wins(seats, "d")))  # ... not for a ruling
    assert _points(run) == {"a": 2.0, "b": 2.0, "c": 1.0, "d": 1.0}
    assert audit(run.events) is None


def test_an_amended_forfeit_is_no_longer_a_forfeit() -> None:
    run = opened("round_robin", ["a", "b", "c", "d"])
    started = run.start()
    t = started.tables[0]
    run.do(RecordForfeit(round=1, table=1, player=t.seats[0]))
    run.do(AmendResult(round=1, table=1, ranks=(0, 1)))
    game = run.state.rounds[0].games[0]
    assert game.forfeit == "" and game.ranks == (0, 1)
    assert _points(run)[t.seats[0]] == 1.0 and _points(run)[t.seats[1]] == 0.0


def test_refusals_of_an_amendment() -> None:
    run = opened("swiss", [f"p{i}" for i in range(6)], rounds=2)
    assert run.refuse(AmendResult(round=1, table=1, ranks=(0, 1))) == "unknown_game"
    run.start()
    assert run.refuse(AmendResult(round=1, table=1, ranks=(0, 1))) == "not_recorded"  # still to play
    assert run.refuse(AmendResult(round=1, table=9, ranks=(0, 1))) == "unknown_game"
    run.do(RecordResult(round=1, table=1, ranks=(0, 1)))
    assert run.refuse(AmendResult(round=1, table=1, ranks=(1, 1))) == "bad_result"
    assert run.refuse(AmendResult(round=1, table=1, ranks=(0, 1, 2))) == "bad_result"
    assert run.refuse(AmendResult(round=1, table=1, ranks=())) == "bad_result"
    assert run.refuse(AmendResult(round=1, table=1, ranks=(0, 1), scores=(3,))) == "bad_result"


def test_a_knockout_amends_only_its_current_round_and_needs_a_winner() -> None:
    players = ["p1", "p2", "p3", "p4", "p5", "p6"]
    run = opened("knockout", players, ratings=[2000, 1900, 1800, 1700, 1600, 1500])
    run.start()  # p4 v p5, p3 v p6; byes p1, p2
    run.do(RecordResult(round=1, table=1, ranks=(0, 1)))  # p4 beats p5
    run.do(RecordResult(round=1, table=2, ranks=(0, 1)))
    assert run.refuse(AmendResult(round=1, table=1, ranks=(0, 0))) == "draw_not_allowed"
    run.do(AmendResult(round=1, table=1, ranks=(1, 0)))  # the ruling: p5 won
    second = run.start()
    assert [t.seats for t in second.tables] == [("p1", "p5"), ("p2", "p3")]  # drawn from the amended winner
    assert run.refuse(AmendResult(round=1, table=1, ranks=(0, 1))) == "round_closed"
    assert run.refuse(VoidResult(round=1, table=1)) == "round_closed"
    assert audit(run.events) is None


def _swiss_six() -> Run:
    """Six players rated p1 > ... > p6, three Swiss rounds, the higher rated winning rounds 1
    and 2.  Round 1: p4-p1, p2-p5, p6-p3 (top half against bottom half, colours alternating);
    round 2: p1-p2, p3-p4, p5-p6."""
    run = opened(
        "swiss", [f"p{i}" for i in range(1, 7)], ratings=[2000, 1900, 1800, 1700, 1600, 1500], rounds=3
    )
    for rnd in (1, 2):
        started = run.start()
        for t in started.tables:
            run.do(RecordResult(round=rnd, table=t.table, ranks=_first_wins(t.seats, min(t.seats))))
    assert [g.seats for g in run.state.rounds[0].games] == [("p4", "p1"), ("p2", "p5"), ("p6", "p3")]
    assert [g.seats for g in run.state.rounds[1].games] == [("p1", "p2"), ("p3", "p4"), ("p5", "p6")]
    return run


def test_a_swiss_round_three_pairs_from_an_amended_round_one_result() -> None:
    run = _swiss_six()
    # as played: p1 2, p3 2, p2 1, p5 1, p4 0, p6 0; the leaders meet, p2 and p5 (met in round
    # 1) cannot, so each meets one from the bottom
    assert _points(run) == {"p1": 2.0, "p3": 2.0, "p2": 1.0, "p5": 1.0, "p4": 0.0, "p6": 0.0}
    planned = next_round(run.state)
    assert not isinstance(planned, Rejected)
    assert [t.seats for t in planned.tables] == [("p3", "p1"), ("p2", "p6"), ("p4", "p5")]
    # the ruling: p4 beat p1 in round 1.  p3 2 alone; p1, p2, p4, p5 1; p6 0.  p3 floats down to
    # the 1-point group: not p4 (met in round 2); p1 and p3 are both due black (black, white so
    # far), p2 due white, so p3 meets p2.  Of p1, p4, p5 one floats to p6: the lowest that can
    # (p5 met p6), p4; p5 meets p1.
    run.do(AmendResult(round=1, table=1, ranks=(0, 1), reason="ruling"))
    assert _points(run) == {"p3": 2.0, "p1": 1.0, "p2": 1.0, "p4": 1.0, "p5": 1.0, "p6": 0.0}
    third = run.start()
    assert [t.seats for t in third.tables] == [("p2", "p3"), ("p5", "p1"), ("p4", "p6")]
    # rounds already started keep their tables; the log audits, amendment and all
    assert [g.seats for g in run.state.rounds[1].games] == [("p1", "p2"), ("p3", "p4"), ("p5", "p6")]
    assert audit(run.events) is None


def test_a_finished_tournament_takes_a_ruling_and_states_its_standings_again() -> None:
    run = _alphabetical(opened("round_robin", ["a", "b", "c", "d"]))
    run.do(FinishTournament())
    assert [s.player for s in run.state.standings] == ["a", "b", "c", "d"]
    rnd, table, seats = _table_of(run, "a", "b")
    events = run.do(AmendResult(round=rnd, table=table, ranks=_first_wins(seats, "b")))
    assert isinstance(events[0], ResultAmended) and isinstance(events[1], TournamentFinished)
    assert run.state.phase == "finished"
    assert [(s.player, s.points) for s in run.state.standings] == [
        ("b", 3.0),
        ("a", 2.0),
        ("c", 1.0),
        ("d", 0.0),
    ]
    rnd, table, _ = _table_of(run, "c", "d")
    events = run.do(VoidResult(round=rnd, table=table))
    assert isinstance(events[0], ResultVoided) and isinstance(events[1], TournamentFinished)
    # c and d level on nothing: they share third (listed in seeding order)
    assert [(s.rank, s.points) for s in run.state.standings] == [(1, 3.0), (2, 2.0), (3, 0.0), (3, 0.0)]
    assert {s.player for s in run.state.standings[2:]} == {"c", "d"}
    assert run.refuse(VoidResult(round=rnd, table=table)) == "not_recorded"
    assert run.refuse(StartRound()) == "finished"
    assert run.refuse(RecordResult(round=rnd, table=table, ranks=(0, 1))) == "finished"
    assert audit(run.events) is None


def _replace(events: list[TournamentEvent], index: int, event: TournamentEvent) -> list[TournamentEvent]:
    return [*events[:index], event, *events[index + 1 :]]


def test_the_audit_finds_a_tampered_amendment() -> None:
    run = _swiss_six()
    run.do(AmendResult(round=1, table=1, ranks=(0, 1)))
    play_all(run)
    events = list(run.events)
    i, amended = next((i, e) for i, e in enumerate(events) if isinstance(e, ResultAmended))
    # the amendment changed back: round 3's recorded tables are no longer what it derives
    found = audit(_replace(events, i, msgspec.structs.replace(amended, ranks=(1, 0))))
    assert found is not None and "round 3 pairings differ" in found
    # an amendment of a game no round holds is refused by the rules
    found = audit(_replace(events, i, msgspec.structs.replace(amended, table=7)))
    assert found is not None and "refused (unknown_game" in found
    # an amendment dropped from the log: round 3 again
    found = audit([*events[:i], *events[i + 1 :]])
    assert found is not None and "round 3 pairings differ" in found
    # a plain result recorded where the amendment was: round 1 is closed to results
    recorded = ResultRecorded(round=1, table=1, ranks=(0, 1))
    found = audit(_replace(events, i, recorded))
    assert found is not None and "refused (round_closed" in found


def test_the_audit_finds_tampered_standings_after_a_ruling_on_a_finished_tournament() -> None:
    run = _alphabetical(opened("round_robin", ["a", "b", "c", "d"]))
    run.do(FinishTournament())
    rnd, table, seats = _table_of(run, "a", "b")
    run.do(AmendResult(round=rnd, table=table, ranks=_first_wins(seats, "b")))
    events = list(run.events)
    assert audit(events) is None
    restated = events[-1]
    assert isinstance(restated, TournamentFinished)
    first, second = restated.standings[0], restated.standings[1]
    swapped = (
        msgspec.structs.replace(second, rank=1),
        msgspec.structs.replace(first, rank=2),
        *restated.standings[2:],
    )
    found = audit([*events[:-1], TournamentFinished(standings=swapped)])
    assert found is not None and "rank 1" in found
    assert audit(events[:-1]) is not None  # the amendment without its standings
    assert fold(events).standings == restated.standings


def test_a_final_void_closes_the_game_for_nobody_and_lets_the_round_end() -> None:
    run = opened("round_robin", ["a", "b", "c", "d"])
    started = run.start()
    run.do(RecordResult(round=1, table=1, ranks=(0, 1)))
    run.do(VoidResult(round=1, table=1, reason="ruling", final=True))
    assert run.refuse(StartRound()) == "round_in_progress"  # table 2 still plays
    run.do(RecordResult(round=1, table=2, ranks=(0, 1)))
    assert run.state.rounds[0].complete()  # the voided game does not hold the round up
    first, second = started.tables[0].seats, started.tables[1].seats
    assert _points(run) == {first[0]: 0.0, first[1]: 0.0, second[0]: 1.0, second[1]: 0.0}
    assert run.refuse(RecordResult(round=1, table=1, ranks=(0, 1))) == "result_exists"
    assert run.refuse(RecordForfeit(round=1, table=1, player=first[0])) == "result_exists"
    assert run.refuse(VoidResult(round=1, table=1, final=True)) == "not_recorded"
    run.start()
    # the ruling amended later: the game counts again
    run.do(AmendResult(round=1, table=1, ranks=(1, 0)))
    assert _points(run)[first[1]] == 1.0
    assert audit(run.events) is None


def test_a_void_to_play_again_may_become_final_and_a_knockout_refuses_a_final_void() -> None:
    run = opened("round_robin", ["a", "b", "c", "d"])
    run.start()
    run.do(RecordResult(round=1, table=1, ranks=(0, 1)))
    run.do(VoidResult(round=1, table=1))
    assert run.refuse(VoidResult(round=1, table=1)) == "not_recorded"
    run.do(VoidResult(round=1, table=1, final=True))
    assert run.state.rounds[0].games[0].final_void
    knockout = opened("knockout", ["p1", "p2", "p3", "p4"], ratings=[4, 3, 2, 1])
    knockout.start()
    knockout.do(RecordResult(round=1, table=1, ranks=(0, 1)))
    assert knockout.refuse(VoidResult(round=1, table=1, final=True)) == "draw_not_allowed"
    knockout.do(VoidResult(round=1, table=1))  # to be played again


def test_an_arena_amendment_keeps_the_games_order_and_its_streaks_follow() -> None:
    run = opened(
        "arena", ["ann", "bob", "cat", "dan"], [4, 3, 2, 1], window_start=1_000, window_end=3_600_000
    )

    def play(rnd: int, player: str, winner: str) -> None:
        game = next(g for g in run.state.rounds[rnd - 1].games if player in g.seats)
        run.do(RecordResult(round=rnd, table=game.table, ranks=_first_wins(game.seats, winner)))

    def arena_points() -> dict[str, float]:
        return {s.player: s.points for s in current_standings(run.state)}

    for rnd in (1, 2, 3):
        run.do(PairArena())
        opponent = next(
            p for g in run.state.rounds[rnd - 1].games if "ann" in g.seats for p in g.seats if p != "ann"
        )
        play(rnd, "ann", "ann" if rnd != 1 else opponent)  # ann: L, W, W
        other = next(g for g in run.state.rounds[rnd - 1].games if "ann" not in g.seats)
        run.do(RecordResult(round=rnd, table=other.table, ranks=(0, 0)))
    assert arena_points()["ann"] == 4.0  # arena points: 0 + 2 + 2, not on fire yet
    # round 1 amended to a win for ann: W, W, W in the order they finished: 2 + 2 + 4
    game = next(g for g in run.state.rounds[0].games if "ann" in g.seats)
    run.do(AmendResult(round=1, table=game.table, ranks=_first_wins(game.seats, "ann")))
    assert arena_points()["ann"] == 8.0
    # voided (W W: 4), then given a result again: it counts from now, after rounds 2 and 3
    run.do(VoidResult(round=1, table=game.table))
    assert arena_points()["ann"] == 4.0
    run.do(AmendResult(round=1, table=game.table, ranks=(0, 0)))  # W W then a draw on fire: 2 + 2 + 2
    assert arena_points()["ann"] == 6.0
    assert audit(run.events) is None
