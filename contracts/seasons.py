"""Seasons and leagues with divisions: operator commands and the events of the seasons stream
(``GH_SEASONS``, subject ``season.<season_id>``; only the operator command line, identity ``cli``,
appends to it, with the stream's expected last sequence, so two operators cannot both succeed).

A season is a time window ``[starts_at, ends_at)`` of ranked play for some games (``games``
empty: every game).  Scoring rates each ranked match in the season in force at its
``finished_at`` (docs/ranked.md "Seasons").  A season has divisions, top first; every player of
a game belongs to one division of it (``DivisionAssigned`` at the opening, newcomers to the
division ``settings.newcomers`` names).  At the close the final standings of every division
of every game are frozen in ``SeasonClosed`` and the top of each division goes up and the
bottom goes down (``PlayerPromoted`` / ``PlayerRelegated``) by the counts of the boundary
between the two divisions.

Times are unix ms.
"""

from __future__ import annotations

from typing import Literal

import msgspec

MAX_SEASON_ID = 40
MAX_DIVISIONS = 12
Zone = Literal["promotion", "relegation", ""]


class Division(msgspec.Struct, frozen=True, kw_only=True):
    """One division of a season, in order from the top.  Players are placed at the opening by
    rating, best first: each into the first division whose ``min_rating`` they reach and that
    still has room (``size`` 0: no limit); the last division takes everyone left."""

    name: str
    size: int = 0
    min_rating: float | None = None


class Boundary(msgspec.Struct, frozen=True, kw_only=True):
    """Between division ``i`` and ``i + 1``: the top ``promote`` of the lower one go up, the
    bottom ``relegate`` of the upper one go down."""

    promote: int = 0
    relegate: int = 0


class SeasonSettings(msgspec.Struct, frozen=True, kw_only=True):
    divisions: tuple[Division, ...] = (Division(name="main"),)
    boundaries: tuple[Boundary, ...] = ()  # len(divisions) - 1 of them
    newcomers: str = ""  # the division of a player not yet placed ("": the last)
    # Ratings carry over as docs/ranked.md says: a player's first match of the season starts from
    # the previous rating with RD (OpenSkill sigma) raised; the season only names the window.
    carry: Literal["rd_boost"] = "rd_boost"


class SeasonOpened(msgspec.Struct, frozen=True, kw_only=True, tag="season.opened.v1"):
    season_id: str
    starts_at: int
    ends_at: int = 0  # 0: until an end is scheduled (``SeasonEndScheduled``)
    games: tuple[str, ...] = ()  # () = every game
    settings: SeasonSettings
    opened_by: str
    opened_at: int


class DivisionAssigned(msgspec.Struct, frozen=True, kw_only=True, tag="season.division_assigned.v1"):
    """``players`` of ``game`` are in ``division`` of the season (at the opening: by the previous
    season's result or by rating)."""

    season_id: str
    game: str
    division: str
    players: tuple[str, ...]
    reason: Literal["rating", "previous_season"] = "rating"


class SeasonEndScheduled(msgspec.Struct, frozen=True, kw_only=True, tag="season.end_scheduled.v1"):
    """The season ends at ``ends_at`` (at least the lead time after ``at``, so every scoring has
    read it before a match past the end finishes)."""

    season_id: str
    ends_at: int
    by: str
    at: int


class StandingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line of a division table: places by points (a win 1, a draw 1/2), then the
    season rating, then fewer games, then the player id."""

    place: int
    player: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    rating: float
    zone: Zone = ""


class DivisionStandings(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    division: str
    rows: tuple[StandingRow, ...]


class SeasonClosed(msgspec.Struct, frozen=True, kw_only=True, tag="season.closed.v1"):
    """The final standings, frozen: one table per game and division."""

    season_id: str
    closed_by: str
    closed_at: int
    standings: tuple[DivisionStandings, ...]


class PlayerPromoted(msgspec.Struct, frozen=True, kw_only=True, tag="season.promoted.v1"):
    season_id: str
    game: str
    player: str
    from_division: str
    to_division: str
    place: int


class PlayerRelegated(msgspec.Struct, frozen=True, kw_only=True, tag="season.relegated.v1"):
    season_id: str
    game: str
    player: str
    from_division: str
    to_division: str
    place: int


SeasonEvent = SeasonOpened | DivisionAssigned | SeasonEndScheduled | SeasonClosed | PlayerPromoted | PlayerRelegated


class SeasonRecord(msgspec.Struct, frozen=True, kw_only=True, tag="season.record.v1"):
    """One stored message of the seasons stream: every event of one decision, so that an opening
    and its placements, or a close and its promotions and relegations, are stored together or
    not at all."""

    events: tuple[SeasonEvent, ...]


# Commands (decided by domain.seasons.decide; ``now`` is the operator's clock, unix ms).


class PlayerRating(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    player: str
    rating: float  # on the Glicko scale (OpenSkill mu as 1500 + 40 (mu - 25))


class OpenSeason(msgspec.Struct, frozen=True, kw_only=True, tag="season.open"):
    season_id: str
    starts_at: int
    ends_at: int = 0
    games: tuple[str, ...] = ()
    settings: SeasonSettings = SeasonSettings()
    by: str
    now: int
    # every rated player's current rating per game, for the placement by rating of a game the
    # previous season did not cover
    ratings: tuple[PlayerRating, ...] = ()


class ScheduleSeasonEnd(msgspec.Struct, frozen=True, kw_only=True, tag="season.schedule_end"):
    season_id: str
    ends_at: int
    by: str
    now: int


class SeasonStanding(msgspec.Struct, frozen=True, kw_only=True):
    """A player's season standing in one game as the read models have it at the close (summed
    over the game's preset families and models; ``rating``: the score of the one played most)."""

    game: str
    player: str
    games: int
    wins: int
    draws: int
    losses: int
    rating: float


class CloseSeason(msgspec.Struct, frozen=True, kw_only=True, tag="season.close"):
    season_id: str
    by: str
    now: int
    standings: tuple[SeasonStanding, ...] = ()


SeasonCommand = OpenSeason | ScheduleSeasonEnd | CloseSeason
