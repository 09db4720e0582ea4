"""The one comparison of live rows with rebuilt ones (``services.cli.rebuild.diff_snapshots``,
behind ``gamehall doctor`` and both ``rebuild --check`` commands), on two real SQLite databases:
every difference is reported (none cut off), a row counts once however many of its columns
differ, rows only on one side are named, and rows written from later messages are left out."""

from __future__ import annotations

from sqlalchemy import Engine, update

from services.cli import rebuild
from services.common import db


def rating(player: str, value: float, last: str = "m-1") -> db.Rating:
    return db.Rating(
        player=player,
        game="ugolki",
        family="classic",
        model="glicko2",
        season="2026-Q4",
        rating=value,
        rd=200.0,
        volatility=0.06,
        games=1,
        last_at=1,
        last_match_id=last,
    )


def filled(n: int) -> Engine:
    engine = rebuild.fresh_engine()
    with db.session_scope(engine) as session:
        session.add_all(rating(f"p{i:03}", 1500.0 + i) for i in range(n))
    return engine


def test_every_differing_row_is_reported_and_counted_once() -> None:
    live, fresh = filled(80), filled(80)
    with db.session_scope(live) as session:
        session.execute(update(db.Rating).values(rating=db.Rating.rating + 1, rd=1.0))
        session.add(rating("extra", 1400.0))
    with db.session_scope(fresh) as session:
        session.add(rating("gone", 1450.0))
    found = rebuild.diff_snapshots(rebuild.snapshot(live, (db.Rating,)), rebuild.snapshot(fresh, (db.Rating,)))
    assert len(found.differences) == 80 * 2 + 2  # two columns of each of 80 rows, and one row on each side
    assert found.differing() == {"ratings": 82} and found.checked == {"ratings": 82}
    assert len(rebuild.compare(live, fresh, models=(db.Rating,))) == 162
    only = {str(d) for d in found.differences if d.column is None}
    assert only == {
        "ratings ('extra', 'ugolki', 'classic', 'glicko2'): only in live tables",
        "ratings ('gone', 'ugolki', 'classic', 'glicko2'): missing from live tables",
    }
    first = next(d for d in found.differences if d.column == "rating")
    assert first.as_dict() == {
        "table": "ratings",
        "key": ["p000", "ugolki", "classic", "glicko2"],
        "column": "rating",
        "live": 1501.0,
        "rebuilt": 1500.0,
    }


def test_rows_moved_on_are_left_out_and_ignored_columns_not_compared() -> None:
    live, fresh = filled(3), filled(3)
    with db.session_scope(live) as session:
        session.execute(update(db.Rating).where(db.Rating.player == "p001").values(rating=1.0, last_match_id="later"))
        session.execute(update(db.Rating).where(db.Rating.player == "p002").values(rd=9.0))
    a, b = rebuild.snapshot(live, (db.Rating,)), rebuild.snapshot(fresh, (db.Rating,))
    found = rebuild.diff_snapshots(a, b, moved_on=lambda _table, row: row["last_match_id"] == "later")
    assert [(d.key[0], d.column) for d in found.differences] == [("p002", "rd")]
    assert found.checked == {"ratings": 2}
    assert rebuild.diff_snapshots(a, b, ignored={"ratings": {"rating", "rd", "last_match_id"}}).differences == []
