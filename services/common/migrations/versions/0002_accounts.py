"""Player accounts (API token hashes, app users) and app keys.

Revision ID: 0002_accounts
Revises: 0001_ranked
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_accounts"
down_revision = "0001_ranked"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("app_id", sa.String(64), nullable=True),
        sa.Column("subject", sa.String(128), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("app_id", "subject", name="uq_accounts_app_subject"),
    )
    op.create_table(
        "app_keys",
        sa.Column("app_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("revoked_at", sa.BigInteger(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("app_keys")
    op.drop_table("accounts")
