"""The list of every stored match, running or finished (``match_list``), for
``GET /api/matches`` and ``GET /api/match-summaries``: written by the match-list projection of
the match stream, paged newest first by creation.

Revision ID: 0005_match_list
Revises: 0004_listing_indexes
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_match_list"
down_revision = "0004_listing_indexes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_list",
        sa.Column("match_id", sa.String(200), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(128), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("to_move", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("outcome_text", sa.JSON(), nullable=True),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("stream_seq", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.Column("finished_at", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_match_list_page", "match_list", ["created_at", "match_id"])


def downgrade() -> None:
    op.drop_index("ix_match_list_page", table_name="match_list")
    op.drop_table("match_list")
