"""The battles and rights this process holds: each channel's battle as last stored or read, and the
GM rights read from the database per (battle, member).

An action is decided on the cached battle without reading the database: its write plan is checked
when stored (version, still the channel's current battle, the rights it was decided on), so a stale
cache costs a reload, never a wrong write. The channel's battle as stored now is read (``current``)
from the storage (off the event loop), or in a job's own transaction: the head, then, unless the
battle held is at that version, the state as of it. A stored state was checked when it was written, so it
is restored as it is (``RuleSet.restore``), not checked again as a user's import file.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.commands import CommandSpec
from bot.i18n.names import CommandName
from bot.registry import rulesets
from bot.ruleset import RuleSet
from bot.service import rights
from bot.service.types import Actor, Live, Refused, Where
from bot.storage.interface import Reads
from bot.storage.records import BattleHead, Grants, Snapshots

#: how many channels' battles stay loaded in memory
CACHE_SIZE = 1000
#: how many (battle, member) rights read from the database are kept
GRANTS_KEPT = 10_000

Key = tuple[str, str]


def binding_of(name: str | None) -> RuleSet:
    binding = rulesets().get(name or "")
    if binding is None:
        raise Refused("service.unknown_ruleset", ruleset=name or None)
    return binding


def check_ruleset(spec: CommandSpec, live: Live) -> None:
    if spec.ruleset is not None and spec.ruleset != live.binding.name:
        raise Refused(
            "service.wrong_ruleset", command=CommandName(spec.path), running=CommandName(live.binding.group)
        )


class BattleCache:
    def __init__(self, reads: Reads, *, cache_size: int = CACHE_SIZE) -> None:
        #: where a battle not held is read (the storage), unless a job reads in its own transaction
        self.reads = reads
        #: the live states of recently used channels (least recently used dropped past ``cache_size``)
        self.live: OrderedDict[Key, Live] = OrderedDict()
        self.grants: OrderedDict[tuple[int, str], Grants] = OrderedDict()
        self._cache_size = cache_size

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

    async def current(self, where: Where, source: Reads | None = None) -> Live | None:
        """The channel's latest battle (running, or the last one ended) as stored now (read from
        ``source``, a job's transaction, else the storage); the one held when it is at the stored
        version."""
        reads = source or self.reads
        key = (where.guild, where.channel)
        cached = self.get(key)
        held = None if cached is None else cached.head
        head, loaded = await reads.latest(where.guild, where.channel, held)
        if head is not None and loaded is None:  # the battle held is at the stored version
            cached = self.get(key)
            if cached is not None and cached.head == head:
                return cached
            # let go while it was read (the battles of other channels read meanwhile took its place in
            # the cache): read it whole
            head, loaded = await reads.latest(where.guild, where.channel)
        if head is None:
            self.forget(key)
            return None
        assert loaded is not None  # nothing held: read whole
        document, snapshots, has_redo = loaded
        live = restore(head, document, has_redo, snapshots)
        self.remember(key, live)
        return live

    # -----------------------------------------------------------------------------------------
    # rights

    def held(self, head: BattleHead, actor: Actor) -> Grants | None:
        return self.grants.get((head.id, actor.id))

    def keep(self, head: BattleHead, held: Grants) -> None:
        self.grants[(head.id, held.user)] = held
        self.grants.move_to_end((head.id, held.user))
        while len(self.grants) > GRANTS_KEPT:
            self.grants.popitem(last=False)

    def drop_grants(self, head: BattleHead | None = None, user: str | None = None) -> None:
        """Forget the rights kept of ``user`` on the battle ``head`` (both None: all of them)."""
        if head is None or user is None:
            self.grants.clear()
        else:
            self.grants.pop((head.id, user), None)

    async def read_grants(
        self, where: Where, actor: Actor, head: BattleHead, source: Reads | None = None
    ) -> Grants:
        """What the database says of ``actor``'s rights on ``head`` now (read from ``source``, else
        the storage): the server's GM role and whether they are a co-GM; kept for later commands."""
        held = await (source or self.reads).grants(where.guild, head.id, actor.id)
        self.keep(head, held)
        return held

    async def is_gm(self, where: Where, actor: Actor, head: BattleHead, source: Reads | None = None) -> bool:
        """Is ``actor`` a GM of the battle ``head``, as the database says now?"""
        if rights.gm_by_itself(actor, head):
            return True
        return rights.gm_by_grants(actor, await self.read_grants(where, actor, head, source))

    async def check_gm_named(
        self, spec: CommandSpec, gm: bool, head: BattleHead, source: Reads | None = None
    ) -> None:
        """A GM command by a player is refused, naming the battle's GMs: its starter and its co-GMs."""
        if spec.gm and not gm:
            gms = (head.started_by, *await (source or self.reads).co_gms(head.id))
            raise Refused(
                "service.gm_only", command=CommandName(spec.path), gms=rights.Users(tuple(dict.fromkeys(gms)))
            )


def restore(head: BattleHead, document: dict[str, Any], has_redo: bool, snapshots: Snapshots | None) -> Live:
    """A stored battle as this process holds it (restored, not checked as an import), with the
    document as read (the next action's patch is from it)."""
    binding = binding_of(head.ruleset)
    return Live(head, binding, binding.restore(document), document, has_redo, snapshots=snapshots)
