"""Swiss pairing after the FIDE Dutch system (Handbook C.04.3).

No multi-round worked pairing example of the Dutch rules could be reconstructed here from a
published source, so round 1 is checked against what the rules' text prescribes (C.04.3: S1 = the
upper half meets S2 = the lower half in order; colours E.5: the initial colour to the odd pairing
numbers of S1), and the later rounds against the rules' properties.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from contracts.tournaments import Bye, RecordResult, RoundStarted, StartRound
from domain.tournaments.swiss import BLACK, WHITE, SwissPlayer, colours_for, pair_round, preference
from tests.unit.tournaments.support import Run, opened, play_all


def player(number: int, score: int = 0, **kw: object) -> SwissPlayer:
    return SwissPlayer(player=f"p{number}", number=number, score=score, **kw)  # type: ignore[arg-type]


def test_round_one_is_the_top_half_against_the_bottom_half_colours_alternating() -> None:
    field = [player(i) for i in range(1, 9)]
    white_first = pair_round(field, WHITE)
    assert white_first is not None
    assert white_first.games == (("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"))
    black_first = pair_round(field, BLACK)
    assert black_first is not None
    assert black_first.games == (("p5", "p1"), ("p2", "p6"), ("p7", "p3"), ("p4", "p8"))


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    field = [player(i) for i in range(1, 6)]
    first = pair_round(field, WHITE)
    assert first is not None and first.bye == "p5"
    again = [player(i, had_bye=(i == 5)) for i in range(1, 6)]
    second = pair_round(again, WHITE)
    assert second is not None and second.bye == "p4"
    lowest_score = [player(1, 2), player(2, 2), player(3, 0), player(4, 2), player(5, 2)]
    third = pair_round(lowest_score, WHITE)
    assert third is not None and third.bye == "p3"


def test_an_odd_score_bracket_moves_its_lowest_player_down_to_meet_the_top_of_the_next() -> None:
    field = [player(1, 2), player(2, 2), player(3, 2), player(4, 0), player(5, 0), player(6, 0)]
    pairing = pair_round(field, WHITE)
    assert pairing is not None
    met = [frozenset(g) for g in pairing.games]
    assert met == [frozenset({"p1", "p2"}), frozenset({"p3", "p4"}), frozenset({"p5", "p6"})]
    # one who moved down last round is not the one moved down again
    floated = [player(1, 2), player(2, 2), player(3, 2, floated_down_last=True), *field[3:]]
    again = pair_round(floated, WHITE)
    assert again is not None
    assert frozenset({"p2", "p4"}) in [frozenset(g) for g in again.games]


def test_a_transposition_avoids_a_rematch() -> None:
    # S1 = 1 2, S2 = 3 4; 1 has met 3, so S2 is transposed to 4 3
    field = [
        player(1, opponents=frozenset({"p3"})),
        player(2),
        player(3, opponents=frozenset({"p1"})),
        player(4),
    ]
    pairing = pair_round(field, WHITE)
    assert pairing is not None
    assert {frozenset(g) for g in pairing.games} == {frozenset({"p1", "p4"}), frozenset({"p2", "p3"})}


def test_colour_preferences_and_their_allocation() -> None:
    assert preference(player(1)) == ("", 0)
    assert preference(player(1, colours=(WHITE, BLACK))) == (WHITE, 1)
    assert preference(player(1, colours=(WHITE,))) == (BLACK, 2)
    assert preference(player(1, colours=(BLACK, BLACK))) == (WHITE, 3)
    assert preference(player(1, colours=(WHITE, BLACK, WHITE, WHITE))) == (BLACK, 3)
    assert preference(player(1, colours=(BLACK, "", WHITE, BLACK, BLACK, WHITE))) == (WHITE, 2)
    # both granted
    assert colours_for(player(1, colours=(BLACK,)), player(2, colours=(WHITE,)), WHITE) == ("p1", "p2")
    # the stronger preference wins: absolute over strong
    assert colours_for(player(1, colours=(BLACK,)), player(2, colours=(BLACK, BLACK)), WHITE) == ("p2", "p1")
    # equal strength: alternate from the last round the two had different colours
    a = player(1, colours=(WHITE, BLACK, BLACK, WHITE))
    b = player(2, colours=(BLACK, WHITE, BLACK, WHITE))
    assert preference(a) == preference(b) == (BLACK, 1)
    assert colours_for(a, b, WHITE) == ("p1", "p2")  # in round 2 a had Black, b White
    # no preference at all: the higher ranked player's pairing number decides (E.5)
    assert colours_for(player(1), player(5), WHITE) == ("p1", "p5")
    assert colours_for(player(2), player(6), WHITE) == ("p6", "p2")


def _random_results(run: Run, seed: int, draws: bool = True) -> object:
    rng = random.Random(seed)

    def result(started: RoundStarted, table: int) -> tuple[int, ...]:
        roll = rng.random()
        if draws and roll < 0.25:
            return (0, 0)
        return (0, 1) if roll < 0.625 else (1, 0)

    return result


@pytest.mark.parametrize(("n", "rounds", "seed"), [(11, 7, 1), (20, 7, 2), (9, 6, 3), (32, 9, 4)])
def test_swiss_properties_over_whole_tournaments(n: int, rounds: int, seed: int) -> None:
    run = opened("swiss", [f"p{i:02d}" for i in range(n)], rounds=rounds)
    play_all(run, _random_results(run, seed))  # type: ignore[arg-type]
    games = [g for r in run.state.rounds for g in r.games]
    pairs = Counter(frozenset(g.seats) for g in games)
    assert set(pairs.values()) == {1}, "no rematch"
    byes = Counter(e.player for e in run.events if isinstance(e, Bye))
    assert all(v == 1 for v in byes.values()), "never a second bye"
    assert sum(byes.values()) == (rounds if n % 2 else 0)
    for p in run.state.order:
        seq = []
        for r in run.state.rounds:
            g = next((g for g in r.games if p in g.seats), None)
            if g is not None:
                seq.append(WHITE if g.seats[0] == p else BLACK)
        assert abs(seq.count(WHITE) - seq.count(BLACK)) <= 2, (p, seq)
        assert all(len(set(seq[i : i + 3])) > 1 for i in range(len(seq) - 2)), (p, seq)
    assert len(run.state.rounds) == rounds


def test_score_groups_pair_within_themselves_when_they_can() -> None:
    run = opened("swiss", [f"p{i:02d}" for i in range(16)], rounds=4)
    play_all(run, finish=False)  # the higher seed always wins: the groups stay even
    score: Counter[str] = Counter()
    for r in run.state.rounds:
        for g in r.games:
            assert score[g.seats[0]] == score[g.seats[1]], (r.round, g.seats)
        for g in r.games:
            assert g.ranks is not None
            score[g.seats[g.ranks.index(0)]] += 1


def test_pairing_is_deterministic_and_depends_only_on_the_events() -> None:
    one = opened("swiss", [f"p{i}" for i in range(10)], rounds=5)
    two = opened("swiss", [f"p{i}" for i in range(10)], rounds=5)
    play_all(one, _random_results(one, 7))  # type: ignore[arg-type]
    play_all(two, _random_results(two, 7))  # type: ignore[arg-type]
    assert one.events == two.events


def test_no_pairing_without_a_rematch_is_refused() -> None:
    run = opened("swiss", ["a", "b", "c", "d"], rounds=4)
    for _ in range(3):
        run.start()
        for t in run.state.rounds[-1].games:
            run.do(RecordResult(round=len(run.state.rounds), table=t.table, ranks=(0, 1)))
    met = {frozenset(g.seats) for r in run.state.rounds for g in r.games}
    assert met == {frozenset(p) for p in itertools.combinations("abcd", 2)}
    assert run.refuse(StartRound()) == "no_pairing"


def test_a_last_bracket_that_cannot_pair_pulls_players_down_from_the_one_above() -> None:
    # p3 and p4 (0 points) have met: the 2-point bracket gives up two players to them
    field = [
        player(1, 2),
        player(2, 2),
        player(3, 0, opponents=frozenset({"p4"})),
        player(4, 0, opponents=frozenset({"p3"})),
    ]
    pairing = pair_round(field, WHITE)
    assert pairing is not None
    met = {frozenset(g) for g in pairing.games}
    assert frozenset({"p3", "p4"}) not in met and frozenset({"p1", "p2"}) not in met
    assert met == {frozenset({"p1", "p3"}), frozenset({"p2", "p4"})}
