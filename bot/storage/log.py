"""A battle's event log: each command stored with its events and dice (an action with the patch it made
to the state, and now and then a snapshot of the whole state; a note, undo or redo, with neither).

Statements of a synchronous connection (SQLAlchemy Core, the same on every database): the storage
runs each on a thread of its own, in the transaction it belongs to (``bot.storage.sql``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from bot.storage.models import ACTION, LIVE, UNDONE
from bot.storage.records import EventRow, NewRow
from bot.storage.tables import dumps, events

#: a log row's INSERT (its values: ``row_values``)
INSERT = insert(events)


def row_values(
    battle_id: int,
    seq: int,
    row: NewRow,
    now: datetime,
    snapshot: str | None = None,
    delta_json: str | None = None,
) -> dict[str, Any]:
    """One log row's values (``delta_json``: ``row.delta`` already encoded)."""
    if delta_json is None and row.delta is not None:
        delta_json = dumps(row.delta)
    return {
        "battle_id": battle_id,
        "seq": seq,
        "kind": row.kind,
        "status": LIVE,
        "actor": row.actor,
        "command_text": row.command_text,
        "command": dumps(row.command),
        "events": dumps(row.events),
        "delta": delta_json,
        "snapshot": snapshot,
        "created_at": now,
    }


def _event_row(row: Any) -> EventRow:
    delta = getattr(row, "delta", None)
    command = getattr(row, "command", None)
    return EventRow(
        seq=row.seq,
        kind=row.kind,
        status=row.status,
        actor=row.actor,
        command_text=row.command_text,
        command=None if command is None else json.loads(command),
        events=json.loads(row.events),
        delta=None if delta is None else json.loads(delta),
        created_at=row.created_at,
    )


#: what the log shows (never a state)
_LOG_COLUMNS = (
    events.c.seq,
    events.c.kind,
    events.c.status,
    events.c.actor,
    events.c.command_text,
    events.c.events,
    events.c.created_at,
)
#: and what undo and redo apply
_ROW_COLUMNS = (*_LOG_COLUMNS, events.c.delta)


def read_log(conn: Connection, battle_id: int, last: int) -> list[EventRow]:
    """The last ``last`` rows (actions and notes, undone and discarded ones too), oldest first."""
    rows = conn.execute(
        select(*_LOG_COLUMNS).where(events.c.battle_id == battle_id).order_by(events.c.seq.desc()).limit(last)
    )
    return [_event_row(r) for r in reversed(list(rows))]


def read_live_actions(conn: Connection, battle_id: int, limit: int) -> list[EventRow]:
    """The last ``limit`` live actions, newest first, with their patches (what undo takes back)."""
    rows = conn.execute(
        select(*_ROW_COLUMNS)
        .where(events.c.battle_id == battle_id, events.c.status == LIVE, events.c.kind == ACTION)
        .order_by(events.c.seq.desc())
        .limit(limit)
    )
    return [_event_row(r) for r in rows]


def read_undone_actions(conn: Connection, battle_id: int, limit: int) -> list[EventRow]:
    """The undone actions that redo would restore, oldest first, with their patches."""
    rows = conn.execute(
        select(*_ROW_COLUMNS)
        .where(events.c.battle_id == battle_id, events.c.status == UNDONE, events.c.kind == ACTION)
        .order_by(events.c.seq.asc())
        .limit(limit)
    )
    return [_event_row(r) for r in rows]


def read_has_undone(conn: Connection, battle_id: int) -> bool:
    """Are there undone actions (that redo could restore)?"""
    found = conn.execute(
        select(events.c.seq).where(events.c.battle_id == battle_id, events.c.status == UNDONE).limit(1)
    ).first()
    return found is not None


def set_event_status(conn: Connection, battle_id: int, seqs: Sequence[int], status: str) -> None:
    """The rows ``seqs`` of the battle's log are ``status`` now (undone, or live again)."""
    if seqs:
        conn.execute(
            update(events)
            .where(events.c.battle_id == battle_id, events.c.seq.in_(list(seqs)))
            .values(status=status)
        )


def read_live_event_lists(
    conn: Connection, battle_id: int, before_seq: int, limit: int
) -> list[tuple[int, list[dict[str, Any]]]]:
    """(seq, events) of the last ``limit`` live actions before ``before_seq``, newest first (summaries)."""
    rows = conn.execute(
        select(events.c.seq, events.c.events)
        .where(
            events.c.battle_id == battle_id,
            events.c.status == LIVE,
            events.c.seq < before_seq,
            events.c.kind == ACTION,
        )
        .order_by(events.c.seq.desc())
        .limit(limit)
    )
    return [(int(seq), json.loads(encoded)) for seq, encoded in rows]


def read_live_events(conn: Connection, battle_id: int) -> list[dict[str, Any]]:
    """The events of every live action, oldest first, without the states stored beside them (the
    final summary's chart reads a whole battle)."""
    rows = conn.execute(
        select(events.c.events)
        .where(events.c.battle_id == battle_id, events.c.status == LIVE, events.c.kind == ACTION)
        .order_by(events.c.seq.asc())
    )
    return [event for (encoded,) in rows for event in json.loads(encoded)]
