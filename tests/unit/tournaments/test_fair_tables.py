"""Fair tables for 3- and 4-seat games and the evenness measure."""

from __future__ import annotations

import itertools
from collections import Counter

from contracts.tournaments import Bye, RecordResult, WithdrawFromTournament
from domain.tournaments.tables import evenness, plan, table_sizes
from tests.unit.tournaments.support import opened, play_all


def _placings(started: object, table: int) -> tuple[int, ...]:
    return (0, 1, 2, 3)[: len(started.tables[table - 1].seats)]  # type: ignore[attr-defined]


def test_eight_players_at_four_seats_for_seven_rounds_meet_evenly_and_rotate_seats() -> None:
    players = [f"p{i}" for i in range(8)]
    run = opened("fair_tables", players, rounds=7, table_size=4)
    play_all(run, _placings)
    rounds = [tuple(g.seats for g in r.games) for r in run.state.rounds]
    meet = Counter(
        frozenset(pair) for seating in rounds for t in seating for pair in itertools.combinations(t, 2)
    )
    assert len(meet) == 28
    # 7 rounds x 3 table mates = 21 meetings over 7 opponents: three each is achievable, and found
    assert set(meet.values()) == {3}
    for p in players:
        seats = Counter(t.index(p) for seating in rounds for t in seating if p in t)
        assert sorted(seats.values()) == [1, 2, 2, 2]
    measure = evenness(rounds)
    assert measure.pairs == 0.0 and measure.min_meetings == measure.max_meetings == 3
    # each player's ideal is 1.75 per position: three 2s and one 1 give 3 x 1/16 + 9/16
    assert measure.positions == 8 * 0.75 and measure.total == 6.0


def test_the_measure_on_a_hand_computed_schedule() -> None:
    # four players at one table twice, nobody moving: every pair meets twice (mean 2: pairs 0);
    # each player sits in one position twice against 1/2 expected in each of four
    same = (("a", "b", "c", "d"),)
    m = evenness([same, same])
    assert m.pairs == 0.0
    assert m.positions == 4 * ((2 - 0.5) ** 2 + 3 * 0.5**2)
    assert m.max_position_gap == 1.5
    # five players, tables of four, two rounds: e sits out once, d sits out once
    m2 = evenness([(("a", "b", "c", "d"),), (("a", "b", "c", "e"),)], players=["a", "b", "c", "d", "e"])
    # meetings: ab ac bc twice, ad bd cd ae be ce once, de never: mean 12/10
    expected_pairs = 3 * (2 - 1.2) ** 2 + 6 * (1 - 1.2) ** 2 + (0 - 1.2) ** 2
    assert abs(m2.pairs - expected_pairs) < 1e-9
    assert (m2.min_meetings, m2.max_meetings) == (0, 2)


def test_table_sizes_and_byes() -> None:
    assert table_sizes(8, 4, 4) == ((4, 4), 0)
    assert table_sizes(10, 4, 3) == ((4, 3, 3), 0)
    assert table_sizes(9, 4, 3) == ((3, 3, 3), 0)
    assert table_sizes(5, 4, 3) == ((4,), 1)
    assert table_sizes(7, 3, 3) == ((3, 3), 1)
    assert table_sizes(2, 3, 3) == ((), 2)


def test_sitting_out_rotates_to_the_fewest_byes() -> None:
    run = opened("fair_tables", [f"p{i}" for i in range(5)], rounds=5, table_size=4)
    play_all(run, _placings)
    byes = Counter(e.player for e in run.events if isinstance(e, Bye))
    assert byes == dict.fromkeys(run.state.order, 1)


def test_a_withdrawal_replans_the_remaining_rounds() -> None:
    run = opened("fair_tables", [f"p{i}" for i in range(9)], rounds=4, table_size=3)
    run.start()
    for g in run.state.rounds[-1].games:
        run.do(RecordResult(round=1, table=g.table, ranks=(0, 1, 2)))
    gone = run.state.order[0]
    run.do(WithdrawFromTournament(player=gone))
    play_all(run, _placings)
    later = [g.seats for r in run.state.rounds[1:] for g in r.games]
    assert all(gone not in seats for seats in later)
    assert all(len(seats) == 3 for seats in later)
    assert sum(1 for e in run.events if isinstance(e, Bye)) == 3 * 2  # 8 players: two sit out


def test_a_large_field_never_meets_twice() -> None:
    players = [f"p{i:04d}" for i in range(200)]
    rounds = plan(players, (), 5, 4, 3, b"k" * 32, b"tables:1")
    m = evenness([r.tables for r in rounds], players)
    assert m.max_meetings == 1
    assert m.max_position_gap <= 1.25
