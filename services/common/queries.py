"""Read-side queries for the gateway and the CLI: plain SQLAlchemy reads returning plain dicts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from services.common import listing
from services.common.db import MatchPlayer, Player, Rating, Standing, snapshot


def seasons(engine: Engine, game: str) -> list[str]:
    """Seasons with standings for ``game``, the latest (by last rated match) first."""
    with Session(engine) as session:
        rows = session.execute(
            select(Standing.season, func.max(Standing.last_at).label("last"))
            .where(Standing.game == game)
            .group_by(Standing.season)
            .order_by(func.max(Standing.last_at).desc(), Standing.season.desc())
        ).all()
    return [r[0] for r in rows]


def leaderboard(
    engine: Engine, game: str, season: str | None = None, preset_family: str | None = None, limit: int = 1000
) -> dict[str, Any]:
    """Standings of ``game`` in ``season`` (default: the latest), best first."""
    if season is None:
        known = seasons(engine, game)
        season = known[0] if known else ""
    query = select(Standing).where(Standing.game == game, Standing.season == season)
    if preset_family is not None:
        query = query.where(Standing.family == preset_family)
    query = query.order_by(Standing.family, Standing.model, Standing.score.desc(), Standing.player).limit(
        limit
    )
    with Session(engine) as session:
        rows = session.scalars(query).all()
    entries: list[dict[str, Any]] = []
    rank = 0
    group: tuple[str, str] | None = None
    for row in rows:
        if (row.family, row.model) != group:
            group, rank = (row.family, row.model), 0
        rank += 1
        entries.append(
            {
                "rank": rank,
                "player": row.player,
                "family": row.family,
                "model": row.model,
                "rating": row.rating,
                "rd": row.rd,
                "volatility": row.volatility,
                "score": row.score,
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "last_match_id": row.last_match_id,
            }
        )
    return {"game": game, "season": season, "preset_family": preset_family, "entries": entries}


def match_history(
    engine: Engine,
    player: str | None = None,
    limit: int = 50,
    game: str | None = None,
    *,
    within: Session | None = None,
) -> list[dict[str, Any]]:
    """Finished matches, newest first; only ``player``'s when given (with their rating change).
    ``within``: read in that session (its snapshot) instead of a new one.  The first page of
    ``services.common.listing.history``."""
    page: list[dict[str, Any]] = listing.history(engine, player, None, limit, game, within=within)["matches"]
    return page


def player_profile(engine: Engine, player: str, recent: int = 10) -> dict[str, Any] | None:
    """A player's ratings per game and family, season standings and recent matches; None if unknown.
    Everything is read from one snapshot: a ruling or a rated match committed while the profile
    is read shows in all of it or in none of it."""
    with snapshot(engine) as session:
        person = session.get(Player, player)
        ratings = session.scalars(
            select(Rating).where(Rating.player == player).order_by(Rating.game, Rating.family, Rating.model)
        ).all()
        standings = session.scalars(
            select(Standing)
            .where(Standing.player == player)
            .order_by(Standing.game, Standing.season.desc(), Standing.family)
        ).all()
        played = session.scalar(
            select(func.count()).select_from(MatchPlayer).where(MatchPlayer.player == player)
        )
        recent_matches = match_history(engine, player=player, limit=recent, within=session)
    if person is None and not ratings and not played:
        return None
    return {
        "player": player,
        "first_seen_at": person.first_seen_at if person else None,
        "last_seen_at": person.last_seen_at if person else None,
        "rated_games": person.rated_games if person else 0,
        "matches": int(played or 0),
        "ratings": [
            {
                "game": r.game,
                "family": r.family,
                "model": r.model,
                "season": r.season,
                "rating": r.rating,
                "rd": r.rd,
                "volatility": r.volatility,
                "games": r.games,
                "last_at": r.last_at,
            }
            for r in ratings
        ],
        "standings": [
            {
                "game": s.game,
                "family": s.family,
                "season": s.season,
                "model": s.model,
                "rating": s.rating,
                "score": s.score,
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
            }
            for s in standings
        ],
        "recent_matches": recent_matches,
    }
