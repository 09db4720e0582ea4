"""Round robin by Berger tables."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from contracts.tournaments import Bye
from domain.tournaments.berger import schedule
from tests.unit.tournaments.support import opened, play_all

# FIDE Handbook C.05 (General regulations for competitions), Annex 1: Berger tables for round
# robin tournaments, "5 or 6 players" and "7 or 8 players" (White first).
BERGER_6 = (
    ((1, 6), (2, 5), (3, 4)),
    ((6, 4), (5, 3), (1, 2)),
    ((2, 6), (3, 1), (4, 5)),
    ((6, 5), (1, 4), (2, 3)),
    ((3, 6), (4, 2), (5, 1)),
)
BERGER_8 = (
    ((1, 8), (2, 7), (3, 6), (4, 5)),
    ((8, 5), (6, 4), (7, 3), (1, 2)),
    ((2, 8), (3, 1), (4, 7), (5, 6)),
    ((8, 6), (7, 5), (1, 4), (2, 3)),
    ((3, 8), (4, 2), (5, 1), (6, 7)),
    ((8, 7), (1, 6), (2, 5), (3, 4)),
    ((4, 8), (5, 3), (6, 2), (7, 1)),
)


def test_the_published_berger_tables_for_six_and_eight() -> None:
    assert schedule(6) == BERGER_6
    assert schedule(8) == BERGER_8
    assert schedule(5) == BERGER_6  # an odd count plays the next table, the top number is the bye
    assert schedule(7) == BERGER_8


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 16])
def test_everyone_meets_everyone_once_and_twice_with_colours_reversed(n: int) -> None:
    size = n + n % 2
    single = schedule(n)
    assert len(single) == size - 1
    met = Counter(frozenset(p) for rnd in single for p in rnd)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(1, size + 1), 2)}
    assert set(met.values()) == {1}
    for rnd in single:
        assert sorted(x for p in rnd for x in p) == list(range(1, size + 1))
    double = schedule(n, 2)
    assert len(double) == 2 * (size - 1)
    firsts = {(w, b) for rnd in double[: size - 1] for w, b in rnd}
    seconds = {(w, b) for rnd in double[size - 1 :] for w, b in rnd}
    assert seconds == {(b, w) for w, b in firsts}


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_colours_balance_as_berger_tables_give(n: int) -> None:
    whites: Counter[int] = Counter(w for rnd in schedule(n) for w, _ in rnd)
    # n - 1 games each: every player has White (n-2)/2 or n/2 times
    assert set(whites.values()) <= {(n - 2) // 2, n // 2}
    # colours alternate round by round for everyone but the two ends of the table
    for player in range(2, n):
        seq = ["W" if any(w == player for w, _ in rnd) else "B" for rnd in schedule(n)]
        runs = sum(1 for a, b in itertools.pairwise(seq) if a == b)
        assert runs <= 1


def test_odd_count_gives_each_player_one_bye_through_the_decider() -> None:
    run = opened("round_robin", ["ann", "bob", "cid", "dan", "eve"])
    play_all(run)
    byes = Counter(e.player for e in run.events if isinstance(e, Bye))
    assert byes == dict.fromkeys(["ann", "bob", "cid", "dan", "eve"], 1)
    played = Counter(frozenset(g.seats) for r in run.state.rounds for g in r.games)
    assert len(played) == 10 and set(played.values()) == {1}


def test_double_round_robin_meets_twice_with_each_colour() -> None:
    run = opened("double_round_robin", ["a", "b", "c", "d"])
    play_all(run)
    seats = Counter(g.seats for r in run.state.rounds for g in r.games)
    assert len(run.state.rounds) == 6
    assert set(seats.values()) == {1} and len(seats) == 12
