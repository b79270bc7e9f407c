"""The rights stored with a battle and its server: a battle's co-GMs (``/gm add``: stored with the
battle, gone with it) and what a GM check reads of them with the server's GM role (``Grants``).

A co-GM change is one statement (an insert that does nothing when the row is there, a delete): atomic
on every database, never a read-modify-write. The insert is the family's (``Insert``: PostgreSQL and
SQLite each spell ON CONFLICT with their own construct). Statements of a synchronous connection, run
by the storage on a thread of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Table, bindparam, delete, exists, select
from sqlalchemy.engine import Connection

from bot.storage.models import utcnow
from bot.storage.records import Grants
from bot.storage.tables import gms, settings

#: a family's INSERT that can say ON CONFLICT (``sqlalchemy.dialects.<name>.insert``)
Insert = Callable[[Table], Any]


def add_co_gm(conn: Connection, insert: Insert, battle_id: int, user: str, added_by: str) -> bool:
    """Make ``user`` a co-GM of the battle; False if they already were (one statement, no race)."""
    statement = (
        insert(gms)
        .values(battle_id=battle_id, user_id=user, added_by=added_by, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[gms.c.battle_id, gms.c.user_id])
        # an INSERT's row count is kept only when asked for (psycopg's is -1 otherwise)
        .execution_options(preserve_rowcount=True)
    )
    return bool(conn.execute(statement).rowcount)


def remove_co_gm(conn: Connection, battle_id: int, user: str) -> bool:
    """``user`` is no longer a co-GM of the battle; False if they were not one."""
    statement = delete(gms).where(gms.c.battle_id == battle_id, gms.c.user_id == user)
    return bool(conn.execute(statement).rowcount)


def read_co_gms(conn: Connection, battle_id: int) -> tuple[str, ...]:
    """The battle's co-GMs, in the order they were added."""
    rows = conn.execute(
        select(gms.c.user_id).where(gms.c.battle_id == battle_id).order_by(gms.c.created_at, gms.c.user_id)
    )
    return tuple(rows.scalars())


_GRANTS = select(
    select(settings.c.gm_role_id).where(settings.c.guild_id == bindparam("g")).scalar_subquery(),
    exists().where(gms.c.battle_id == bindparam("b"), gms.c.user_id == bindparam("u")),
)


def read_grants(conn: Connection, guild: str, battle_id: int, user: str) -> Grants:
    """In one query: the server's GM role (None: none set) and whether ``user`` is a co-GM of the battle."""
    role, is_co_gm = conn.execute(_GRANTS, {"g": guild, "b": battle_id, "u": user}).one()
    return Grants(guild, user, role, bool(is_co_gm))
