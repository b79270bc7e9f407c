"""secret_rolls: a channel's secret rolls, kept for its GMs and a later reveal

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 18:20:00.000000

A secret roll (``S2d6``, ``/roll secret:true``) is kept with its channel: its number there (counted
up, never reused), who rolled it, the result text as the roller read it, and when. The storage keeps
30 days of them, at most 1,000 a channel (``bot.storage.secrets``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'secret_rolls',
        sa.Column('guild_id', sa.String(length=64), nullable=False),
        sa.Column('channel_id', sa.String(length=64), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('roller', sa.String(length=64), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('guild_id', 'channel_id', 'number', name='pk_secret_rolls'),
    )
    op.create_index(
        'ix_secret_rolls_channel_created', 'secret_rolls', ['guild_id', 'channel_id', 'created_at']
    )


def downgrade() -> None:
    op.drop_index('ix_secret_rolls_channel_created', table_name='secret_rolls')
    op.drop_table('secret_rolls')
