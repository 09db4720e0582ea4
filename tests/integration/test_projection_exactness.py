"""Every projection applies each stream message exactly once, in stream order, through a crash
at any point (services/common/projection.py): a real nats-server, a real database, and a
projection process killed with SIGKILL.

The first test is the path by which read models lost finished matches: a batch delivered but not
committed when the process died, then new messages, then the projection again.  A reader that
trusts server-side acknowledgements takes the new messages first and one acknowledgement then
covers the lost batch too; a reader that starts from the stored position cannot skip it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from nats.js import JetStreamContext
from nats.js.api import StreamConfig
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from services.cli import rebuild
from services.common import db, metrics, natsio
from services.common.embedded import EmbeddedNats
from services.common.processes import ROOT
from services.common.projection import Projection
from tests.integration.ranked_support import throwaway_database
from tests.support import projection_child as child

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", "pg"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


class Lane:
    """A stream of its own: ``<prefix>.a`` is projected, ``<prefix>.b`` is not (so the projected
    stream sequences have holes, as every filtered projection's do)."""

    def __init__(self, js: JetStreamContext) -> None:
        tag = secrets.token_hex(4)
        self.js = js
        self.stream = f"T_EXACT_{tag}"
        self.prefix = f"texact.{tag}"
        self.subject = f"{self.prefix}.a"
        self.name = f"exact-{tag}"
        self.wanted: list[int] = []

    async def create(self) -> None:
        await self.js.add_stream(StreamConfig(name=self.stream, subjects=[f"{self.prefix}.>"]))

    async def publish(self, count: int) -> None:
        for i in range(count):
            ack = await self.js.publish(self.subject, f"m{len(self.wanted)}".encode())
            self.wanted.append(ack.seq)
            if i % 3 == 0:
                await self.js.publish(f"{self.prefix}.b", b"not projected")

    async def drop(self) -> None:
        await self.js.delete_stream(self.stream)


def position(engine: object, name: str) -> int:
    with Session(engine) as session:  # type: ignore[arg-type]
        return db.get_position(session, name)


async def until(predicate, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def out_of_order(name: str) -> float:
    return sum(
        metrics.CONSUMER_OUT_OF_ORDER.labels(consumer=name, kind=kind)._value.get()  # noqa: SLF001
        for kind in ("gap", "repeat")
    )


@dataclass
class Running:
    js: JetStreamContext
    lane: Lane
    engine: Engine
    projection: Projection
    task: asyncio.Task[None]

    def position(self) -> int:
        return position(self.engine, self.lane.name)


@asynccontextmanager
async def projected(nats_url: str, db_url: str, **options: object) -> AsyncIterator[Running]:
    """A lane of its own, projected into ``db_url`` by a running projection (``options``: its
    ProjectionOptions), stopped and cleaned up afterwards."""
    nc = await natsio.connect(nats_url, "test")
    js = nc.jetstream()
    lane = Lane(js)
    await lane.create()
    engine = child.prepare_database(db_url)
    stop = asyncio.Event()
    projection = child.projection(js, engine, lane.stream, lane.subject, lane.name, **options)
    task = asyncio.create_task(projection.run(stop))
    try:
        yield Running(js, lane, engine, projection, task)
    finally:
        stop.set()
        await task
        engine.dispose()
        with contextlib.suppress(Exception):  # a test may have taken the server away
            await lane.drop()
        await nc.close()


async def test_a_batch_delivered_then_killed_before_its_commit_is_applied_after_new_messages(
    nats_url: str, db_url: str
) -> None:
    nc = await natsio.connect(nats_url, "test")
    js = nc.jetstream()
    lane = Lane(js)
    await lane.create()
    try:
        await lane.publish(20)
        engine = child.prepare_database(db_url)
        # 1. a projection process receives its first batch and is killed inside its transaction
        proc = subprocess.run(
            [sys.executable, "-m", "tests.support.projection_child", nats_url, db_url, lane.stream, lane.subject,
             lane.name, "--die-in-first-batch"],
            cwd=ROOT, capture_output=True, timeout=120,
        )
        assert proc.returncode == -9, proc.stderr.decode()[-2000:]
        assert position(engine, lane.name) == 0 and child.applied(engine) == []
        # 2. new messages come before the projection does
        await lane.publish(10)
        # 3. the projection again: every message once, in order, none skipped
        stop = asyncio.Event()
        again = child.projection(js, engine, lane.stream, lane.subject, lane.name, batch_size=8)
        task = asyncio.create_task(again.run(stop))
        await until(lambda: position(engine, lane.name) >= lane.wanted[-1] or task.done(), "the last message")
        stop.set()
        await task
        assert child.applied(engine) == lane.wanted
        assert out_of_order(lane.name) == 0
        engine.dispose()
    finally:
        await lane.drop()
        await nc.close()


async def test_a_lost_consumer_and_a_moved_position_read_again_from_the_stored_position(
    nats_url: str, db_url: str
) -> None:
    """The reader's consumer deleted under it (as a restarted nats-server loses it), then the
    stored position set back with its rows (as a rebuild does): the projection starts again from
    what is stored each time, and every message is applied exactly once."""
    async with projected(nats_url, db_url, batch_size=5, lag_every_s=0.2) as run:
        lane, engine = run.lane, run.engine
        await lane.publish(12)
        await until(lambda: run.position() >= lane.wanted[-1], "the first messages")
        await run.js.delete_consumer(lane.stream, run.projection.reader.consumer)
        await lane.publish(12)
        await until(lambda: run.position() >= lane.wanted[-1], "the messages after the lost consumer")
        assert run.projection.restarts >= 1
        # a rebuild puts back an older state: rows and position as of the 6th message
        back_to = lane.wanted[5]
        with db.session_scope(engine) as session:
            session.execute(text(f"DELETE FROM {child.TABLE} WHERE seq > :s"), {"s": back_to})
            session.get(db.ProjectionPosition, lane.name).position = back_to  # type: ignore[union-attr]
        await lane.publish(3)
        await until(lambda: child.applied(engine) == lane.wanted, "the rows set back to be applied again")
        assert run.position() == lane.wanted[-1]
        assert out_of_order(lane.name) == 0


async def test_while_the_database_refuses_writes_the_lag_grows_and_nothing_is_skipped(
    nats_url: str, tmp_path: Path
) -> None:
    """SQLite locked by another writer: batches are retried, the lag read from the server grows
    (it is not frozen at the last good batch), and once the lock goes every message is there."""
    file = tmp_path / "locked.sqlite3"
    async with projected(nats_url, f"sqlite:///{file}", batch_size=4, lag_every_s=0.2, retry_s=0.05) as run:
        lane = run.lane
        locker = sqlite3.connect(str(file), isolation_level=None, check_same_thread=False)
        try:
            await lane.publish(3)
            await until(lambda: run.position() >= lane.wanted[-1], "the first messages")
            locker.execute("BEGIN EXCLUSIVE")
            await lane.publish(10)
            lag = metrics.CONSUMER_LAG.labels(consumer=lane.name)
            await until(lambda: lag._value.get() >= 10, "the lag to show the messages not committed")  # noqa: SLF001
            locker.execute("COMMIT")
            await until(lambda: run.position() >= lane.wanted[-1], "the messages after the lock")
            assert child.applied(run.engine) == lane.wanted
            await until(lambda: lag._value.get() == 0, "the lag back to 0")  # noqa: SLF001
        finally:
            locker.close()


async def test_a_transaction_the_database_refuses_is_retried_with_the_same_batch(nats_url: str, tmp_path: Path) -> None:
    """The database's refusal (here an OperationalError in the middle of a batch) rolls the batch
    back and the same batch is applied again: counted, nothing lost, nothing twice."""
    refused: list[int] = []

    def refuse_once(count: int) -> None:
        if count == 3 and not refused:
            refused.append(count)
            raise OperationalError("INSERT ...", {}, Exception("database is locked"))

    url = f"sqlite:///{tmp_path / 'refused.sqlite3'}"
    async with projected(nats_url, url, batch_size=6, retry_s=0.01, fault=refuse_once) as run:
        failures = metrics.CONSUMER_COMMIT_FAILURES.labels(consumer=run.lane.name)
        await run.lane.publish(9)
        await until(lambda: run.position() >= run.lane.wanted[-1] or run.task.done(), "every message")
        assert refused and failures._value.get() == 1  # noqa: SLF001
        assert child.applied(run.engine) == run.lane.wanted


async def test_a_nats_server_killed_and_started_again_loses_the_reader_not_a_message(tmp_path: Path) -> None:
    """nats-server SIGKILLed under a running projection and started again on the same store: the
    reader's consumer (in the server's memory) is gone, the projection makes it again from its
    stored position, and the messages published before and after are each applied once."""
    server = EmbeddedNats(tmp_path / "nats").start()
    try:
        url = f"sqlite:///{tmp_path / 'restarted.sqlite3'}"
        async with projected(server.url, url, batch_size=4, lag_every_s=0.2) as run:
            lane = run.lane
            await lane.publish(10)
            await until(lambda: run.position() >= lane.wanted[-1], "the first messages")
            server.kill()
            server = EmbeddedNats(tmp_path / "nats", port=server.port).start()

            async def published_again() -> None:
                deadline = asyncio.get_running_loop().time() + 60
                while True:  # JetStream answers a moment after the port opens
                    try:
                        await lane.publish(10)
                        return
                    except Exception:  # noqa: BLE001 - not ready yet
                        assert asyncio.get_running_loop().time() < deadline
                        await asyncio.sleep(0.2)

            await published_again()
            # what the stream holds (a publish cut off by the restart may be stored without its ack)
            stored = [seq for seq, _ in await rebuild.read_subject(run.js, lane.subject, stream=lane.stream)]
            await until(lambda: run.position() >= stored[-1], "the messages after the restart")
            assert child.applied(run.engine) == stored
            assert run.projection.restarts >= 1
            assert out_of_order(lane.name) == 0
    finally:
        server.stop()
