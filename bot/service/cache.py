"""The battles and rights this process holds: each channel's battle as last stored or read, and the
GM rights read from the database per (battle, member).

An action is decided on the cached battle without reading the database: its write plan is checked
when stored (version, still the channel's current battle, the rights it was decided on), so a stale
cache costs a reload, never a wrong write. A battle not cached is read (``current``): the head, then
the state as of that version. A stored state was checked when it was written, so it is restored as
it is (``RulesetBinding.restore``), not checked again as a user's import file.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from bot import rulesets
from bot.commands import CommandSpec
from bot.i18n.names import CommandName
from bot.rulesets import RulesetBinding
from bot.service import rights
from bot.service.types import Actor, Live, Refused, Where
from bot.storage import repository as repo

#: how many channels' battles stay loaded in memory
CACHE_SIZE = 1000
#: how many (battle, member) rights read from the database are kept
GRANTS_KEPT = 10_000
#: how often a read outside the lock reads the channel's head again when a write came between
RETRIES = 4

Key = tuple[str, str]


def binding_of(name: str | None) -> RulesetBinding:
    binding = rulesets.get(name or "")
    if binding is None:
        raise Refused("service.unknown_ruleset", ruleset=name or None)
    return binding


def check_ruleset(spec: CommandSpec, live: Live) -> None:
    if spec.ruleset is not None and spec.ruleset != live.binding.name:
        raise Refused("service.wrong_ruleset", command=CommandName(spec.path), running=live.binding.group)


class BattleCache:
    def __init__(self, *, cache_size: int = CACHE_SIZE, retries: int = RETRIES) -> None:
        #: the live states of recently used channels (least recently used dropped past ``cache_size``)
        self.live: OrderedDict[Key, Live] = OrderedDict()
        self.grants: OrderedDict[tuple[int, str], repo.Grants] = OrderedDict()
        self._cache_size = cache_size
        self._retries = retries

    def get(self, key: Key) -> Live | None:
        live = self.live.get(key)
        if live is not None:
            self.live.move_to_end(key)
        return live

    def remember(self, key: Key, live: Live) -> None:
        self.live[key] = live
        self.live.move_to_end(key)
        while len(self.live) > self._cache_size:
            self.live.popitem(last=False)

    def forget(self, key: Key) -> None:
        self.live.pop(key, None)

    async def current(self, conn: AsyncConnection, where: Where) -> Live | None:
        """The channel's latest battle (running, or the last one ended) as stored now; the cached
        one when it is at the stored version."""
        key = (where.guild, where.channel)
        for _ in range(self._retries):
            head = await repo.latest_head(conn, where.guild, where.channel)
            if head is None:
                self.forget(key)
                return None
            cached = self.get(key)
            if cached is not None and cached.head == head:
                return cached
            loaded = await repo.load_live(conn, head)
            if loaded is None:  # written meanwhile (a read outside the lock): read the head again
                continue
            document, snapshots, has_redo = loaded
            live = restore(head, document, has_redo, snapshots)
            self.remember(key, live)
            return live
        raise Refused("service.battle_changed")

    # -----------------------------------------------------------------------------------------
    # rights

    def held(self, head: repo.BattleHead, actor: Actor) -> repo.Grants | None:
        return self.grants.get((head.id, actor.id))

    def keep(self, head: repo.BattleHead, held: repo.Grants) -> None:
        self.grants[(head.id, held.user)] = held
        self.grants.move_to_end((head.id, held.user))
        while len(self.grants) > GRANTS_KEPT:
            self.grants.popitem(last=False)

    def drop_grants(self, head: repo.BattleHead | None = None, user: str | None = None) -> None:
        """Forget the rights kept of ``user`` on the battle ``head`` (both None: all of them)."""
        if head is None or user is None:
            self.grants.clear()
        else:
            self.grants.pop((head.id, user), None)

    async def read_grants(
        self, conn: AsyncConnection, where: Where, actor: Actor, head: repo.BattleHead
    ) -> repo.Grants:
        """What the database says of ``actor``'s rights on ``head`` now; kept for later commands."""
        held = await rights.grants(conn, where, actor, head)
        self.keep(head, held)
        return held

    async def is_gm(self, conn: AsyncConnection, where: Where, actor: Actor, head: repo.BattleHead) -> bool:
        """Is ``actor`` a GM of the battle ``head``, as the database says now?"""
        if rights.gm_by_itself(actor, head):
            return True
        return rights.gm_by_grants(actor, await self.read_grants(conn, where, actor, head))


def restore(
    head: repo.BattleHead, document: dict[str, Any], has_redo: bool, snapshots: repo.Snapshots | None
) -> Live:
    """A stored battle as this process holds it (restored, not checked as an import), with the
    document as read (the next action's patch is from it)."""
    binding = binding_of(head.ruleset)
    return Live(head, binding, binding.restore(document), document, has_redo, snapshots=snapshots)
