"""Paged listings of the read models: finished matches, a player's matches, players, and every
stored match (running or finished: the match list).

Keyset paging: a page is ``limit`` rows after the position an opaque ``cursor`` names, found
through an index, so page 10,000 costs what page 1 costs and nothing is loaded whole.  A cursor
is base64url of JSON ``[version, filters digest, position...]``; it is valid only for the same
filters (another filter, a malformed or foreign cursor: :class:`BadCursor`, answered ``400
invalid_cursor``).  Newest first for matches (``finished_at`` then ``match_id``, both
descending), by name for players, newest first by creation for the match list (``created_at``
then ``match_id``: keys that never change, so a match created while a client pages through the
list comes before its first page and none is missed or repeated).
"""

from __future__ import annotations

import base64
import hashlib
import json
from contextlib import nullcontext
from typing import Any

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session

from services.common.db import MatchPlayer, MatchRecord, MatchRuling, Player, StoredMatch
from services.common.matchrows import match_dict

CURSOR_VERSION = 1
MAX_LIMIT = 500


class BadCursor(ValueError):
    """A cursor this listing did not make (or made for other filters)."""


def _digest(kind: str, filters: dict[str, Any]) -> str:
    raw = json.dumps([kind, sorted((k, v) for k, v in filters.items() if v is not None)])
    return hashlib.sha256(raw.encode()).hexdigest()[:12]


def encode_cursor(kind: str, filters: dict[str, Any], position: list[Any]) -> str:
    raw = json.dumps([CURSOR_VERSION, _digest(kind, filters), *position], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, kind: str, filters: dict[str, Any], shape: tuple[type, ...]) -> list[Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
    except (ValueError, TypeError) as exc:
        raise BadCursor("the cursor is not one this listing gave out") from exc
    if not isinstance(data, list) or len(data) != 2 + len(shape) or data[0] != CURSOR_VERSION:
        raise BadCursor("the cursor is not one this listing gave out")
    if data[1] != _digest(kind, filters):
        raise BadCursor("the cursor belongs to a listing with other filters")
    position = data[2:]
    for value, kind_of in zip(position, shape, strict=True):
        if not isinstance(value, kind_of) or isinstance(value, bool):
            raise BadCursor("the cursor is not one this listing gave out")
    return position


def _limit(limit: int, most: int = MAX_LIMIT) -> int:
    return max(1, min(int(limit), most))


def _newest_first(
    session: Session,
    query: Any,
    at: Any,
    match_id: Any,
    kind: str,
    filters: dict[str, Any],
    cursor: str | None,
    limit: int,
    most: int = MAX_LIMIT,
) -> tuple[list[Any], str | None]:
    """One page of ``query`` newest first by ``(at, match_id)`` (both descending, on a keyset
    index) after ``cursor``, and the cursor of the next page (None on the last).  ``at`` and
    ``match_id`` are the columns of the row's first entity that the page is ordered by."""
    limit = _limit(limit, most)
    if cursor:
        after_at, after_id = decode_cursor(cursor, kind, filters, (int, str))
        # "at <= after_at" first, so the index is searched from the position on: SQLite scans the
        # whole index for "at < x OR (at = x AND id < y)" (a deep page cost its depth)
        query = query.where(at <= after_at, or_(at < after_at, match_id < after_id))
    rows = list(session.execute(query.order_by(at.desc(), match_id.desc()).limit(limit + 1)).all())
    page = rows[:limit]
    if len(rows) <= limit:
        return page, None
    last = page[-1][0]
    return page, encode_cursor(kind, filters, [getattr(last, at.key), getattr(last, match_id.key)])


def _session(engine: Engine, within: Session | None) -> Any:
    return nullcontext(within) if within is not None else Session(engine)


def finished_matches(
    engine: Engine,
    cursor: str | None = None,
    limit: int = 50,
    game: str | None = None,
    *,
    within: Session | None = None,
) -> dict[str, Any]:
    """Finished matches, newest first: ``{"matches": [...], "next_cursor": str | None}``.
    ``within``: read in that session (its snapshot) instead of a new one."""
    query = select(MatchRecord, MatchRuling).outerjoin(MatchRuling, MatchRuling.match_id == MatchRecord.match_id)
    if game is not None:
        query = query.where(MatchRecord.game == game)
    with _session(engine, within) as session:
        page, next_cursor = _newest_first(
            session, query, MatchRecord.finished_at, MatchRecord.match_id, "matches", {"game": game}, cursor, limit
        )
    return {"matches": [match_dict(r, ruling) for r, ruling in page], "next_cursor": next_cursor}


def player_matches(
    engine: Engine,
    player: str,
    cursor: str | None = None,
    limit: int = 50,
    game: str | None = None,
    *,
    within: Session | None = None,
) -> dict[str, Any]:
    """One player's finished matches, newest first, with their seat, rank and rating change."""
    query = (
        select(MatchPlayer, MatchRecord, MatchRuling)
        .join(MatchRecord, MatchPlayer.match_id == MatchRecord.match_id)
        .outerjoin(MatchRuling, MatchRuling.match_id == MatchRecord.match_id)
        .where(MatchPlayer.player == player)
    )
    if game is not None:
        query = query.where(MatchPlayer.game == game)
    filters = {"player": player, "game": game}
    with _session(engine, within) as session:
        page, next_cursor = _newest_first(
            session, query, MatchPlayer.finished_at, MatchPlayer.match_id, "player_matches", filters, cursor, limit
        )
    out = []
    for seat, record, ruling in page:
        item = match_dict(record, ruling)
        item.update(
            seat_index=seat.seat_index,
            rank=seat.rank,
            rating_before=seat.rating_before,
            rating_after=seat.rating_after,
        )
        out.append(item)
    return {"player": player, "matches": out, "next_cursor": next_cursor}


def history(
    engine: Engine,
    player: str | None = None,
    cursor: str | None = None,
    limit: int = 50,
    game: str | None = None,
    *,
    within: Session | None = None,
) -> dict[str, Any]:
    """Finished matches, newest first; only ``player``'s when given (with their rating change)."""
    if player is None:
        return finished_matches(engine, cursor, limit, game, within=within)
    return player_matches(engine, player, cursor, limit, game, within=within)


STORED_MATCH_FIELDS = (
    "match_id",
    "game",
    "rules_version",
    "preset",
    "status",
    "seats",
    "players",
    "to_move",
    "outcome",
    "outcome_text",
    "decisions",
    "created_at",
    "updated_at",
    "finished_at",
)


def stored_matches(
    engine: Engine, cursor: str | None = None, limit: int = 100, *, most: int = 1000
) -> dict[str, Any]:
    """Every stored match, running or finished, newest first by creation:
    ``{"matches": [row...], "next_cursor": str | None}``, each row the ``match_list`` columns
    (``outcome_text`` in every language: lang -> sentence).  ``most``: the largest page."""
    with Session(engine) as session:
        page, next_cursor = _newest_first(
            session,
            select(StoredMatch),
            StoredMatch.created_at,
            StoredMatch.match_id,
            "stored_matches",
            {},
            cursor,
            limit,
            most,
        )
    return {
        "matches": [{f: getattr(row, f) for f in STORED_MATCH_FIELDS} for (row,) in page],
        "next_cursor": next_cursor,
    }


def players(engine: Engine, cursor: str | None = None, limit: int = 50) -> dict[str, Any]:
    """Every rated player, by name: ``{"players": [...], "next_cursor": str | None}``."""
    limit = _limit(limit)
    query = select(Player)
    if cursor:
        (after,) = decode_cursor(cursor, "players", {}, (str,))
        query = query.where(Player.player_id > after)
    query = query.order_by(Player.player_id).limit(limit + 1)
    with Session(engine) as session:
        rows = list(session.scalars(query))
    page = rows[:limit]
    next_cursor = encode_cursor("players", {}, [page[-1].player_id]) if len(rows) > limit else None
    return {
        "players": [
            {
                "player": p.player_id,
                "rated_games": p.rated_games,
                "first_seen_at": p.first_seen_at,
                "last_seen_at": p.last_seen_at,
            }
            for p in page
        ],
        "next_cursor": next_cursor,
    }
