"""Indexes for keyset paging of finished matches (services/common/listing.py): newest first,
all games or one game.

Revision ID: 0004_listing_indexes
Revises: 0003_disputes
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0004_listing_indexes"
down_revision = "0003_disputes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_match_history_page", "match_history", ["finished_at", "match_id"])
    op.create_index("ix_match_history_game_page", "match_history", ["game", "finished_at", "match_id"])
    op.create_index("ix_match_players_page", "match_players", ["player", "finished_at", "match_id"])


def downgrade() -> None:
    op.drop_index("ix_match_players_page", table_name="match_players")
    op.drop_index("ix_match_history_game_page", table_name="match_history")
    op.drop_index("ix_match_history_page", table_name="match_history")
