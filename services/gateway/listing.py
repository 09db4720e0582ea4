"""Gateway routes that list the read models a page at a time (``services.common.listing``):
finished matches (all, one game's, one player's) and players.  Every reply carries
``next_cursor`` (None on the last page; ``GET /api/history``, whose body is a bare list, in the
``Next-Cursor`` header); a cursor this listing did not give out, or one given for other filters,
is ``400 invalid_cursor``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Query, Response
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from services.common import listing
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


def router(engine: Callable[[], Engine]) -> APIRouter:
    api = APIRouter()

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
