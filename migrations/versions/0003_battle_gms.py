"""co-GMs per battle (battle_gms); the server-wide co-GM list retired

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:00:00.000000

Until now ``/gm add`` wrote a server-wide list (guild_settings.co_gms), so a co-GM added in one
channel was GM of every battle on the server. Co-GMs now belong to one battle (battle_gms, gone
with it). The old list is dropped, not copied into battles: nobody keeps rights they were never
given for a battle. A GM re-adds the co-GMs of a running battle with /gm add.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'battle_gms',
        sa.Column('battle_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.String(length=64), nullable=False),
        sa.Column('added_by', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['battle_id'], ['battles.id'], name=op.f('fk_battle_gms_battle_id_battles'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('battle_id', 'user_id', name='pk_battle_gms'),
    )
    # guild_settings is referenced by no foreign key, so SQLite's batch copy of it is safe
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('co_gms')


def downgrade() -> None:
    # back to a server-wide list, empty: per-battle co-GMs are not widened to the whole server
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('co_gms', sa.JSON(), nullable=False, server_default=sa.text("'[]'")))
    op.drop_table('battle_gms')
