"""Reads and writes of battles, their event log and guild settings (SQLAlchemy Core, async).

Every write names the battle version it read: ``UPDATE ... WHERE id = :id AND version = :v``.
No row updated means another writer came first (``VersionConflict``); the caller reloads.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, insert, select, update
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
    GuildSettings,
    utcnow,
)

battles = cast(Table, Battle.__table__)
events = cast(Table, BattleEvent.__table__)
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


async def load_state(conn: AsyncConnection, battle_id: int) -> dict[str, Any]:
    state = (await conn.execute(_LOAD, {"b_id": battle_id})).scalar_one()
    loaded: dict[str, Any] = json.loads(state)
    return loaded


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


_WRITE = (
    update(battles)
    .where(battles.c.id == bindparam("b_id"), battles.c.version == bindparam("b_version"))
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


@dataclass(frozen=True, slots=True)
class Write:
    """One battle's new state and log row, checked against the version it was read at."""

    head: BattleHead
    state: dict[str, Any]
    status: str
    row: NewRow
    discard_redo: bool


async def write(
    conn: AsyncConnection,
    head: BattleHead,
    *,
    state: dict[str, Any],
    status: str,
    row: NewRow,
    discard_redo: bool,
) -> int:
    """Store a new state and its log row; returns the new version (= the row's seq)."""
    result = (await write_many(conn, [Write(head, state, status, row, discard_redo)]))[0]
    if isinstance(result, VersionConflict):
        raise result
    return result


async def write_many(conn: AsyncConnection, writes: Sequence[Write]) -> list[int | VersionConflict]:
    """Several writes (of different battles) in the caller's transaction: for each, the new version,
    or ``VersionConflict`` (then nothing of it was written). The log rows go in one batch."""
    now = utcnow()
    results: list[int | VersionConflict] = []
    rows: list[dict[str, Any]] = []
    for item in writes:
        new_version = item.head.version + 1
        encoded = dumps(item.state)
        result = await conn.execute(
            _WRITE,
            {
                "b_id": item.head.id,
                "b_version": item.head.version,
                "p_version": new_version,
                "p_state": encoded,
                "p_status": item.status,
                "p_now": now,
                "p_ended": now if item.status == ENDED else None,
            },
        )
        if result.rowcount != 1:
            results.append(VersionConflict())
            continue
        if item.discard_redo:
            await conn.execute(_DISCARD, {"b_id": item.head.id})
        state_json = encoded if item.row.state_after is item.state else None
        rows.append(_row_params(item.head.id, new_version, item.row, now, state_json))
        results.append(new_version)
    if rows:
        await conn.execute(_INSERT, rows)
    return results


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
# Guild settings


@dataclass(frozen=True, slots=True)
class Settings:
    guild_id: str
    language: str = "ja"
    gm_role_id: str | None = None
    co_gms: tuple[str, ...] = ()


async def get_settings(conn: AsyncConnection, guild: str) -> Settings:
    row = (
        await conn.execute(
            select(settings.c.language, settings.c.gm_role_id, settings.c.co_gms).where(
                settings.c.guild_id == guild
            )
        )
    ).first()
    if row is None:
        return Settings(guild)
    return Settings(guild, row.language, row.gm_role_id, tuple(row.co_gms or ()))


async def put_settings(conn: AsyncConnection, value: Settings) -> None:
    values = {
        "language": value.language,
        "gm_role_id": value.gm_role_id,
        "co_gms": list(value.co_gms),
        "updated_at": utcnow(),
    }
    result = await conn.execute(
        update(settings).where(settings.c.guild_id == value.guild_id).values(**values)
    )
    if result.rowcount == 0:
        await conn.execute(insert(settings).values(guild_id=value.guild_id, **values))
