"""A player's division line (``services.common.seasons.player_divisions``, the ``divisions`` of
GET /api/players/{player}/ratings/history) on a real SQLite database: a season decided and folded
by the seasons rules as the commands append it, the standings read from the leaderboard's
table. A placed player's place and zone in the live table; a newcomer with no match of the season
yet in the newcomers' division at place 0; a game the season does not cover and a season of the
calendar have no line; once closed, the frozen table."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from contracts.envelope import Rejected
from contracts.seasons import (
    Boundary,
    CloseSeason,
    Division,
    OpenSeason,
    PlayerRating,
    ScheduleSeasonEnd,
    SeasonCommand,
    SeasonSettings,
    SeasonStanding,
)
from domain import seasons as rules
from services.common import db
from services.common.seasons import player_divisions

T0 = 1_800_000_000_000


def decided(state: rules.SeasonsState, command: SeasonCommand) -> rules.SeasonsState:
    events = rules.decide(command, state, lead_ms=1)
    assert not isinstance(events, Rejected), events
    return rules.fold(events, state)


def standing(player: str, games: int, wins: int, losses: int, score: float) -> db.Standing:
    return db.Standing(
        game="ugolki", family="mini-3x3", season="l1", model="glicko2", player=player, rating=score, rd=80.0,
        volatility=0.06, score=score, games=games, wins=wins, draws=0, losses=losses, last_match_id=f"m-{player}",
        last_at=T0 + 10,
    )  # fmt: skip


def test_a_players_division_line_live_newcomer_and_frozen(tmp_path: Path) -> None:
    engine = db.open_database(f"sqlite:///{tmp_path / 'divisions.sqlite3'}")
    settings = SeasonSettings(
        divisions=(Division(name="gold", size=2), Division(name="silver")), boundaries=(Boundary(promote=1, relegate=1),)
    )
    ratings = tuple(PlayerRating(game="ugolki", player=p, rating=r) for p, r in (("ann", 1700), ("bob", 1600), ("cat", 1500)))
    state = decided(
        rules.initial(),
        OpenSeason(season_id="l1", starts_at=T0, games=("ugolki",), settings=settings, by="olga", now=T0 - 10, ratings=ratings),
    )
    # the season: cat (silver) beats ann (gold) twice; bob has not played (no game: last in gold)
    with Session(engine) as session:
        session.add_all([standing("cat", 2, 2, 0, 1650.0), standing("ann", 2, 0, 2, 1640.0)])
        session.commit()
    current = {"ugolki": "l1", "draughts": "2027-Q1"}
    line = {d["game"]: d for d in player_divisions(engine, state, "ann", current)}
    assert list(line) == ["ugolki"]  # draughts: a season of the calendar, no division
    assert line["ugolki"] == {
        "game": "ugolki", "season": "l1", "status": "open", "division": "gold", "place": 1, "players": 2,
        "points": 0.0, "games": 2, "zone": "",
    }  # fmt: skip
    cat = player_divisions(engine, state, "cat", current)[0]
    assert (cat["division"], cat["place"], cat["players"], cat["points"], cat["zone"]) == ("silver", 1, 1, 2.0, "promotion")
    # a newcomer with no match of the season: the newcomers' division (the last), in no table yet
    eve = player_divisions(engine, state, "eve", current)
    assert [(d["division"], d["place"], d["players"], d["games"], d["zone"]) for d in eve] == [("silver", 0, 1, 0, "")]

    # closed: the frozen table, whatever the read models say after
    final = tuple(
        SeasonStanding(game="ugolki", player=p, games=g, wins=w, draws=0, losses=lo, rating=r)
        for p, g, w, lo, r in (("cat", 2, 2, 0, 1650.0), ("ann", 2, 0, 2, 1640.0))
    )
    state = decided(state, ScheduleSeasonEnd(season_id="l1", ends_at=T0 + 50, by="olga", now=T0 + 20))
    state = decided(state, CloseSeason(season_id="l1", by="olga", now=T0 + 100, standings=final))
    with Session(engine) as session:
        session.add(standing("bob", 5, 5, 0, 1800.0))
        session.commit()
    bob = player_divisions(engine, state, "bob", {"ugolki": "l1"})[0]
    assert (bob["status"], bob["division"], bob["place"], bob["games"], bob["zone"]) == ("closed", "gold", 2, 0, "relegation")
    ann = player_divisions(engine, state, "ann", {"ugolki": "l1"})[0]
    assert (ann["place"], ann["games"], ann["zone"]) == (1, 2, "")
    # a season of other games only
    other = decided(
        rules.initial(),
        OpenSeason(season_id="l9", starts_at=T0, games=("king",), settings=settings, by="olga", now=T0 - 10),
    )
    assert player_divisions(engine, other, "ann", {"ugolki": "l9"}) == []
    engine.dispose()
