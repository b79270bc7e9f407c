"""battles.status_message_version: the battle version its live status message last showed

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-03 10:00:00.000000

A front-end that edits the live status message at most every two seconds may stop (a restart, a
crash) with an edit still to come; at its next start it refreshes the message of every running
battle whose version is past the one its message shows. Battles from before this revision have
none: their messages are refreshed once.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0005'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('battles', schema=None) as batch_op:
        batch_op.add_column(sa.Column('status_message_version', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('battles', schema=None) as batch_op:
        batch_op.drop_column('status_message_version')
