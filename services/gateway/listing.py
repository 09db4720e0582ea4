"""What the routes that list the read models a page at a time share (``services.common.listing``):
the routes are in ``services.gateway.api``, ``matches`` for every stored match (``GET
/api/matches``, ``GET /api/match-summaries``: the match list that scoring projects from the
match stream) and ``ratings`` for finished matches (all, one game's, one player's) and players.
Every reply carries ``next_cursor`` (None on the last page; ``GET /api/history``, whose body is
a bare list, in the ``Next-Cursor`` header); a cursor this listing did not give out, or one
given for other filters, is ``400 invalid_cursor``.  A database without the read model yet
answers empty pages."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import Query
from sqlalchemy.exc import SQLAlchemyError

from domain.core.words import DEFAULT_LANG, Lang
from domain.games import registry
from domain.games.catalogue import game_title, preset_family
from services.common import listing
from services.gateway.errors import Malformed

CURSOR = Query(
    None, max_length=400, description="`next_cursor` of the previous page (opaque); none for the first page."
)


async def page_of(call: Callable[[], dict[str, Any]], empty: dict[str, Any]) -> dict[str, Any]:
    try:
        return await asyncio.to_thread(call)
    except listing.BadCursor as exc:
        raise Malformed("invalid_cursor", str(exc)) from exc
    except SQLAlchemyError:  # no read model yet (scoring has not run against this database)
        return empty


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
