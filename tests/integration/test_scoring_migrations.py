"""The Alembic migrations create exactly the SQLAlchemy models, on SQLite and PostgreSQL, and
running them twice (two services starting) is harmless."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from services.common import db
from tests.integration.ranked_support import throwaway_database


@pytest.fixture(params=["sqlite", "pg"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


def test_migrations_match_the_models(db_url: str) -> None:
    engine = db.open_database(db_url)
    db.upgrade(engine)  # idempotent
    with engine.connect() as conn:
        diff = compare_metadata(
            MigrationContext.configure(conn, opts={"compare_type": True}), db.Base.metadata
        )
    engine.dispose()
    assert diff == []
