"""Read-side queries for the gateway and the CLI: plain SQLAlchemy reads returning plain dicts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from services.common import listing
from services.common.db import MatchPlayer, MatchRecord, MatchRuling, Player, Rating, Standing, snapshot


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
    engine: Engine, game: str, season: str | None = None, preset_family: str | None = None, limit: int | None = 1000
) -> dict[str, Any]:
    """Standings of ``game`` in ``season`` (default: the latest), best first (``limit`` None: all)."""
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


def rating_history(
    engine: Engine, player: str, game: str | None = None, limit: int = 500
) -> list[dict[str, Any]]:
    """A player's rating after each of their rated matches, one series per (game, preset family,
    model), oldest point first, at most the ``limit`` latest points a series.  Read from
    ``match_players`` (each seat's rating before and after, rewritten when a ruling recomputes
    its group; a void match has none and is left out) joined with ``match_history`` (family,
    model, season); the current rating, RD and standings come from ``ratings`` and ``standings``
    in the same snapshot.  A point's rating is the model's first number: the Glicko-2 rating,
    OpenSkill's mu (the history keeps no sigma per match, so not the displayed mu - 3 sigma)."""
    query = (
        select(MatchPlayer, MatchRecord, MatchRuling)
        .join(MatchRecord, MatchPlayer.match_id == MatchRecord.match_id)
        .outerjoin(MatchRuling, MatchRuling.match_id == MatchRecord.match_id)
        .where(
            MatchPlayer.player == player,
            MatchPlayer.rating_after.is_not(None),
            MatchPlayer.rating_before.is_not(None),
        )
        .order_by(MatchPlayer.finished_at, MatchPlayer.match_id)
    )
    if game is not None:
        query = query.where(MatchPlayer.game == game)
    with snapshot(engine) as session:
        rows = session.execute(query).all()
        rating_rows = {
            (r.game, r.family, r.model): r
            for r in session.scalars(select(Rating).where(Rating.player == player))
            if game is None or r.game == game
        }
        standing_rows = {
            (s.game, s.family, s.model, s.season): s
            for s in session.scalars(select(Standing).where(Standing.player == player))
        }
        # each standing's place on its board as GET /api/leaderboard orders it (score, then name)
        places: dict[tuple[str, str, str, str], tuple[int, int]] = {}
        for key, mine in standing_rows.items():
            board = (
                Standing.game == key[0],
                Standing.family == key[1],
                Standing.model == key[2],
                Standing.season == key[3],
            )
            ahead = session.scalar(
                select(func.count())
                .select_from(Standing)
                .where(
                    *board,
                    (Standing.score > mine.score)
                    | ((Standing.score == mine.score) & (Standing.player < player)),
                )
            )
            size = session.scalar(select(func.count()).select_from(Standing).where(*board))
            places[key] = (int(ahead or 0) + 1, int(size or 0))
    series: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for seat, record, ruling in rows:
        series.setdefault((record.game, record.family, record.model), []).append(
            {
                "match_id": record.match_id,
                "finished_at": record.finished_at,
                "season": record.season,
                "preset": record.preset,
                "rank": seat.rank,
                "rating_before": seat.rating_before,
                "rating_after": seat.rating_after,
                "status": ruling.ruling if ruling is not None else "",
            }
        )
    out: list[dict[str, Any]] = []
    for key in sorted(set(series) | set(rating_rows)):
        g, family, model = key
        current = rating_rows.get(key)
        standings = []
        for (sg, sf, sm, season), s in sorted(standing_rows.items(), key=lambda kv: -kv[1].last_at):
            if (sg, sf, sm) != key:
                continue
            rank, size = places[(sg, sf, sm, season)]
            standings.append(
                {
                    "season": season,
                    "rank": rank,
                    "players": size,
                    "score": s.score,
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "last_at": s.last_at,
                }
            )
        out.append(
            {
                "game": g,
                "family": family,
                "model": model,
                "season": current.season if current else None,
                "rating": current.rating if current else None,
                "rd": current.rd if current else None,
                "games": current.games if current else 0,
                "points": series.get(key, [])[-limit:] if limit else [],
                "standings": standings,
            }
        )
    return out
