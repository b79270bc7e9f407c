"""user_sheets: the character sheets users registered on a server for /palette

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 09:00:00.000000

A user registers a ゆとシートⅡ sheet with ``/palette register sheet:`` to roll its chat palette in any
channel of that server (``/palette line:``) and to have chat dice fill a pasted line's ``{変数}`` from it.
One row a user, server and character name (folded): registering it again replaces it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user_sheets",
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("sheet", sa.Text(), nullable=False),
        sa.Column("palette", sa.Text(), nullable=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "key", name="pk_user_sheets"),
    )


def downgrade() -> None:
    op.drop_table("user_sheets")
