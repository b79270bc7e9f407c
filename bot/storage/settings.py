"""A server's settings: its language and its GM role (``/gm role``); a channel's: chat dice
(``/settings chat_dice:``).

A change is one upsert (the row made if there is none, with the family's ON CONFLICT insert): two
processes setting the same server's settings at once never collide. Statements of a synchronous
connection, run by the storage on a thread of its own.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from bot.storage.models import utcnow
from bot.storage.records import DEFAULT_LANGUAGE, Settings
from bot.storage.rights import Insert
from bot.storage.tables import channel_settings, settings


def read_settings(conn: Connection, guild: str) -> Settings:
    row = conn.execute(
        select(settings.c.language, settings.c.gm_role_id).where(settings.c.guild_id == guild)
    ).first()
    if row is None:
        return Settings(guild)
    return Settings(guild, row.language, row.gm_role_id)


def set_settings(conn: Connection, insert: Insert, guild: str, /, **values: Any) -> None:
    """Set some settings of a server (``language``, ``gm_role_id``) in one upsert."""
    now = utcnow()
    defaults = {"language": DEFAULT_LANGUAGE, "gm_role_id": None}
    statement = (
        insert(settings)
        .values(guild_id=guild, **{**defaults, **values}, updated_at=now)
        .on_conflict_do_update(index_elements=[settings.c.guild_id], set_={**values, "updated_at": now})
    )
    conn.execute(statement)


def read_chat_dice(conn: Connection, guild: str, channel: str) -> bool:
    """Are the channel's chat messages that begin with a dice command rolled?"""
    found = conn.execute(
        select(channel_settings.c.chat_dice).where(
            channel_settings.c.guild_id == guild, channel_settings.c.channel_id == channel
        )
    ).scalar()
    return bool(found)


def set_chat_dice(conn: Connection, insert: Insert, guild: str, channel: str, on: bool) -> None:
    """Chat dice on or off in the channel, in one upsert."""
    now = utcnow()
    statement = (
        insert(channel_settings)
        .values(guild_id=guild, channel_id=channel, chat_dice=on, updated_at=now)
        .on_conflict_do_update(
            index_elements=[channel_settings.c.guild_id, channel_settings.c.channel_id],
            set_={"chat_dice": on, "updated_at": now},
        )
    )
    conn.execute(statement)
