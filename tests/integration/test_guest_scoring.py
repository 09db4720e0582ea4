"""Scoring never rates a match with a guest seat, and a guest's name never lands on a player's
page (issue 9: names without a credential are guests)."""

from __future__ import annotations

from pathlib import Path

import msgspec
from sqlalchemy import select
from sqlalchemy.orm import Session

from services.common import db
from services.common.projection import flush_inserts
from services.common.settings import ScoringSettings
from services.scoring import config as scoring_config
from services.scoring.logic import apply_finished
from tests.integration.ranked_support import finished


def test_a_guest_seat_makes_a_ranked_match_unrated_and_stays_off_player_pages(tmp_path: Path) -> None:
    engine = db.open_database(f"sqlite:///{tmp_path / 'scoring.sqlite3'}")
    config = scoring_config.load(ScoringSettings())
    with_guest = msgspec.structs.replace(finished("g1", ("ann", "bob"), (1, 2), 1_000), guests=("s1",))
    plain = finished("p1", ("ann", "bob"), (1, 2), 2_000)
    try:
        with Session(engine) as session, session.begin():
            cache: dict = {}
            assert apply_finished(session, with_guest, config, cache) is None
            assert apply_finished(session, plain, config, cache) is not None  # the same pair, accounts: rated
            flush_inserts(session, cache)
        with Session(engine) as session:
            record = session.get(db.MatchRecord, "g1")
            assert record is not None and record.ranked and not record.rated
            seats = session.scalars(select(db.MatchPlayer.player).where(db.MatchPlayer.match_id == "g1")).all()
            assert seats == ["ann"]
            ratings = session.scalars(select(db.Rating)).all()
            assert {r.player: r.games for r in ratings} == {"ann": 1, "bob": 1}
    finally:
        engine.dispose()
