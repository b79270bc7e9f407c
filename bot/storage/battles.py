"""A channel's battles: which one is its latest (the running one if any: a running battle is always
the latest), the battle as read, a past state replayed, and a new battle with its first log row.

The battle row holds the state as of its ``state_seq``; the current state is that with the patches of
the live actions after it (``bot.storage.docpatch``), read in the same statement (``read_latest``).
Writes of a battle that exists are write plans (``bot.storage.plans``). Statements of a synchronous
connection (SQLAlchemy Core, the same on every database), run by the storage on a thread of its own.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    CompoundSelect,
    Select,
    bindparam,
    exists,
    insert,
    literal,
    literal_column,
    null,
    select,
    union_all,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bot.storage import docpatch
from bot.storage.docpatch import Encoded
from bot.storage.log import INSERT, row_values
from bot.storage.models import ACTION, DISCARDED, ENDED, LIVE, RUNNING, UNDONE, utcnow
from bot.storage.records import BattleHead, ChannelBusy, Loaded, NewRow, Snapshots
from bot.storage.tables import battles, document_text, events

_HEAD = (battles.c.id, battles.c.ruleset, battles.c.status, battles.c.version, battles.c.started_by)
_LATEST = (
    select(*_HEAD)
    .where(battles.c.guild_id == bindparam("g"), battles.c.channel_id == bindparam("c"))
    .order_by(battles.c.id.desc())
    .limit(1)
)


def read_latest_head(conn: Connection, guild: str, channel: str) -> BattleHead | None:
    """The channel's latest battle: the running one if any (a running battle is always the latest)."""
    row = conn.execute(_LATEST, {"g": guild, "c": channel}).first()
    return None if row is None else BattleHead(*row)


#: a battle row's head and what a load reads of it: its state, the seq that state is of, the bytes of
#: patches since that snapshot, and whether there are undone actions (that a new action discards)
_BATTLE = (
    *_HEAD,
    battles.c.state,
    battles.c.state_seq,
    battles.c.pending_bytes,
    exists().where(events.c.battle_id == battles.c.id, events.c.status == UNDONE).label("has_undone"),
)


def _with_patches(battle: Select[Any]) -> CompoundSelect[Any]:
    """``battle`` (one row of ``_BATTLE``) and after it, in the same statement, the patches of its
    live actions since its snapshot, oldest first: one statement sees one committed version of both
    (a write committed meanwhile is in neither or in both), on PostgreSQL as on SQLite."""
    row = battle.cte("battle")
    nothing = [null().label(c.name) for c in row.c]
    return union_all(
        select(*row.c, null().label("delta"), literal(0).label("at")),
        select(*nothing, events.c.delta, events.c.seq.label("at")).where(
            events.c.battle_id == row.c.id,
            events.c.status == LIVE,
            events.c.seq > row.c.state_seq,
            events.c.seq <= row.c.version,
            events.c.kind == ACTION,
        ),
    ).order_by(literal_column("at"))


_LATEST_LOADED = _with_patches(_LATEST.with_only_columns(*_BATTLE))


def _loaded(result: Any) -> tuple[BattleHead, Loaded] | None:
    """The battle of a ``_with_patches`` read: its head, and its state with the patches applied."""
    rows = iter(result)
    first = next(rows, None)
    if first is None:
        return None
    head = BattleHead(*first[:5])
    state, state_seq, pending, has_undone = first[5:9]
    document: dict[str, Any] = json.loads(state)
    for patch in rows:
        delta = patch[9]
        if delta is not None:
            document = docpatch.apply(document, json.loads(delta))
    return head, (document, Snapshots(int(state_seq), int(pending)), bool(has_undone))


def read_latest(
    conn: Connection, guild: str, channel: str, held: BattleHead | None = None
) -> tuple[BattleHead | None, Loaded | None]:
    """The channel's latest battle (None: it has none) and, unless it is ``held`` (the head of a
    battle the caller holds, at the same version), the battle as read, with its head in the same
    statement (``_with_patches``)."""
    if held is not None:
        head = read_latest_head(conn, guild, channel)
        if head is None or head == held:
            return head, None
    loaded = _loaded(conn.execute(_LATEST_LOADED, {"g": guild, "c": channel}))
    return (None, None) if loaded is None else loaded


_SNAPSHOTS = select(battles.c.state_seq, battles.c.pending_bytes).where(battles.c.id == bindparam("b_id"))


def read_snapshots(conn: Connection, battle_id: int) -> Snapshots:
    state_seq, pending = conn.execute(_SNAPSHOTS, {"b_id": battle_id}).one()
    return Snapshots(int(state_seq), int(pending))


def read_state_at(conn: Connection, battle_id: int, seq: int) -> dict[str, Any]:
    """Replay: the state after action ``seq`` (live or undone, not discarded), from the last snapshot
    at or before it, with the patches of the actions between applied."""
    chain = (events.c.battle_id == battle_id) & (events.c.kind == ACTION) & (events.c.status != DISCARDED)
    base_seq, snapshot = conn.execute(
        select(events.c.seq, events.c.snapshot)
        .where(chain, events.c.seq <= seq, events.c.snapshot.is_not(None))
        .order_by(events.c.seq.desc())
        .limit(1)
    ).one()
    document: dict[str, Any] = json.loads(snapshot)
    rows = conn.execute(
        select(events.c.delta)
        .where(chain, events.c.seq > base_seq, events.c.seq <= seq)
        .order_by(events.c.seq)
    )
    for (delta,) in rows:
        if delta is not None:
            document = docpatch.apply(document, json.loads(delta))
    return document


def create_battle(
    conn: Connection,
    *,
    guild: str,
    channel: str,
    ruleset: str,
    started_by: str,
    state: dict[str, Any] | Encoded,
    status: str,
    row: NewRow,
) -> int:
    """A new battle with its first log row (seq 1, version 1, a snapshot), in the open transaction,
    which holds the channel's lock. ``ChannelBusy`` (nothing written) if a battle runs there."""
    latest = read_latest_head(conn, guild, channel)
    if latest is not None and latest.status == RUNNING:
        raise ChannelBusy()
    now = utcnow()
    encoded = document_text(state)
    values = {
        "guild_id": guild,
        "channel_id": channel,
        "ruleset": ruleset,
        "status": status,
        "version": 1,
        "state": encoded,
        "state_seq": 1,
        "pending_bytes": 0,
        "started_by": started_by,
        "created_at": now,
        "updated_at": now,
        "ended_at": now if status == ENDED else None,
    }
    try:
        with conn.begin_nested():  # the one running battle per channel, should a writer without the lock race
            battle_id = int(
                conn.execute(insert(battles).values(**values).returning(battles.c.id)).scalar_one()
            )
    except IntegrityError:
        raise ChannelBusy() from None
    conn.execute(INSERT, row_values(battle_id, 1, row, now, encoded))
    return battle_id
