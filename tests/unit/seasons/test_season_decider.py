"""The seasons Decider (domain/seasons): typed refusals, placements, the window of a season, the
close with frozen standings and the moves, and the next season's placement from them."""

from __future__ import annotations

from contracts.envelope import Rejected
from contracts.seasons import (
    Boundary,
    CloseSeason,
    Division,
    DivisionAssigned,
    OpenSeason,
    PlayerPromoted,
    PlayerRating,
    PlayerRelegated,
    ScheduleSeasonEnd,
    SeasonClosed,
    SeasonEndScheduled,
    SeasonOpened,
    SeasonSettings,
    SeasonStanding,
)
from domain import seasons as ds

LEAD = ds.LEAD_MS
TWO = SeasonSettings(
    divisions=(Division(name="top", size=2), Division(name="low")), boundaries=(Boundary(promote=1, relegate=1),)
)


def run(state: ds.SeasonsState, command: object) -> tuple[ds.SeasonsState, tuple[object, ...]]:
    out = ds.decide(command, state)  # type: ignore[arg-type]
    assert not isinstance(out, Rejected), out
    return ds.fold(out, state), out


def refused(state: ds.SeasonsState, command: object) -> str:
    out = ds.decide(command, state)  # type: ignore[arg-type]
    assert isinstance(out, Rejected), out
    return out.code


def open_cmd(season_id: str = "s1", starts_at: int = 100_000, **kw: object) -> OpenSeason:
    return OpenSeason(season_id=season_id, starts_at=starts_at, by="op", now=kw.pop("now", 0), **kw)  # type: ignore[arg-type]


def test_open_places_players_by_rating() -> None:
    ratings = tuple(PlayerRating(game="ugolki", player=p, rating=r) for p, r in [("ann", 1700), ("bob", 1600), ("cat", 1500)])
    state, events = run(ds.initial(), open_cmd(settings=TWO, games=("ugolki",), ratings=ratings))
    assert isinstance(events[0], SeasonOpened)
    assert events[1:] == (
        DivisionAssigned(season_id="s1", game="ugolki", division="top", players=("ann", "bob")),
        DivisionAssigned(season_id="s1", game="ugolki", division="low", players=("cat",)),
    )
    s = state.seasons["s1"]
    assert s.division_of("ugolki", "bob") == "top"
    assert s.division_of("ugolki", "new") == "low"  # newcomers: the last division
    assert s.status == "open"


def test_refusals_of_open() -> None:
    state, _ = run(ds.initial(), open_cmd(ends_at=200_000))
    assert refused(state, open_cmd("Bad.Id")) == "bad_season_id"
    assert refused(state, open_cmd("s1")) == "season_exists"
    assert refused(state, open_cmd("s2", settings=SeasonSettings(divisions=()))) == "bad_settings"
    assert refused(state, open_cmd("s2", games=("chess",))) == "unknown_game"
    assert refused(state, open_cmd("s2", starts_at=LEAD - 1)) == "starts_too_soon"
    assert refused(state, open_cmd("s2", starts_at=300_000, ends_at=300_000)) == "bad_window"
    # [100000, 200000) meets [150000, ...) for every game
    assert refused(state, open_cmd("s2", starts_at=150_000)) == "overlapping_season"
    assert refused(state, open_cmd("s2", starts_at=50_000, ends_at=100_001)) == "overlapping_season"
    # touching windows do not overlap; another game's season may run at the same time
    run(state, open_cmd("s2", starts_at=200_000))
    games_only, _ = run(ds.initial(), open_cmd(games=("ugolki",)))
    run(games_only, open_cmd("k1", games=("king",)))
    assert refused(games_only, open_cmd("u2", starts_at=500_000, games=("ugolki", "king"))) == "overlapping_season"


def test_refusals_of_end_and_close() -> None:
    state, _ = run(ds.initial(), open_cmd())
    assert refused(state, CloseSeason(season_id="nope", by="op", now=0)) == "season_not_opened"
    assert refused(state, ScheduleSeasonEnd(season_id="nope", ends_at=10**6, by="op", now=0)) == "season_not_opened"
    assert refused(state, CloseSeason(season_id="s1", by="op", now=10**9)) == "season_not_ended"  # no end yet
    assert refused(state, ScheduleSeasonEnd(season_id="s1", ends_at=50_000, by="op", now=45_000)) == "ends_too_soon"
    assert refused(state, ScheduleSeasonEnd(season_id="s1", ends_at=100_000, by="op", now=0)) == "bad_window"
    state, events = run(state, ScheduleSeasonEnd(season_id="s1", ends_at=150_000, by="op", now=120_000))
    assert events == (SeasonEndScheduled(season_id="s1", ends_at=150_000, by="op", at=120_000),)
    assert state.seasons["s1"].status == "ending"
    assert refused(state, CloseSeason(season_id="s1", by="op", now=149_999)) == "season_not_ended"
    assert refused(state, ScheduleSeasonEnd(season_id="s1", ends_at=10**6, by="op", now=145_000)) == "season_ended"
    state, _ = run(state, CloseSeason(season_id="s1", by="op", now=150_000))
    assert refused(state, CloseSeason(season_id="s1", by="op", now=200_000)) == "season_closed"
    assert refused(state, ScheduleSeasonEnd(season_id="s1", ends_at=10**6, by="op", now=200_000)) == "season_closed"


def test_season_at_uses_the_window_and_the_games() -> None:
    state, _ = run(ds.initial(), open_cmd(ends_at=200_000, games=("ugolki",)))
    assert ds.season_at(state, "ugolki", 99_999) is None
    assert ds.season_at(state, "ugolki", 100_000) == "s1"
    assert ds.season_at(state, "ugolki", 199_999) == "s1"
    assert ds.season_at(state, "ugolki", 200_000) is None
    assert ds.season_at(state, "king", 150_000) is None


def standing(player: str, wins: int, losses: int, rating: float = 1500.0) -> SeasonStanding:
    return SeasonStanding(game="ugolki", player=player, games=wins + losses, wins=wins, draws=0, losses=losses, rating=rating)


def test_close_freezes_tables_and_moves_then_the_next_season_carries_them() -> None:
    ratings = tuple(PlayerRating(game="ugolki", player=p, rating=r) for p, r in [("ann", 1700), ("bob", 1600), ("cat", 1500)])
    state, _ = run(ds.initial(), open_cmd(settings=TWO, ends_at=200_000, ratings=ratings))
    # ann 1 win, bob 0 (top); cat 2 wins, dan (a newcomer) 1 win (low)
    close = CloseSeason(
        season_id="s1",
        by="op",
        now=200_000,
        standings=(standing("ann", 1, 1), standing("bob", 0, 2), standing("cat", 2, 0), standing("dan", 1, 1)),
    )
    state, events = run(state, close)
    closed = events[0]
    assert isinstance(closed, SeasonClosed)
    table = {(t.division, r.player): (r.place, r.points, r.zone) for t in closed.standings for r in t.rows}
    assert table == {
        ("top", "ann"): (1, 1.0, ""),
        ("top", "bob"): (2, 0.0, "relegation"),
        ("low", "cat"): (1, 2.0, "promotion"),
        ("low", "dan"): (2, 1.0, ""),
    }
    assert events[1:] == (
        PlayerPromoted(season_id="s1", game="ugolki", player="cat", from_division="low", to_division="top", place=1),
        PlayerRelegated(season_id="s1", game="ugolki", player="bob", from_division="top", to_division="low", place=2),
    )
    assert state.seasons["s1"].status == "closed"
    # the next season places by the result, not by rating (bob's rating would keep him on top)
    _, events = run(state, open_cmd("s2", starts_at=300_000, settings=TWO, now=200_000, ratings=ratings))
    assert events[1:] == (
        DivisionAssigned(season_id="s2", game="ugolki", division="top", players=("ann", "cat"), reason="previous_season"),
        DivisionAssigned(season_id="s2", game="ugolki", division="low", players=("bob", "dan"), reason="previous_season"),
    )


def test_close_leaves_out_games_the_season_does_not_cover() -> None:
    state, _ = run(ds.initial(), open_cmd(ends_at=200_000, games=("ugolki",)))
    other = SeasonStanding(game="king", player="zed", games=1, wins=1, draws=0, losses=0, rating=3.0)
    _, events = run(state, CloseSeason(season_id="s1", by="op", now=200_000, standings=(standing("ann", 1, 0), other)))
    closed = events[0]
    assert isinstance(closed, SeasonClosed)
    assert [(t.game, t.division, [r.player for r in t.rows]) for t in closed.standings] == [("ugolki", "main", ["ann"])]
