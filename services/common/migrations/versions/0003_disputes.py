"""Disputes: the operator role of accounts, the rulings scoring applies, and the stream
position of each finished match (the order ratings are recomputed in).

Revision ID: 0003_disputes
Revises: 0002_accounts
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_disputes"
down_revision = "0002_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("role", sa.String(16), nullable=False, server_default="player"))
    op.add_column("match_history", sa.Column("position", sa.BigInteger(), nullable=True))
    op.create_table(
        "match_rulings",
        sa.Column("match_id", sa.String(200), primary_key=True),
        sa.Column("dispute_id", sa.String(200), nullable=False),
        sa.Column("ruling", sa.String(16), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("ruled_by", sa.String(200), nullable=False),
        sa.Column("ruled_at", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_rulings")
    with op.batch_alter_table("match_history") as batch:
        batch.drop_column("position")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("role")
