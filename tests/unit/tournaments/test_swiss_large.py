"""A Swiss of thousands: a bracket's S1 of more than a thousand players is searched on an explicit
stack (it exceeded Python's recursion limit before), and every round pairs everyone once."""

from __future__ import annotations

import random

from contracts.tournaments import RecordResult, StartRound
from tests.unit.tournaments.support import opened


def test_a_swiss_of_2400_players_pairs_every_round() -> None:
    players = [f"p{i:04d}" for i in range(2400)]
    run = opened("swiss", players, [float(3000 - i) for i in range(2400)], rounds=3)
    rng = random.Random(7)
    for rnd in range(1, 4):
        started = run.do(StartRound())[0]
        seats = [p for t in started.tables for p in t.seats]  # type: ignore[attr-defined]
        assert sorted(seats) == players  # everyone once, nobody twice
        if rnd == 1:  # 1 v 1201, 2 v 1202, ...: S1 is the upper half of the one bracket
            assert {frozenset(t.seats) for t in started.tables[:2]} == {  # type: ignore[attr-defined]
                frozenset({"p0000", "p1200"}),
                frozenset({"p0001", "p1201"}),
            }
        met = {frozenset(g.seats) for r in run.state.rounds[:-1] for g in r.games}
        assert not any(frozenset(t.seats) in met for t in started.tables)  # type: ignore[attr-defined]
        for g in run.state.rounds[-1].games:
            roll = rng.random()  # a quarter drawn, as bench/tournament_bench.py draws them
            ranks = (0, 0) if roll < 0.25 else (0, 1) if roll < 0.625 else (1, 0)
            run.do(RecordResult(round=rnd, table=g.table, ranks=ranks))
