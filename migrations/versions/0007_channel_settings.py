"""channel_settings: a channel's settings (chat dice, ``/settings chat_dice:``)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 18:00:00.000000

A channel whose members may roll by writing a dice command in the chat (``2d6+5 命中``) says so
here; a channel without a row has chat dice off, as every channel had before this revision.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'channel_settings',
        sa.Column('guild_id', sa.String(length=64), nullable=False),
        sa.Column('channel_id', sa.String(length=64), nullable=False),
        sa.Column('chat_dice', sa.Boolean(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('guild_id', 'channel_id', name='pk_channel_settings'),
    )


def downgrade() -> None:
    op.drop_table('channel_settings')
