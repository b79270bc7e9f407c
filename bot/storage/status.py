"""The live status message of a battle: the id of the message a front-end keeps the battle's status
in, and the battle version it shows (a front-end's note, not battle state: no version bump).
Statements of a synchronous connection, run by the storage on a thread of its own."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from bot.storage.models import RUNNING
from bot.storage.tables import battles


def read_status_message(conn: Connection, battle_id: int) -> int | None:
    """The id of the message that shows the battle's status, if one was stored."""
    value = conn.execute(
        select(battles.c.status_message_id).where(battles.c.id == battle_id)
    ).scalar_one_or_none()
    return None if value is None else int(value)


def set_status_message(conn: Connection, battle_id: int, message_id: int | None, version: int | None) -> None:
    """Store (or, with None, forget) the battle's status message id and the version it shows."""
    conn.execute(
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
