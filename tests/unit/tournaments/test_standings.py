"""Standings and tie-breaks on small hand-computed examples."""

from __future__ import annotations

from domain.tournaments.standings import CountedGame, points_of, standings


def g(white: str, black: str, result: str) -> CountedGame:
    ranks = {"1-0": (0, 1), "0-1": (1, 0), "½": (0, 0)}[result]
    return CountedGame(seats=(white, black), ranks=ranks)


TIE_BREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "wins")


def test_a_four_player_round_robin_by_hand() -> None:
    # A 2.5, B 2, C 1, D 0.5
    games = [
        g("A", "B", "1-0"),
        g("C", "A", "½"),
        g("A", "D", "1-0"),
        g("B", "C", "1-0"),
        g("D", "B", "0-1"),
        g("C", "D", "½"),
    ]
    rows = standings(["A", "B", "C", "D"], games, {}, TIE_BREAKS)
    got = {r.player: (r.rank, r.points, r.tie_breaks) for r in rows}
    # Buchholz: the opponents' points; median: without the highest and lowest;
    # Sonneborn-Berger: beaten opponents' points plus half the drawn ones'
    assert got == {
        "A": (1, 2.5, (3.5, 1.0, 3.0, 2.0)),
        "B": (2, 2.0, (4.0, 1.0, 1.5, 2.0)),
        "C": (3, 1.0, (5.0, 2.0, 1.5, 0.0)),
        "D": (4, 0.5, (5.5, 2.0, 0.5, 0.0)),
    }


def test_direct_encounter_breaks_a_tie_between_the_players_who_met() -> None:
    # A and B end on 1 point each; A beat B
    games = [g("A", "B", "1-0"), g("C", "D", "1-0"), g("A", "C", "0-1"), g("B", "D", "1-0")]
    rows = standings(["B", "A", "C", "D"], games, {}, ("direct_encounter", "buchholz"))
    assert [(r.rank, r.player, r.points, r.tie_breaks) for r in rows] == [
        (1, "C", 2.0, (0.0, 1.0)),
        (2, "A", 1.0, (1.0, 3.0)),
        (3, "B", 1.0, (0.0, 1.0)),
        (4, "D", 0.0, (0.0, 3.0)),
    ]
    # with wins alone A and B stay level: one rank, listed in seeding order (B was seeded first)
    level = standings(["B", "A", "C", "D"], games, {}, ("wins",))
    assert [(r.rank, r.player) for r in level] == [(1, "C"), (2, "B"), (2, "A"), (4, "D")]


def test_byes_count_as_points_and_add_nothing_to_buchholz() -> None:
    rows = standings(["A", "B", "C"], [g("A", "B", "½")], {"C": 2}, ("buchholz",))
    assert [(r.player, r.points, r.tie_breaks) for r in rows] == [
        ("C", 1.0, (0.0,)),
        ("A", 0.5, (0.5,)),
        ("B", 0.5, (0.5,)),
    ]


def test_table_games_score_each_table_mate_and_the_games_own_totals() -> None:
    table = CountedGame(seats=("a", "b", "c", "d"), ranks=(0, 1, 1, 3), scores=(120, 60, 60, -40))
    assert points_of(table) == (6, 3, 3, 0)
    second = CountedGame(seats=("d", "c", "b", "a"), ranks=(0, 1, 2, 3), scores=(90, 40, 30, 10))
    rows = standings(["a", "b", "c", "d"], [table, second], {}, ("game_totals", "wins"))
    # half points: a 6 + 0, b 3 + 2, c 3 + 4, d 0 + 6
    assert [(r.player, r.points, r.tie_breaks) for r in rows] == [
        ("c", 3.5, (100.0, 0.0)),
        ("a", 3.0, (130.0, 1.0)),
        ("d", 3.0, (50.0, 1.0)),
        ("b", 2.5, (90.0, 0.0)),
    ]
