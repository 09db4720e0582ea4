"""JetStream stream -> SQL projection, exact through any crash: each message applied once, in
stream order, its position stored in the same transaction as its effects.

Used by scoring (finished matches, rulings, the list of stored matches) and leaderboard.  The
database is the only record of how far a projection got (like the tracking table of the
``eventsourcing`` library): at start, and whenever anything looks wrong, the projection reads its
stored position and reads the stream again from the message after it.  Nothing is acked, so no
server-side state can say a message was handled when its transaction did not commit.

- The reader is an ephemeral pull consumer (no acks, in memory on the server) that starts right
  after the stored position.  Every message it hands over is checked: its consumer sequence must
  follow the previous one's (no delivery missed) and its stream sequence must be above the last
  (no repeat).  A message out of order is never applied: the reader starts again from the stored
  position, and ``gamehall_consumer_out_of_order_total`` counts it (0 on a healthy stack).
- A batch is applied in ONE transaction that first reads (and locks) the stored position: when it
  is not the one the projection committed last (a rebuild replaced the tables, another writer
  ran), nothing is applied and the reader starts again from what is stored.
- A transaction the database refuses (down, locked) is retried with the same batch until it
  commits; nothing is skipped and the lag keeps growing where it can be seen.  Any other error
  ends the run (the service restarts and resumes from the stored position).
- The lag is read from the server every few seconds: what it still holds for the reader plus what
  the projection holds uncommitted (``gamehall_consumer_lag_events``), so it grows while the
  database is down.

nats-py is used directly (not faststream): its per-message overhead is ~10x raw nats-py
(ARCHITECTURE §6).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import nats.errors
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError
from sqlalchemy import Engine, insert
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.orm import Session

from contracts import subjects
from services.common import db, logs, metrics

ApplyFn = Callable[[Session, int, bytes, dict[Any, Any]], None]
"""(session, stream sequence, message bytes, per-batch cache) -> None; raise to abort the batch."""

PrefetchFn = Callable[[Session, list[bytes], dict[Any, Any]], None]
"""Loads every row a batch will touch in a few queries into the per-batch cache."""

PrepareFn = Callable[[list[tuple[int, str, bytes]]], Awaitable[None]]
"""Awaited with a batch's (stream sequence, subject, bytes) before its transaction: work that
needs I/O other than the database (the match list reads a match's earlier log)."""


@dataclass
class BatchResult:
    applied: int = 0
    skipped: int = 0
    position: int = 0


@dataclass
class ProjectionOptions:
    batch_size: int = 500
    # how long a batch waits for more messages once its first one is there
    linger_s: float = 0.005
    # after a batch that was not full, how long from its start until the next one is read: a
    # projection that writes one row per key (the match list) then takes a key's decisions of
    # that time in one batch and one row, instead of a transaction per few messages; the first
    # message after a quiet spell is still read at once
    gather_s: float = 0.0
    # how long one fetch waits for a first message (then the loop looks at ``stop`` again)
    idle_s: float = 1.0
    # how often the lag is read from the server and the reader's consumer checked
    lag_every_s: float = 2.0
    # first wait before retrying a batch the database refused (doubles up to 5 s)
    retry_s: float = 0.2
    # fault injection for tests: called after each applied message inside the transaction
    fault: Callable[[int], None] | None = None
    # tests: after committing a batch, read it again once (every message then comes twice, the
    # second time at or below the stored position: not applied)
    replay_once: bool = False
    replayed: set[int] = field(default_factory=set)


class PositionMoved(Exception):
    """The stored position is not the one this projection committed last."""

    def __init__(self, stored: int, expected: int) -> None:
        super().__init__(f"stored position {stored}, expected {expected}")
        self.stored = stored
        self.expected = expected


def apply_batch(
    engine: Engine,
    name: str,
    messages: list[tuple[int, bytes]],
    apply: ApplyFn,
    fault: Callable[[int], None] | None = None,
    prefetch: PrefetchFn | None = None,
    expected: int | None = None,
) -> BatchResult:
    """One transaction: every message above the stored position, then the new position.

    ``expected``: the position the caller committed last; when the stored one differs,
    :class:`PositionMoved` and nothing is written (the caller reads again from what is stored)."""
    result = BatchResult()
    with db.session_scope(engine) as session:
        position = db.get_position(session, name, lock=True)
        if expected is not None and position != expected:
            raise PositionMoved(position, expected)
        cache: dict[Any, Any] = {}
        fresh = [(seq, data) for seq, data in messages if seq > position]
        result.skipped = len(messages) - len(fresh)
        if fresh and prefetch is not None:
            prefetch(session, [data for _, data in fresh], cache)
        with session.no_autoflush:  # one flush at commit: inserts and updates go out in bulk
            for seq, data in fresh:
                if seq <= position:
                    result.skipped += 1  # the same message twice in one batch
                    continue
                apply(session, seq, data, cache)
                position = seq
                result.applied += 1
                if fault is not None:
                    fault(result.applied)
            flush_inserts(session, cache)
        db.set_position(session, name, position)
        result.position = position
    return result


# What the database raises when it is down, locked or cut off: the batch is retried.
RETRIED = (OperationalError, InterfaceError)


def _retried(exc: BaseException) -> bool:
    return isinstance(exc, RETRIED) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


INSERTS = "_inserts"


def queue_insert(cache: dict[Any, Any], model: type[Any], row: dict[str, Any]) -> None:
    """Append-only rows go out as one executemany per table at the end of the batch."""
    cache.setdefault(INSERTS, {}).setdefault(model, []).append(row)


AT_END = "_at_end"


def at_end(cache: dict[Any, Any], key: str, write: Callable[[Session], None]) -> None:
    """Run ``write`` once at the end of the batch, inside its transaction, after the inserts (an
    apply that gathers its rows and writes them in one statement registers it with each row)."""
    cache.setdefault(AT_END, {}).setdefault(key, write)


def flush_inserts(session: Session, cache: dict[Any, Any]) -> None:
    session.flush()
    for model, rows in cache.pop(INSERTS, {}).items():
        if rows:
            session.execute(insert(model), rows)
    for write in cache.pop(AT_END, {}).values():
        write(session)


_HEARTBEAT = "100"


class OutOfOrder(Exception):
    """The reader handed over a message that does not follow the one before it."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


class ReaderLost(Exception):
    """The reader's consumer is gone (nats-server restarted) or the server did not answer."""


class StreamReader:
    """The messages of one stream that match a filter, from a stream sequence on, in order: an
    ephemeral pull consumer without acks, every message checked against the one before it."""

    def __init__(self, js: JetStreamContext, stream: str, filter_subject: str, name: str) -> None:
        self.js = js
        self.stream = stream
        self.filter_subject = filter_subject
        self.name = name
        self.consumer = ""
        self.sub: JetStreamContext.PullSubscription | None = None
        self.next_consumer_seq = 1
        self.last_stream_seq = 0
        self.num_pending = 0

    async def start(self, after: int) -> None:
        """Read from the first message above stream sequence ``after``."""
        await self.close()
        self.consumer = f"{self.name}-{secrets.token_hex(6)}"
        config = ConsumerConfig(
            name=self.consumer,
            ack_policy=AckPolicy.NONE,
            deliver_policy=DeliverPolicy.BY_START_SEQUENCE if after else DeliverPolicy.ALL,
            opt_start_seq=after + 1 if after else None,
            filter_subject=self.filter_subject,
            inactive_threshold=600.0,  # the server drops it ten minutes after this process is gone
            mem_storage=True,
            num_replicas=1,
        )
        await self.js.add_consumer(self.stream, config=config)
        self.sub = await self.js.pull_subscribe_bind(consumer=self.consumer, stream=self.stream)
        self.next_consumer_seq = 1
        self.last_stream_seq = after

    async def close(self) -> None:
        sub, consumer = self.sub, self.consumer
        self.sub, self.consumer = None, ""
        if sub is not None:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        if consumer:
            with contextlib.suppress(Exception):
                await self.js.delete_consumer(self.stream, consumer)

    async def fetch(self, batch_size: int, idle_s: float, linger_s: float) -> list[Msg]:
        """Up to ``batch_size`` messages: waits up to ``idle_s`` for the first, then ``linger_s``
        for more.  ``[]`` when none came; :class:`OutOfOrder` or :class:`ReaderLost` when the
        reader must start again."""
        assert self.sub is not None
        try:
            first = await self.sub.fetch(1, timeout=idle_s)
        except (TimeoutError, nats.errors.TimeoutError):
            return []
        except nats.errors.Error as exc:
            raise ReaderLost(f"{type(exc).__name__}: {exc}") from exc
        batch = list(first)
        # then more, as long as the server says it holds more and the batch has room
        while len(batch) < batch_size and batch[-1].metadata.num_pending:
            try:
                more = await self._more(batch_size - len(batch), max(linger_s, 0.002))
            except (TimeoutError, nats.errors.TimeoutError):
                break
            except nats.errors.Error:
                break  # what came is kept; the next fetch finds out whether the reader is lost
            if not more:
                break
            batch += more
        for msg in batch:
            self.check(msg)
        if batch:
            self.num_pending = int(batch[-1].metadata.num_pending or 0)
        return batch

    async def _more(self, count: int, timeout: float) -> list[Msg]:
        """Up to ``count`` messages the server holds now (one pull request with ``no_wait``),
        taken off the subscription's queue as they come, under one timer.  nats-py's ``fetch``
        awaits each message under a timer of its own (``asyncio.wait_for``: a task and a timer
        per message), which cost more CPU than the rest of the match list's delivery; this reads
        the same pull subscription the same way, through the attributes ``fetch`` itself uses,
        and falls back to ``fetch`` when they are not there."""
        sub = self.sub
        assert sub is not None
        inner = getattr(sub, "_sub", None)
        queue = getattr(inner, "_pending_queue", None)
        if queue is None or not hasattr(sub, "_nms") or not hasattr(sub, "_deliver"):
            return await sub.fetch(count, timeout=timeout)
        if not queue.empty():  # what came after an earlier request: that fetch's own path
            return await sub.fetch(count, timeout=timeout)
        await sub._nc.publish(sub._nms, b'{"batch":%d,"no_wait":true}' % count, sub._deliver)
        msgs: list[Msg] = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while len(msgs) < count:
                    msg = await queue.get()
                    inner._pending_size -= len(msg.data)
                    status = JetStreamContext.is_status_msg(msg)
                    if status == _HEARTBEAT:
                        continue
                    if status:  # 404 no more messages, 408, or an error the next fetch raises
                        break
                    msgs.append(msg)
        return msgs

    def check(self, msg: Msg) -> None:
        """``msg`` must be the next delivery of this consumer, above the last stream sequence."""
        meta = msg.metadata
        consumer_seq, stream_seq = meta.sequence.consumer, meta.sequence.stream
        if consumer_seq != self.next_consumer_seq:
            raise OutOfOrder(
                "gap" if consumer_seq > self.next_consumer_seq else "repeat",
                f"delivery {consumer_seq} (stream {stream_seq}) where {self.next_consumer_seq} was next",
            )
        if stream_seq <= self.last_stream_seq:
            raise OutOfOrder("repeat", f"stream sequence {stream_seq} after {self.last_stream_seq}")
        self.next_consumer_seq += 1
        self.last_stream_seq = stream_seq

    async def pending(self) -> int:
        """What the server still holds for this reader (read from the server now)."""
        if not self.consumer:
            raise ReaderLost("no consumer")
        try:
            info = await self.js.consumer_info(self.stream, self.consumer, timeout=2.0)
        except NotFoundError as exc:
            raise ReaderLost(f"consumer {self.consumer} is gone") from exc
        self.num_pending = int(info.num_pending or 0)
        return self.num_pending


class Projection:
    def __init__(
        self,
        js: JetStreamContext,
        engine: Engine,
        name: str,
        filter_subject: str,
        apply: ApplyFn,
        after_commit: Callable[[], Awaitable[None]] | None = None,
        options: ProjectionOptions | None = None,
        prefetch: PrefetchFn | None = None,
        stream: str = subjects.INTEGRATION_STREAM,
        lock: asyncio.Lock | None = None,
        prepare: PrepareFn | None = None,
        on_restart: Callable[[], None] | None = None,
    ) -> None:
        """``lock``: shared by the projections of one service that write the same tables, so
        their batches commit one at a time (scoring's matches and rulings).  ``prepare``: awaited
        with each batch before its transaction.  ``on_restart``: called whenever the reader starts
        again from the stored position (a projection that keeps a cache of what it folded drops
        it there)."""
        self.prefetch = prefetch
        self.prepare = prepare
        self.on_restart = on_restart
        self.stream = stream
        self.lock = lock
        self.js = js
        self.engine = engine
        self.name = name
        self.filter_subject = filter_subject
        self.apply = apply
        self.after_commit = after_commit
        self.options = options or ProjectionOptions()
        self.reader = StreamReader(js, stream, filter_subject, name)
        self.log = logs.get(f"projection.{name}")
        self.committed = 0  # the stored position as this projection last wrote or read it
        self.held = 0  # messages read but not committed yet
        self.applied_total = 0
        self.batches = 0
        self.restarts = 0
        self._lost = False
        for kind in ("gap", "repeat"):
            metrics.CONSUMER_OUT_OF_ORDER.labels(consumer=name, kind=kind)
        metrics.CONSUMER_COMMIT_FAILURES.labels(consumer=name)

    def _stored_position(self) -> int:
        with db.session_scope(self.engine) as session:
            return db.get_position(session, self.name)

    async def _restart(self, reason: str) -> None:
        """Read the stored position and start the reader right after it."""
        self.committed = await asyncio.to_thread(self._stored_position)
        self.held = 0
        if self.on_restart is not None:
            self.on_restart()
        await self.reader.start(self.committed)
        self._lost = False
        metrics.CONSUMER_POSITION.labels(consumer=self.name).set(self.committed)
        self.log.info("projection_reading", consumer=self.name, after=self.committed, reason=reason)

    async def _start(self, stop: asyncio.Event) -> bool:
        """The first start: retried while NATS or the database do not answer."""
        delay = self.options.retry_s
        while not stop.is_set():
            try:
                # a durable consumer of this name is what an older version read with: drop it
                with contextlib.suppress(NotFoundError):
                    await self.js.delete_consumer(self.stream, self.name)
                await self._restart("start")
                return True
            except (nats.errors.Error, *RETRIED) as exc:
                self.log.warning("projection_start_failed", consumer=self.name, error=str(exc))
                await _sleep_or_stop(stop, delay)
                delay = min(delay * 2, 5.0)
        return False

    async def run(self, stop: asyncio.Event) -> None:
        opts = self.options
        if not await self._start(stop):
            return
        metrics.CONSUMER_LAST_COMMIT.labels(consumer=self.name).set(time.time())
        self.log.info("projection_started", consumer=self.name, subject=self.filter_subject, after=self.committed)
        watcher = asyncio.create_task(self._watch_lag(stop))
        try:
            if self.after_commit is not None:
                async with self.lock if self.lock is not None else contextlib.nullcontext():
                    await self.after_commit()  # publish what a previous run committed but did not send
            while not stop.is_set():
                if self._lost:
                    await self._restart_or_wait("consumer lost", stop)
                    continue
                try:
                    batch = await self.reader.fetch(opts.batch_size, opts.idle_s, opts.linger_s)
                except OutOfOrder as exc:
                    metrics.CONSUMER_OUT_OF_ORDER.labels(consumer=self.name, kind=exc.kind).inc()
                    self.log.error("projection_out_of_order", consumer=self.name, kind=exc.kind, detail=str(exc))
                    await self._restart_or_wait(f"out of order: {exc}", stop)
                    continue
                except ReaderLost as exc:
                    self.log.warning("projection_reader_lost", consumer=self.name, error=str(exc))
                    await self._restart_or_wait("reader lost", stop)
                    continue
                if batch:
                    started = time.monotonic()
                    await self._commit(batch, stop)
                    rest = opts.gather_s - (time.monotonic() - started)
                    if rest > 0 and len(batch) < opts.batch_size:
                        await _sleep_or_stop(stop, rest)
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await self.reader.close()

    async def _restart_or_wait(self, reason: str, stop: asyncio.Event) -> None:
        self.restarts += 1
        label = "consumer_lost" if reason in ("consumer lost", "reader lost") else (
            "position_moved" if reason == "position moved" else "out_of_order"
        )
        metrics.CONSUMER_RESETS.labels(consumer=self.name, reason=label).inc()
        try:
            await self._restart(reason)
        except (nats.errors.Error, *RETRIED) as exc:
            self._lost = True
            self.log.warning("projection_restart_failed", consumer=self.name, error=str(exc))
            await _sleep_or_stop(stop, 1.0)

    async def _watch_lag(self, stop: asyncio.Event) -> None:
        """Every few seconds: the lag from the server's count of what it still holds for the
        reader, plus what is held here uncommitted; a reader whose consumer is gone is marked."""
        while not stop.is_set():
            await _sleep_or_stop(stop, self.options.lag_every_s)
            try:
                try:
                    lag = await self.reader.pending() + self.held
                except ReaderLost:
                    self._lost = True
                    # no consumer to ask (the server dropped it while a batch waited for the
                    # database): the stream's last sequence against the stored one, an upper bound
                    info = await self.js.stream_info(self.stream)
                    lag = max(int(info.state.last_seq or 0) - self.committed, self.held)
            except (TimeoutError, nats.errors.Error):
                continue  # NATS does not answer: readiness says so
            metrics.CONSUMER_LAG.labels(consumer=self.name).set(lag)

    async def _commit(self, batch: list[Msg], stop: asyncio.Event) -> None:
        self.held = len(batch)
        delay = self.options.retry_s
        while True:
            try:
                async with self.lock if self.lock is not None else contextlib.nullcontext():
                    result = await self._commit_locked(batch)
                break
            except PositionMoved as moved:
                self.log.warning("projection_position_moved", consumer=self.name, stored=moved.stored, expected=moved.expected)
                await self._restart_or_wait("position moved", stop)
                return
            except Exception as exc:  # noqa: BLE001 - only the database's refusals are retried
                if not _retried(exc):
                    raise
                metrics.CONSUMER_COMMIT_FAILURES.labels(consumer=self.name).inc()
                metrics.CONSUMER_LAG.labels(consumer=self.name).set(self.reader.num_pending + self.held)
                self.log.warning("projection_commit_failed", consumer=self.name, error=str(exc).splitlines()[0], retry_s=delay)
                if stop.is_set():
                    return
                await _sleep_or_stop(stop, delay)
                delay = min(delay * 2, 5.0)
        self.held = 0
        self.committed = result.position
        self.batches += 1
        self.applied_total += result.applied
        metrics.CONSUMER_EVENTS.labels(consumer=self.name).inc(result.applied)
        metrics.CONSUMER_POSITION.labels(consumer=self.name).set(result.position)
        metrics.CONSUMER_LAST_COMMIT.labels(consumer=self.name).set(time.time())
        metrics.CONSUMER_LAG.labels(consumer=self.name).set(self.reader.num_pending)
        self.log.debug(
            "batch_committed", consumer=self.name, applied=result.applied, skipped=result.skipped, position=result.position
        )
        first = batch[0].metadata.sequence.stream
        if self.options.replay_once and first not in self.options.replayed:
            self.options.replayed.add(first)
            await self.reader.start(first - 1)  # read the batch again (a test of redelivery)

    async def _commit_locked(self, batch: list[Msg]) -> BatchResult:
        items = [(m.metadata.sequence.stream, m.data) for m in batch]
        if self.prepare is not None:
            await self.prepare([(m.metadata.sequence.stream, m.subject, m.data) for m in batch])
        result = await asyncio.to_thread(
            apply_batch,
            self.engine,
            self.name,
            items,
            self.apply,
            self.options.fault,
            self.prefetch,
            self.committed,
        )
        if self.after_commit is not None and result.applied:
            await self.after_commit()
        return result


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
