"""What the leaderboard writes for one RatingApplied (and for a RatingsRevised: a ruling's
recomputed group), inside the projection's transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from contracts.codecs import integration_decoder
from contracts.integration import RatingApplied, RatingsRevised
from domain.rating.openskill_pl import ordinal
from domain.rating.ranked import GLICKO2
from domain.rating.seasons import preset_family
from services.common import logs
from services.common.db import Player, Standing

_log = logs.get("leaderboard")


def display_score(model: str, rating: float, rd: float) -> float:
    return rating if model == GLICKO2 else ordinal(rating, rd)


def result_of(applied: RatingApplied, i: int) -> str:
    """ "win" | "draw" | "loss" for player ``i``."""
    if applied.ranks:
        ranks = applied.ranks
        if len(set(ranks)) == 1:
            return "draw"
        return "win" if ranks[i] == min(ranks) else "loss"
    score = applied.scores[i]
    return "win" if score == 1.0 else "draw" if score == 0.5 else "loss"


def _get(session: Session, cache: dict[Any, Any], model: type[Any], key: Any) -> Any:
    cache_key = (model.__tablename__, key)
    if cache_key not in cache:
        cache[cache_key] = session.get(model, key)
    return cache[cache_key]


def apply_rating(session: Session, applied: RatingApplied, cache: dict[Any, Any]) -> None:
    family = applied.family or preset_family(applied.preset)
    at = applied.applied_at
    for i, player in enumerate(applied.players):
        key = (applied.game, family, applied.season, applied.model, player)
        row: Standing | None = _get(session, cache, Standing, key)
        if row is not None and row.last_match_id == applied.match_id:
            continue  # the same rating event published twice
        if row is None:
            row = Standing(
                game=applied.game,
                family=family,
                season=applied.season,
                model=applied.model,
                player=player,
                games=0,
                wins=0,
                draws=0,
                losses=0,
            )
            session.add(row)
            cache[("standings", key)] = row
        rating, rd, volatility = applied.after[i][:3]
        row.rating, row.rd, row.volatility = rating, rd, volatility
        row.score = display_score(applied.model, rating, rd)
        row.games += 1
        outcome = result_of(applied, i)
        if outcome == "win":
            row.wins += 1
        elif outcome == "draw":
            row.draws += 1
        else:
            row.losses += 1
        row.last_match_id = applied.match_id
        row.last_at = at
        person: Player | None = _get(session, cache, Player, player)
        if person is None:
            person = Player(player_id=player, first_seen_at=at, last_seen_at=at, rated_games=0)
            session.add(person)
            cache[("players", player)] = person
        person.first_seen_at = min(person.first_seen_at, at)
        person.last_seen_at = max(person.last_seen_at, at)
        person.rated_games += 1


def apply_revision(session: Session, revised: RatingsRevised, cache: dict[Any, Any]) -> None:
    """Replace the standings of one (game, family, model) by the recomputed rating updates: the
    first part drops the group's rows (every season) and takes their games off the players'
    counts, every part applies its updates.  First and last seen stay (the matches were
    played)."""
    if revised.part == 0:
        session.flush()
        rows = session.scalars(
            select(Standing).where(
                Standing.game == revised.game, Standing.family == revised.family, Standing.model == revised.model
            )
        ).all()
        for row in rows:
            person: Player | None = _get(session, cache, Player, row.player)
            if person is not None:
                person.rated_games -= row.games
            cache[("standings", (row.game, row.family, row.season, row.model, row.player))] = None
            session.delete(row)
        session.flush()
    for applied in revised.applied:
        apply_rating(session, applied, cache)


def apply_event(session: Session, event: Any, cache: dict[Any, Any]) -> None:
    if isinstance(event, RatingApplied):
        apply_rating(session, event, cache)
    elif isinstance(event, RatingsRevised):
        apply_revision(session, event, cache)


def prefetch_events(session: Session, events: list[RatingApplied], cache: dict[Any, Any]) -> None:
    """Standings and player rows of a whole batch, in two queries."""
    if not events:
        return
    keys = {
        (e.game, e.family or preset_family(e.preset), e.season, e.model, p) for e in events for p in e.players
    }
    players = {k[4] for k in keys}
    games = {k[0] for k in keys}
    rows = session.scalars(select(Standing).where(Standing.player.in_(players), Standing.game.in_(games)))
    found = {(r.game, r.family, r.season, r.model, r.player): r for r in rows}
    for key in keys:
        cache[("standings", key)] = found.get(key)
    people = {p.player_id: p for p in session.scalars(select(Player).where(Player.player_id.in_(players)))}
    for player in players:
        cache[("players", player)] = people.get(player)


def prefetch(session: Session, batch: list[bytes], cache: dict[Any, Any]) -> None:
    events: list[RatingApplied] = []
    for event in (integration_decoder.decode(d) for d in batch):
        if isinstance(event, RatingApplied):
            events.append(event)
        elif isinstance(event, RatingsRevised):
            events.extend(event.applied)
    prefetch_events(session, events, cache)


def apply(session: Session, _seq: int, data: bytes, cache: dict[Any, Any]) -> None:
    event = integration_decoder.decode(data)
    if isinstance(event, RatingApplied):
        apply_rating(session, event, cache)
        _log.debug("standings_updated", match_id=event.match_id, game=event.game, season=event.season)
    elif isinstance(event, RatingsRevised):
        apply_revision(session, event, cache)
        _log.info("standings_revised", match_id=event.match_id, game=event.game, part=event.part)
