"""Ranked read models: players, ratings, standings, match history, positions, outbox.

Revision ID: 0001_ranked
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_ranked"
down_revision = None
branch_labels = None
depends_on = None

ID = sa.String(200)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("player_id", ID, primary_key=True),
        sa.Column("first_seen_at", sa.BigInteger(), nullable=False),
        sa.Column("last_seen_at", sa.BigInteger(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player", ID, primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(128), primary_key=True),
        sa.Column("model", sa.String(32), primary_key=True),
        sa.Column("season", sa.String(64), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.BigInteger(), nullable=False),
        sa.Column("last_match_id", ID, nullable=False),
    )
    op.create_table(
        "standings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(128), primary_key=True),
        sa.Column("season", sa.String(64), primary_key=True),
        sa.Column("model", sa.String(32), primary_key=True),
        sa.Column("player", ID, primary_key=True),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("score", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("last_match_id", ID, nullable=False),
        sa.Column("last_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_standings_board", "standings", ["game", "season", "family", "score"])
    op.create_table(
        "match_history",
        sa.Column("match_id", ID, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(128), nullable=False),
        sa.Column("family", sa.String(128), nullable=False),
        sa.Column("season", sa.String(64), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("model", sa.String(32), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("draw", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(128), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_match_history_finished", "match_history", ["finished_at"])
    op.create_table(
        "match_players",
        sa.Column("match_id", ID, primary_key=True),
        sa.Column("seat_index", sa.Integer(), primary_key=True),
        sa.Column("player", ID, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=True),
        sa.Column("rating_after", sa.Double(), nullable=True),
    )
    op.create_index("ix_match_players_player", "match_players", ["player", "finished_at"])
    op.create_table(
        "projection_positions",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("position", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(128), nullable=False),
        sa.Column("msg_id", sa.String(200), nullable=False, unique=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "outbox",
        "projection_positions",
        "match_players",
        "match_history",
        "standings",
        "ratings",
        "players",
    ):
        op.drop_table(table)
