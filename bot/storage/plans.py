"""Write plans: what an action (or an undo, a redo) changes of a battle, decided before any statement
runs (``plan_write``), and the one executor that stores plans (``store_plans``).

Every write of a battle names the version it read, and holds only while that battle is still its
channel's current (latest) one: ``UPDATE ... WHERE id = :id AND version = :v AND no newer battle in
the channel``; a plan decided on rights read earlier (``Grants``) holds only while they are still so.
No row updated means another writer came first: nothing of the plan is written, and the caller reads
the battle again. Writers of one channel are serialised across processes by the channel's lock (taken
by the storage first in every write transaction), so a battle read under it cannot conflict.

The log keeps each action's patch (``bot.storage.docpatch``), not the whole state: the battle row
holds the state as of its ``state_seq``. A snapshot (the whole state, on the log row and in the
battle row) is taken whenever the patches since the last one outweigh ``SNAPSHOT_WEIGHT`` snapshots,
or after ``SNAPSHOT_EVERY`` actions: what a battle costs on disk grows with what its commands changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, bindparam, exists, select, update
from sqlalchemy.engine import Connection

from bot.storage.docpatch import Encoded
from bot.storage.log import INSERT, row_values
from bot.storage.models import ACTION, DISCARDED, ENDED, UNDONE, utcnow
from bot.storage.records import BattleHead, Grants, NewRow, Snapshots, VersionConflict, WritePlan, Written
from bot.storage.tables import battles, document_text, dumps, events, gms, settings

#: a snapshot when the patches logged since the last one weigh this many times a snapshot
SNAPSHOT_WEIGHT = 2
#: and at the latest after this many actions (what a replay from a snapshot applies at most)
SNAPSHOT_EVERY = 1000


def plan_write(
    head: BattleHead,
    *,
    state: dict[str, Any] | Encoded,
    status: str,
    row: NewRow,
    discard_redo: bool,
    snapshots: Snapshots,
    rewrite: bool = False,
    grants: Grants | None = None,
) -> WritePlan:
    """A new state (its patch in ``row``) and its log row, as one battle-row UPDATE and one INSERT,
    computed without the database (``snapshots``: the battle row's as of ``head.version``).

    ``discard_redo``: undone actions can no longer be redone. ``rewrite``: the battle row gets the
    whole state (undo and redo, whose notes carry no patch); else an action's row (and the battle row)
    get a snapshot when the patches since the last one outweigh ``SNAPSHOT_WEIGHT`` states, or
    ``SNAPSHOT_EVERY`` versions passed since the battle row's state. ``grants``: the rights the write
    was decided on, checked when it is stored."""
    now = utcnow()
    new_version = head.version + 1
    delta_json = None if row.delta is None else dumps(row.delta)
    pending = snapshots.pending_bytes + (len(delta_json) if delta_json is not None else 0)
    snapshot = None
    if rewrite:
        after = Snapshots(new_version, pending)
    elif row.kind == ACTION and (
        new_version - snapshots.state_seq >= SNAPSHOT_EVERY
        or pending
        >= SNAPSHOT_WEIGHT * (state.size if isinstance(state, Encoded) else len(document_text(state)))
    ):
        snapshot = document_text(state)
        after = Snapshots(new_version, 0)
    else:
        after = Snapshots(snapshots.state_seq, pending)
    params: dict[str, Any] = {
        "b_id": head.id,
        "b_version": head.version,
        "p_version": new_version,
        "p_status": status,
        "p_now": now,
        "p_ended": now if status == ENDED else None,
        "p_pending": after.pending_bytes,
    }
    if rewrite or snapshot is not None:
        params["p_state"] = snapshot if snapshot is not None else document_text(state)
    values = row_values(head.id, new_version, row, now, snapshot, delta_json)
    return WritePlan(head, params, discard_redo, values, Written(new_version, after), grants)


_NEWER = battles.alias("newer")
#: the battle is still its channel's current one (no battle started there after it)
_CURRENT = ~exists().where(
    _NEWER.c.guild_id == battles.c.guild_id,
    _NEWER.c.channel_id == battles.c.channel_id,
    _NEWER.c.id > battles.c.id,
)
_WRITE = (
    update(battles)
    .where(battles.c.id == bindparam("b_id"), battles.c.version == bindparam("b_version"), _CURRENT)
    .values(
        version=bindparam("p_version"),
        status=bindparam("p_status"),
        updated_at=bindparam("p_now"),
        ended_at=bindparam("p_ended"),
        pending_bytes=bindparam("p_pending"),
    )
)
#: a write that stores the whole state in the battle row too (a snapshot, an undo, a redo)
_WRITE_STATE = _WRITE.values(state=bindparam("p_state"), state_seq=bindparam("p_version"))
_DISCARD = (
    update(events)
    .where(events.c.battle_id == bindparam("b_id"), events.c.status == UNDONE)
    .values(status=DISCARDED)
)

#: the battle-row update of a plan decided on rights read earlier: it holds only while the server's
#: GM role and the user's co-GM row are still as they were read (``Grants``)
_ROLE = select(settings.c.gm_role_id).where(settings.c.guild_id == bindparam("g_guild")).scalar_subquery()
_CO_GM = exists().where(gms.c.battle_id == battles.c.id, gms.c.user_id == bindparam("g_user"))
_GUARDED: dict[tuple[bool, bool, bool], Any] = {}


def _plan_update(plan: WritePlan) -> tuple[Any, dict[str, Any]]:
    """The plan's battle-row UPDATE and its parameters (with its rights check, if it carries one)."""
    state = "p_state" in plan.update
    statement = _WRITE_STATE if state else _WRITE
    grants = plan.grants
    if grants is None:
        return statement, plan.update
    key = (state, grants.role is None, grants.co_gm)
    guarded = _GUARDED.get(key)
    if guarded is None:
        role = _ROLE.is_(None) if grants.role is None else _ROLE == bindparam("g_role")  # noqa: SIM300
        guarded = _GUARDED[key] = statement.where(and_(role, _CO_GM if grants.co_gm else ~_CO_GM))
    params = {**plan.update, "g_guild": grants.guild, "g_user": grants.user}
    if grants.role is not None:
        params["g_role"] = grants.role
    return guarded, params


def store_plans(
    conn: Connection, plans: Sequence[WritePlan], *, one_by_one: bool = False
) -> list[bool] | None:
    """Every plan in the open transaction (which holds the plans' channel locks): the battle-row
    updates (with their checks), the discards, then the log rows of the plans that held, in one
    ``executemany``. The one executor of plans: the storage writer's batches, and a job's ``write``.

    The updates of one shape go in one ``executemany``: if any of them matched no row, None (some
    were written: the caller rolls back and calls again ``one_by_one``, each update alone, to learn
    which plans hold). Per plan: did it hold? One that did not hold wrote nothing."""
    if one_by_one or len(plans) == 1:
        held = [conn.execute(*_plan_update(plan)).rowcount == 1 for plan in plans]
    else:
        shapes: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
        for plan in plans:
            statement, params = _plan_update(plan)
            shapes.setdefault(id(statement), (statement, []))[1].append(params)
        for statement, many in shapes.values():
            if conn.execute(statement, many).rowcount != len(many):
                return None
        held = [True] * len(plans)
    discards = [{"b_id": p.head.id} for p, ok in zip(plans, held, strict=True) if ok and p.discard_redo]
    if discards:
        conn.execute(_DISCARD, discards)
    rows = [p.row for p, ok in zip(plans, held, strict=True) if ok]
    if rows:
        conn.execute(INSERT, rows)
    return held


def write_plan(conn: Connection, plan: WritePlan) -> Written:
    """``plan`` alone in the open transaction (``store_plans``): what it wrote, or ``VersionConflict``
    (nothing of it written) if it did not hold."""
    if store_plans(conn, [plan]) != [True]:
        raise VersionConflict()
    return plan.written
