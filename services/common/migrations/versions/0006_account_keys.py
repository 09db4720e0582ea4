"""Account names unique without regard to case (``accounts.name_key``: the NFKC-normalised,
case-folded name) and app keys that need no stored signing secret (``algorithm``,
``public_keys``: a JWKS-style list of public keys, ``audience``); ``secret`` is stored sealed and
is empty for an app that registered public keys only.

Revision ID: 0006_account_keys
Revises: 0005_match_list
Create Date: 2026-12-02
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0006_account_keys"
down_revision = "0005_match_list"
branch_labels = None
depends_on = None


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(200), nullable=True))
    conn = op.get_bind()
    accounts = sa.table("accounts", sa.column("account_id"), sa.column("name"), sa.column("name_key"), sa.column("created_at"))
    seen: set[str] = set()
    rows = conn.execute(sa.select(accounts.c.account_id, accounts.c.name).order_by(accounts.c.created_at, accounts.c.account_id))
    for account_id, name in rows.fetchall():
        key = name_key(name)
        # Two old accounts that differ only by case: the older keeps the key, the newer keeps its
        # exact name (it still signs in) but no new account may take either.
        if key in seen:
            continue
        seen.add(key)
        conn.execute(sa.update(accounts).where(accounts.c.account_id == account_id).values(name_key=key))
    with op.batch_alter_table("accounts") as batch:
        batch.create_unique_constraint("uq_accounts_name_key", ["name_key"])
    with op.batch_alter_table("app_keys") as batch:
        batch.alter_column("secret", existing_type=sa.String(128), type_=sa.String(256), nullable=True)
        batch.add_column(sa.Column("algorithm", sa.String(16), nullable=False, server_default="HS256"))
        batch.add_column(sa.Column("public_keys", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("audience", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("app_keys") as batch:
        batch.drop_column("audience")
        batch.drop_column("public_keys")
        batch.drop_column("algorithm")
        batch.alter_column("secret", existing_type=sa.String(256), type_=sa.String(128), nullable=False)
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_name_key", type_="unique")
        batch.drop_column("name_key")
