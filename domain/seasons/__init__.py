"""Seasons as operations: a pure Decider over the events of the seasons stream
(``contracts.seasons``): ``initial()``, ``evolve(state, event)``, ``decide(command, state)``.

Every refusal is a ``Rejected(code, detail)``:

- ``bad_season_id``: not 1-40 of ``a-z 0-9 - _`` starting with a letter or digit;
- ``season_exists``: that id was opened before;
- ``bad_settings``: divisions, boundaries or newcomers wrong (``league.boundary_errors``);
- ``unknown_game``: a game the season names is not one of gamehall's;
- ``starts_too_soon`` / ``ends_too_soon``: a start or end less than the lead time
  (:data:`LEAD_MS` unless the command's caller passes another) after ``now``, so that every
  scoring has the event in the stream before a match of the new window finishes and a rebuild
  puts every match in the same season as live scoring did;
- ``bad_window``: an end not after the start;
- ``overlapping_season``: its window meets another season's for a game both cover (a season
  without an end lasts for ever);
- ``season_not_opened``: closing (or ending) a season never opened;
- ``season_closed``: closing (or ending) a season already closed;
- ``season_ended``: moving the end of a season whose end is already past (or within the lead);
- ``season_not_ended``: closing a season before its end has passed (schedule the end first).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from contracts.envelope import Rejected
from contracts.games.registry import CONTRACTS
from contracts.seasons import (
    Boundary,
    CloseSeason,
    DivisionAssigned,
    DivisionStandings,
    OpenSeason,
    PlayerPromoted,
    PlayerRelegated,
    ScheduleSeasonEnd,
    SeasonClosed,
    SeasonCommand,
    SeasonEndScheduled,
    SeasonEvent,
    SeasonOpened,
    SeasonSettings,
    SeasonStanding,
)
from domain.seasons import league

LEAD_MS = 10_000
FOREVER = 2**62
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class SeasonState(msgspec.Struct, frozen=True, kw_only=True):
    opened: SeasonOpened
    ends_at: int = 0
    members: dict[tuple[str, str], str] = {}  # (game, player) -> division
    closed: SeasonClosed | None = None
    promoted: tuple[PlayerPromoted, ...] = ()
    relegated: tuple[PlayerRelegated, ...] = ()

    @property
    def season_id(self) -> str:
        return self.opened.season_id

    @property
    def starts_at(self) -> int:
        return self.opened.starts_at

    @property
    def end(self) -> int:
        """The exclusive end of the window (:data:`FOREVER` while none is set)."""
        return self.ends_at or FOREVER

    @property
    def status(self) -> str:
        return "closed" if self.closed is not None else ("ending" if self.ends_at else "open")

    def covers(self, game: str) -> bool:
        return not self.opened.games or game in self.opened.games

    def division_of(self, game: str, player: str) -> str:
        """The player's division in ``game`` (newcomers' division when not placed)."""
        return self.members.get((game, player)) or newcomers_division(self.opened.settings)

    def division_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.opened.settings.divisions)


class SeasonsState(msgspec.Struct, frozen=True, kw_only=True):
    seasons: dict[str, SeasonState] = {}
    order: tuple[str, ...] = ()  # season ids in the order opened


def initial() -> SeasonsState:
    return SeasonsState()


def newcomers_division(settings: SeasonSettings) -> str:
    return settings.newcomers or (settings.divisions[-1].name if settings.divisions else "")


def evolve(state: SeasonsState, event: SeasonEvent) -> SeasonsState:
    seasons = dict(state.seasons)
    if isinstance(event, SeasonOpened):
        seasons[event.season_id] = SeasonState(opened=event, ends_at=event.ends_at)
        return SeasonsState(seasons=seasons, order=(*state.order, event.season_id))
    season = seasons.get(event.season_id)
    if season is None:
        return state  # an event of a season never opened changes nothing (decide never makes one)
    if isinstance(event, DivisionAssigned):
        members = dict(season.members)
        members.update({(event.game, p): event.division for p in event.players})
        season = msgspec.structs.replace(season, members=members)
    elif isinstance(event, SeasonEndScheduled):
        season = msgspec.structs.replace(season, ends_at=event.ends_at)
    elif isinstance(event, SeasonClosed):
        season = msgspec.structs.replace(season, closed=event)
    elif isinstance(event, PlayerPromoted):
        season = msgspec.structs.replace(season, promoted=(*season.promoted, event))
    elif isinstance(event, PlayerRelegated):
        season = msgspec.structs.replace(season, relegated=(*season.relegated, event))
    seasons[event.season_id] = season
    return SeasonsState(seasons=seasons, order=state.order)


def fold(events: Iterable[SeasonEvent], state: SeasonsState | None = None) -> SeasonsState:
    out = state or initial()
    for event in events:
        out = evolve(out, event)
    return out


def season_at(state: SeasonsState, game: str, at_ms: int) -> str | None:
    """The season in force for ``game`` at ``at_ms`` (none: the static calendar decides)."""
    for season_id in state.order:
        s = state.seasons[season_id]
        if s.covers(game) and s.starts_at <= at_ms < s.end:
            return season_id
    return None


def _games_meet(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return not a or not b or bool(set(a) & set(b))


def _overlapping(
    state: SeasonsState, games: tuple[str, ...], start: int, end: int, other_than: str = ""
) -> SeasonState | None:
    for s in state.seasons.values():
        if s.season_id != other_than and _games_meet(games, s.opened.games) and start < s.end and s.starts_at < end:
            return s
    return None


def decide(
    command: SeasonCommand, state: SeasonsState, lead_ms: int = LEAD_MS
) -> tuple[SeasonEvent, ...] | Rejected:
    if isinstance(command, OpenSeason):
        return _open(command, state, lead_ms)
    if isinstance(command, ScheduleSeasonEnd):
        return _schedule_end(command, state, lead_ms)
    return _close(command, state)


def _open(cmd: OpenSeason, state: SeasonsState, lead_ms: int) -> tuple[SeasonEvent, ...] | Rejected:
    if not _ID.match(cmd.season_id):
        return Rejected(code="bad_season_id", detail=f"{cmd.season_id!r}: 1-40 of a-z, 0-9, '-', '_'")
    if cmd.season_id in state.seasons:
        return Rejected(code="season_exists", detail=f"season {cmd.season_id} was opened before")
    errors = league.boundary_errors(cmd.settings)
    if errors:
        return Rejected(code="bad_settings", detail="; ".join(errors))
    unknown = [g for g in cmd.games if g not in CONTRACTS]
    if unknown:
        return Rejected(code="unknown_game", detail=f"unknown game(s) {', '.join(unknown)}; known: {', '.join(CONTRACTS)}")
    if cmd.starts_at < cmd.now + lead_ms:
        return Rejected(
            code="starts_too_soon",
            detail=f"a season starts at least {lead_ms} ms after it is opened (starts_at {cmd.starts_at}, now {cmd.now})",
        )
    if cmd.ends_at and cmd.ends_at <= cmd.starts_at:
        return Rejected(code="bad_window", detail="ends_at must be after starts_at")
    games = tuple(sorted(set(cmd.games)))
    other = _overlapping(state, games, cmd.starts_at, cmd.ends_at or FOREVER)
    if other is not None:
        until = "no end" if not other.ends_at else f"until {other.ends_at}"
        return Rejected(
            code="overlapping_season",
            detail=f"season {other.season_id} ({other.starts_at}, {until}) covers the same time for a game",
        )
    settings = cmd.settings
    if not settings.boundaries and len(settings.divisions) > 1:
        settings = msgspec.structs.replace(settings, boundaries=tuple(Boundary() for _ in settings.divisions[1:]))
    opened = SeasonOpened(
        season_id=cmd.season_id,
        starts_at=cmd.starts_at,
        ends_at=cmd.ends_at,
        games=games,
        settings=settings,
        opened_by=cmd.by,
        opened_at=cmd.now,
    )
    return (opened, *_placements(opened, state, cmd))


def _previous(state: SeasonsState, game: str, before: int) -> SeasonState | None:
    """The latest closed season of ``game`` that started before ``before``."""
    found = [
        s
        for s in state.seasons.values()
        if s.closed is not None and s.covers(game) and s.starts_at < before
    ]
    return max(found, key=lambda s: s.starts_at) if found else None


def _placements(opened: SeasonOpened, state: SeasonsState, cmd: OpenSeason) -> list[DivisionAssigned]:
    ratings: dict[str, dict[str, float]] = {}
    for r in cmd.ratings:
        if not opened.games or r.game in opened.games:
            ratings.setdefault(r.game, {})[r.player] = r.rating
    games = set(opened.games) | set(ratings)
    for s in state.seasons.values():
        if s.closed is not None:
            games |= {t.game for t in s.closed.standings if not opened.games or t.game in opened.games}
    divisions = opened.settings.divisions
    out: list[DivisionAssigned] = []
    for game in sorted(games):
        prev = _previous(state, game, opened.starts_at)
        reason: str
        if prev is not None and prev.closed is not None and any(t.game == game for t in prev.closed.standings):
            members = {r.player: t.division for t in prev.closed.standings if t.game == game for r in t.rows}
            placed = league.carry_divisions(
                divisions,
                prev.division_names(),
                members,
                promoted=[p.player for p in prev.promoted if p.game == game],
                relegated=[r.player for r in prev.relegated if r.game == game],
            )
            reason = "previous_season"
        else:
            placed = league.place_by_rating(divisions, ratings.get(game, {}))
            reason = "rating"
        for d in divisions:
            players = tuple(sorted(p for p, name in placed.items() if name == d.name))
            if players:
                out.append(
                    DivisionAssigned(
                        season_id=opened.season_id,
                        game=game,
                        division=d.name,
                        players=players,
                        reason=reason,  # type: ignore[arg-type]
                    )
                )
    return out


def _schedule_end(cmd: ScheduleSeasonEnd, state: SeasonsState, lead_ms: int) -> tuple[SeasonEvent, ...] | Rejected:
    season = state.seasons.get(cmd.season_id)
    if season is None:
        return Rejected(code="season_not_opened", detail=f"no season {cmd.season_id}")
    if season.closed is not None:
        return Rejected(code="season_closed", detail=f"season {cmd.season_id} is closed")
    if season.ends_at and season.ends_at < cmd.now + lead_ms:
        return Rejected(code="season_ended", detail=f"season {cmd.season_id} ended (or ends within the lead) at {season.ends_at}")
    if cmd.ends_at < cmd.now + lead_ms:
        return Rejected(code="ends_too_soon", detail=f"a season ends at least {lead_ms} ms after the end is set")
    if cmd.ends_at <= season.starts_at:
        return Rejected(code="bad_window", detail=f"the end must be after the start ({season.starts_at})")
    other = _overlapping(state, season.opened.games, season.starts_at, cmd.ends_at, other_than=cmd.season_id)
    if other is not None:
        return Rejected(code="overlapping_season", detail=f"season {other.season_id} starts at {other.starts_at}")
    return (SeasonEndScheduled(season_id=cmd.season_id, ends_at=cmd.ends_at, by=cmd.by, at=cmd.now),)


def standings_tables(season: SeasonState, standings: Iterable[SeasonStanding]) -> list[DivisionStandings]:
    """Every division table of every game of the season: its members (placed, or newcomers with
    a standing), a member without a standing with zeros."""
    by_game: dict[str, dict[str, SeasonStanding]] = {}
    for s in standings:
        if season.covers(s.game):
            by_game.setdefault(s.game, {})[s.player] = s
    for game, player in season.members:
        by_game.setdefault(game, {}).setdefault(
            player, SeasonStanding(game=game, player=player, games=0, wins=0, draws=0, losses=0, rating=0.0)
        )
    tables: list[DivisionStandings] = []
    for game in sorted(by_game):
        for name in season.division_names():
            rows = [s for p, s in by_game[game].items() if season.division_of(game, p) == name]
            tables.append(league.division_table(game, name, rows))
    return tables


def _close(cmd: CloseSeason, state: SeasonsState) -> tuple[SeasonEvent, ...] | Rejected:
    season = state.seasons.get(cmd.season_id)
    if season is None:
        return Rejected(code="season_not_opened", detail=f"no season {cmd.season_id}")
    if season.closed is not None:
        return Rejected(code="season_closed", detail=f"season {cmd.season_id} was closed at {season.closed.closed_at}")
    if not season.ends_at or cmd.now < season.ends_at:
        when = "has no end yet" if not season.ends_at else f"ends at {season.ends_at}"
        return Rejected(code="season_not_ended", detail=f"season {cmd.season_id} {when}")
    tables = standings_tables(season, cmd.standings)
    settings = season.opened.settings
    up: list[PlayerPromoted] = []
    down: list[PlayerRelegated] = []
    for game in sorted({t.game for t in tables}):
        u, d = league.moves(cmd.season_id, settings, [t for t in tables if t.game == game])
        up += u
        down += d
    closed = SeasonClosed(
        season_id=cmd.season_id,
        closed_by=cmd.by,
        closed_at=cmd.now,
        standings=league.mark_zones(tables, up, down),
    )
    return (closed, *up, *down)
