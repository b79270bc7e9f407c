"""battles.status_message_id: the live status message, kept with its battle

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 16:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('battles', schema=None) as batch_op:
        batch_op.add_column(sa.Column('status_message_id', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('battles', schema=None) as batch_op:
        batch_op.drop_column('status_message_id')
