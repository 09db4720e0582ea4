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
from collections.abc import AsyncIterable, AsyncIterator, Callable
from dataclasses import dataclass, field
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
    """An empty in-memory database with the read models' tables (made from the models, which a
    test keeps equal to the migrations: a third of a second quicker than running them)."""
    engine = db.make_engine("sqlite://", poolclass=StaticPool)
    db.Base.metadata.create_all(engine)
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


Snapshot = dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]]
"""{table: [(primary key, {column: value})]}, sorted by key."""


def snapshot(
    source: Engine | Session,
    models: tuple[type[Any], ...] = COMPARED,
    where: dict[str, Any] | None = None,
) -> Snapshot:
    """Every row of each table of ``models``, keyed by primary key and sorted: ``{table: [(key,
    {column: value})]}``.  ``source``: an engine, or a session (one snapshot of the database, with
    the positions read in it).  ``where``: a condition per table (only the rows of a sample)."""
    if isinstance(source, Session):
        return _snapshot(source, models, where or {})
    with Session(source) as session:
        return _snapshot(session, models, where or {})


def _snapshot(session: Session, models: tuple[type[Any], ...], where: dict[str, Any]) -> Snapshot:
    out: Snapshot = {}
    for model in models:
        columns = [c.name for c in model.__table__.columns]
        pk = [c.name for c in model.__table__.primary_key.columns]
        query = select(*[getattr(model, c) for c in columns])
        if model.__tablename__ in where:
            query = query.where(where[model.__tablename__])
        rows = session.execute(query).all()
        keyed = sorted((tuple(getattr(r, k) for k in pk), tuple(r)) for r in rows)
        out[model.__tablename__] = [(k, dict(zip(columns, row, strict=True))) for k, row in keyed]
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-9)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@dataclass(frozen=True)
class Difference:
    """One way a live row differs from the rebuilt one: a column's two values, or a row only one
    side has (``column`` None; the missing side None, the other the whole row)."""

    table: str
    key: tuple[Any, ...]
    column: str | None
    live: Any
    rebuilt: Any

    def __str__(self) -> str:
        if self.column is None:
            where = "only in live tables" if self.rebuilt is None else "missing from live tables"
            return f"{self.table} {self.key}: {where}"
        return f"{self.table} {self.key}: {self.column} live={self.live!r} rebuilt={self.rebuilt!r}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "key": list(self.key),
            "column": self.column,
            "live": self.live,
            "rebuilt": self.rebuilt,
        }


MovedOn = Callable[[str, dict[str, Any]], bool]
"""(table, live row) -> true for a row written from messages the rebuild did not read."""


@dataclass
class Comparison:
    """What comparing live tables with rebuilt ones found: every difference, and how many rows
    of each table were compared (rows left out as newer than the rebuild are not)."""

    differences: list[Difference] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)

    def differing(self) -> dict[str, int]:
        """Rows that differ per table (a row with several differing columns counts once)."""
        rows: dict[str, set[tuple[Any, ...]]] = {table: set() for table in self.checked}
        for d in self.differences:
            rows.setdefault(d.table, set()).add(d.key)
        return {table: len(keys) for table, keys in rows.items()}

    def summary(self) -> dict[str, Any]:
        """The comparison as JSON: every difference as text and as a record, counts per table."""
        return {
            "differences": [str(d) for d in self.differences],
            "rows": [d.as_dict() for d in self.differences],
            "checked": dict(self.checked),
            "differing": self.differing(),
            "ok": not self.differences,
        }


def diff_snapshots(
    live: Snapshot,
    rebuilt: Snapshot,
    moved_on: MovedOn | None = None,
    ignored: dict[str, set[str]] | None = None,
) -> Comparison:
    """The one comparison of live rows with rebuilt ones (``ratings rebuild --check``, ``matches
    rebuild --check`` and ``gamehall doctor``).  ``ignored``: columns per table left out (a
    sample that cannot recompute them)."""
    out = Comparison()
    for table in live:
        rows_a = dict(live[table])
        rows_b = dict(rebuilt.get(table, []))
        skip = (ignored or {}).get(table, set())
        checked = 0
        for key in sorted(set(rows_a) | set(rows_b)):
            if moved_on is not None and key in rows_a and moved_on(table, rows_a[key]):
                continue
            checked += 1
            if key not in rows_b:
                out.differences.append(Difference(table, key, None, rows_a[key], None))
            elif key not in rows_a:
                out.differences.append(Difference(table, key, None, None, rows_b[key]))
            else:
                for column, value in rows_a[key].items():
                    if column not in skip and not _same(value, rows_b[key][column]):
                        out.differences.append(Difference(table, key, column, value, rows_b[key][column]))
        out.checked[table] = checked
    return out


def compare(
    live: Engine,
    fresh: Engine,
    limit: int | None = None,
    models: tuple[type[Any], ...] = COMPARED,
    moved_on: MovedOn | None = None,
) -> list[str]:
    """Differences between the live and the rebuilt tables as text (empty when they agree), the
    first ``limit`` of them (all by default)."""
    found = diff_snapshots(snapshot(live, models), snapshot(fresh, models), moved_on).differences
    return [str(d) for d in found[:limit]]


def replace_live(
    live: Engine, fresh: Engine, positions: dict[str, int], models: tuple[type[Any], ...] = COMPARED
) -> None:
    """Swap the live read models for the rebuilt ones in one transaction (positions included)."""
    data = snapshot(fresh, models)
    with db.session_scope(live) as session:
        for model in reversed(models):
            session.execute(delete(model))
        for model in models:
            for _key, values in data[model.__tablename__]:
                session.add(model(**values))
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


Progress = Callable[[str], None]
"""Told what a long check is doing (the command line prints it on stderr)."""


def _quiet(_line: str) -> None:
    return None


async def wait_caught_up(
    js: JetStreamContext, live: Engine, finished_seq: int, disputes_seq: int, wait_s: float
) -> bool:
    """Until the live tables have everything the rebuild read (false when ``wait_s`` ran out):
    scoring and its rulings at the read point; then the outbox rows those commits wrote
    published; then the leaderboard at the integration stream's last RatingApplied.  Each step
    is reached under traffic too (nothing waits for the stream to stop growing)."""
    deadline = time.monotonic() + wait_s
    written: set[str] | None = None
    rating_seq: int | None = None
    while True:
        with db.snapshot(live) as session:
            scoring = db.get_position(session, subjects.SCORING_CONSUMER)
            rulings = db.get_position(session, subjects.RULINGS_CONSUMER)
            board = db.get_position(session, subjects.LEADERBOARD_CONSUMER)
            pending = set(session.scalars(select(db.Outbox.msg_id)))
        if written is None and scoring >= finished_seq and rulings >= disputes_seq:
            written = pending  # what the read point's commits (and maybe later ones) left to publish
        if written is not None and rating_seq is None and not written & pending:
            rating_seq = await last_seq(js, subjects.RATING_APPLIED)
        if rating_seq is not None and board >= rating_seq:
            return True
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.2)


def moved_on_since(session: Session, finished_seq: int) -> MovedOn:
    """Live rows written from MatchFinished events after ``finished_seq`` (the rebuild's read
    point): a match recorded later, a rating or standing whose last match is one, a player who
    played one.  Left out of the comparison.  ``session``: the snapshot the live rows are read in
    (rows committed between two reads would otherwise be neither left out nor equal)."""
    later = set(
        session.scalars(
            select(db.MatchRecord.match_id).where(
                db.MatchRecord.position.is_not(None), db.MatchRecord.position > finished_seq
            )
        )
    )
    players = (
        set(session.scalars(select(db.MatchPlayer.player).where(db.MatchPlayer.match_id.in_(later))))
        if later
        else set()
    )

    def moved(table: str, row: dict[str, Any]) -> bool:
        if table in ("match_history", "match_players"):
            return row["match_id"] in later
        if table in ("ratings", "standings"):
            return row["last_match_id"] in later
        if table == "players":
            return row["player_id"] in players
        return False

    return moved


async def rebuild(
    js: JetStreamContext,
    live: Engine,
    config: ScoringConfig,
    check: bool,
    wait_s: float = 15.0,
    models: tuple[type[Any], ...] = COMPARED,
    progress: Progress = _quiet,
    attempts: int = 3,
) -> dict[str, Any]:
    """Ratings, standings, match history, players and rulings rebuilt from the integration and
    disputes streams: compared with the live tables (``check``: the report's ``differences``,
    ``rows``, ``checked`` and ``differing``) or put in their place.  A check during which a
    ruling was applied live (it recomputes a whole group of ratings, which no row's source
    sequence tells) is made again, up to ``attempts`` times."""
    progress("reading MatchFinished events and rulings")
    finished = await read_subject(js, subjects.MATCH_FINISHED)
    disputes = await read_subject(js, subjects.DISPUTE_SUBJECTS, stream=subjects.DISPUTE_STREAM)
    fresh = fresh_engine()
    started = time.perf_counter()
    progress(f"rebuilding from {len(finished)} MatchFinished events and {len(disputes)} dispute events")
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
        progress(f"rebuilt in {elapsed:.1f} s; waiting for the live tables to reach the read point")
        report["caught_up"] = await wait_caught_up(js, live, finished_seq, disputes_seq, wait_s)
        progress("comparing")

        def compared() -> tuple[Comparison, int]:
            with db.snapshot(live) as session:  # the rows and what is newer than the read point, at once
                rows, moved = snapshot(session, models), moved_on_since(session, finished_seq)
                ruled = db.get_position(session, subjects.RULINGS_CONSUMER)
            return diff_snapshots(rows, snapshot(fresh, models), moved), ruled

        found, ruled = await asyncio.to_thread(compared)
        if ruled > disputes_seq and found.differences and attempts > 1:
            progress("a ruling was applied during the check: checking again")
            fresh.dispose()
            return await rebuild(js, live, config, check, wait_s, models, progress, attempts - 1)
        report.update(found.summary())
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


async def rebuild_match_list(
    js: JetStreamContext, live: Engine, check: bool, wait_s: float = 15.0, progress: Progress = _quiet
) -> dict[str, Any]:
    """The match list (``match_list``) rebuilt from the match stream: compared with the live
    table (``check``) or put in its place, with the projection's position."""
    progress("rebuilding the match list from the match stream")
    fresh = fresh_engine()
    started = time.perf_counter()
    chunks = read_chunks(js, subjects.MATCH_SUBJECTS, stream=subjects.MATCH_STREAM)
    stream_seq = await rebuild_match_list_into(fresh, MatchList(EventStore(js)), chunks)
    elapsed = time.perf_counter() - started
    with Session(fresh) as session:
        listed = session.scalar(select(func.count()).select_from(db.StoredMatch)) or 0
    report: dict[str, Any] = {"messages": stream_seq, "matches": int(listed), "rebuild_seconds": round(elapsed, 3)}
    if check:
        progress(f"rebuilt in {elapsed:.1f} s; waiting for the live table to reach the read point")
        deadline = time.monotonic() + wait_s
        report["caught_up"] = False
        while True:
            with Session(live) as session:
                if db.get_position(session, subjects.MATCH_LIST_CONSUMER) >= stream_seq:
                    report["caught_up"] = True
                    break
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        progress("comparing")

        def newer(_table: str, row: dict[str, Any]) -> bool:
            return bool(row["stream_seq"] > stream_seq)  # decided again since the stream was read

        found = await asyncio.to_thread(
            lambda: diff_snapshots(snapshot(live, MATCH_LIST), snapshot(fresh, MATCH_LIST), newer)
        )
        report.update(found.summary())
    else:
        replace_live(live, fresh, {subjects.MATCH_LIST_CONSUMER: stream_seq}, models=MATCH_LIST)
        report["ok"] = True
    fresh.dispose()
    return report
