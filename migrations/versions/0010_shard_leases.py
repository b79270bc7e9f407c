"""shard_leases, shard_owners: which process runs which shard (``TORIDE_SHARDS=auto``)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04 09:00:00.000000

Processes sharing one PostgreSQL database agree here on who runs which shard
(``bot.storage.leases``): each process keeps a row in ``shard_owners`` while it lives, and a row in
``shard_leases`` per shard it runs, both renewed every few seconds; a row whose ``expires_at`` has
passed is free for the others. ``shard_count`` is the count the leases were taken for (the first
process's, adopted by those that come later).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "shard_owners",
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner", name="pk_shard_owners"),
    )
    op.create_table(
        "shard_leases",
        sa.Column("shard_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("shard_count", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("shard_id", name="pk_shard_leases"),
    )


def downgrade() -> None:
    op.drop_table("shard_leases")
    op.drop_table("shard_owners")
