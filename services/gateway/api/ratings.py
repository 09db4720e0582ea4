"""Ratings and results from the read models: a game's standings, a player's page, finished
matches (all, one game's or one player's, a page at a time) and the rated players."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Depends, Query, Response
from sqlalchemy.exc import SQLAlchemyError

from contracts.api import FinishedMatch, FinishedPage, Leaderboard, PlayerProfile, PlayersPage, RatingHistory
from domain.core.words import Lang
from domain.rating.seasons import season_for
from services.common import listing, queries
from services.common.seasons import season_calendar
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


@router.get(
    "/api/leaderboard/{game}",
    summary="Standings of a game (latest season by default)",
    response_model=Leaderboard,
    response_class=PLAIN,
    responses=errors(422),
)
async def leaderboard(
    game: str,
    season: str | None = None,
    family: str | None = None,
    limit: int = Query(100, ge=1, le=1000),
    words: Lang = Depends(asked_language),
    at: Lobby = Depends(lobby),
) -> dict[str, Any]:
    # Each entry's family is a preset name (domain/rating/seasons.preset_family); its title and
    # the game's are the catalogue's, in ``words``.
    try:
        board = await asyncio.to_thread(queries.leaderboard, at.engine(), game, season, family, limit)
    except SQLAlchemyError:  # no read model yet (scoring has not run here)
        board = {"game": game, "season": season or "", "preset_family": family, "entries": []}
    board["game_title"] = titles(game, "", words)["game_title"]
    for entry in board["entries"]:
        entry["title"] = titles(game, entry["family"], words)["title"]
    return board


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
    "those of docs/ranked.md; the ranked ladder has no divisions.",
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
    now = int(time.time() * 1000)
    seasons = {s["game"]: season_for(calendar, s["game"], now) for s in series}
    return {"player": player, "current_seasons": seasons, "series": series}


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
