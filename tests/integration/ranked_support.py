"""Shared fixtures of the ranked-play integration tests: a fresh nats-server per module (the
integration stream is shared state) and a throwaway database on SQLite and, when
GAMEHALL_TEST_PG_URL is set, PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from contracts.integration import MatchFinished
from contracts.match import Outcome
from services.common import db
from tests.support.natsserver import nats_server


@pytest.fixture(scope="module")
def ranked_nats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with nats_server(tmp_path_factory.mktemp("ranked-nats")) as url:
        yield url


def throwaway_database(kind: str, tmp_path: Path, pg_url: str | None) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'ranked.sqlite3'}"
        return
    if not pg_url:
        pytest.skip("GAMEHALL_TEST_PG_URL is not set")
    name = f"gh_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(db.normalise_url(pg_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(db.normalise_url(pg_url)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def finished(
    match_id: str,
    players: tuple[str, ...],
    ranks: tuple[int, ...],
    at: int,
    ranked: bool = True,
    preset: str = "classic",
    game: str = "ugolki",
) -> MatchFinished:
    return MatchFinished(
        match_id=match_id,
        game=game,
        preset=preset,
        rules_version="1",
        seats=tuple(f"s{i}" for i in range(len(players))),
        players=players,
        outcome=Outcome(ranks=ranks, draw=len(set(ranks)) == 1, reason="test"),
        moves=12,
        finished_at=at,
        last_seq=13,
        ranked=ranked,
    )
