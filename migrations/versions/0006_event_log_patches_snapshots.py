"""battle_events: a patch per action and snapshots, instead of the whole state on every row

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 11:00:00.000000

Until this revision every action's log row held the whole state after it (``state_after``), beside
the battle row's: a battle grew by its whole size with each command. Now an action's row holds the
patch it made (``delta``: old and new values, ``bot.storage.docpatch``) and, at the first action and
then every so often, a snapshot of the whole state (``snapshot``); the battle row holds the state as
of ``state_seq``, with ``pending_bytes`` of patches logged since the last snapshot.

Upgrade, battle by battle, in place: each action that can still count (live or undone, in seq order)
gets the patch from the state after the one before it to its own; the states kept are the first
action's and one wherever the patches since the last kept one outweigh two states (as the service
does from now on); the others are dropped. Discarded actions (which nothing can restore) keep no
state. The history stays whole: undo and redo across the upgrade restore what they did before it.

Downgrade: every live or undone action gets its whole state again, rebuilt from the snapshots and
patches (an exact replay), and the battle row the current state.
"""

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from bot.storage import docpatch

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: as ``SNAPSHOT_WEIGHT`` / ``SNAPSHOT_EVERY`` were at the time of this revision (now in ``bot.storage.plans``)
SNAPSHOT_WEIGHT = 2
SNAPSHOT_EVERY = 1000

battles = sa.table(
    'battles',
    sa.column('id', sa.Integer),
    sa.column('version', sa.Integer),
    sa.column('state', sa.Text),
    sa.column('state_seq', sa.Integer),
    sa.column('pending_bytes', sa.Integer),
)
events = sa.table(
    'battle_events',
    sa.column('id', sa.Integer),
    sa.column('battle_id', sa.Integer),
    sa.column('seq', sa.Integer),
    sa.column('kind', sa.String),
    sa.column('status', sa.String),
    sa.column('state_after', sa.Text),
    sa.column('delta', sa.Text),
    sa.column('snapshot', sa.Text),
)


def _dumps(value: Any) -> str:
    return docpatch.dumps(value)


def upgrade() -> None:
    # plain ALTER TABLEs, no batch copy (SQLite 3.35+ drops a column in place): a copy of ``battles``
    # would drop the old table, and with it, by ON DELETE CASCADE, every log row
    op.add_column('battles', sa.Column('state_seq', sa.Integer(), nullable=False, server_default='1'))
    op.add_column('battles', sa.Column('pending_bytes', sa.Integer(), nullable=False, server_default='0'))
    op.add_column('battle_events', sa.Column('delta', sa.Text(), nullable=True))
    op.add_column('battle_events', sa.Column('snapshot', sa.Text(), nullable=True))
    op.drop_index('ix_battle_events_battle_status', table_name='battle_events')
    op.create_index(
        'ix_battle_events_battle_status_seq', 'battle_events', ['battle_id', 'status', 'seq'], unique=False
    )
    conn = op.get_bind()
    for battle_id, version in conn.execute(sa.select(battles.c.id, battles.c.version)).all():
        _compact(conn, battle_id, version)
    op.drop_column('battle_events', 'state_after')


#: log rows read at a time (each may hold a whole state)
PAGE = 200


def _pages(conn: sa.Connection, query: sa.Select[Any]) -> Any:
    """The rows of ``query`` (whose first two columns are id and seq, ordered by seq), a page at a time."""
    after = 0
    while True:
        page = conn.execute(query.where(events.c.seq > after).limit(PAGE)).all()
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1][1]


def _compact(conn: sa.Connection, battle_id: int, version: int) -> None:
    """One battle's actions: patches from their states, some states kept as snapshots."""
    query = (
        sa.select(events.c.id, events.c.seq, events.c.state_after)
        .where(
            events.c.battle_id == battle_id,
            events.c.kind == 'action',
            events.c.status != 'discarded',
            events.c.state_after.is_not(None),
        )
        .order_by(events.c.seq)
    )
    previous: docpatch.Encoded | None = None
    pending = since = 0
    for row_id, _seq, state_after in _pages(conn, query):
        current = docpatch.encode(json.loads(state_after))
        values: dict[str, Any] = {'delta': None, 'snapshot': None}
        if previous is None:
            values['snapshot'] = state_after
        else:
            delta = _dumps(docpatch.diff(previous, current))
            values['delta'] = delta
            pending += len(delta)
            since += 1
            if pending >= SNAPSHOT_WEIGHT * len(state_after) or since >= SNAPSHOT_EVERY:
                values['snapshot'] = state_after
                pending = since = 0
        conn.execute(sa.update(events).where(events.c.id == row_id).values(**values))
        previous = current
    # discarded actions: nothing can restore them, they keep no state
    conn.execute(
        sa.update(events)
        .where(events.c.battle_id == battle_id, events.c.status == 'discarded')
        .values(state_after=None)
    )
    # the battle row's state is the current one, as of its version
    conn.execute(
        sa.update(battles).where(battles.c.id == battle_id).values(state_seq=version, pending_bytes=pending)
    )


def downgrade() -> None:
    op.add_column('battle_events', sa.Column('state_after', sa.Text(), nullable=True))
    conn = op.get_bind()
    for (battle_id,) in conn.execute(sa.select(battles.c.id)).all():
        _expand(conn, battle_id)
    op.drop_index('ix_battle_events_battle_status_seq', table_name='battle_events')
    op.create_index('ix_battle_events_battle_status', 'battle_events', ['battle_id', 'status'], unique=False)
    op.drop_column('battle_events', 'snapshot')
    op.drop_column('battle_events', 'delta')
    op.drop_column('battles', 'pending_bytes')
    op.drop_column('battles', 'state_seq')


def _expand(conn: sa.Connection, battle_id: int) -> None:
    """One battle: each live or undone action's whole state again; the battle row's, the current one."""
    query = (
        sa.select(events.c.id, events.c.seq, events.c.status, events.c.delta, events.c.snapshot)
        .where(events.c.battle_id == battle_id, events.c.kind == 'action', events.c.status != 'discarded')
        .order_by(events.c.seq)
    )
    document: dict[str, Any] | None = None
    current: str | None = None
    for row_id, _seq, status, delta, snapshot in _pages(conn, query):
        if snapshot is not None:
            document = json.loads(snapshot)
        elif document is not None and delta is not None:
            document = docpatch.apply(document, json.loads(delta))
        if document is None:
            continue
        text = snapshot if snapshot is not None else _dumps(document)
        conn.execute(sa.update(events).where(events.c.id == row_id).values(state_after=text))
        if status == 'live':
            current = text
    if current is not None:
        conn.execute(sa.update(battles).where(battles.c.id == battle_id).values(state=current))
