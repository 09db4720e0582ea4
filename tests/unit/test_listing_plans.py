"""A page after a cursor is found through its index, on SQLite too: the query searches the index
from the cursor's position on rather than scanning it from the newest row (a deep page would cost
its depth: 33 ms at 200,000 matches deep against 0.03 ms, measured on the 1,000,000-match bench
database)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.pool import StaticPool

from services.common import db, listing


@pytest.fixture
def engine() -> Any:
    engine = db.make_engine("sqlite://", poolclass=StaticPool)
    db.upgrade(engine)
    yield engine
    engine.dispose()


def plan_of(engine: Any, read: Callable[[], Any]) -> str:
    """The query plan of the last statement ``read`` runs."""
    seen: list[tuple[str, Any]] = []

    def remember(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", remember)
    try:
        read()
    finally:
        event.remove(engine, "before_cursor_execute", remember)
    statement, parameters = seen[-1]
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
    return " | ".join(str(r[-1]) for r in rows)


@pytest.mark.parametrize(
    ("kind", "filters", "read"),
    [
        ("stored_matches", {}, lambda e, c: listing.stored_matches(e, c)),
        ("matches", {"game": None}, lambda e, c: listing.finished_matches(e, c)),
        ("matches", {"game": "king"}, lambda e, c: listing.finished_matches(e, c, game="king")),
        (
            "player_matches",
            {"player": "ann", "game": None},
            lambda e, c: listing.player_matches(e, "ann", c),
        ),
    ],
)
def test_a_page_after_a_cursor_searches_its_index(engine: Any, kind: str, filters: dict, read: Any) -> None:
    cursor = listing.encode_cursor(kind, filters, [1_700_000_000_000, "m00000042"])
    plan = plan_of(engine, lambda: read(engine, cursor))
    assert "SEARCH" in plan and "USING" in plan and "INDEX" in plan, plan
    first_table = plan.split(" | ")[0]
    assert not first_table.startswith("SCAN"), plan
