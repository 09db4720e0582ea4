"""Gateway routes that list the read models a page at a time (``services.common.listing``):
every stored match (``GET /api/matches``, ``GET /api/match-summaries``: the match list that
scoring projects from the match stream), finished matches (all, one game's, one player's) and
players.  Every reply carries ``next_cursor`` (None on the last page; ``GET /api/history``, whose
body is a bare list, in the ``Next-Cursor`` header); a cursor this listing did not give out, or
one given for other filters, is ``400 invalid_cursor``.  A database without the read model yet
answers empty pages."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel, Field
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from domain.core.words import DEFAULT_LANG, Lang
from domain.games import registry
from domain.games.catalogue import game_title, preset_family
from services.common import listing
from services.gateway.core import asked_language
from services.gateway.edge import ApiError
from services.gateway.errors import errors

CURSOR = Query(None, max_length=400, description="`next_cursor` of the previous page (opaque); none for the first page.")


async def _page(call: Callable[[], dict[str, Any]], empty: dict[str, Any]) -> dict[str, Any]:
    try:
        return await asyncio.to_thread(call)
    except listing.BadCursor as exc:
        raise ApiError(400, "invalid_cursor", str(exc)) from exc
    except SQLAlchemyError:  # no read model yet (scoring has not run against this database)
        return empty


class OutcomeOut(BaseModel):
    ranks: list[int] = Field(description="One per seat, 1 is best; equal ranks share a place.")
    scores: list[float] = []
    reason: str = ""
    draw: bool = False


class MatchSummary(BaseModel):
    match_id: str
    game: str
    title: str = Field(default="", description="The game's title (GET /api/games), in lang.")
    preset: str
    preset_title: str = Field(default="", description="The preset's title (GET /api/games), in lang.")
    seats: list[str]
    players: list[str] = Field(description="One per seat, in seat order.")
    status: str = Field(description='"running" or "finished".')
    to_move: list[str]
    outcome: OutcomeOut | None = None
    outcome_text: str | None = Field(
        default=None, description="A finished match's result and why it ended, in words (lang)."
    )
    decisions: int
    created_at: int = Field(description="Unix ms: when the match was created.")
    updated_at: int = Field(description="Unix ms: its latest stored decision.")
    finished_at: int | None = Field(default=None, description="Unix ms: when it ended; null while it runs.")


class MatchSummaries(BaseModel):
    matches: list[MatchSummary] = Field(description="Newest first (by creation).")
    next_cursor: str | None = None


class StoredMatchOut(BaseModel):
    match_id: str
    game: str
    decisions: int = Field(description="Decisions stored (the seq of the latest).")


class StoredMatches(BaseModel):
    matches: list[StoredMatchOut] = Field(description="Newest first (by creation).")
    next_cursor: str | None = None


def match_summary(row: dict[str, Any], lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """A row of the match list as the matches list shows it: players, status, result (in words,
    in ``lang``) and dates (public only)."""
    game = registry.GAMES.get(row["game"])
    texts = row["outcome_text"] or {}
    return {
        "match_id": row["match_id"],
        "game": row["game"],
        "title": game_title(row["game"], game.title if game is not None else row["game"], lang),
        "preset": row["preset"],
        "preset_title": preset_family(row["game"], row["preset"], lang)[1],
        "seats": row["seats"],
        "players": row["players"],
        "status": row["status"],
        "to_move": row["to_move"],
        "outcome": row["outcome"],
        "outcome_text": texts.get(lang),
        "decisions": row["decisions"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "finished_at": row["finished_at"],
    }


LAG = (
    " Read from the match list that scoring projects from the match stream: a match appears, and"
    " its row changes, once scoring has committed its decisions (normally within milliseconds;"
    " `GET /api/matches/{id}` reads the log and has it at once)."
)


def router(engine: Callable[[], Engine]) -> APIRouter:
    api = APIRouter()
    empty_page: dict[str, Any] = {"matches": [], "next_cursor": None}

    @api.get(
        "/api/matches",
        tags=["matches"],
        summary="Stored matches (id, game, decisions), newest first, a page at a time",
        description="Every stored match, running or finished." + LAG,
        response_model=StoredMatches,
        responses=errors(400),
    )
    async def list_matches(limit: int = Query(100, ge=1, le=1000), cursor: str | None = CURSOR) -> dict[str, Any]:
        page = await _page(lambda: listing.stored_matches(engine(), cursor, limit, most=1000), empty_page)
        return {
            "matches": [
                {"match_id": m["match_id"], "game": m["game"], "decisions": m["decisions"]} for m in page["matches"]
            ],
            "next_cursor": page["next_cursor"],
        }

    @api.get(
        "/api/match-summaries",
        tags=["matches"],
        summary="Stored matches with players, status, result and dates, newest first, a page at a time",
        description="The same pages as `GET /api/matches`." + LAG,
        response_model=MatchSummaries,
        responses=errors(400, 422),
    )
    async def list_match_summaries(
        limit: int = Query(20, ge=1, le=100), cursor: str | None = CURSOR, words: Lang = Depends(asked_language)
    ) -> dict[str, Any]:
        page = await _page(lambda: listing.stored_matches(engine(), cursor, limit, most=100), empty_page)
        return {"matches": [match_summary(m, words) for m in page["matches"]], "next_cursor": page["next_cursor"]}

    @api.get(
        "/api/finished",
        tags=["ranked"],
        summary="Finished matches, newest first, a page at a time (all, one game's or one player's)",
        responses=errors(400),
    )
    async def finished(
        player: str | None = Query(None, max_length=200, description="Only this player's matches (with their rating change)."),
        game: str | None = Query(None, max_length=64),
        cursor: str | None = CURSOR,
        limit: int = Query(50, ge=1, le=listing.MAX_LIMIT),
    ) -> dict[str, Any]:
        empty: dict[str, Any] = {"matches": [], "next_cursor": None}
        if player is not None:
            empty = {"player": player, **empty}
        return await _page(lambda: listing.history(engine(), player, cursor, limit, game), empty)

    @api.get(
        "/api/history",
        tags=["ranked"],
        summary="Finished matches, newest first (all, one game's or one player's), a page at a time",
        description="The same pages as `GET /api/finished`, the body a bare list as before; the cursor of "
        "the next page is in the `Next-Cursor` header (none on the last page).",
        responses=errors(400)
        | {200: {"headers": {"Next-Cursor": {"description": "`cursor` of the next page", "schema": {"type": "string"}}}}},
    )
    async def history(
        response: Response,
        player: str | None = Query(None, max_length=200, description="Only this player's matches (with their rating change)."),
        game: str | None = Query(None, max_length=64),
        cursor: str | None = CURSOR,
        limit: int = Query(50, ge=1, le=listing.MAX_LIMIT),
    ) -> list[dict[str, Any]]:
        page = await _page(
            lambda: listing.history(engine(), player, cursor, limit, game), {"matches": [], "next_cursor": None}
        )
        if page["next_cursor"]:
            response.headers["Next-Cursor"] = page["next_cursor"]
        matches: list[dict[str, Any]] = page["matches"]
        return matches

    @api.get(
        "/api/players",
        tags=["ranked"],
        summary="Rated players by name, a page at a time",
        responses=errors(400),
    )
    async def players(cursor: str | None = CURSOR, limit: int = Query(50, ge=1, le=listing.MAX_LIMIT)) -> dict[str, Any]:
        return await _page(lambda: listing.players(engine(), cursor, limit), {"players": [], "next_cursor": None})

    return api
