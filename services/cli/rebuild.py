"""Recompute ratings, standings and match history from the integration stream and the dispute
rulings into fresh tables, then compare them with the live tables (``--check``) or replace the
live tables with them; and the same for the match list from the match stream
(:func:`rebuild_match_list`, ``gamehall matches rebuild``).

The rebuild runs scoring's own code: every MatchFinished in stream order, then every ruling in
disputes-stream order (each recomputes its match's group over the amended history), then the
leaderboard over what scoring produced, in order.  Live scoring sees the rulings interleaved with
later matches; the tables come out the same, because a ruling recomputes its group from no
ratings (services/scoring/rulings.py)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any

from nats.js import JetStreamContext
from nats.js.api import DeliverPolicy
from nats.js.errors import NotFoundError
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from contracts import subjects
from contracts.integration import RatingApplied, RatingsRevised
from services.common import db
from services.common.matchlist import MatchList
from services.common.natsio import EventStore
from services.common.projection import apply_batch
from services.leaderboard import logic as leaderboard_logic
from services.scoring import logic as scoring_logic
from services.scoring.config import ScoringConfig

COMPARED = (db.Rating, db.Standing, db.MatchRecord, db.MatchPlayer, db.Player, db.MatchRuling)


WILDCARD_STREAMS = (subjects.DISPUTE_STREAM, subjects.MATCH_STREAM)


async def last_seq(js: JetStreamContext, subject: str, stream: str = subjects.INTEGRATION_STREAM) -> int:
    try:
        if stream in WILDCARD_STREAMS:  # a wildcard: the stream's last sequence
            info = await js.stream_info(stream)
            return int(info.state.last_seq or 0)
        msg = await js.get_last_msg(stream, subject)
    except NotFoundError:
        return 0
    return int(msg.seq or 0)


async def read_subject(
    js: JetStreamContext, subject: str, timeout: float = 10.0, stream: str = subjects.INTEGRATION_STREAM
) -> list[tuple[int, bytes]]:
    """Every message on ``subject`` up to its last one at call time, in stream order."""
    return [(seq, data) for seq, _, data in await read_items(js, subject, timeout, stream)]


async def read_items(
    js: JetStreamContext, subject: str, timeout: float = 10.0, stream: str = subjects.INTEGRATION_STREAM
) -> list[tuple[int, str, bytes]]:
    """(stream sequence, subject, bytes) of every message on ``subject`` up to its last one at
    call time, in stream order."""
    return [item async for chunk in read_chunks(js, subject, timeout, stream) for item in chunk]


async def read_chunks(
    js: JetStreamContext,
    subject: str,
    timeout: float = 10.0,
    stream: str = subjects.INTEGRATION_STREAM,
    size: int = 1000,
) -> AsyncIterator[list[tuple[int, str, bytes]]]:
    """The messages of :func:`read_items` ``size`` at a time, read as they are used (the match
    stream holds every decision of every match: it is never held whole)."""
    last = await last_seq(js, subject, stream)
    if last == 0:
        return
    sub = await js.subscribe(subject, stream=stream, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL)
    chunk: list[tuple[int, str, bytes]] = []
    try:
        while True:
            msg = await sub.next_msg(timeout=timeout)
            seq = msg.metadata.sequence.stream
            chunk.append((seq, msg.subject, msg.data))
            if seq >= last:
                break
            if len(chunk) >= size:
                yield chunk
                chunk = []
    finally:
        await sub.unsubscribe()
    if chunk:
        yield chunk


def fresh_engine() -> Engine:
    engine = db.make_engine("sqlite://", poolclass=StaticPool)
    db.upgrade(engine)
    return engine


def rebuild_into(
    engine: Engine,
    finished: list[tuple[int, bytes]],
    config: ScoringConfig,
    disputes: list[tuple[int, bytes]] | None = None,
) -> list[RatingApplied | RatingsRevised]:
    """Run the scoring and leaderboard projections' own code over the log, in order: the
    matches, then the rulings of the disputes stream."""
    produced: list[RatingApplied | RatingsRevised] = []
    apply = scoring_logic.make_apply(config, sink=produced)
    prefetch = scoring_logic.make_prefetch(config)
    for start in range(0, len(finished), 1000):
        apply_batch(
            engine, subjects.SCORING_CONSUMER, finished[start : start + 1000], apply, prefetch=prefetch
        )
    rulings = scoring_logic.make_ruling_apply(config, sink=produced)
    for start in range(0, len(disputes or []), 1000):
        apply_batch(engine, subjects.RULINGS_CONSUMER, (disputes or [])[start : start + 1000], rulings)
    with db.session_scope(engine) as session:
        session.execute(delete(db.Outbox))
    for start in range(0, len(produced), 1000):
        chunk = produced[start : start + 1000]
        with db.session_scope(engine) as session, session.no_autoflush:
            cache: dict[Any, Any] = {}
            ratings = [e for e in chunk if isinstance(e, RatingApplied)]
            ratings += [a for e in chunk if isinstance(e, RatingsRevised) for a in e.applied]
            leaderboard_logic.prefetch_events(session, ratings, cache)
            for event in chunk:
                leaderboard_logic.apply_event(session, event, cache)
    return produced


def snapshot(engine: Engine, models: tuple[type[Any], ...] = COMPARED) -> dict[str, list[tuple[Any, ...]]]:
    out: dict[str, list[tuple[Any, ...]]] = {}
    with Session(engine) as session:
        for model in models:
            columns = [c.name for c in model.__table__.columns]  # type: ignore[attr-defined]
            pk = [c.name for c in model.__table__.primary_key.columns]  # type: ignore[attr-defined]
            rows = session.execute(select(*[getattr(model, c) for c in columns])).all()
            keyed = sorted((tuple(getattr(r, k) for k in pk), tuple(r)) for r in rows)
            out[model.__tablename__] = [(k, dict(zip(columns, row, strict=True))) for k, row in keyed]  # type: ignore[misc]
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-9)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def compare(
    live: Engine,
    fresh: Engine,
    limit: int = 50,
    models: tuple[type[Any], ...] = COMPARED,
    moved_on: Any = None,
) -> list[str]:
    """Differences between the live and the rebuilt tables (empty when they agree).
    ``moved_on(live row)``: true for a live row written from messages the rebuild did not read
    (left out of the comparison)."""
    diffs: list[str] = []
    a, b = snapshot(live, models), snapshot(fresh, models)
    for table in a:
        rows_a = dict(a[table])  # type: ignore[arg-type]
        rows_b = dict(b[table])  # type: ignore[arg-type]
        for key in sorted(set(rows_a) | set(rows_b)):
            if moved_on is not None and key in rows_a and moved_on(rows_a[key]):
                continue
            if key not in rows_b:
                diffs.append(f"{table} {key}: only in live tables")
            elif key not in rows_a:
                diffs.append(f"{table} {key}: missing from live tables")
            else:
                for column, value in rows_a[key].items():
                    if not _same(value, rows_b[key][column]):
                        diffs.append(
                            f"{table} {key}: {column} live={value!r} rebuilt={rows_b[key][column]!r}"
                        )
            if len(diffs) >= limit:
                return diffs
    return diffs


def replace_live(
    live: Engine, fresh: Engine, positions: dict[str, int], models: tuple[type[Any], ...] = COMPARED
) -> None:
    """Swap the live read models for the rebuilt ones in one transaction (positions included)."""
    data = snapshot(fresh, models)
    with db.session_scope(live) as session:
        for model in reversed(models):
            session.execute(delete(model))
        for model in models:
            for _key, row in data[model.__tablename__]:  # type: ignore[misc]
                session.add(model(**row))
        for name, position in positions.items():
            row = session.get(db.ProjectionPosition, name)
            if row is None:
                session.add(db.ProjectionPosition(name=name, position=position))
            else:
                row.position = position


def live_caught_up(live: Engine, finished_seq: int, rating_seq: int, disputes_seq: int = 0) -> bool:
    with Session(live) as session:
        scoring = db.get_position(session, subjects.SCORING_CONSUMER)
        rulings = db.get_position(session, subjects.RULINGS_CONSUMER)
        board = db.get_position(session, subjects.LEADERBOARD_CONSUMER)
        pending = session.scalar(select(func.count()).select_from(db.Outbox)) or 0
    return scoring >= finished_seq and rulings >= disputes_seq and board >= rating_seq and pending == 0


async def rebuild(
    js: JetStreamContext, live: Engine, config: ScoringConfig, check: bool, wait_s: float = 15.0
) -> dict[str, Any]:
    finished = await read_subject(js, subjects.MATCH_FINISHED)
    disputes = await read_subject(js, subjects.DISPUTE_SUBJECTS, stream=subjects.DISPUTE_STREAM)
    fresh = fresh_engine()
    started = time.perf_counter()
    produced = await asyncio.to_thread(rebuild_into, fresh, finished, config, disputes)
    elapsed = time.perf_counter() - started
    finished_seq = finished[-1][0] if finished else 0
    disputes_seq = disputes[-1][0] if disputes else 0
    with Session(fresh) as session:
        rulings = session.scalar(select(func.count()).select_from(db.MatchRuling)) or 0
    report: dict[str, Any] = {
        "matches": len(finished),
        "rated": sum(1 for e in produced if isinstance(e, RatingApplied)),
        "rulings": int(rulings),
        "rebuild_seconds": round(elapsed, 3),
    }
    if check:
        deadline = time.monotonic() + wait_s
        while True:
            rating_seq = await last_seq(js, subjects.RATING_APPLIED)
            if live_caught_up(live, finished_seq, rating_seq, disputes_seq) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        diffs = compare(live, fresh)
        report["differences"] = diffs
        report["ok"] = not diffs
    else:
        rating_seq = await last_seq(js, subjects.RATING_APPLIED)
        replace_live(
            live,
            fresh,
            {
                subjects.SCORING_CONSUMER: finished_seq,
                subjects.RULINGS_CONSUMER: disputes_seq,
                subjects.LEADERBOARD_CONSUMER: rating_seq,
            },
        )
        report["ok"] = True
    fresh.dispose()
    return report


MATCH_LIST = (db.StoredMatch,)


async def rebuild_match_list_into(
    engine: Engine, lister: MatchList, chunks: AsyncIterable[list[tuple[int, str, bytes]]]
) -> int:
    """Run the match-list projection's own code over the match stream, in order; the last
    stream sequence applied (0 for an empty stream)."""
    position = 0
    async for chunk in chunks:
        await lister.prepare(chunk)
        await asyncio.to_thread(
            apply_batch,
            engine,
            subjects.MATCH_LIST_CONSUMER,
            [(seq, data) for seq, _, data in chunk],
            lister.apply,
            prefetch=lister.prefetch,
        )
        position = chunk[-1][0]
    return position


async def rebuild_match_list(js: JetStreamContext, live: Engine, check: bool, wait_s: float = 15.0) -> dict[str, Any]:
    """The match list (``match_list``) rebuilt from the match stream: compared with the live
    table (``check``) or put in its place, with the projection's position."""
    fresh = fresh_engine()
    started = time.perf_counter()
    chunks = read_chunks(js, subjects.MATCH_SUBJECTS, stream=subjects.MATCH_STREAM)
    stream_seq = await rebuild_match_list_into(fresh, MatchList(EventStore(js)), chunks)
    elapsed = time.perf_counter() - started
    with Session(fresh) as session:
        listed = session.scalar(select(func.count()).select_from(db.StoredMatch)) or 0
    report: dict[str, Any] = {"messages": stream_seq, "matches": int(listed), "rebuild_seconds": round(elapsed, 3)}
    if check:
        deadline = time.monotonic() + wait_s
        while time.monotonic() <= deadline:
            with Session(live) as session:
                if db.get_position(session, subjects.MATCH_LIST_CONSUMER) >= stream_seq:
                    break
            await asyncio.sleep(0.2)
        # a match decided again since the stream was read is newer live: not compared
        diffs = compare(live, fresh, models=MATCH_LIST, moved_on=lambda row: row["stream_seq"] > stream_seq)
        report["differences"] = diffs
        report["ok"] = not diffs
    else:
        replace_live(live, fresh, {subjects.MATCH_LIST_CONSUMER: stream_seq}, models=MATCH_LIST)
        report["ok"] = True
    fresh.dispose()
    return report
