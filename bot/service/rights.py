"""Who may act as GM (COMMANDS.md, Conventions), one check for every GM-only command and button.

A GM of a battle is whoever started (or imported) it, a co-GM that a GM of *that battle* added
(stored with the battle, gone with it), a member with the server's GM role (``/gm role``, which
only members with Manage Server may set), or a member with Manage Channels in that channel (the
front-end says so for the channel the command came from). Everybody else is a player.

The check reads the database inside the command's write transaction, under the channel's lock: a
co-GM removed a moment ago, by any process, is nobody at once.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.commands import CommandSpec, Kind
from bot.service.types import Actor, Refused, Where
from bot.storage import repository as repo
from bot.views import NoticeView


async def is_gm(conn: AsyncConnection, where: Where, actor: Actor, head: repo.BattleHead) -> bool:
    """Is ``actor`` a GM of the battle ``head`` (the channel ``where``'s current battle)?"""
    if actor.manage_channels or actor.id == head.started_by:
        return True
    role, co_gm = await repo.gm_grants(conn, where.guild, head.id, actor.id)
    return co_gm or (role is not None and role in actor.roles)


async def require_gm(
    conn: AsyncConnection, where: Where, actor: Actor, spec: CommandSpec, head: repo.BattleHead
) -> bool:
    """Whether ``actor`` is a GM of the battle; a (GM) command by anyone else is refused."""
    gm = await is_gm(conn, where, actor, head)
    if spec.gm and not gm:
        raise Refused("service.gm_only", command="/" + spec.path)
    return gm


async def change_co_gm(
    conn: AsyncConnection, head: repo.BattleHead, actor: Actor, spec: CommandSpec, user: str
) -> NoticeView:
    """``/gm add`` / ``/gm remove`` on the battle ``head`` as stored (the caller holds the channel's
    lock and checked that ``actor`` is its GM): one insert or delete of the battle's co-GM row, no
    read-modify-write of a shared list. Not battle state: the battle's version stays."""
    added = spec.kind is Kind.GM_ADD
    if added and not await repo.add_co_gm(conn, head.id, user, actor.id):
        raise Refused("gm.already", user=user)
    if not added and not await repo.remove_co_gm(conn, head.id, user):
        raise Refused("gm.not_cogm", user=user)
    return NoticeView(key="gm.added" if added else "gm.removed", values={"user": user})


async def set_gm_role(conn: AsyncConnection, where: Where, actor: Actor, role: str | None) -> NoticeView:
    """``/gm role [role:]``: members with Manage Server set (or, leaving ``role`` out, remove) the
    server's GM role, whose members are GM of every battle on the server."""
    if not actor.manage_guild:
        raise Refused("gm.role_manage_server")
    await repo.set_gm_role(conn, where.guild, role)
    if role is None:
        return NoticeView(key="gm.role_removed")
    return NoticeView(key="gm.role_set", values={"role": role})
