"""Who may act as GM (COMMANDS.md, Conventions), one check for every GM-only command and button.

A GM of a battle is whoever started (or imported) it, a co-GM that a GM of *that battle* added
(stored with the battle, gone with it), or a member with the server's GM role (``/gm role``, which
only members with Manage Server may set). A member with Manage Channels in that channel (the
front-end says so for the channel the command came from) is not a GM by that alone: ``/gm takeover``
makes them a co-GM, which the channel is told and the log keeps. Everybody else is a player.

The rights are read from the database (``BattleCache.read_grants``) and kept; an action decided on rights kept
carries them in its write plan, which holds only while they are still so, and a GM command refused on
rights kept reads them again (``bot.service.actions``); the rare commands read them in their own
write transaction (a job's). So a co-GM removed a moment ago, by any process, is nobody at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.commands import CommandSpec, Kind
from bot.i18n import t
from bot.i18n.names import Named
from bot.service.types import Actor, Refused
from bot.storage.interface import Transaction
from bot.storage.records import BattleHead, Grants
from bot.views import NoticeView


def gm_by_itself(actor: Actor, head: BattleHead) -> bool:
    """Is ``actor`` a GM of the battle whatever the database says (its starter)? Manage Channels alone
    is not (on a friends' server everyone may have it): ``/gm takeover`` makes its member a co-GM."""
    return actor.id == head.started_by


def gm_by_grants(actor: Actor, held: Grants) -> bool:
    return held.co_gm or (held.role is not None and held.role in actor.roles)


@dataclass(frozen=True, slots=True, eq=False)
class Users(Named):
    """Users as a list: a Discord id as its mention (``<@123>``), a console name as it is; for Discord
    (``escaped``) the console names escaped, as any name a user typed (no markdown, no mention)."""

    ids: tuple[str, ...]

    def text(self, lang: str) -> str:
        return self.escaped(lang, str)

    def escaped(self, lang: str, escape: Callable[[str], str]) -> str:
        sep = t("render.list_sep", lang)
        return sep.join(f"<@{user}>" if user.isdigit() else escape(user) for user in self.ids)


async def change_co_gm(
    transaction: Transaction, head: BattleHead, actor: Actor, spec: CommandSpec, user: str
) -> NoticeView:
    """``/gm add`` / ``/gm remove`` on the battle ``head`` as stored, in a job's ``transaction`` (the
    caller holds the channel's lock and checked that ``actor`` is its GM): one insert or delete of the
    battle's co-GM row, no read-modify-write of a shared list. Not battle state: the battle's version
    stays."""
    added = spec.kind is Kind.GM_ADD
    if added and not await transaction.add_co_gm(head.id, user, actor.id):
        raise Refused("gm.already", user=user)
    if not added and not await transaction.remove_co_gm(head.id, user):
        raise Refused("gm.not_cogm", user=user)
    return NoticeView(key="gm.added" if added else "gm.removed", values={"user": user})


def check_role_setter(actor: Actor) -> None:
    """``/gm role [role:]``: only members with Manage Server set (or, leaving ``role`` out, remove) the
    server's GM role, whose members are GM of every battle on the server."""
    if not actor.manage_guild:
        raise Refused("gm.role_manage_server")


def role_set(role: str | None) -> NoticeView:
    """The answer to ``/gm role``, once the server's GM role is stored."""
    if role is None:
        return NoticeView(key="gm.role_removed")
    return NoticeView(key="gm.role_set", values={"role": role})
