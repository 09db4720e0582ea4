"""Durable JetStream push consumer -> SQL projection, with the position in the same transaction.

Used by scoring (finished matches, rulings, the list of stored matches) and leaderboard.  Messages arrive through a callback into a queue; a writer takes
up to ``batch_size`` of them, applies them in ONE database transaction that also stores the last
stream sequence applied (like the tracking table of the ``eventsourcing`` library), commits, and
only then acks them.  A message at or below the stored position is a redelivery: acked, not
applied.  A crash before the commit rolls the batch back and the unacked messages come again.

nats-py is used directly (not faststream): faststream's batch pull with ``AckPolicy.ALL`` skipped
events in measurement, and its per-message overhead is ~10x raw nats-py (ARCHITECTURE §6).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError
from sqlalchemy import Engine, insert
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
    linger_s: float = 0.005
    ack_wait_s: float = 30.0
    # fault injection for tests: called after each applied message inside the transaction
    fault: Callable[[int], None] | None = None
    # tests: nak every message once after committing it, so every message is delivered twice
    # (explicit acks then, one per message)
    redeliver_once: bool = False
    seen: set[int] = field(default_factory=set)
    # The database's position decides where the consumer starts: a durable consumer that is ahead
    # of it (the database is new, or was restored from an older copy) is replaced by one starting
    # right after the stored position, so the rows are filled from the stream.
    resume_from_database: bool = False


def apply_batch(
    engine: Engine,
    name: str,
    messages: list[tuple[int, bytes]],
    apply: ApplyFn,
    fault: Callable[[int], None] | None = None,
    prefetch: PrefetchFn | None = None,
) -> BatchResult:
    """One transaction: every message above the stored position, then the new position."""
    result = BatchResult()
    with db.session_scope(engine) as session:
        position = db.get_position(session, name)
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


INSERTS = "_inserts"


def queue_insert(cache: dict[Any, Any], model: type[Any], row: dict[str, Any]) -> None:
    """Append-only rows go out as one executemany per table at the end of the batch."""
    cache.setdefault(INSERTS, {}).setdefault(model, []).append(row)


def flush_inserts(session: Session, cache: dict[Any, Any]) -> None:
    session.flush()
    for model, rows in cache.pop(INSERTS, {}).items():
        if rows:
            session.execute(insert(model), rows)


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
    ) -> None:
        """``lock``: shared by the projections of one service that write the same tables, so
        their batches commit one at a time (scoring's matches and rulings).  ``prepare``: awaited
        with each batch before its transaction."""
        self.prefetch = prefetch
        self.prepare = prepare
        self.stream = stream
        self.lock = lock
        self.js = js
        self.engine = engine
        self.name = name
        self.filter_subject = filter_subject
        self.apply = apply
        self.after_commit = after_commit
        self.options = options or ProjectionOptions()
        self.queue: asyncio.Queue[Msg] = asyncio.Queue()
        self.log = logs.get(f"projection.{name}")
        self.applied_total = 0
        self.batches = 0

    async def _on_message(self, msg: Msg) -> None:
        self.queue.put_nowait(msg)

    async def _start_after_stored_position(self) -> tuple[DeliverPolicy, int | None]:
        with db.session_scope(self.engine) as session:
            position = db.get_position(session, self.name)
        try:
            info = await self.js.consumer_info(self.stream, self.name)
        except NotFoundError:
            info = None
        if info is not None and (info.ack_floor is None or (info.ack_floor.stream_seq or 0) != position):
            self.log.info("projection_restarted_from_database", consumer=self.name, position=position)
            await self.js.delete_consumer(self.stream, self.name)
        if position == 0:
            return DeliverPolicy.ALL, None
        return DeliverPolicy.BY_START_SEQUENCE, position + 1

    async def run(self, stop: asyncio.Event) -> None:
        opts = self.options
        deliver, start = DeliverPolicy.ALL, None
        if opts.resume_from_database:
            deliver, start = await self._start_after_stored_position()
        config = ConsumerConfig(
            durable_name=self.name,
            # a batch commits atomically and holds messages in delivery order, so acking its last
            # message acks it all: one ack per batch instead of one per message
            ack_policy=AckPolicy.EXPLICIT if opts.redeliver_once else AckPolicy.ALL,
            deliver_policy=deliver,
            opt_start_seq=start,
            max_ack_pending=max(opts.batch_size * 4, 1000),
            ack_wait=opts.ack_wait_s,
            filter_subject=self.filter_subject,
        )
        sub = await self.js.subscribe(
            self.filter_subject,
            stream=self.stream,
            durable=self.name,
            cb=self._on_message,
            manual_ack=True,
            config=config,
            pending_msgs_limit=-1,
        )
        self.log.info("projection_started", consumer=self.name, subject=self.filter_subject)
        stopper = asyncio.create_task(stop.wait())
        try:
            if self.after_commit is not None:
                async with self.lock if self.lock is not None else contextlib.nullcontext():
                    await self.after_commit()  # publish what a previous run committed but did not send
            while not stop.is_set():
                getter = asyncio.create_task(self.queue.get())
                done, _ = await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                batch = [getter.result()]
                deadline = time.monotonic() + opts.linger_s
                while len(batch) < opts.batch_size:
                    if self.queue.empty():
                        remaining = deadline - time.monotonic()
                        if remaining <= 0:
                            break
                        await asyncio.sleep(min(remaining, 0.001))
                        continue
                    batch.append(self.queue.get_nowait())
                await self._commit(batch)
        finally:
            stopper.cancel()
            with contextlib.suppress(Exception):
                await sub.unsubscribe()

    async def _commit(self, batch: list[Msg]) -> None:
        async with self.lock if self.lock is not None else contextlib.nullcontext():
            await self._commit_locked(batch)

    async def _commit_locked(self, batch: list[Msg]) -> None:
        items = [(m.metadata.sequence.stream, m.data) for m in batch]
        if self.prepare is not None:
            await self.prepare([(m.metadata.sequence.stream, m.subject, m.data) for m in batch])
        result = await asyncio.to_thread(
            apply_batch, self.engine, self.name, items, self.apply, self.options.fault, self.prefetch
        )
        self.batches += 1
        self.applied_total += result.applied
        metrics.CONSUMER_EVENTS.labels(consumer=self.name).inc(result.applied)
        metrics.CONSUMER_LAG.labels(consumer=self.name).set(batch[-1].metadata.num_pending or 0)
        if self.after_commit is not None and result.applied:
            await self.after_commit()
        if not self.options.redeliver_once:
            await max(batch, key=lambda m: m.metadata.sequence.stream).ack()
        else:
            for msg in batch:
                seq = msg.metadata.sequence.stream
                if seq not in self.options.seen:
                    self.options.seen.add(seq)
                    await msg.nak()
                else:
                    await msg.ack()
        self.log.debug(
            "batch_committed",
            consumer=self.name,
            applied=result.applied,
            skipped=result.skipped,
            position=result.position,
        )
