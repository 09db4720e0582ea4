"""What scoring writes for one MatchFinished, inside the projection's transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import dispute_decoder, encode, integration_decoder
from contracts.disputes import RulingIssued
from contracts.integration import MatchFinished, RatingApplied, RatingsRevised
from domain.rating.ranked import RatingState, model_for, rate_match, rateable
from domain.rating.seasons import preset_family
from services.common import logs
from services.common.db import MatchPlayer, MatchRecord, MatchRuling, Outbox, Rating
from services.common.projection import flush_inserts, queue_insert
from services.scoring import rulings
from services.scoring.config import ScoringConfig

_log = logs.get("scoring")


def rating_msg_id(match_id: str) -> str:
    return f"rating_applied:{match_id}"


def _rating_row(session: Session, cache: dict[Any, Any], key: tuple[str, str, str, str]) -> Rating | None:
    if key not in cache:
        cache[key] = session.get(Rating, key)
    row: Rating | None = cache[key]
    return row


def apply_finished(
    session: Session,
    finished: MatchFinished,
    config: ScoringConfig,
    cache: dict[Any, Any],
    position: int | None = None,
) -> RatingApplied | None:
    """Record the match; rate it when ranked.  A match already recorded is ignored (idempotent by id)."""
    known = cache.get(("match", finished.match_id))
    if known is None:
        known = session.get(MatchRecord, finished.match_id) is not None
    if known:
        return None
    cache[("match", finished.match_id)] = True
    season = config.season_for(finished.game, finished.finished_at)
    family = preset_family(finished.preset)
    applied: RatingApplied | None = None
    model = ""
    if rateable(finished):
        model = model_for(len(finished.players))
        keys = {p: (p, finished.game, family, model) for p in finished.players}
        rows = {p: _rating_row(session, cache, k) for p, k in keys.items()}
        prior: dict[str, RatingState | None] = {
            p: None
            if row is None
            else RatingState(
                model=row.model,
                rating=row.rating,
                rd=row.rd,
                volatility=row.volatility,
                season=row.season,
                last_at=row.last_at,
                games=row.games,
            )
            for p, row in rows.items()
        }
        applied, states = rate_match(finished, season, family, prior, config.policy)
        for player, state in states.items():
            row = rows[player]
            if row is None:
                row = Rating(player=player, game=finished.game, family=family, model=model)
                session.add(row)
                cache[keys[player]] = row
            row.season = state.season
            row.rating = state.rating
            row.rd = state.rd
            row.volatility = state.volatility
            row.games = state.games
            row.last_at = state.last_at
            row.last_match_id = finished.match_id
        queue_insert(
            cache,
            Outbox,
            {
                "subject": subjects.RATING_APPLIED,
                "msg_id": rating_msg_id(finished.match_id),
                "data": encode(applied),
            },
        )
    outcome = finished.outcome
    queue_insert(
        cache,
        MatchRecord,
        {
            "match_id": finished.match_id,
            "game": finished.game,
            "preset": finished.preset,
            "family": family,
            "season": season,
            "ranked": finished.ranked,
            "rated": applied is not None,
            "model": model,
            "seats": list(finished.seats),
            "players": list(finished.players),
            "ranks": list(outcome.ranks),
            "scores": list(outcome.scores),
            "draw": outcome.draw,
            "reason": outcome.reason,
            "moves": finished.moves,
            "finished_at": finished.finished_at,
            "position": position,
        },
    )
    for i, player in enumerate(finished.players):
        if i < len(finished.seats) and finished.seats[i] in finished.guests:
            continue  # a guest's name is no account's: it never appears on a player's page
        queue_insert(
            cache,
            MatchPlayer,
            {
                "match_id": finished.match_id,
                "seat_index": i,
                "player": player,
                "game": finished.game,
                "rank": outcome.ranks[i] if i < len(outcome.ranks) else 0,
                "finished_at": finished.finished_at,
                "rating_before": applied.effective_before[i][0] if applied else None,
                "rating_after": applied.after[i][0] if applied else None,
            },
        )
    return applied


def prefetch(session: Session, batch: list[bytes], cache: dict[Any, Any], config: ScoringConfig) -> None:
    """Existing match records and rating rows of a whole batch, in two queries."""
    events = [e for e in (integration_decoder.decode(d) for d in batch) if isinstance(e, MatchFinished)]
    if not events:
        return
    ids = {e.match_id for e in events}
    existing = set(session.scalars(select(MatchRecord.match_id).where(MatchRecord.match_id.in_(ids))))
    for match_id in ids:
        cache[("match", match_id)] = match_id in existing
    ruled = set(session.scalars(select(MatchRuling.match_id).where(MatchRuling.match_id.in_(ids))))
    for match_id in ids:
        cache[("ruling", match_id)] = match_id in ruled
    keys: set[tuple[str, str, str, str]] = set()
    for e in events:
        if rateable(e):
            model = model_for(len(e.players))
            keys.update((p, e.game, preset_family(e.preset), model) for p in e.players)
    if not keys:
        return
    players = {k[0] for k in keys}
    games = {k[1] for k in keys}
    rows = session.scalars(select(Rating).where(Rating.player.in_(players), Rating.game.in_(games)))
    found = {(r.player, r.game, r.family, r.model): r for r in rows}
    for key in keys:
        cache[key] = found.get(key)


def make_prefetch(config: ScoringConfig) -> Any:
    def run(session: Session, batch: list[bytes], cache: dict[Any, Any]) -> None:
        prefetch(session, batch, cache, config)

    return run


Produced = RatingApplied | RatingsRevised


def make_apply(config: ScoringConfig, sink: list[Produced] | None = None) -> Any:
    """The projection's apply function; ``sink`` collects what goes to the leaderboard (rebuild)."""

    def apply(session: Session, seq: int, data: bytes, cache: dict[Any, Any]) -> None:
        event = integration_decoder.decode(data)
        if not isinstance(event, MatchFinished):
            return
        fresh = not cache.get(("match", event.match_id), False)
        applied = apply_finished(session, event, config, cache, position=seq)
        _log.debug("match_scored", match_id=event.match_id, game=event.game, rated=applied is not None)
        if applied is not None and sink is not None:
            sink.append(applied)
        if fresh and applied is not None and cache.get(("ruling", event.match_id), True):
            flush_inserts(session, cache)  # the match's rows, before its ruling recomputes the group
            revised = rulings.after_finished(session, event.match_id, config, cache)
            if sink is not None:
                sink.extend(revised)

    return apply


def make_ruling_apply(config: ScoringConfig, sink: list[Produced] | None = None) -> Any:
    """The apply function of the disputes-stream projection: rulings only."""

    def apply(session: Session, _seq: int, data: bytes, cache: dict[Any, Any]) -> None:
        event = dispute_decoder.decode(data)
        if not isinstance(event, RulingIssued):
            return
        revised = rulings.apply_ruling_event(session, event, config, cache)
        _log.info("ruling_applied", match_id=event.match_id, ruling=event.ruling, revised=bool(revised))
        if sink is not None:
            sink.extend(revised)

    return apply
