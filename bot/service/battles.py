"""BattleService: a front-end's command in, a view out; the dispatcher of the commands by kind.

Commands for one channel never interleave in this process (an ``asyncio.Lock`` per channel,
``ChannelLocks``). Each kind of command has one handler (``HANDLERS``):

- actions (``bot.service.actions``): an engine command decided once in memory on the channel's
  battle, stored as a write plan by the storage writer (``bot.storage.writer``), off the event loop;
- lifecycle (``bot.service.lifecycle``): start and import, undo and redo, co-GM changes, each a
  transaction job (``bot.service.jobs``) that reads the battle as stored under the channel's lock;
- reads (``bot.service.reads``): status, map, export and log, as committed.

``/roll``, ``/gm role``, ``/fort odds`` and ``/help`` need no channel lock. Every refusal is an
``ErrorView`` and changes nothing; the reply to a write is built only after its commit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.command_names import topic_specs
from bot.commands import CommandSpec, Kind, UserError, convert, lookup
from bot.service import actions, audience, lifecycle, reads, rights
from bot.service.audience import TABLE, Viewer
from bot.service.cache import CACHE_SIZE, BattleCache
from bot.service.jobs import ChannelLocks, Jobs
from bot.service.odds import OddsRunner
from bot.service.pacing import Pacer
from bot.service.types import Actor, Invocation, Refused, Where
from bot.storage import repository as repo
from bot.storage.reader import StorageReader
from bot.storage.writer import StorageWriter
from bot.views import ErrorView, HelpView, StatusView, View
from engine import limits
from engine.dice import DiceSource, SeededDice
from engine.errors import EngineError

Handler = Callable[["BattleService", Where, Actor, Invocation, CommandSpec, dict[str, Any]], Awaitable[View]]
#: what runs each kind of command under the channel's lock
HANDLERS: dict[Kind, Handler] = {
    Kind.ENGINE: actions.act,
    Kind.QUERY: actions.act,
    Kind.START: lifecycle.create,
    Kind.IMPORT: lifecycle.create,
    Kind.UNDO: lifecycle.on_battle,
    Kind.REDO: lifecycle.on_battle,
    Kind.GM_ADD: lifecycle.on_battle,
    Kind.GM_REMOVE: lifecycle.on_battle,
    Kind.STATUS: reads.read,
    Kind.MAP: reads.read,
    Kind.EXPORT: reads.read,
    Kind.LOG: reads.read,
}


class BattleService:
    def __init__(
        self,
        engine: AsyncEngine,
        dice: DiceSource | None = None,
        *,
        cache_size: int = CACHE_SIZE,
        odds: OddsRunner | None = None,
    ) -> None:
        self.engine = engine
        #: where ``/fort odds`` runs its plans (worker processes)
        self.odds = odds if odds is not None else OddsRunner()
        self._dice = dice if dice is not None else SeededDice()
        self._locks = ChannelLocks()
        #: where a battle this process does not hold is read, off the event loop
        self.reader = StorageReader(engine)
        self.cache = BattleCache(self.reader, cache_size=cache_size)
        #: the channels' battles this process holds (``cache.live``)
        self._live = self.cache.live
        #: where actions' write plans are stored, and where the rare commands' jobs run
        self.storage = StorageWriter(engine)
        self.jobs = Jobs(engine)
        #: S-HIDE-1: the numbers public replies show, as the table counts the log
        self.numbers = audience.TableNumbers()
        #: how many actions were decided again because their plan did not hold
        self.conflicts = 0
        #: how many commands one pass of the event loop begins (``bot.service.pacing``)
        self.pacer = Pacer()

    async def close(self) -> None:
        """Close what the service opened besides the engine (the storage writer's and reader's
        connections, the odds planner's workers)."""
        await self.storage.close()
        await self.reader.close()
        await self.odds.close()

    def channel_lock(self, where: Where) -> contextlib.AbstractAsyncContextManager[None]:
        return self._locks.hold((where.guild, where.channel))

    def will_be_private(self, where: Where, actor: Actor, invocation: Invocation) -> bool:
        """S-HIDE-1: will the reply be for its invoker alone? Judged before the command runs, on the
        battle this process holds (False when it holds none: a front-end then answers as usual)."""
        try:
            spec = lookup(invocation.path)
        except UserError:
            return False
        if spec.kind in (Kind.STATUS, Kind.LOG) and invocation.options.get("gm"):
            return True
        live = self._live.get((where.guild, where.channel))
        if live is None or live.binding.visible is None:
            return False
        if spec.kind is Kind.EXPORT and not invocation.options.get("format"):  # more than the table's
            held = self.cache.held(live.head, actor)
            gm = rights.gm_by_itself(actor, live.head) or (
                held is not None and rights.gm_by_grants(actor, held)
            )
            whole = live.document()
            return audience.document(live.binding, whole, Viewer(actor.id, gm)) != audience.document(
                live.binding, whole, TABLE
            )
        if live.binding.private_reply is None or spec.kind is not Kind.ENGINE:
            return False
        return live.binding.private_reply(live.state, spec.path, invocation.options, actor.id)

    # -----------------------------------------------------------------------------------------
    # entry points

    async def execute(self, where: Where, actor: Actor, invocation: Invocation) -> View:
        """Run one command; every refusal is an ``ErrorView`` and changes nothing."""
        await self.pacer.turn()  # after the timers and I/O due, when many commands go on at once
        try:
            if limits.text_problem(actor.id, limits.NAME_MAX) is not None or not actor.id:
                raise Refused("service.actor_invalid", max=limits.NAME_MAX)
            spec = lookup(invocation.path)
            options = convert(spec, invocation.options)
            if spec.kind is Kind.ROLL:
                return reads.roll(self.dice_source(), actor, options)
            if spec.kind is Kind.GM_ROLE:
                return await self._gm_role(where, actor, options["role"])
            if spec.kind is Kind.ODDS:
                return await reads.odds(self, where, spec, options)
            if spec.kind is Kind.HELP:  # no battle needed; an unknown topic is refused here
                topic = options["command"] or ""
                topic_specs(topic)
                return HelpView(topic=topic)
            async with self.channel_lock(where):
                return await HANDLERS[spec.kind](self, where, actor, invocation, spec, options)
        except Refused as refused:
            return refused.view
        except EngineError as error:
            return ErrorView(key=error.key, values=dict(error.values))

    async def _gm_role(self, where: Where, actor: Actor, role: str | None) -> View:
        async with self.jobs.transaction() as conn:
            view = await rights.set_gm_role(conn, where, actor, role)
        self.cache.drop_grants()  # the rights kept here were read under the old role
        return view

    async def status(self, where: Where, actor: Actor | None = None) -> StatusView | None:
        """The channel's battle (running, or the last one ended) of any rule set; None if there is none.

        For front-ends that show a battle without a command: the live status message (what the whole
        table may read), autocomplete (what ``actor`` may read).
        """
        async with self.channel_lock(where):
            live = await self.cache.current(where)
            if live is None:
                return None
            viewer = TABLE if actor is None else await reads.viewer_of(self, where, actor, live)
            return await reads.status_view(self, live, viewer)

    async def status_message(self, battle_id: int) -> int | None:
        """The id of the message a front-end keeps the battle's live status in (None: not stored)."""
        return await self.reader.run(repo.read_status_message, battle_id)

    async def set_status_message(
        self, battle_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Keep (or, with None, forget) the battle's status message id with the battle, and the
        battle version it shows."""
        async with self.jobs.transaction() as conn:
            await repo.set_status_message(conn, battle_id, message_id, version)

    async def stale_status_messages(self) -> list[Where]:
        """Where a running battle's status message shows an older version than the battle's."""
        return [
            Where(guild, channel) for guild, channel in await self.reader.run(repo.read_stale_status_messages)
        ]

    def dice_source(self) -> DiceSource:
        """Where this service's dice come from (a seeded source, or the console's script)."""
        return self._dice

    async def language(self, guild: str) -> str:
        return (await self.reader.run(repo.read_settings, guild)).language

    async def set_language(self, guild: str, language: str) -> None:
        async with self.jobs.transaction() as conn:
            await repo.set_language(conn, guild, language)
