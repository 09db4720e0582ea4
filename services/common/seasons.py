"""Seasons: the static calendar of the scoring settings (``GAMEHALL_SEASONS``: JSON or a path to
it) and the seasons opened and closed as operations on the seasons stream (``GH_SEASONS``,
``contracts/seasons.py``).

A match is in the stream's season in force for its game at its ``finished_at`` when there is
one; otherwise in the static calendar's, otherwise in the calendar quarter
(:func:`season_name`).  Scoring, ``gamehall ratings rebuild`` and the gateway read the stream
the same way (:class:`SeasonBook`): scoring reads what is new before every batch of matches, so
a season that starts at least the lead time after it was opened (``domain.seasons.LEAD_MS``)
is known before any match of it is rated, and a rebuild, which reads the whole stream first,
puts every match in the same season.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import msgspec
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import encode, season_decoder
from contracts.envelope import Rejected
from contracts.seasons import (
    DivisionStandings,
    PlayerPromoted,
    PlayerRating,
    PlayerRelegated,
    SeasonCommand,
    SeasonEvent,
    SeasonRecord,
    SeasonStanding,
)
from domain import seasons as rules
from domain.rating.seasons import SeasonCalendar, decode_calendar, season_for
from domain.seasons import league
from services.common import db
from services.common.natsio import EventStore
from services.common.settings import ScoringSettings

EXPECTED_LAST_SEQ = "Nats-Expected-Last-Sequence"
WRONG_LAST_SEQUENCE = 10071


def season_calendar(settings: ScoringSettings) -> SeasonCalendar:
    raw = (settings.seasons or "").strip()
    if not raw:
        return SeasonCalendar()
    return decode_calendar(raw if raw.startswith("{") else Path(raw).read_text())


def season_name(calendar: SeasonCalendar, state: rules.SeasonsState, game: str, at_ms: int) -> str:
    """The season a match of ``game`` finished at ``at_ms`` counts in."""
    return rules.season_at(state, game, at_ms) or season_for(calendar, game, at_ms)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


async def stream_last_seq(js: JetStreamContext) -> int:
    try:
        info = await js.stream_info(subjects.SEASON_STREAM)
    except NotFoundError:
        return 0
    return int(info.state.last_seq or 0)


class SeasonBook:
    """The fold of the seasons stream as far as it has been read (``position``: the last stream
    sequence folded); :meth:`refresh` reads what is new."""

    def __init__(self) -> None:
        self.state = rules.initial()
        self.position = 0
        self.read_at = float("-inf")  # time.monotonic() of the last refresh that reached the stream
        self._lock = asyncio.Lock()

    def add(self, seq: int, data: bytes) -> None:
        record = season_decoder.decode(data)
        for event in record.events:
            self.state = rules.evolve(self.state, event)
        self.position = seq

    async def refresh(self, js: JetStreamContext, max_age_s: float = 0.0) -> rules.SeasonsState:
        """What is new on the stream, unless it was read less than ``max_age_s`` ago."""
        async with self._lock:
            if time.monotonic() - self.read_at < max_age_s:
                return self.state
            last = await stream_last_seq(js)
            if last > self.position:
                stored = await EventStore(js).load(
                    subjects.SEASON_SUBJECTS, stream=subjects.SEASON_STREAM, after=self.position, last=last
                )
                for item in stored:
                    self.add(item.stream_seq, item.data)
                self.position = max(self.position, last)
            self.read_at = time.monotonic()
            return self.state


class SeasonConflict(Exception):
    """The seasons stream moved on while a command was decided (another operator): decide again."""


async def execute(
    js: JetStreamContext, command: SeasonCommand, lead_ms: int = rules.LEAD_MS
) -> tuple[tuple[SeasonEvent, ...] | Rejected, rules.SeasonsState]:
    """Decide ``command`` on the stream as it is and append its events as one record with the
    stream's expected last sequence (a conflict is decided again, up to three times)."""
    for _ in range(3):
        book = SeasonBook()
        state = await book.refresh(js)
        decided = rules.decide(command, state, lead_ms)
        if isinstance(decided, Rejected):
            return decided, state
        # the stream's last sequence (the overlap rule spans every season) and the command's id
        # (a retried publish of the same decision is stored once)
        headers = {
            EXPECTED_LAST_SEQ: str(book.position),
            subjects.MSG_ID: f"season:{command.season_id}:{type(command).__name__}:{command.now}",
        }
        try:
            await js.publish(
                subjects.season_subject(command.season_id),
                encode(SeasonRecord(events=decided)),
                stream=subjects.SEASON_STREAM,
                headers=headers,
            )
        except Exception as exc:  # an APIError with the wrong-sequence code: someone else appended
            if getattr(exc, "err_code", None) == WRONG_LAST_SEQUENCE:
                continue
            raise
        return decided, rules.fold(decided, state)
    raise SeasonConflict("the seasons stream kept changing; try again")


# The read side: standings of a season from the read models, and its division tables.


def season_standings(engine: Engine, season_id: str) -> list[SeasonStanding]:
    """Every player's standing in each game of the season as the leaderboard has it now, summed
    over the game's preset families and models (``rating``: the score of the one played most)."""
    with Session(engine) as session:
        rows = session.scalars(select(db.Standing).where(db.Standing.season == season_id)).all()
    grouped: dict[tuple[str, str], list[db.Standing]] = {}
    for row in rows:
        grouped.setdefault((row.game, row.player), []).append(row)
    out: list[SeasonStanding] = []
    for (game, player), group in sorted(grouped.items()):
        main = max(group, key=lambda r: (r.games, r.family, r.model))
        out.append(
            SeasonStanding(
                game=game,
                player=player,
                games=sum(r.games for r in group),
                wins=sum(r.wins for r in group),
                draws=sum(r.draws for r in group),
                losses=sum(r.losses for r in group),
                rating=main.score,
            )
        )
    return out


def current_ratings(engine: Engine) -> list[PlayerRating]:
    """Every rated player's rating per game on the Glicko scale (OpenSkill mu as 1500 + 40 (mu -
    25)), from the (family, model) they played most: the placement by rating of a new season."""
    with Session(engine) as session:
        rows = session.scalars(select(db.Rating)).all()
    best: dict[tuple[str, str], db.Rating] = {}
    for row in rows:
        key = (row.game, row.player)
        if key not in best or (row.games, row.family) > (best[key].games, best[key].family):
            best[key] = row
    return [
        PlayerRating(
            game=game,
            player=player,
            rating=row.rating if row.model == "glicko2" else 1500.0 + 40.0 * (row.rating - 25.0),
        )
        for (game, player), row in sorted(best.items())
    ]


def division_tables(
    season: rules.SeasonState, standings: list[SeasonStanding] | None = None
) -> tuple[DivisionStandings, ...]:
    """The season's division tables: the frozen ones of a closed season; otherwise the tables of
    ``standings`` (the live ones) with the zones as they stand (who would go up or down now)."""
    if season.closed is not None:
        return season.closed.standings
    tables = rules.standings_tables(season, standings or [])
    up: list[PlayerPromoted] = []
    down: list[PlayerRelegated] = []
    for game in sorted({t.game for t in tables}):
        u, d = league.moves(season.season_id, season.opened.settings, [t for t in tables if t.game == game])
        up += u
        down += d
    return league.mark_zones(tables, up, down)


def season_summary(season: rules.SeasonState) -> dict[str, Any]:
    """A season as the API and ``gamehall seasons list`` show it (``contracts.api.SeasonSummary``)."""
    opened = season.opened
    return {
        "season_id": season.season_id,
        "status": season.status,
        "starts_at": opened.starts_at,
        "ends_at": season.ends_at,
        "games": list(opened.games),
        "divisions": [msgspec.to_builtins(d) for d in opened.settings.divisions],
        "boundaries": [msgspec.to_builtins(b) for b in opened.settings.boundaries],
        "newcomers": rules.newcomers_division(opened.settings),
        "opened_by": opened.opened_by,
        "opened_at": opened.opened_at,
        "closed_at": season.closed.closed_at if season.closed is not None else 0,
    }


def season_detail(
    season: rules.SeasonState, standings: list[SeasonStanding], game: str | None = None, division: str | None = None
) -> dict[str, Any]:
    """A season with its division tables (frozen once closed) and its promotions and relegations
    (``contracts.api.SeasonDetail``); ``game`` / ``division``: only those tables."""
    tables = [
        t
        for t in division_tables(season, standings)
        if (game is None or t.game == game) and (division is None or t.division == division)
    ]
    return season_summary(season) | {
        "standings": [msgspec.to_builtins(t) for t in tables],
        "promoted": [msgspec.to_builtins(e) for e in season.promoted if game is None or e.game == game],
        "relegated": [msgspec.to_builtins(e) for e in season.relegated if game is None or e.game == game],
    }


def player_divisions(
    engine: Engine, state: rules.SeasonsState, player: str, current: dict[str, str]
) -> list[dict[str, Any]]:
    """Per game whose season in force (``current``: game -> season) was opened with divisions,
    the player's division there and their line of its table (``contracts.api.PlayerDivision``):
    the live table of an open season, the frozen one of a closed season.  A player not in a table
    yet (not placed, no match of the season) is in the newcomers' division at place 0."""
    out: list[dict[str, Any]] = []
    standings: dict[str, list[SeasonStanding]] = {}
    for game, season_id in sorted(current.items()):
        season = state.seasons.get(season_id)
        if season is None or not season.covers(game):
            continue
        if season.closed is None and season_id not in standings:
            standings[season_id] = season_standings(engine, season_id)
        tables = [t for t in division_tables(season, standings.get(season_id)) if t.game == game]
        found = next(((t, r) for t in tables for r in t.rows if r.player == player), None)
        if found is not None:
            table, row = found
            division, place, points, games, zone = table.division, row.place, row.points, row.games, row.zone
        else:
            division, place, points, games, zone = season.division_of(game, player), 0, 0.0, 0, ""
        rows = next((len(t.rows) for t in tables if t.division == division), 0)
        out.append(
            {
                "game": game,
                "season": season_id,
                "status": season.status,
                "division": division,
                "place": place,
                "players": rows,
                "points": points,
                "games": games,
                "zone": zone,
            }
        )
    return out
