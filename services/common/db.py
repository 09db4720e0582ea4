"""SQL read models of ranked play (SQLAlchemy 2): players, ratings, standings, match history,
projection positions and the scoring outbox; and player accounts and app keys (the gateway's).  SQLite by default, PostgreSQL by URL.

The schema is owned by the Alembic migrations in ``services/common/migrations``; ``upgrade``
runs them programmatically (no alembic.ini), and a test checks the models and migrations agree.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Double,
    Engine,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

MIGRATIONS = Path(__file__).parent / "migrations"
ID = String(200)


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    first_seen_at: Mapped[int] = mapped_column(BigInteger)
    last_seen_at: Mapped[int] = mapped_column(BigInteger)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)


class Rating(Base):
    """A player's current rating per (game, preset family, model); written by scoring."""

    __tablename__ = "ratings"
    player: Mapped[str] = mapped_column(ID, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(128), primary_key=True)
    model: Mapped[str] = mapped_column(String(32), primary_key=True)
    season: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Double)
    rd: Mapped[float] = mapped_column(Double)
    volatility: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[int] = mapped_column(BigInteger)
    last_match_id: Mapped[str] = mapped_column(ID)


class Standing(Base):
    """One row of a leaderboard per (game, preset family, season, model, player); written by the
    leaderboard projection from RatingApplied."""

    __tablename__ = "standings"
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(128), primary_key=True)
    season: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)
    rating: Mapped[float] = mapped_column(Double)
    rd: Mapped[float] = mapped_column(Double)
    volatility: Mapped[float] = mapped_column(Double)
    score: Mapped[float] = mapped_column(Double)  # sort key: Glicko rating or OpenSkill mu - 3 sigma
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)
    losses: Mapped[int] = mapped_column(Integer)
    last_match_id: Mapped[str] = mapped_column(ID)
    last_at: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_standings_board", "game", "season", "family", "score"),)


class MatchRecord(Base):
    """Every finished match, ranked or not; written by scoring."""

    __tablename__ = "match_history"
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(128))
    family: Mapped[str] = mapped_column(String(128))
    season: Mapped[str] = mapped_column(String(64))
    ranked: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    model: Mapped[str] = mapped_column(String(32))
    seats: Mapped[list[str]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    ranks: Mapped[list[int]] = mapped_column(JSON)
    scores: Mapped[list[float]] = mapped_column(JSON)
    draw: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(String(128))
    moves: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[int] = mapped_column(BigInteger)
    # integration stream sequence of its MatchFinished: the order scoring rated it in (a
    # ruling recomputes a group's ratings in this order); None for matches recorded before 0003
    position: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (
        Index("ix_match_history_finished", "finished_at"),
        # keyset paging, newest first (services/common/listing.py; migration 0004)
        Index("ix_match_history_page", "finished_at", "match_id"),
        Index("ix_match_history_game_page", "game", "finished_at", "match_id"),
    )


class MatchRuling(Base):
    """The latest ruling on a match (``contracts.disputes.RulingIssued``); written by scoring,
    which rates the match with its effective result (``domain.disputes.apply_ruling``)."""

    __tablename__ = "match_rulings"
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    dispute_id: Mapped[str] = mapped_column(ID)
    ruling: Mapped[str] = mapped_column(String(16))  # upheld | amended | void
    ranks: Mapped[list[int]] = mapped_column(JSON)
    scores: Mapped[list[float]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(Text)
    ruled_by: Mapped[str] = mapped_column(ID)
    ruled_at: Mapped[int] = mapped_column(BigInteger)


class MatchPlayer(Base):
    __tablename__ = "match_players"
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    seat_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(ID)
    game: Mapped[str] = mapped_column(String(64))
    rank: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[int] = mapped_column(BigInteger)
    rating_before: Mapped[float | None] = mapped_column(Double, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Double, nullable=True)

    __table_args__ = (
        Index("ix_match_players_player", "player", "finished_at"),
        Index("ix_match_players_page", "player", "finished_at", "match_id"),
    )


class StoredMatch(Base):
    """Every stored match, running or finished, as the matches list shows it; written by the
    match-list projection of the match stream (``services/common/matchlist.py``, run by scoring).
    Public information only: what a spectator's view shows, and its end reason in every
    language (``outcome_text``: lang -> sentence)."""

    __tablename__ = "match_list"
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16))  # running | finished
    seats: Mapped[list[str]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    to_move: Mapped[list[str]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    outcome_text: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    decisions: Mapped[int] = mapped_column(Integer)  # the last envelope's seq
    stream_seq: Mapped[int] = mapped_column(BigInteger)  # the last envelope's match-stream sequence
    created_at: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[int] = mapped_column(BigInteger)
    finished_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    # keyset paging, newest first by creation (services/common/listing.py; migration 0005)
    __table_args__ = (Index("ix_match_list_page", "created_at", "match_id"),)


class ProjectionPosition(Base):
    """Last stream sequence a projection applied; written in the same transaction as its rows."""

    __tablename__ = "projection_positions"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(BigInteger)


class Outbox(Base):
    """Integration events committed with the rows that caused them, published afterwards."""

    __tablename__ = "outbox"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(128))
    msg_id: Mapped[str] = mapped_column(String(200), unique=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class Account(Base):
    """A player with a credential (issue 9): signed up with a name and an API token (only its
    sha256 is stored), or a client app's user, known by ``(app_id, subject)``.  Written by the
    gateway; ``name`` is what matches, ratings and standings call the player."""

    __tablename__ = "accounts"
    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(ID, unique=True)
    # The NFKC-normalised, case-folded name: unique, so "Ann" and "ann" are one account.
    name_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    app_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    subject: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[int] = mapped_column(BigInteger)
    # "player" or "operator" (granted by ``gamehall accounts grant-operator``): operators rule
    # on disputes
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")

    __table_args__ = (
        UniqueConstraint("app_id", "subject", name="uq_accounts_app_subject"),
        UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )


class AppKey(Base):
    """A client app registered by an operator (``gamehall apps add``): it signs its players'
    short-lived JWTs (HS256) with ``secret``, which the gateway needs to verify them."""

    __tablename__ = "app_keys"
    app_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    secret: Mapped[str | None] = mapped_column(String(256), nullable=True)  # sealed; None: public keys only
    created_at: Mapped[int] = mapped_column(BigInteger)
    algorithm: Mapped[str] = mapped_column(String(16), default="HS256", server_default="HS256")
    public_keys: Mapped[list[dict[str, str]] | None] = mapped_column(JSON, nullable=True)  # JWKS-style
    audience: Mapped[str | None] = mapped_column(String(200), nullable=True)
    revoked_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


READ_MODEL_TABLES = (
    "players",
    "ratings",
    "standings",
    "match_history",
    "match_players",
    "match_rulings",
    "match_list",
)


def normalise_url(url: str) -> str:
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def _private_sqlite_files(database: Path) -> None:
    """The database file and its -wal/-shm/-journal readable by their owner alone (they hold app
    keys and accounts): made 0600 before SQLite first opens it (SQLite gives the side files the
    main file's mode), and an older 0644 set made 0600."""
    if not database.exists():
        with contextlib.suppress(FileExistsError):
            os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for path in (database, *(database.with_name(database.name + side) for side in SQLITE_SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            if stat.S_IMODE(path.stat().st_mode) & 0o077:
                os.chmod(path, 0o600)


def make_engine(url: str, **kwargs: Any) -> Engine:
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:" and not Path(database).name.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            _private_sqlite_files(Path(database))
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


@contextmanager
def snapshot(engine: Engine) -> Iterator[Session]:
    """A read-only session whose statements all see one snapshot of the database (several reads
    that must agree with each other).  PostgreSQL: a REPEATABLE READ transaction.  SQLite: an
    explicit BEGIN (the driver begins no transaction for a SELECT, so each statement would
    otherwise see the latest commit); in WAL mode the read transaction keeps the snapshot of its
    first read."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            conn.exec_driver_sql("BEGIN")
            try:
                with Session(bind=conn) as session:
                    yield session
            finally:
                conn.rollback()
        return
    # closing the session ends its transaction (and keeps what it loaded readable)
    with Session(engine.execution_options(isolation_level="REPEATABLE READ")) as session:
        yield session


def alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


_MIGRATING = threading.Lock()  # alembic's context and op proxies are process globals


def upgrade(engine: Engine, revision: str = "head", attempts: int = 5) -> None:
    """Run the migrations (safe when several services start at once)."""
    from alembic import command

    for attempt in range(attempts):
        try:
            with _MIGRATING, engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(47110815)"))
                command.upgrade(alembic_config(conn), revision)
            return
        except (OperationalError, ProgrammingError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


def open_database(url: str, migrate: bool = True) -> Engine:
    engine = make_engine(url)
    if migrate:
        upgrade(engine)
    return engine


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session, session.begin():
        yield session


def get_position(session: Session, name: str, lock: bool = False) -> int:
    """The stored position of projection ``name`` (0 before its first batch).  ``lock``: the row
    is locked until the transaction ends (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite has one
    writer at a time anyway), so two writers of one projection never apply the same batch."""
    query = select(ProjectionPosition.position).where(ProjectionPosition.name == name)
    found = session.scalar(query.with_for_update() if lock else query)
    return int(found or 0)


def set_position(session: Session, name: str, position: int) -> None:
    row = session.get(ProjectionPosition, name)
    if row is None:
        session.add(ProjectionPosition(name=name, position=position))
    elif position > row.position:
        row.position = position
