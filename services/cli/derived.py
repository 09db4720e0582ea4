"""The standing check of derived data: each read model compared with a rebuild from the log.

Two depths, one comparison (``services.cli.rebuild.diff_snapshots``, the same as ``gamehall
ratings rebuild --check`` and ``gamehall matches rebuild --check``):

- **full** (``gamehall doctor --full``): every table of every read model rebuilt from the whole
  log, exactly as the two ``--check`` commands do (they are called), after the live tables reach
  the rebuild's read point; live rows written from later messages are left out.
- **sample** (``gamehall doctor --sample N``, and scoring every ``GAMEHALL_DOCTOR_EVERY_S``): N
  matches, the most recently decided quarter, a quarter drawn from random stream sequences (which
  also finds matches missing from a table) and the rest drawn from the live rows.  The live rows
  and the projections' stored positions are read in one database snapshot, and each sampled
  match is rebuilt from the log up to that position, so traffic during the check changes nothing:
  ``match_list`` from the match's whole log on the match stream (the projection's own fold),
  ``match_history`` and ``match_players`` from the match's MatchFinished event (every column but
  ``match_players.rating_before``/``rating_after``, which depend on the whole rating history).
  Ratings, standings, players and rulings depend on the whole history: scoring checks them in
  full every ``GAMEHALL_DOCTOR_FULL_EVERY_S``.

Scoring exports the result of its runs (``PeriodicCheck``, given to scoring by the composition root,
``services.cli.stackrun.service_runner``: the check runs scoring's and the leaderboard's own code,
which no single service may import) as ``gamehall_derived_rows_differing{model}`` and
``gamehall_derived_check_timestamp_seconds{model}`` (model = table) and logs each differing row;
the check runs in its own thread with its own NATS connection, off the projections' path.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from contracts import subjects
from contracts.codecs import integration_decoder
from contracts.integration import MatchFinished
from domain.games import registry
from services.cli import rebuild
from services.common import db, logs, metrics, natsio
from services.common.disputes import valid_match_id
from services.common.matchlist import MatchList
from services.common.natsio import EventStore
from services.common.settings import Settings
from services.scoring.config import ScoringConfig

MODELS = db.READ_MODEL_TABLES
"""The read models, by table: what ``--model`` names and the metric's ``model`` label."""
SCORING_MODELS = tuple(m.__tablename__ for m in rebuild.COMPARED)
SAMPLED = ("match_history", "match_players", "match_list")
"""The tables a sample checks."""
SAMPLE_IGNORED = {"match_players": {"rating_before", "rating_after"}}
LOGGED_ROWS = 100  # differing rows a periodic run logs one by one (the rest are counted)

Progress = Callable[[str], None]


def _quiet(_line: str) -> None:
    return None


@dataclass
class Report:
    """A check's outcome: rows compared and rows differing per table, every difference."""

    mode: str
    checked: dict[str, int] = field(default_factory=dict)
    differing: dict[str, int] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.rows

    def add(self, summary: dict[str, Any]) -> None:
        """A comparison's summary (``rebuild.Comparison.summary``, or a rebuild's report)."""
        self.checked.update(summary["checked"])
        self.differing.update(summary["differing"])
        tables = set(summary["checked"])
        self.rows = [r for r in self.rows if r["table"] not in tables] + list(summary["rows"])

    def as_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "models": {
                t: {"checked": self.checked[t], "differing": self.differing.get(t, 0)} for t in self.checked
            },
            "rows": self.rows,
            "notes": self.notes,
        }


# ---------------------------------------------------------------- full


async def full_check(
    js: JetStreamContext,
    live: Engine,
    config: ScoringConfig,
    models: tuple[str, ...] = MODELS,
    wait_s: float = 15.0,
    progress: Progress = _quiet,
) -> Report:
    """Every row of ``models`` against a rebuild from the whole log (the ``--check`` rebuilds)."""
    started = time.perf_counter()
    report = Report("full")
    scoring = tuple(m for m in rebuild.COMPARED if m.__tablename__ in models)
    if scoring:
        found = await rebuild.rebuild(
            js, live, config, check=True, wait_s=wait_s, models=scoring, progress=progress
        )
        report.add(found)
        if not found["caught_up"]:
            report.notes.append(
                f"scoring and the leaderboard did not reach the read point within {wait_s:g} s"
            )
    if "match_list" in models:
        found = await rebuild.rebuild_match_list(js, live, check=True, wait_s=wait_s, progress=progress)
        report.add(found)
        if not found["caught_up"]:
            report.notes.append(f"the match list did not reach the read point within {wait_s:g} s")
    report.seconds = time.perf_counter() - started
    return report


# ---------------------------------------------------------------- sample


async def _stream_picks(
    js: JetStreamContext, stream: str, upto: int, count: int, rng: random.Random
) -> list[tuple[int, str, bytes]]:
    """Up to ``count`` messages at random sequences in [1, upto] (three tries each)."""
    out: list[tuple[int, str, bytes]] = []
    for _ in range(3 * count if upto > 0 else 0):
        if len(out) >= count:
            break
        seq = rng.randint(1, upto)
        msg = await _get(js, stream, seq)
        if msg is not None:
            out.append((seq, msg.subject or "", msg.data or b""))
    return out


async def _get(js: JetStreamContext, stream: str, seq: int) -> Any:
    """The message at ``seq`` (None when there is none): a direct get, or the stream's API when
    the stream answers no direct gets."""
    try:
        return await js.get_msg(stream, seq, direct=True)
    except NotFoundError:
        return None
    except (NatsError, TimeoutError):
        pass
    try:
        return await js.get_msg(stream, seq)
    except NotFoundError:
        return None


def _finished_of(data: bytes) -> MatchFinished | None:
    try:
        event = integration_decoder.decode(data)
    except Exception:  # noqa: BLE001 - anything else on the stream is no MatchFinished
        return None
    return event if isinstance(event, MatchFinished) else None


def _live_ids(
    session: Session,
    pk: Any,
    order: Any,
    chosen: set[str],
    recent: int,
    total: int,
    rng: random.Random,
    seeded: bool,
) -> list[str]:
    """The ``recent`` rows highest by ``order``, then rows at random up to ``total`` ids."""
    ids = [i for i in session.scalars(select(pk).order_by(order.desc(), pk).limit(recent)) if i not in chosen]
    want = total - len(chosen) - len(ids)
    if want <= 0:
        return ids[: max(total - len(chosen), 0)]
    taken = chosen | set(ids)
    if seeded:  # reproducible: the same seed draws the same rows of the same table
        rest = sorted(i for i in session.scalars(select(pk)) if i not in taken)
        return ids + rng.sample(rest, min(want, len(rest)))
    query = select(pk).order_by(func.random()).limit(want + len(taken))
    return ids + [i for i in session.scalars(query) if i not in taken][:want]


async def _chunks(
    items: list[tuple[int, str, bytes]], size: int = 1000
) -> AsyncIterator[list[tuple[int, str, bytes]]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


async def sample_check(
    js: JetStreamContext,
    live: Engine,
    config: ScoringConfig,
    n: int,
    seed: int | None = None,
    models: tuple[str, ...] = SAMPLED,
    progress: Progress = _quiet,
) -> Report:
    """``n`` matches of each sampled table against a rebuild of just those matches from the log up
    to the positions stored with the rows (module docstring)."""
    started = time.perf_counter()
    report = Report("sample")
    rng = random.Random(seed)
    want_list = "match_list" in models
    history = tuple(m for m in (db.MatchRecord, db.MatchPlayer) if m.__tablename__ in models)
    recent, from_stream = max(n // 4, 1 if n else 0), n // 4
    with Session(live) as session:
        list_upto = db.get_position(session, subjects.MATCH_LIST_CONSUMER)
        score_upto = db.get_position(session, subjects.SCORING_CONSUMER)
    list_picks: dict[str, str] = {}  # match id -> game
    if want_list:
        for _seq, subject, _data in await _stream_picks(
            js, subjects.MATCH_STREAM, list_upto, from_stream, rng
        ):
            list_picks[subjects.match_id_from_subject(subject)] = subjects.game_from_subject(subject)
    finished_picks: dict[str, tuple[int, bytes]] = {}
    if history:
        for seq, _subject, data in await _stream_picks(
            js, subjects.INTEGRATION_STREAM, score_upto, from_stream, rng
        ):
            event = _finished_of(data)
            if event is not None and event.match_id not in finished_picks:
                finished_picks[event.match_id] = (seq, data)
    progress(f"sampling {n} matches")
    with db.snapshot(live) as session:
        list_upto = db.get_position(session, subjects.MATCH_LIST_CONSUMER)
        live_list: rebuild.Snapshot = {}
        if want_list:
            chosen = set(list_picks)
            more = _live_ids(
                session,
                db.StoredMatch.match_id,
                db.StoredMatch.stream_seq,
                chosen,
                recent,
                n,
                rng,
                seed is not None,
            )
            named = select(db.StoredMatch.match_id, db.StoredMatch.game).where(db.StoredMatch.match_id.in_(more))
            games: dict[str, str] = {match_id: game for match_id, game in session.execute(named)}
            list_ids = {**games, **list_picks}
            live_list = rebuild.snapshot(
                session, rebuild.MATCH_LIST, where={"match_list": db.StoredMatch.match_id.in_(list_ids)}
            )
        live_history: rebuild.Snapshot = {}
        if history:
            chosen = set(finished_picks)
            more = _live_ids(
                session,
                db.MatchRecord.match_id,
                func.coalesce(db.MatchRecord.position, -1),
                chosen,
                recent,
                n,
                rng,
                seed is not None,
            )
            hist_ids = chosen | set(more)
            placed = select(db.MatchRecord.match_id, db.MatchRecord.position).where(
                db.MatchRecord.match_id.in_(hist_ids)
            )
            sources: dict[str, int | None] = dict.fromkeys(hist_ids)
            sources.update({match_id: position for match_id, position in session.execute(placed)})
            live_history = rebuild.snapshot(
                session,
                history,
                where={m.__tablename__: m.match_id.in_(hist_ids) for m in history},
            )

    if want_list:
        store = EventStore(js)
        items: list[tuple[int, str, bytes]] = []
        for match_id, game in list_ids.items():
            subject = subjects.match_subject(game, match_id)
            # a row naming a game this build lacks (or an edited one) has no log to fold: the
            # projection never writes such a row, so it is reported as only in the live table;
            # a NATS error fails the check (nothing is reported as differing for it)
            known = game in registry.GAMES and valid_match_id(match_id)
            stored = await store.load(subject, last=list_upto) if list_upto and known else []
            items += [(s.stream_seq, subject, s.data) for s in stored]
        items.sort()
        fresh = rebuild.fresh_engine()
        try:
            await rebuild.rebuild_match_list_into(fresh, MatchList(store), _chunks(items))
            rebuilt = rebuild.snapshot(fresh, rebuild.MATCH_LIST)
        finally:
            fresh.dispose()
        report.add(rebuild.diff_snapshots(live_list, rebuilt).summary())

    if history:
        finished: dict[str, tuple[int, bytes]] = {}
        for match_id, position in sources.items():
            if position is not None:
                msg = await _get(js, subjects.INTEGRATION_STREAM, position)
                event = _finished_of(msg.data or b"") if msg is not None else None
                if event is not None and event.match_id == match_id:
                    finished[match_id] = (position, msg.data or b"")
                    continue
            if match_id in finished_picks:
                finished[match_id] = finished_picks[match_id]
        fresh = rebuild.fresh_engine()
        try:
            await asyncio.to_thread(rebuild.rebuild_into, fresh, sorted(finished.values()), config)
            rebuilt = rebuild.snapshot(fresh, history)
        finally:
            fresh.dispose()
        report.add(rebuild.diff_snapshots(live_history, rebuilt, ignored=SAMPLE_IGNORED).summary())
    report.seconds = time.perf_counter() - started
    return report


# ---------------------------------------------------------------- scoring's periodic run


def export(report: Report, log: Any) -> None:
    """The metric of every table the check covered, and a log line per differing row."""
    now = time.time()
    for table, checked in report.checked.items():
        metrics.DERIVED_DIFFERING.labels(model=table).set(report.differing.get(table, 0))
        metrics.DERIVED_CHECKED.labels(model=table).set(now)
        log.info(
            "derived_checked",
            model=table,
            mode=report.mode,
            checked=checked,
            differing=report.differing.get(table, 0),
        )
    for row in report.rows[:LOGGED_ROWS]:
        log.warning(
            "derived_row_differs", model=row["table"], **{k: v for k, v in row.items() if k != "table"}
        )
    if len(report.rows) > LOGGED_ROWS:
        log.warning("derived_rows_not_logged", more=len(report.rows) - LOGGED_ROWS)


class PeriodicCheck:
    """Scoring's standing check: a sample every ``doctor_every_s`` seconds, the tables of ratings
    in full every ``doctor_full_every_s``, each run in a thread of its own (its own event loop and
    NATS connection) so the projections' batches never wait for it."""

    def __init__(self, settings: Settings, engine: Engine, config: ScoringConfig) -> None:
        self.settings, self.engine, self.config = settings, engine, config
        self.log = logs.get("scoring.doctor")
        self.runs = 0

    async def run(self, stop: asyncio.Event) -> None:
        section = self.settings.scoring
        every, full_every = section.doctor_every_s, section.doctor_full_every_s
        if every <= 0:
            return
        self.log.info(
            "derived_check_scheduled", every_s=every, sample=section.doctor_sample, full_every_s=full_every
        )
        last_full = time.monotonic()
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), every)
                return
            except TimeoutError:
                pass
            full = full_every > 0 and time.monotonic() - last_full >= full_every
            report = await self._in_thread(full, stop)
            if report is not None:
                if full:
                    last_full = time.monotonic()
                export(report, self.log)

    async def _in_thread(self, full: bool, stop: asyncio.Event) -> Report | None:
        """One run in its own thread; None when it failed or the service is stopping."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Report] = loop.create_future()
        halt = threading.Event()

        def settle(result: Report | None, error: BaseException | None) -> None:
            if done.done():
                return
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(result)  # type: ignore[arg-type]

        def work() -> None:
            result: Report | None = None
            error: BaseException | None = None
            try:
                result = asyncio.run(self._check(full, halt))
            except BaseException as exc:  # noqa: BLE001 - reported to the service's loop
                error = exc
            if halt.is_set():
                return  # the service stopped meanwhile (its loop may be closed already)
            with contextlib.suppress(RuntimeError):  # the loop closed after all
                loop.call_soon_threadsafe(settle, result, error)

        threading.Thread(target=work, name="derived-check", daemon=True).start()
        stopping: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait([done, stopping], return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the service cancels what is still running at its stop
            halt.set()
            done.cancel()
            raise
        finally:
            stopping.cancel()
        if not done.done():
            halt.set()  # the thread stops at its next await; what it finds is not wanted
            done.cancel()
            return None
        if done.exception() is not None:
            self.log.warning("derived_check_failed", error=repr(done.exception()))
            return None
        self.runs += 1
        return done.result()

    async def _check(self, full: bool, halt: threading.Event) -> Report:
        settings = self.settings
        nc = await natsio.connect(
            settings.nats_url or "", "gamehall-scoring-check", settings.nats_credential("scoring")
        )
        try:
            work = asyncio.ensure_future(self._checks(nc.jetstream(), full))
            while not work.done():
                await asyncio.wait({work}, timeout=0.2)
                if halt.is_set():
                    work.cancel()
            return work.result()
        finally:
            await nc.close()

    async def _checks(self, js: JetStreamContext, full: bool) -> Report:
        n = self.settings.scoring.doctor_sample
        if not full:
            return await sample_check(js, self.engine, self.config, n)
        report = await full_check(js, self.engine, self.config, SCORING_MODELS, wait_s=30.0)
        sampled = await sample_check(js, self.engine, self.config, n, models=("match_list",))
        report.add({"checked": sampled.checked, "differing": sampled.differing, "rows": sampled.rows})
        report.mode = "full+sample"
        return report
