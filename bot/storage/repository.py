"""Reads and writes of battles, their event log, co-GMs and guild settings (SQLAlchemy Core, async).

Every write of a battle names the version it read, and holds only while that battle is still its
channel's current (latest) one: ``UPDATE ... WHERE id = :id AND version = :v AND no newer battle in
the channel``. No row updated means another writer came first (``VersionConflict``): nothing was
written, and the caller reads the battle again. Writers of one channel are serialised across
processes by ``lock_channel`` (the service takes it first in every write transaction), so a battle
read under it cannot conflict; a conflict means a cached battle was stale.
Settings and co-GM writes are single upserts / deletes: atomic on both databases, never a
read-modify-write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, exists, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

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


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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
    command: dict[str, Any]
    events: list[dict[str, Any]]
    state_after: dict[str, Any] | None
    created_at: datetime | None


@dataclass(frozen=True, slots=True)
class NewRow:
    kind: str
    actor: str
    command_text: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    state_after: dict[str, Any] | None


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


async def latest_head(conn: AsyncConnection, guild: str, channel: str) -> BattleHead | None:
    """The channel's latest battle: the running one if any (a running battle is always the latest)."""
    row = (await conn.execute(_LATEST, {"g": guild, "c": channel})).first()
    return None if row is None else BattleHead(*row)


_LOAD = select(battles.c.state).where(battles.c.id == bindparam("b_id"))
_LOAD_AT = _LOAD.where(battles.c.version == bindparam("b_version"))


async def load_state(conn: AsyncConnection, battle_id: int) -> dict[str, Any]:
    state = (await conn.execute(_LOAD, {"b_id": battle_id})).scalar_one()
    loaded: dict[str, Any] = json.loads(state)
    return loaded


async def load_state_at(conn: AsyncConnection, head: BattleHead) -> dict[str, Any] | None:
    """The battle's state if it is still at ``head.version`` (None: it changed since the head was read)."""
    state = (await conn.execute(_LOAD_AT, {"b_id": head.id, "b_version": head.version})).scalar_one_or_none()
    if state is None:
        return None
    loaded: dict[str, Any] = json.loads(state)
    return loaded


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


async def create_battle(
    conn: AsyncConnection,
    *,
    guild: str,
    channel: str,
    ruleset: str,
    started_by: str,
    state: dict[str, Any],
    status: str,
    row: NewRow,
) -> int:
    """A new battle with its first log row (seq 1, version 1). ``ChannelBusy`` if one runs here."""
    now = utcnow()
    encoded = dumps(state)
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
    await _insert_row(conn, battle_id, 1, row, now, encoded if row.state_after is state else None)
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
        state=bindparam("p_state"),
        status=bindparam("p_status"),
        updated_at=bindparam("p_now"),
        ended_at=bindparam("p_ended"),
    )
)
_DISCARD = (
    update(events)
    .where(events.c.battle_id == bindparam("b_id"), events.c.status == UNDONE)
    .values(status=DISCARDED)
)
_INSERT = insert(events)


async def write(
    conn: AsyncConnection,
    head: BattleHead,
    *,
    state: dict[str, Any],
    status: str,
    row: NewRow,
    discard_redo: bool,
) -> int:
    """Store a new state and its log row; returns the new version (= the row's seq).

    ``VersionConflict`` (nothing written) unless the battle is still at ``head.version`` and still
    its channel's current battle. ``discard_redo``: undone actions can no longer be redone.
    """
    now = utcnow()
    new_version = head.version + 1
    encoded = dumps(state)
    result = await conn.execute(
        _WRITE,
        {
            "b_id": head.id,
            "b_version": head.version,
            "p_version": new_version,
            "p_state": encoded,
            "p_status": status,
            "p_now": now,
            "p_ended": now if status == ENDED else None,
        },
    )
    if result.rowcount != 1:
        raise VersionConflict()
    if discard_redo:
        await conn.execute(_DISCARD, {"b_id": head.id})
    state_json = encoded if row.state_after is state else None
    await _insert_row(conn, head.id, new_version, row, now, state_json)
    return new_version


def _row_params(
    battle_id: int, seq: int, row: NewRow, now: datetime, state_json: str | None = None
) -> dict[str, Any]:
    """One log row's values; ``state_json`` is ``row.state_after`` already encoded (the battle's too)."""
    if state_json is None and row.state_after is not None:
        state_json = dumps(row.state_after)
    return {
        "battle_id": battle_id,
        "seq": seq,
        "kind": row.kind,
        "status": LIVE,
        "actor": row.actor,
        "command_text": row.command_text,
        "command": dumps(row.command),
        "events": dumps(row.events),
        "state_after": state_json,
        "created_at": now,
    }


async def _insert_row(
    conn: AsyncConnection, battle_id: int, seq: int, row: NewRow, now: datetime, state_json: str | None = None
) -> None:
    await conn.execute(_INSERT, _row_params(battle_id, seq, row, now, state_json))


async def set_status(conn: AsyncConnection, battle_id: int, seqs: Sequence[int], status: str) -> None:
    if seqs:
        await conn.execute(
            update(events)
            .where(events.c.battle_id == battle_id, events.c.seq.in_(list(seqs)))
            .values(status=status)
        )


def _event_row(row: Any) -> EventRow:
    return EventRow(
        seq=row.seq,
        kind=row.kind,
        status=row.status,
        actor=row.actor,
        command_text=row.command_text,
        command=json.loads(row.command),
        events=json.loads(row.events),
        state_after=None if row.state_after is None else json.loads(row.state_after),
        created_at=row.created_at,
    )


_ROW_COLUMNS = (
    events.c.seq,
    events.c.kind,
    events.c.status,
    events.c.actor,
    events.c.command_text,
    events.c.command,
    events.c.events,
    events.c.state_after,
    events.c.created_at,
)


async def live_actions(conn: AsyncConnection, battle_id: int, limit: int) -> list[EventRow]:
    """The last ``limit`` live actions, newest first."""
    rows = await conn.execute(
        select(*_ROW_COLUMNS)
        .where(events.c.battle_id == battle_id, events.c.kind == ACTION, events.c.status == LIVE)
        .order_by(events.c.seq.desc())
        .limit(limit)
    )
    return [_event_row(r) for r in rows]


async def undone_actions(conn: AsyncConnection, battle_id: int, limit: int) -> list[EventRow]:
    """The undone actions that redo would restore, oldest first."""
    rows = await conn.execute(
        select(*_ROW_COLUMNS)
        .where(events.c.battle_id == battle_id, events.c.kind == ACTION, events.c.status == UNDONE)
        .order_by(events.c.seq.asc())
        .limit(limit)
    )
    return [_event_row(r) for r in rows]


async def has_undone(conn: AsyncConnection, battle_id: int) -> bool:
    count = (
        await conn.execute(
            select(func.count()).where(events.c.battle_id == battle_id, events.c.status == UNDONE)
        )
    ).scalar_one()
    return bool(count)


async def log(conn: AsyncConnection, battle_id: int, last: int) -> list[EventRow]:
    """The last ``last`` rows (actions and notes, undone and discarded ones too), oldest first."""
    rows = await conn.execute(
        select(*_ROW_COLUMNS).where(events.c.battle_id == battle_id).order_by(events.c.seq.desc()).limit(last)
    )
    return [_event_row(r) for r in reversed(list(rows))]


async def live_actions_since(conn: AsyncConnection, battle_id: int, after_seq: int) -> list[EventRow]:
    """Live actions with seq > ``after_seq``, oldest first (for summaries)."""
    rows = await conn.execute(
        select(*_ROW_COLUMNS)
        .where(
            events.c.battle_id == battle_id,
            events.c.kind == ACTION,
            events.c.status == LIVE,
            events.c.seq > after_seq,
        )
        .order_by(events.c.seq.asc())
    )
    return [_event_row(r) for r in rows]


async def live_events(conn: AsyncConnection, battle_id: int) -> list[dict[str, Any]]:
    """The events of every live action, oldest first, without the states stored beside them (the
    final summary's chart reads a whole battle)."""
    rows = await conn.execute(
        select(events.c.events)
        .where(events.c.battle_id == battle_id, events.c.kind == ACTION, events.c.status == LIVE)
        .order_by(events.c.seq.asc())
    )
    return [event for (encoded,) in rows for event in json.loads(encoded)]


# ---------------------------------------------------------------------------------------------
# The live status message of a battle (a front-end's note, not battle state: no version bump)


async def status_message(conn: AsyncConnection, battle_id: int) -> int | None:
    """The id of the message that shows the battle's status, if one was stored."""
    value = (
        await conn.execute(select(battles.c.status_message_id).where(battles.c.id == battle_id))
    ).scalar_one_or_none()
    return None if value is None else int(value)


async def set_status_message(conn: AsyncConnection, battle_id: int, message_id: int | None) -> None:
    """Store (or, with None, forget) the battle's status message id."""
    await conn.execute(
        update(battles).where(battles.c.id == battle_id).values(status_message_id=message_id)
    )


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


async def co_gms(conn: AsyncConnection, battle_id: int) -> tuple[str, ...]:
    """The battle's co-GMs, in the order they were added."""
    rows = await conn.execute(
        select(gms.c.user_id).where(gms.c.battle_id == battle_id).order_by(gms.c.created_at, gms.c.user_id)
    )
    return tuple(rows.scalars())


_GRANTS = select(
    select(settings.c.gm_role_id).where(settings.c.guild_id == bindparam("g")).scalar_subquery(),
    exists().where(gms.c.battle_id == bindparam("b"), gms.c.user_id == bindparam("u")),
)


async def gm_grants(conn: AsyncConnection, guild: str, battle_id: int, user: str) -> tuple[str | None, bool]:
    """In one query: the server's GM role (None: none set) and whether ``user`` is a co-GM of the battle."""
    role, is_co_gm = (await conn.execute(_GRANTS, {"g": guild, "b": battle_id, "u": user})).one()
    return role, bool(is_co_gm)


# ---------------------------------------------------------------------------------------------
# Guild settings


DEFAULT_LANGUAGE = "ja"


@dataclass(frozen=True, slots=True)
class Settings:
    guild_id: str
    language: str = DEFAULT_LANGUAGE
    gm_role_id: str | None = None


async def get_settings(conn: AsyncConnection, guild: str) -> Settings:
    row = (
        await conn.execute(
            select(settings.c.language, settings.c.gm_role_id).where(settings.c.guild_id == guild)
        )
    ).first()
    if row is None:
        return Settings(guild)
    return Settings(guild, row.language, row.gm_role_id)


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
