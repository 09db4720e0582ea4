"""The rules of leagues with divisions (domain/seasons/league.py), each with a hand-worked example."""

from __future__ import annotations

from contracts.seasons import Boundary, Division, SeasonSettings, SeasonStanding
from domain.seasons import league


def st(player: str, w: int = 0, d: int = 0, lo: int = 0, rating: float = 1500.0, game: str = "ugolki") -> SeasonStanding:
    return SeasonStanding(game=game, player=player, games=w + d + lo, wins=w, draws=d, losses=lo, rating=rating)


THREE = SeasonSettings(
    divisions=(Division(name="gold", size=2), Division(name="silver", size=2), Division(name="bronze")),
    boundaries=(Boundary(promote=1, relegate=1), Boundary(promote=2, relegate=1)),
)


def test_placement_by_size_fills_from_the_best_rating() -> None:
    # ratings 1800 > 1700 > 1600 = 1600 > 1400: gold takes ann, bob; silver cat, dan (1600 tie by id); bronze the rest
    placed = league.place_by_rating(
        THREE.divisions, {"eve": 1400, "dan": 1600, "cat": 1600, "bob": 1700, "ann": 1800, "fay": 1200}
    )
    assert placed == {"ann": "gold", "bob": "gold", "cat": "silver", "dan": "silver", "eve": "bronze", "fay": "bronze"}


def test_placement_by_band_skips_divisions_a_rating_does_not_reach() -> None:
    bands = (Division(name="a", min_rating=1700), Division(name="b", min_rating=1500), Division(name="c"))
    placed = league.place_by_rating(bands, {"ann": 1750, "bob": 1699.9, "cat": 1500, "dan": 1499, "eve": 900})
    assert placed == {"ann": "a", "bob": "b", "cat": "b", "dan": "c", "eve": "c"}


def test_band_and_size_together_overflow_goes_down() -> None:
    both = (Division(name="a", size=1, min_rating=1600), Division(name="b"))
    assert league.place_by_rating(both, {"ann": 1700, "bob": 1650}) == {"ann": "a", "bob": "b"}


def test_division_table_orders_by_points_then_rating_then_fewer_games_then_id() -> None:
    table = league.division_table(
        "ugolki",
        "gold",
        [
            st("dan", w=1, d=2, rating=1500),  # 2.0 points
            st("ann", w=2, rating=1400),  # 2.0 points, lower rating than cat
            st("cat", w=2, rating=1600),  # 2.0 points
            st("bob", w=3, lo=1),  # 3.0 points
            st("eve", w=2, lo=1, rating=1600),  # 2.0, 1600, but 3 games: after cat (2 games)
            st("fay"),  # no games
        ],
    )
    assert [(r.place, r.player, r.points) for r in table.rows] == [
        (1, "bob", 3.0),
        (2, "cat", 2.0),
        (3, "eve", 2.0),
        (4, "dan", 2.0),
        (5, "ann", 2.0),
        (6, "fay", 0.0),
    ]


def tables(**divisions: list[SeasonStanding]) -> list[league.DivisionStandings]:
    return [league.division_table("ugolki", name, rows) for name, rows in divisions.items()]


def test_top_goes_up_bottom_goes_down_per_boundary() -> None:
    t = tables(
        gold=[st("ann", w=3), st("bob", w=1)],
        silver=[st("cat", w=4), st("dan", w=2), st("eve", w=0, lo=2)],
        bronze=[st("fay", w=5), st("gus", w=4), st("hal", w=1)],
    )
    up, down = league.moves("s1", THREE, t)
    # gold/silver: promote 1 (cat), relegate 1 (bob); silver/bronze: promote 2 (fay, gus), relegate 1 (eve)
    assert [(p.player, p.from_division, p.to_division, p.place) for p in up] == [
        ("cat", "silver", "gold", 1),
        ("fay", "bronze", "silver", 1),
        ("gus", "bronze", "silver", 2),
    ]
    assert [(r.player, r.from_division, r.to_division, r.place) for r in down] == [
        ("bob", "gold", "silver", 2),
        ("eve", "silver", "bronze", 3),
    ]


def test_a_small_middle_division_loses_its_top_to_promotion_first() -> None:
    # silver has one player: promoted (top 1), so nobody is left to relegate from silver
    t = tables(gold=[st("ann", w=1)], silver=[st("cat", w=1)], bronze=[st("fay", w=1), st("gus", w=1, rating=1400)])
    up, down = league.moves("s1", THREE, t)
    assert [p.player for p in up] == ["cat", "fay", "gus"]
    assert [r.player for r in down] == ["ann"]


def test_nobody_is_promoted_without_a_game_but_anyone_can_go_down() -> None:
    t = tables(gold=[st("ann", w=1), st("bob")], silver=[st("cat"), st("dan")], bronze=[])
    up, down = league.moves("s1", THREE, t)
    assert up == []
    assert [r.player for r in down] == ["bob", "dan"]


def test_zones_mark_the_rows_that_move() -> None:
    t = tables(gold=[st("ann", w=3), st("bob", w=1)], silver=[st("cat", w=4)], bronze=[])
    up, down = league.moves("s1", THREE, t)
    marked = league.mark_zones(t, up, down)
    zones = {(m.division, r.player): r.zone for m in marked for r in m.rows}
    assert zones == {("gold", "ann"): "", ("gold", "bob"): "relegation", ("silver", "cat"): "promotion"}


def test_carry_moves_promoted_up_and_relegated_down_and_clamps() -> None:
    names = ["gold", "silver", "bronze"]
    placed = league.carry_divisions(
        THREE.divisions[:2],  # the new season has only gold and silver
        names,
        {"ann": "gold", "bob": "gold", "cat": "silver", "fay": "bronze", "zed": "gone"},
        promoted=["cat", "fay", "ann"],
        relegated=["bob"],
    )
    assert placed == {"ann": "gold", "bob": "silver", "cat": "gold", "fay": "silver", "zed": "silver"}


def test_boundary_errors_name_each_problem() -> None:
    bad = SeasonSettings(
        divisions=(Division(name="a"), Division(name="a"), Division(name="b c", size=-1)),
        boundaries=(Boundary(promote=-1),),
        newcomers="z",
    )
    errors = league.boundary_errors(bad)
    assert "division names must differ" in errors
    assert any("'b c'" in e for e in errors)
    assert any("size must be" in e for e in errors)
    assert any("need 2 boundaries" in e for e in errors)
    assert any("must be 0 or more" in e for e in errors)
    assert any("newcomers" in e for e in errors)
    assert league.boundary_errors(THREE) == []
    assert league.boundary_errors(SeasonSettings(divisions=())) == ["a season needs at least one division"]
