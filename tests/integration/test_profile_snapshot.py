"""A player page is read from one snapshot of the read models (SQLite and PostgreSQL): a rating
committed while the profile is being read shows in all of the profile or in none of it, never
as a new rating next to the old match count (the player page after a dispute ruling showed the
amended match with the rating from before the amendment)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, update
from sqlalchemy.orm import Session

from services.common import db, queries
from tests.integration.ranked_support import throwaway_database

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", "pg"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    yield from throwaway_database(request.param, tmp_path, pg_url)


def test_a_rating_committed_mid_read_is_not_mixed_into_the_profile(db_url: str) -> None:
    engine = db.make_engine(db_url)
    db.upgrade(engine)
    writer = db.make_engine(db_url)
    try:
        with Session(engine) as s, s.begin():
            s.add(db.Player(player_id="ann", first_seen_at=1, last_seen_at=1, rated_games=1))
            s.add(
                db.Rating(
                    player="ann", game="ugolki", family="classic", model="glicko2", season="2026",
                    rating=1500.0, rd=200.0, volatility=0.06, games=1, last_at=1, last_match_id="m1",
                )
            )
        fired: list[str] = []

        def rated_again_before_the_ratings_are_read(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            # Another transaction (the scoring service) commits a second rated match between the
            # profile's first read (the player row) and its read of the ratings.
            if "FROM ratings" in statement and not fired:
                fired.append(statement)
                with writer.begin() as w:
                    w.execute(update(db.Rating).where(db.Rating.player == "ann").values(rating=1600.0, games=2))
                    w.execute(update(db.Player).where(db.Player.player_id == "ann").values(rated_games=2))

        event.listen(engine, "before_cursor_execute", rated_again_before_the_ratings_are_read)
        profile = queries.player_profile(engine, "ann")
        event.remove(engine, "before_cursor_execute", rated_again_before_the_ratings_are_read)

        assert fired, "the concurrent commit did not happen"
        assert profile is not None
        # the snapshot of the first read: the match count and the rating agree
        assert profile["rated_games"] == 1
        assert [(r["rating"], r["games"]) for r in profile["ratings"]] == [(1500.0, 1)]
        # and the next read sees the commit
        after = queries.player_profile(engine, "ann")
        assert after is not None and after["rated_games"] == 2
        assert [(r["rating"], r["games"]) for r in after["ratings"]] == [(1600.0, 2)]
    finally:
        writer.dispose()
        engine.dispose()
