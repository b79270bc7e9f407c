"""Reads and writes of battles, their event log, co-GMs and guild settings (SQLAlchemy Core).

A read is defined once, on a synchronous connection (``read_latest``, ``read_log`` ...): the storage
reader runs it on its own thread (``bot.storage.reader``), a transaction job on its async connection
(``AsyncConnection.run_sync``; ``latest_head``, ``log`` ... are those, for jobs and tests).

Every write of a battle names the version it read, and holds only while that battle is still its
channel's current (latest) one: ``UPDATE ... WHERE id = :id AND version = :v AND no newer battle in
the channel``. No row updated means another writer came first (``VersionConflict``): nothing was
written, and the caller reads the battle again. Writers of one channel are serialised across
processes by ``lock_channel`` (the service takes it first in every write transaction), so a battle
read under it cannot conflict; a conflict means a cached battle was stale.
Settings and co-GM writes are single upserts / deletes: atomic on both databases, never a
read-modify-write.

The log keeps each action's patch (``bot.storage.docpatch``), not the whole state: the battle row
holds the state as of its ``state_seq``, and the current state is that with the patches of the live
actions after it. A snapshot (the whole state, on the log row and in the battle row) is taken at the
start and whenever the patches since the last one outweigh ``SNAPSHOT_WEIGHT`` snapshots, or after
``SNAPSHOT_EVERY`` actions: what a battle costs on disk grows with what its commands changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    CompoundSelect,
    Select,
    Table,
    and_,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal,
    literal_column,
    null,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import docpatch
from bot.storage.docpatch import Encoded
from bot.storage.models import (
    ACTION,
    DISCARDED,
    ENDED,
    LIVE,
    RUNNING,
    UNDONE,
    Battle,
    BattleEvent,
    BattleGM,
    GuildSettings,
    utcnow,
)

battles = cast(Table, Battle.__table__)
events = cast(Table, BattleEvent.__table__)
gms = cast(Table, BattleGM.__table__)
settings = cast(Table, GuildSettings.__table__)


#: a snapshot when the patches logged since the last one weigh this many times a snapshot
SNAPSHOT_WEIGHT = 2
#: and at the latest after this many actions (what a replay from a snapshot applies at most)
SNAPSHOT_EVERY = 1000


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(state: dict[str, Any] | Encoded) -> str:
    return state.text if isinstance(state, Encoded) else dumps(state)


class VersionConflict(Exception):
    """The battle changed since it was read."""


class ChannelBusy(Exception):
    """A battle is already running in the channel."""


@dataclass(frozen=True, slots=True)
class BattleHead:
    id: int
    ruleset: str
    status: str
    version: int
    started_by: str


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str
    status: str
    actor: str
    command_text: str
    #: the command as its rule set stored it (None: not read, as by the log and undo, which show the text)
    command: dict[str, Any] | None
    events: list[dict[str, Any]]
    #: the action's patch (read for undo and redo only; None elsewhere, and for notes)
    delta: dict[str, Any] | None
    created_at: datetime | None


@dataclass(frozen=True, slots=True)
class NewRow:
    kind: str
    actor: str
    command_text: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    #: the patch the action made (``docpatch.diff``); None for notes and a battle's first action
    delta: dict[str, Any] | None = None


_HEAD = (battles.c.id, battles.c.ruleset, battles.c.status, battles.c.version, battles.c.started_by)


async def running_head(conn: AsyncConnection, guild: str, channel: str) -> BattleHead | None:
    row = (
        await conn.execute(
            select(*_HEAD).where(
                battles.c.guild_id == guild, battles.c.channel_id == channel, battles.c.status == RUNNING
            )
        )
    ).first()
    return None if row is None else BattleHead(*row)


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


async def latest_head(conn: AsyncConnection, guild: str, channel: str) -> BattleHead | None:
    """``read_latest_head`` on an async connection."""
    return await conn.run_sync(read_latest_head, guild, channel)


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
_LOADED = _with_patches(select(*_BATTLE).where(battles.c.id == bindparam("b_id")))

#: a battle as read (``read_latest``): its document, the row's snapshot bookkeeping, and whether there
#: are undone actions
Loaded = tuple[dict[str, Any], "Snapshots", bool]


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


def read_state(conn: Connection, battle_id: int) -> dict[str, Any]:
    """The battle's current state."""
    loaded = _loaded(conn.execute(_LOADED, {"b_id": battle_id}))
    if loaded is None:
        raise LookupError(f"no battle {battle_id}")
    return loaded[1][0]


async def load_state(conn: AsyncConnection, battle_id: int) -> dict[str, Any]:
    """``read_state`` on an async connection."""
    return await conn.run_sync(read_state, battle_id)


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


async def state_at(conn: AsyncConnection, battle_id: int, seq: int) -> dict[str, Any]:
    """Replay: the state after action ``seq`` (live or undone, not discarded), from the last snapshot
    at or before it, with the patches of the actions between applied."""
    chain = (events.c.battle_id == battle_id) & (events.c.kind == ACTION) & (events.c.status != DISCARDED)
    base_seq, snapshot = (
        await conn.execute(
            select(events.c.seq, events.c.snapshot)
            .where(chain, events.c.seq <= seq, events.c.snapshot.is_not(None))
            .order_by(events.c.seq.desc())
            .limit(1)
        )
    ).one()
    document: dict[str, Any] = json.loads(snapshot)
    rows = await conn.execute(
        select(events.c.delta)
        .where(chain, events.c.seq > base_seq, events.c.seq <= seq)
        .order_by(events.c.seq)
    )
    for (delta,) in rows:
        if delta is not None:
            document = docpatch.apply(document, json.loads(delta))
    return document


def channel_lock_key(guild: str, channel: str) -> int:
    """The 64-bit advisory lock key of a channel (stable across processes and Python versions)."""
    digest = hashlib.blake2b(f"{guild}\x00{channel}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def lock_channel(conn: AsyncConnection, guild: str, channel: str) -> None:
    """Serialise the writers of one channel across processes until this transaction ends.

    PostgreSQL: a transaction-level advisory lock (a second writer waits, it does not fail).
    SQLite: nothing to do, a write transaction (BEGIN IMMEDIATE) already holds the database's
    one write lock. Take channel locks in ``channel_lock_key`` order when a transaction takes several.
    """
    if conn.dialect.name == "postgresql":
        await conn.execute(select(func.pg_advisory_xact_lock(channel_lock_key(guild, channel))))


_LOCK_MANY = text("SELECT count(pg_advisory_xact_lock(k)) FROM unnest(CAST(:keys AS bigint[])) AS t(k)")


def _channel_locks(dialect: str, channels: Sequence[tuple[str, str]]) -> tuple[Any, dict[str, Any]] | None:
    """The statement of ``lock_channels`` (None: nothing to lock)."""
    if dialect != "postgresql" or not channels:
        return None
    keys = sorted({channel_lock_key(guild, channel) for guild, channel in channels})
    if len(keys) == 1:
        return select(func.pg_advisory_xact_lock(keys[0])), {}
    return _LOCK_MANY, {"keys": keys}


async def lock_channels(conn: AsyncConnection, channels: Sequence[tuple[str, str]]) -> None:
    """``lock_channel`` for several channels in one statement, in ``channel_lock_key`` order (the
    order of the keys in the array: an SRF in FROM yields its rows in order), so that a batch of
    writes waits once for all its locks instead of a round trip per channel."""
    statement = _channel_locks(conn.dialect.name, channels)
    if statement is not None:
        await conn.execute(*statement)


async def create_battle(
    conn: AsyncConnection,
    *,
    guild: str,
    channel: str,
    ruleset: str,
    started_by: str,
    state: dict[str, Any] | Encoded,
    status: str,
    row: NewRow,
) -> int:
    """A new battle with its first log row (seq 1, version 1, a snapshot).

    ``ChannelBusy`` if one runs here."""
    now = utcnow()
    encoded = _text(state)
    try:
        async with conn.begin_nested():
            battle_id = (
                await conn.execute(
                    insert(battles)
                    .values(
                        guild_id=guild,
                        channel_id=channel,
                        ruleset=ruleset,
                        status=status,
                        version=1,
                        state=encoded,
                        state_seq=1,
                        pending_bytes=0,
                        started_by=started_by,
                        created_at=now,
                        updated_at=now,
                        ended_at=now if status == ENDED else None,
                    )
                    .returning(battles.c.id)
                )
            ).scalar_one()
    except IntegrityError:
        raise ChannelBusy() from None
    await _insert_row(conn, battle_id, 1, row, now, encoded)
    return int(battle_id)


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
_SNAPSHOTS = select(battles.c.state_seq, battles.c.pending_bytes).where(battles.c.id == bindparam("b_id"))
_DISCARD = (
    update(events)
    .where(events.c.battle_id == bindparam("b_id"), events.c.status == UNDONE)
    .values(status=DISCARDED)
)
_INSERT = insert(events)


@dataclass(frozen=True, slots=True)
class Snapshots:
    """What a battle row says of its state: the seq it is of (``state_seq``), and the bytes of patches
    logged since the last snapshot. A caller that read them at a version passes them to ``write``
    (which then needs no read), and gets the new ones back."""

    state_seq: int
    pending_bytes: int


@dataclass(frozen=True, slots=True)
class Written:
    version: int
    snapshots: Snapshots


def read_snapshots(conn: Connection, battle_id: int) -> Snapshots:
    state_seq, pending = conn.execute(_SNAPSHOTS, {"b_id": battle_id}).one()
    return Snapshots(int(state_seq), int(pending))


async def snapshots_of(conn: AsyncConnection, battle_id: int) -> Snapshots:
    """``read_snapshots`` on an async connection."""
    return await conn.run_sync(read_snapshots, battle_id)


@dataclass(frozen=True, slots=True)
class Grants:
    """What a GM check read of the rights of ``user`` on a battle (``read_grants``): the server's GM
    role then (None: none) and whether ``user`` was a co-GM. A write decided on grants read earlier
    carries them (``WritePlan.grants``), and holds only while they are still so."""

    guild: str
    user: str
    role: str | None
    co_gm: bool


@dataclass(frozen=True, slots=True)
class WritePlan:
    """One action's write, decided before any statement runs (``plan_write``): the battle row's
    update (its version check included), the undone rows to discard, and the log row."""

    head: BattleHead
    #: the battle row's UPDATE parameters (``p_state`` present: the whole state is stored too)
    update: dict[str, Any]
    discard_redo: bool
    #: the log row's values
    row: dict[str, Any]
    written: Written
    #: the rights the action was decided on, when they were read before its transaction
    grants: Grants | None = None


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
    """What ``write`` stores, computed without the database (``snapshots``: the battle row's as of
    ``head.version``)."""
    now = utcnow()
    new_version = head.version + 1
    delta_json = None if row.delta is None else dumps(row.delta)
    pending = snapshots.pending_bytes + (len(delta_json) if delta_json is not None else 0)
    snapshot = None
    if rewrite:
        after = Snapshots(new_version, pending)
    elif row.kind == ACTION and (
        new_version - snapshots.state_seq >= SNAPSHOT_EVERY
        or pending >= SNAPSHOT_WEIGHT * (state.size if isinstance(state, Encoded) else len(_text(state)))
    ):
        snapshot = _text(state)
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
        params["p_state"] = snapshot if snapshot is not None else _text(state)
    values = _row_params(head.id, new_version, row, now, snapshot, delta_json)
    return WritePlan(head, params, discard_redo, values, Written(new_version, after), grants)


async def write(
    conn: AsyncConnection,
    head: BattleHead,
    *,
    state: dict[str, Any] | Encoded,
    status: str,
    row: NewRow,
    discard_redo: bool,
    rewrite: bool = False,
    snapshots: Snapshots | None = None,
) -> Written:
    """Store a new state (its patch in ``row``) and its log row, in one UPDATE and one INSERT; returns
    the new version (= the row's seq) and snapshot bookkeeping.

    ``VersionConflict`` (nothing written) unless the battle is still at ``head.version`` and still
    its channel's current battle. ``discard_redo``: undone actions can no longer be redone.
    ``rewrite``: the battle row gets the whole state (undo and redo, whose notes carry no patch);
    else an action's row (and the battle row) get a snapshot when the patches since the last one
    outweigh ``SNAPSHOT_WEIGHT`` states, or ``SNAPSHOT_EVERY`` versions passed since the battle row's
    state. ``snapshots``: the battle row's as of ``head.version`` (read here when not given).
    """
    if snapshots is None:
        snapshots = await snapshots_of(conn, head.id)
    plan = plan_write(
        head, state=state, status=status, row=row, discard_redo=discard_redo, snapshots=snapshots,
        rewrite=rewrite,
    )  # fmt: skip
    return await execute_plan(conn, plan)


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


async def execute_plan(conn: AsyncConnection, plan: WritePlan) -> Written:
    """``plan`` in the open transaction. ``VersionConflict``: nothing written."""
    result = await conn.execute(*_plan_update(plan))
    if result.rowcount != 1:
        raise VersionConflict()
    if plan.discard_redo:
        await conn.execute(_DISCARD, {"b_id": plan.head.id})
    await conn.execute(_INSERT, plan.row)
    return plan.written


def store_plans(
    conn: Connection,
    plans: Sequence[WritePlan],
    channels: Sequence[tuple[str, str]],
    *,
    one_by_one: bool = False,
) -> list[bool] | None:
    """Every plan in the open (synchronous) transaction of the storage writer, with the statements
    of ``execute_plan``: the channels' locks, the battle-row updates (with their checks), the
    discards, then the log rows of the plans that held, in one ``executemany``.

    The updates of one shape go in one ``executemany``: if any of them matched no row, None (some
    were written: the caller rolls back and calls again ``one_by_one``, each update alone, to learn
    which plans hold). Per plan: did it hold? One that did not hold wrote nothing."""
    locks = _channel_locks(conn.dialect.name, channels)
    if locks is not None:
        conn.execute(*locks)
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
        conn.execute(_INSERT, rows)
    return held


def _row_params(
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


async def _insert_row(
    conn: AsyncConnection, battle_id: int, seq: int, row: NewRow, now: datetime, snapshot: str | None = None
) -> None:
    await conn.execute(_INSERT, _row_params(battle_id, seq, row, now, snapshot))


async def set_status(conn: AsyncConnection, battle_id: int, seqs: Sequence[int], status: str) -> None:
    if seqs:
        await conn.execute(
            update(events)
            .where(events.c.battle_id == battle_id, events.c.seq.in_(list(seqs)))
            .values(status=status)
        )


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


async def live_actions(conn: AsyncConnection, battle_id: int, limit: int) -> list[EventRow]:
    """The last ``limit`` live actions, newest first, with their patches."""
    rows = await conn.execute(
        select(*_ROW_COLUMNS)
        .where(events.c.battle_id == battle_id, events.c.status == LIVE, events.c.kind == ACTION)
        .order_by(events.c.seq.desc())
        .limit(limit)
    )
    return [_event_row(r) for r in rows]


async def undone_actions(conn: AsyncConnection, battle_id: int, limit: int) -> list[EventRow]:
    """The undone actions that redo would restore, oldest first, with their patches."""
    rows = await conn.execute(
        select(*_ROW_COLUMNS)
        .where(events.c.battle_id == battle_id, events.c.status == UNDONE, events.c.kind == ACTION)
        .order_by(events.c.seq.asc())
        .limit(limit)
    )
    return [_event_row(r) for r in rows]


async def has_undone(conn: AsyncConnection, battle_id: int) -> bool:
    found = (
        await conn.execute(
            select(events.c.seq).where(events.c.battle_id == battle_id, events.c.status == UNDONE).limit(1)
        )
    ).first()
    return found is not None


def read_log(conn: Connection, battle_id: int, last: int) -> list[EventRow]:
    """The last ``last`` rows (actions and notes, undone and discarded ones too), oldest first."""
    rows = conn.execute(
        select(*_LOG_COLUMNS).where(events.c.battle_id == battle_id).order_by(events.c.seq.desc()).limit(last)
    )
    return [_event_row(r) for r in reversed(list(rows))]


async def log(conn: AsyncConnection, battle_id: int, last: int) -> list[EventRow]:
    """``read_log`` on an async connection."""
    return await conn.run_sync(read_log, battle_id, last)


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


# ---------------------------------------------------------------------------------------------
# The live status message of a battle (a front-end's note, not battle state: no version bump)


def read_status_message(conn: Connection, battle_id: int) -> int | None:
    """The id of the message that shows the battle's status, if one was stored."""
    value = conn.execute(
        select(battles.c.status_message_id).where(battles.c.id == battle_id)
    ).scalar_one_or_none()
    return None if value is None else int(value)


async def status_message(conn: AsyncConnection, battle_id: int) -> int | None:
    """``read_status_message`` on an async connection."""
    return await conn.run_sync(read_status_message, battle_id)


async def set_status_message(
    conn: AsyncConnection, battle_id: int, message_id: int | None, version: int | None = None
) -> None:
    """Store (or, with None, forget) the battle's status message id and the version it shows."""
    await conn.execute(
        update(battles)
        .where(battles.c.id == battle_id)
        .values(status_message_id=message_id, status_message_version=version)
    )


def read_stale_status_messages(conn: Connection) -> list[tuple[str, str]]:
    """(guild, channel) of each running battle whose status message shows an older version."""
    shown = battles.c.status_message_version
    rows = conn.execute(
        select(battles.c.guild_id, battles.c.channel_id)
        .where(
            battles.c.status == RUNNING,
            battles.c.status_message_id.is_not(None),
            shown.is_(None) | (shown < battles.c.version),
        )
        .order_by(battles.c.id)
    )
    return [(str(guild), str(channel)) for guild, channel in rows]


async def stale_status_messages(conn: AsyncConnection) -> list[tuple[str, str]]:
    """``read_stale_status_messages`` on an async connection."""
    return await conn.run_sync(read_stale_status_messages)


# ---------------------------------------------------------------------------------------------
# Co-GMs of a battle


def _insert(conn: AsyncConnection, table: Table) -> Any:
    """An INSERT that can say ON CONFLICT (PostgreSQL and SQLite spell it alike)."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


async def add_co_gm(conn: AsyncConnection, battle_id: int, user: str, added_by: str) -> bool:
    """Make ``user`` a co-GM of the battle; False if they already were (one statement, no race)."""
    statement = (
        _insert(conn, gms)
        .values(battle_id=battle_id, user_id=user, added_by=added_by, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[gms.c.battle_id, gms.c.user_id])
    )
    return bool((await conn.execute(statement)).rowcount)


async def remove_co_gm(conn: AsyncConnection, battle_id: int, user: str) -> bool:
    """``user`` is no longer a co-GM of the battle; False if they were not one."""
    statement = delete(gms).where(gms.c.battle_id == battle_id, gms.c.user_id == user)
    return bool((await conn.execute(statement)).rowcount)


def read_co_gms(conn: Connection, battle_id: int) -> tuple[str, ...]:
    """The battle's co-GMs, in the order they were added."""
    rows = conn.execute(
        select(gms.c.user_id).where(gms.c.battle_id == battle_id).order_by(gms.c.created_at, gms.c.user_id)
    )
    return tuple(rows.scalars())


async def co_gms(conn: AsyncConnection, battle_id: int) -> tuple[str, ...]:
    """``read_co_gms`` on an async connection."""
    return await conn.run_sync(read_co_gms, battle_id)


_GRANTS = select(
    select(settings.c.gm_role_id).where(settings.c.guild_id == bindparam("g")).scalar_subquery(),
    exists().where(gms.c.battle_id == bindparam("b"), gms.c.user_id == bindparam("u")),
)


def read_grants(conn: Connection, guild: str, battle_id: int, user: str) -> Grants:
    """In one query: the server's GM role (None: none set) and whether ``user`` is a co-GM of the battle."""
    role, is_co_gm = conn.execute(_GRANTS, {"g": guild, "b": battle_id, "u": user}).one()
    return Grants(guild, user, role, bool(is_co_gm))


# ---------------------------------------------------------------------------------------------
# Guild settings


DEFAULT_LANGUAGE = "ja"


@dataclass(frozen=True, slots=True)
class Settings:
    guild_id: str
    language: str = DEFAULT_LANGUAGE
    gm_role_id: str | None = None


def read_settings(conn: Connection, guild: str) -> Settings:
    row = conn.execute(
        select(settings.c.language, settings.c.gm_role_id).where(settings.c.guild_id == guild)
    ).first()
    if row is None:
        return Settings(guild)
    return Settings(guild, row.language, row.gm_role_id)


async def get_settings(conn: AsyncConnection, guild: str) -> Settings:
    """``read_settings`` on an async connection."""
    return await conn.run_sync(read_settings, guild)


async def _set(conn: AsyncConnection, guild: str, **values: Any) -> None:
    """Set some settings of a server in one upsert (the row is made if there is none)."""
    now = utcnow()
    defaults = {"language": DEFAULT_LANGUAGE, "gm_role_id": None}
    statement = (
        _insert(conn, settings)
        .values(guild_id=guild, **{**defaults, **values}, updated_at=now)
        .on_conflict_do_update(index_elements=[settings.c.guild_id], set_={**values, "updated_at": now})
    )
    await conn.execute(statement)


async def set_language(conn: AsyncConnection, guild: str, language: str) -> None:
    await _set(conn, guild, language=language)


async def set_gm_role(conn: AsyncConnection, guild: str, role: str | None) -> None:
    """The server's GM role (None: no GM role)."""
    await _set(conn, guild, gm_role_id=role)
