"""Publish the outbox: RatingApplied events committed with the ratings that produced them."""

from __future__ import annotations

import asyncio

from nats.js import JetStreamContext
from sqlalchemy import Engine, delete, select

from contracts import subjects
from services.common import db


def _pending(engine: Engine, limit: int) -> list[tuple[int, str, str, bytes]]:
    with db.session_scope(engine) as session:
        rows = session.execute(
            select(db.Outbox.id, db.Outbox.subject, db.Outbox.msg_id, db.Outbox.data)
            .order_by(db.Outbox.id)
            .limit(limit)
        ).all()
        return [(r[0], r[1], r[2], r[3]) for r in rows]


def _delete(engine: Engine, ids: list[int]) -> None:
    with db.session_scope(engine) as session:
        session.execute(delete(db.Outbox).where(db.Outbox.id.in_(ids)))


async def flush(js: JetStreamContext, engine: Engine, limit: int = 1000) -> int:
    """Publish in commit order (the leaderboard relies on it), with the dedupe id; then delete."""
    sent = 0
    while True:
        rows = await asyncio.to_thread(_pending, engine, limit)
        if not rows:
            return sent
        # published in order on one connection, their acks awaited together
        futures = [
            await js.publish_async(subject, data, headers={subjects.MSG_ID: msg_id})
            for _id, subject, msg_id, data in rows
        ]
        for future in futures:
            ack = await asyncio.wait_for(future, 30)
            if ack.stream != subjects.INTEGRATION_STREAM:
                raise RuntimeError(f"rating event stored in {ack.stream}, not {subjects.INTEGRATION_STREAM}")
        await asyncio.to_thread(_delete, engine, [r[0] for r in rows])
        sent += len(rows)
