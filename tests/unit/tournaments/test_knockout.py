"""Knockout with seeding."""

from __future__ import annotations

from contracts.tournaments import Bye, RecordResult
from domain.tournaments.knockout import bracket_order, first_round
from tests.unit.tournaments.support import opened, play_all


def test_standard_bracket_order_for_8_and_16() -> None:
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


def test_byes_go_to_the_top_seeds_for_6_and_13() -> None:
    assert first_round(6) == ((1, None), (4, 5), (2, None), (3, 6))
    thirteen = first_round(13)
    assert [a for a, b in thirteen if b is None] == [1, 2, 3]
    assert [(a, b) for a, b in thirteen if b is not None][:3] == [(8, 9), (4, 13), (5, 12)]


def test_a_six_player_knockout_through_the_decider() -> None:
    players = ["p1", "p2", "p3", "p4", "p5", "p6"]
    run = opened("knockout", players, ratings=[2000, 1900, 1800, 1700, 1600, 1500])
    assert run.state.order == tuple(players)
    first = run.start()
    assert [t.seats for t in first.tables] == [("p4", "p5"), ("p3", "p6")]
    assert [e.player for e in run.events if isinstance(e, Bye)] == ["p1", "p2"]
    assert run.refuse(RecordResult(round=1, table=1, ranks=(0, 0))) == "draw_not_allowed"
    run.do(RecordResult(round=1, table=1, ranks=(1, 0)))  # p5 beats p4
    run.do(RecordResult(round=1, table=2, ranks=(0, 1)))
    second = run.start()
    assert [t.seats for t in second.tables] == [("p1", "p5"), ("p2", "p3")]
    play_all(run)
    assert [t.seats for t in run.state.rounds[-1].games] == [("p1", "p2")]
    assert [s.player for s in run.state.standings[:2]] == ["p1", "p2"]


def test_sixteen_seeds_meet_in_bracket_order() -> None:
    players = [f"s{i:02d}" for i in range(1, 17)]
    run = opened("knockout", players, ratings=[3000 - i for i in range(16)])
    first = run.start()
    assert [t.seats for t in first.tables][:2] == [("s01", "s16"), ("s08", "s09")]
    play_all(run)
    assert len(run.state.rounds) == 4
    assert [g.seats for g in run.state.rounds[2].games] == [("s01", "s04"), ("s02", "s03")]
