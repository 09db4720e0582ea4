"""Alembic environment, configured programmatically by ``services.common.db.upgrade``."""

from __future__ import annotations

from alembic import context

from services.common.db import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - always called through services.common.db.upgrade
    raise RuntimeError("run migrations through services.common.db.upgrade(engine)")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
