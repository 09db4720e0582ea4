"""Ratings and results from the read models: a game's standings, a player's page, finished
matches (all, one game's or one player's, a page at a time) and the rated players."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Depends, Query, Response
from nats.errors import Error as NatsError
from sqlalchemy.exc import SQLAlchemyError

from contracts.api import (
    FinishedMatch,
    FinishedPage,
    Leaderboard,
    PlayerProfile,
    PlayersPage,
    RatingHistory,
    SeasonDetail,
    SeasonList,
)
from domain.core.words import Lang
from domain.seasons import SeasonsState
from services.common import listing, queries
from services.common import seasons as season_book
from services.common.seasons import SeasonBook, season_calendar, season_name
from services.gateway.api.deps import PLAIN, lobby
from services.gateway.catalogue import titles
from services.gateway.core import asked_language
from services.gateway.errors import NotFound, errors
from services.gateway.listing import CURSOR, page_of
from services.gateway.lobby import Lobby

router = APIRouter(tags=["ranked"])

PLAYER_FILTER = Query(
    None, max_length=200, description="Only this player's matches (with their rating change)."
)
GAME_FILTER = Query(None, max_length=64)


SEASON_FILTER = Query(None, max_length=64, description="A season (default: the latest with standings).")
DIVISION_FILTER = Query(
    None, max_length=40, description="Only this division of the season (a season opened with `gamehall seasons open`)."
)


async def seasons_now(at: Lobby) -> SeasonsState:
    """The seasons stream folded as far as it is now (one look at the stream per request, the
    new records read when there are any)."""
    book: SeasonBook | None = getattr(at, "season_book", None)
    if book is None:
        book = SeasonBook()
        at.season_book = book  # type: ignore[attr-defined]
    nc = at.gw.nc
    if nc is None or not nc.is_connected:
        return book.state
    try:
        return await book.refresh(nc.jetstream())
    except (NatsError, TimeoutError):  # NATS slow or away: the seasons as last read
        return book.state


@router.get(
    "/api/leaderboard/{game}",
    summary="Standings of a game (latest season by default; one division of a season with ?division)",
    response_model=Leaderboard,
    response_class=PLAIN,
    responses=errors(404, 422),
)
async def leaderboard(
    game: str,
    season: str | None = SEASON_FILTER,
    family: str | None = None,
    division: str | None = DIVISION_FILTER,
    limit: int = Query(100, ge=1, le=1000),
    words: Lang = Depends(asked_language),
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    # Each entry's family is a preset name (domain/rating/seasons.preset_family); its title and
    # the game's are the catalogue's, in ``words``.
    state = await seasons_now(at)
    if division is not None and season is None:
        season = season_name(season_calendar(at.gw.settings.scoring), state, game, int(time.time() * 1000))
    try:
        # a division is taken from the whole season's table (its members are anywhere in it)
        board = await asyncio.to_thread(queries.leaderboard, at.engine(), game, season, family, None if division else limit)
    except SQLAlchemyError:  # no read model yet (scoring has not run here)
        board = {"game": game, "season": season or "", "preset_family": family, "entries": []}
    known = state.seasons.get(board["season"])
    board["divisions"] = list(known.division_names()) if known is not None and known.covers(game) else []
    if division is not None:
        if known is None or not known.covers(game):
            raise NotFound("unknown_season", f"no season {board['season']!r} with divisions for {game}")
        if division not in board["divisions"]:
            raise NotFound("unknown_division", f"season {known.season_id} has no division {division!r}")
        kept: list[dict[str, Any]] = []
        group: tuple[str, str] | None = None
        rank = 0
        for entry in board["entries"]:
            if known.division_of(game, entry["player"]) != division:
                continue
            if (entry["family"], entry["model"]) != group:
                group, rank = (entry["family"], entry["model"]), 0
            rank += 1
            kept.append(entry | {"rank": rank})
        board["entries"] = kept[:limit]
        board["division"] = division
    board["game_title"] = titles(game, "", words)["game_title"]
    for entry in board["entries"]:
        entry["title"] = titles(game, entry["family"], words)["title"]
    return board


@router.get(
    "/api/seasons",
    summary="The seasons opened as operations, oldest first",
    description="Seasons opened and closed with `gamehall seasons` (the seasons stream): window, "
    "games, divisions and their promotion and relegation counts. Matches outside them count in the "
    "calendar's seasons (docs/ranked.md).",
    response_model=SeasonList,
    response_class=PLAIN,
)
async def seasons(at: Lobby = Depends(lobby)) -> dict[str, Any]:
    state = await seasons_now(at)
    return {"seasons": [season_book.season_summary(state.seasons[i]) for i in state.order]}


@router.get(
    "/api/seasons/{season_id}",
    summary="A season: its divisions, every division's table with the zones, promotions and relegations",
    description="Each division table orders its players by points (a win 1, a draw 1/2), then the "
    "season rating, then fewer games. A closed season's tables are the ones frozen at its close; "
    "an open season's are the live standings, with the zones as they stand.",
    response_model=SeasonDetail,
    response_class=PLAIN,
    responses=errors(404, 422),
)
async def season_detail(
    season_id: str,
    game: str | None = GAME_FILTER,
    division: str | None = DIVISION_FILTER,
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    state = await seasons_now(at)
    found = state.seasons.get(season_id)
    if found is None:
        raise NotFound("unknown_season", f"no season {season_id!r}")
    if division is not None and division not in found.division_names():
        raise NotFound("unknown_division", f"season {season_id} has no division {division!r}")
    standings: list[Any] = []
    if found.closed is None:
        try:
            standings = await asyncio.to_thread(season_book.season_standings, at.engine(), season_id)
        except SQLAlchemyError:  # no read model yet
            standings = []
    return season_book.season_detail(found, standings, game, division)


@router.get(
    "/api/players/{player}",
    summary="A player's ratings, standings and matches",
    response_model=PlayerProfile,
    response_model_exclude_unset=True,  # a row of a match has no seat of its own
    response_class=PLAIN,
)
async def player(player: str, at: Lobby = Depends(lobby)) -> dict[str, Any]:
    try:
        profile = await asyncio.to_thread(queries.player_profile, at.engine(), player)
    except SQLAlchemyError:
        profile = None
    if profile is None:
        raise NotFound("unknown_player", f"no player {player!r}")
    return profile


@router.get(
    "/api/players/{player}/ratings/history",
    summary="A player's rating after each rated match, per game, preset family and model",
    description="One series per rating the player has (or had): its current rating, the player's "
    "standing per season and one point per rated match, oldest first (at most `limit` latest points "
    "a series). A point is the Glicko-2 rating or the OpenSkill mu before and after the match, as the "
    "match history records it (recomputed after a ruling; a void match has no point). Seasons are "
    "those of docs/ranked.md; where a game's season in force has divisions, `divisions` gives the player's "
    "division, place and zone in it (the tables: GET /api/seasons/{id}).",
    response_model=RatingHistory,
    response_class=PLAIN,
    responses=errors(422),
)
async def rating_history(
    player: str,
    game: str | None = GAME_FILTER,
    limit: int = Query(500, ge=1, le=5000, description="The latest points a series at most."),
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    try:
        series = await asyncio.to_thread(queries.rating_history, at.engine(), player, game, limit)
    except SQLAlchemyError:  # no read model yet (scoring has not run here)
        series = []
    if not series:
        raise NotFound("unknown_player", f"no rated matches of {player!r}")
    calendar = season_calendar(at.gw.settings.scoring)
    state = await seasons_now(at)
    now = int(time.time() * 1000)
    current = {s["game"]: season_name(calendar, state, s["game"], now) for s in series}
    try:
        divisions = await asyncio.to_thread(season_book.player_divisions, at.engine(), state, player, current)
    except SQLAlchemyError:  # no read model yet
        divisions = []
    return {"player": player, "current_seasons": current, "divisions": divisions, "series": series}


@router.get(
    "/api/finished",
    summary="Finished matches, newest first, a page at a time (all, one game's or one player's)",
    response_model=FinishedPage,
    response_model_exclude_unset=True,  # "player" only with ?player, a seat only on a player's rows
    response_class=PLAIN,
    responses=errors(400),
)
async def finished(
    player: str | None = PLAYER_FILTER,
    game: str | None = GAME_FILTER,
    cursor: str | None = CURSOR,
    limit: int = Query(50, ge=1, le=listing.MAX_LIMIT),
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    empty: dict[str, Any] = {"matches": [], "next_cursor": None}
    if player is not None:
        empty = {"player": player, **empty}
    return await page_of(lambda: listing.history(at.engine(), player, cursor, limit, game), empty)


@router.get(
    "/api/history",
    summary="Finished matches, newest first (all, one game's or one player's), a page at a time",
    description="The same pages as `GET /api/finished`, the body a bare list as before; the cursor of "
    "the next page is in the `Next-Cursor` header (none on the last page).",
    response_model=list[FinishedMatch],
    response_model_exclude_unset=True,
    response_class=PLAIN,
    responses=errors(400)
    | {
        200: {
            "headers": {
                "Next-Cursor": {"description": "`cursor` of the next page", "schema": {"type": "string"}}
            }
        }
    },
)
async def history(
    response: Response,
    player: str | None = PLAYER_FILTER,
    game: str | None = GAME_FILTER,
    cursor: str | None = CURSOR,
    limit: int = Query(50, ge=1, le=listing.MAX_LIMIT),
    at: Lobby = Depends(lobby),
) -> list[dict[str, Any]]:
    page = await page_of(
        lambda: listing.history(at.engine(), player, cursor, limit, game),
        {"matches": [], "next_cursor": None},
    )
    if page["next_cursor"]:
        response.headers["Next-Cursor"] = page["next_cursor"]
    matches: list[dict[str, Any]] = page["matches"]
    return matches


@router.get(
    "/api/players",
    summary="Rated players by name, a page at a time",
    response_model=PlayersPage,
    response_class=PLAIN,
    responses=errors(400),
)
async def players(
    cursor: str | None = CURSOR,
    limit: int = Query(50, ge=1, le=listing.MAX_LIMIT),
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    return await page_of(
        lambda: listing.players(at.engine(), cursor, limit), {"players": [], "next_cursor": None}
    )
