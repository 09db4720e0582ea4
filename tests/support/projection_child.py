"""A projection of a test stream, run as its own process so that a test can SIGKILL it.

``python -m tests.support.projection_child NATS_URL DB_URL STREAM FILTER NAME [--die-in-first-batch]``

Every applied message becomes a row of ``exact_applied`` (its stream sequence is the primary
key: a message applied twice is an error).  With ``--die-in-first-batch`` the process kills
itself with SIGKILL while its first batch is applied, after that batch was delivered and before
its transaction commits.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from services.common import db, natsio
from services.common.projection import Projection, ProjectionOptions

TABLE = "exact_applied"


def prepare_database(url: str) -> Engine:
    engine = db.open_database(url)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE TABLE IF NOT EXISTS {TABLE} (seq BIGINT PRIMARY KEY, data TEXT NOT NULL)"))
    return engine


def apply(session: Session, seq: int, data: bytes, cache: dict[Any, Any]) -> None:
    session.execute(text(f"INSERT INTO {TABLE} (seq, data) VALUES (:seq, :data)"), {"seq": seq, "data": data.decode()})


def applied(engine: Engine) -> list[int]:
    with engine.connect() as conn:
        return [int(r[0]) for r in conn.execute(text(f"SELECT seq FROM {TABLE} ORDER BY seq"))]


def projection(js: Any, engine: Engine, stream: str, subject: str, name: str, **options: Any) -> Projection:
    return Projection(js, engine, name, subject, apply, stream=stream, options=ProjectionOptions(**options))


async def main(argv: list[str]) -> None:
    nats_url, db_url, stream, subject, name = argv[:5]
    die = "--die-in-first-batch" in argv
    engine = prepare_database(db_url)
    nc = await natsio.connect(nats_url, "projection-child")

    def fault(count: int) -> None:
        if die:
            os.kill(os.getpid(), signal.SIGKILL)

    await projection(nc.jetstream(), engine, stream, subject, name, batch_size=8, fault=fault).run(asyncio.Event())


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
