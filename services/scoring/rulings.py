"""What scoring writes for a dispute ruling (``contracts.disputes.RulingIssued``), inside the
projection's transaction.

The ruling is kept as the match's latest (``match_rulings``).  When it changes the effective
result of a rated match (``domain.disputes.apply_ruling``), every rating of the match's (game,
preset family, model) is recomputed from no ratings over the group's matches in the order
scoring rated them (``match_history.position``), each with its effective result, voided ones
left out (``domain.rating.ranked.rate_sequence``): the ratings are then exactly those a rebuild
from the amended history gives, whether the ruling arrives before or after later matches.  The
group's rating updates go to the leaderboard as ``RatingsRevised`` through the outbox.

A ruling on a match scoring has not recorded yet is kept, and applied when the match arrives.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import encode
from contracts.disputes import RulingIssued
from contracts.integration import MatchFinished, RatingApplied, RatingsRevised
from contracts.match import Outcome
from domain.disputes import apply_ruling
from domain.rating.ranked import rate_sequence
from services.common import logs
from services.common.db import MatchPlayer, MatchRecord, MatchRuling, Outbox, Rating
from services.common.projection import queue_insert
from services.scoring.config import ScoringConfig

_log = logs.get("scoring")

PART_SIZE = 200  # rating updates per RatingsRevised message


def ruling_of(row: MatchRuling | None) -> RulingIssued | None:
    if row is None:
        return None
    return RulingIssued(
        dispute_id=row.dispute_id,
        match_id=row.match_id,
        game="",
        ruling=row.ruling,  # type: ignore[arg-type]
        reason=row.reason,
        ruled_by=row.ruled_by,
        ruled_at=row.ruled_at,
        ranks=tuple(row.ranks),
        scores=tuple(row.scores),
    )


def recorded_outcome(record: MatchRecord) -> Outcome:
    return Outcome(
        ranks=tuple(record.ranks), scores=tuple(record.scores), reason=record.reason, draw=record.draw
    )


def apply_ruling_event(
    session: Session, ruling: RulingIssued, config: ScoringConfig, cache: dict[Any, Any]
) -> list[RatingsRevised]:
    """Keep the ruling; recompute the match's group when it changes a rated result."""
    session.flush()
    row = session.get(MatchRuling, ruling.match_id)
    previous = ruling_of(row)
    if row is None:
        row = MatchRuling(match_id=ruling.match_id)
        session.add(row)
    row.dispute_id, row.ruling, row.reason = ruling.dispute_id, ruling.ruling, ruling.reason
    row.ranks, row.scores = list(ruling.ranks), list(ruling.scores)
    row.ruled_by, row.ruled_at = ruling.ruled_by, ruling.ruled_at
    session.flush()
    record = session.get(MatchRecord, ruling.match_id)
    if record is None or not record.rated:
        _log.info("ruling_kept", match_id=ruling.match_id, ruling=ruling.ruling, rated=record is not None)
        return []
    original = recorded_outcome(record)
    if apply_ruling(original, previous) == apply_ruling(original, ruling):
        return []  # the effective result is unchanged (e.g. upheld)
    return revise(session, record, ruling.dispute_id, ruling.ruled_at, config, cache)


def after_finished(
    session: Session, match_id: str, config: ScoringConfig, cache: dict[Any, Any]
) -> list[RatingsRevised]:
    """A match that arrives after its ruling: rated as recorded first (as a rebuild does), then
    recomputed with the ruling."""
    row = session.get(MatchRuling, match_id)
    record = session.get(MatchRecord, match_id)
    if row is None or record is None or not record.rated:
        return []
    ruling = ruling_of(row)
    original = recorded_outcome(record)
    if apply_ruling(original, ruling) == original:
        return []
    return revise(session, record, row.dispute_id, row.ruled_at, config, cache)


def revise(
    session: Session,
    changed: MatchRecord,
    dispute_id: str,
    at: int,
    config: ScoringConfig,
    cache: dict[Any, Any],
) -> list[RatingsRevised]:
    """Recompute the ratings of ``changed``'s group over the effective history."""
    game, family, model = changed.game, changed.family, changed.model
    group = (MatchRecord.game == game, MatchRecord.family == family, MatchRecord.model == model)
    records = session.scalars(
        select(MatchRecord)
        .where(*group, MatchRecord.rated.is_(True))
        .order_by(func.coalesce(MatchRecord.position, -1), MatchRecord.finished_at, MatchRecord.match_id)
    ).all()
    rulings = {
        r.match_id: r
        for r in session.scalars(
            select(MatchRuling).join(MatchRecord, MatchRecord.match_id == MatchRuling.match_id).where(*group)
        )
    }
    history: list[tuple[MatchFinished, str, str]] = []
    for record in records:
        outcome = apply_ruling(recorded_outcome(record), ruling_of(rulings.get(record.match_id)))
        if outcome is None:
            continue  # void: the match does not count
        finished = MatchFinished(
            match_id=record.match_id,
            game=record.game,
            preset=record.preset,
            rules_version="",
            seats=tuple(record.seats),
            players=tuple(record.players),
            outcome=outcome,
            moves=record.moves,
            finished_at=record.finished_at,
            last_seq=0,
            ranked=True,
        )
        history.append((finished, record.season, record.family))
    produced, states, last = rate_sequence(history, config.policy)

    # ratings: the group's rows become the recomputed states (a player left with no counted match
    # has none)
    rows = {r.player: r for r in session.scalars(select(Rating).where(Rating.game == game, Rating.family == family, Rating.model == model))}
    for player, row in rows.items():
        if player not in states:
            session.delete(row)
            cache[(player, game, family, model)] = None
    for player, state in states.items():
        row = rows.get(player)
        if row is None:
            row = Rating(player=player, game=game, family=family, model=model)
            session.add(row)
        row.season, row.rating, row.rd, row.volatility = state.season, state.rating, state.rd, state.volatility
        row.games, row.last_at, row.last_match_id = state.games, state.last_at, last[player]
        cache[(player, game, family, model)] = row

    # each seat's rating before and after in the match history (None for a void match)
    by_match: dict[str, RatingApplied] = {a.match_id: a for a in produced}
    seats = session.scalars(
        select(MatchPlayer)
        .join(MatchRecord, MatchRecord.match_id == MatchPlayer.match_id)
        .where(*group, MatchRecord.rated.is_(True))
    )
    for seat in seats:
        applied = by_match.get(seat.match_id)
        i = seat.seat_index
        seat.rating_before = applied.effective_before[i][0] if applied else None
        seat.rating_after = applied.after[i][0] if applied else None

    parts = max(1, -(-len(produced) // PART_SIZE))
    revised = [
        RatingsRevised(
            dispute_id=dispute_id,
            match_id=changed.match_id,
            game=game,
            family=family,
            model=model,
            part=part,
            parts=parts,
            applied=tuple(produced[part * PART_SIZE : (part + 1) * PART_SIZE]),
            revised_at=at,
        )
        for part in range(parts)
    ]
    for event in revised:
        queue_insert(
            cache,
            Outbox,
            {
                "subject": subjects.RATING_APPLIED,
                "msg_id": f"ratings_revised:{dispute_id}:{event.part}",
                "data": encode(event),
            },
        )
    _log.info(
        "ratings_revised", match_id=changed.match_id, dispute_id=dispute_id, game=game, family=family, matches=len(produced)
    )
    return revised
