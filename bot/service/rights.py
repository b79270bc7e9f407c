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
from bot.service.types import Actor, Invocation, Refused, Where
from bot.storage import repository as repo
from bot.storage.models import NOTE
from bot.views import NoticeView
from engine.ruleset import Event


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
    conn: AsyncConnection,
    head: repo.BattleHead,
    actor: Actor,
    spec: CommandSpec,
    user: str,
    invocation: Invocation,
) -> tuple[repo.BattleHead, NoticeView]:
    """``/gm add`` / ``/gm remove`` on the battle (the caller checked that ``actor`` is its GM).

    Under the channel's lock: whether ``user`` is a co-GM is read, the log keeps who made whom a
    co-GM (a note: the battle's version moves on, its state does not), and then one insert or
    delete of the battle's co-GM row (no read-modify-write of a shared list).
    """
    added = spec.kind is Kind.GM_ADD
    if added == await repo.is_co_gm(conn, head.id, user):
        raise Refused("gm.already" if added else "gm.not_cogm", user=user)
    event = Event("service.gm_added" if added else "service.gm_removed", {"user": user})
    row = repo.NewRow(
        kind=NOTE,
        actor=actor.id,
        command_text=invocation.log_text(),
        command={"command": spec.path, "user": user},
        events=[event.to_json()],
        state_after=None,
    )
    version = await repo.append_note(conn, head, row)  # the version-checked write first (writer.py)
    if added:
        await repo.add_co_gm(conn, head.id, user, actor.id)
    else:
        await repo.remove_co_gm(conn, head.id, user)
    new_head = repo.BattleHead(head.id, head.ruleset, head.status, version, head.started_by)
    return new_head, NoticeView(key="gm.added" if added else "gm.removed", values={"user": user})


async def set_gm_role(conn: AsyncConnection, where: Where, actor: Actor, role: str | None) -> NoticeView:
    """``/gm role [role:]``: members with Manage Server set (or, leaving ``role`` out, remove) the
    server's GM role, whose members are GM of every battle on the server."""
    if not actor.manage_guild:
        raise Refused("gm.role_manage_server")
    await repo.set_gm_role(conn, where.guild, role)
    if role is None:
        return NoticeView(key="gm.role_removed")
    return NoticeView(key="gm.role_set", values={"role": role})
