"""The sheets users registered on a server for ``/palette`` (``/palette register``): at most ``CAP`` a user
and server, one a character name (registering it again replaces it). Statements of a synchronous
connection, run by the storage on a thread of its own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection, Row

from bot.storage.records import RegisteredSheet
from bot.storage.rights import Insert
from bot.storage.tables import user_sheets

#: how many sheets a user may register on one server
CAP = 10

_ROW = (
    user_sheets.c.name, user_sheets.c.sheet, user_sheets.c.palette, user_sheets.c.source,
    user_sheets.c.updated_at,
)  # fmt: skip


def _sheet(row: Row[Any, Any, Any, Any, Any]) -> RegisteredSheet:
    at: datetime = row.updated_at
    return RegisteredSheet(
        str(row.name),
        str(row.sheet),
        row.palette,
        str(row.source),
        at if at.tzinfo else at.replace(tzinfo=UTC),
    )


def read_user_sheets(conn: Connection, guild: str, user: str) -> list[RegisteredSheet]:
    """The user's sheets on the server, the latest registered first."""
    rows = conn.execute(
        select(*_ROW)
        .where(user_sheets.c.guild_id == guild, user_sheets.c.user_id == user)
        .order_by(user_sheets.c.updated_at.desc(), user_sheets.c.key)
    ).all()
    return [_sheet(r) for r in rows]


def keep_user_sheet(
    conn: Connection, insert: Insert, guild: str, user: str, key: str, sheet: RegisteredSheet, cap: int = CAP
) -> bool | None:
    """Keep ``sheet`` under the folded name ``key``: True if it replaced one of that name, False if it
    is new, None (nothing written) if the user has ``cap`` sheets of other names already."""
    here = (user_sheets.c.guild_id == guild, user_sheets.c.user_id == user)
    had = conn.execute(select(user_sheets.c.key).where(*here, user_sheets.c.key == key)).first() is not None
    if not had:
        count = conn.execute(select(func.count()).select_from(user_sheets).where(*here)).scalar()
        if int(count or 0) >= cap:
            return None
    values = {
        "name": sheet.name, "sheet": sheet.sheet, "palette": sheet.palette, "source": sheet.source,
        "updated_at": sheet.updated_at,
    }  # fmt: skip
    statement = (
        insert(user_sheets)
        .values(guild_id=guild, user_id=user, key=key, **values)
        .on_conflict_do_update(
            index_elements=[user_sheets.c.guild_id, user_sheets.c.user_id, user_sheets.c.key], set_=values
        )
    )
    conn.execute(statement)
    return had


def forget_user_sheet(conn: Connection, guild: str, user: str, key: str) -> bool:
    """Forget the user's sheet of the folded name ``key``; False if there was none."""
    done = conn.execute(
        delete(user_sheets).where(
            user_sheets.c.guild_id == guild, user_sheets.c.user_id == user, user_sheets.c.key == key
        )
    )
    return bool(done.rowcount)
