"""BattleService: a front-end's command in, a view out; the dispatcher of the commands by kind.

Commands for one channel never interleave in this process (an ``asyncio.Lock`` per channel,
``ChannelLocks``). Each kind of command has one handler, given the parts it uses (the battles held,
the storage, the dice ...), never the service:

- actions (``bot.service.actions``): an engine command decided once in memory on the channel's
  battle, stored as a write plan by the storage (``Storage.store``), off the event loop;
- lifecycle (``bot.service.lifecycle``): start and import, undo and redo, co-GM changes, each a job
  of the storage's (``Storage.run``) that reads the battle as stored under the channel's lock;
- reads (``bot.service.reads``): status, map, export and log, as committed.

``/roll`` (and chat dice, ``bot.service.chat``), ``/settings``, ``/gm role``, a rule set's planner
(``/fort odds``) and ``/help`` need no channel lock. Every refusal is an ``ErrorView`` and changes
nothing; the reply to a write is built only after its commit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.commands import CommandSpec, Kind, UserError, convert
from bot.registry import lookup, rulesets
from bot.ruleset import Planner
from bot.service import audience, reads, rights
from bot.service.actions import Actions
from bot.service.audience import TABLE, Viewer
from bot.service.cache import CACHE_SIZE, BattleCache
from bot.service.chat import ChatDice, command_line, has_variables
from bot.service.lifecycle import Lifecycle
from bot.service.locks import ChannelLocks
from bot.service.pacing import Pacer
from bot.service.palettes import Palettes
from bot.service.planners import Planners
from bot.service.reads import ReadCommands
from bot.service.secret_rolls import SecretRolls, private_roll, request
from bot.service.types import Actor, Invocation, Refused, Where
from bot.storage.interface import Storage, Transaction
from bot.views import ErrorView, HelpView, StatusView, View
from engine import limits
from engine.dice import DiceSource, SeededDice
from engine.errors import EngineError

Handler = Callable[[Where, Actor, Invocation, CommandSpec, dict[str, Any]], Awaitable[View]]


class BattleService:
    def __init__(
        self,
        storage: Storage,
        dice: DiceSource | None = None,
        *,
        cache_size: int = CACHE_SIZE,
        planners: Mapping[str, Planner] | None = None,
    ) -> None:
        #: where battles, their log, rights and settings are kept (closed by whoever opened it)
        self.storage = storage
        #: the rule sets' planners (``/fort odds``: worker processes), made when first asked for
        self.planners = Planners(planners)
        self._dice = dice if dice is not None else SeededDice()
        self._locks = ChannelLocks()
        self.cache = BattleCache(storage, cache_size=cache_size)
        #: the channels' battles this process holds (``cache.live``)
        self._live = self.cache.live
        #: S-HIDE-1: the numbers public replies show, as the table counts the log
        self.numbers = audience.TableNumbers()
        #: how many commands one pass of the event loop begins (``bot.service.pacing``)
        self.pacer = Pacer()
        self.actions = Actions(self.cache, storage, self._dice, self.numbers)
        self.lifecycle = Lifecycle(self.cache, storage, self._dice)
        self.reads = ReadCommands(self.cache, storage)
        #: which channels roll their chat's dice commands (``/settings chat_dice:``)
        self.chat = ChatDice(storage)
        #: the channels' secret rolls (``/roll secrets``, ``/roll reveal``)
        self.secrets = SecretRolls(storage, self.cache, self._locks)
        #: ``/palette``: the users' own palettes, wherever they are
        self.palettes = Palettes(storage, self.cache, self._locks, self._dice)
        #: what runs each kind of command under the channel's lock
        self._handlers: dict[Kind, Handler] = {
            Kind.ENGINE: self.actions.act,
            Kind.QUERY: self.actions.act,
            Kind.START: self.lifecycle.create,
            Kind.IMPORT: self.lifecycle.create,
            Kind.UNDO: self.lifecycle.on_battle,
            Kind.REDO: self.lifecycle.on_battle,
            Kind.GM_ADD: self.lifecycle.on_battle,
            Kind.GM_REMOVE: self.lifecycle.on_battle,
            Kind.GM_TAKEOVER: self.lifecycle.on_battle,
            Kind.STATUS: self.reads.read,
            Kind.MAP: self.reads.read,
            Kind.EXPORT: self.reads.read,
            Kind.LOG: self.reads.read,
        }

    async def close(self) -> None:
        """Close what the service opened (the planners' workers; not the storage it was given)."""
        await self.planners.close()

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
        if spec.kind is Kind.SECRETS:
            return True
        if spec.kind is Kind.ROLL:  # a secret roll, or the list of them
            return private_roll(invocation.options)
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
            if spec.kind is Kind.SECRETS:
                return await self.secrets.answer(where, actor, ("list", None))
            if spec.kind is Kind.REVEAL:
                return await self.secrets.answer(where, actor, ("reveal", options["number"]))
            if spec.kind is Kind.PALETTE:
                rolled = await self.palettes.command(where, actor, options)
                return await self.secrets.keep(where, actor, rolled)
            if spec.kind is Kind.PALETTE_REGISTER:
                return await self.palettes.register(where, actor, options)
            if spec.kind is Kind.PALETTE_FORGET:
                return await self.palettes.forget(where, actor, options["name"])
            if spec.kind is Kind.ROLL:
                asked = request(options["expr"])
                if asked is not None:
                    return await self.secrets.answer(where, actor, asked)
                return await self.secrets.keep(where, actor, reads.roll(self.dice_source(), actor, options))
            if spec.kind is Kind.SETTINGS:
                return await self.chat.set(where, actor, options["chat_dice"])
            if spec.kind is Kind.GM_ROLE:
                return await self._gm_role(where, actor, options["role"])
            if spec.kind is Kind.PLAN:
                return await reads.plan(self.cache, self._locks, self.planners, where, spec, options)
            if spec.kind is Kind.HELP:  # no battle needed; an unknown topic is refused here
                topic = options["command"] or ""
                rulesets().table.topic_specs(topic)
                return HelpView(topic=topic)
            async with self.channel_lock(where):
                view = await self._handlers[spec.kind](where, actor, invocation, spec, options)
            return await self.secrets.keep(where, actor, view)  # a palette line's secret roll
        except Refused as refused:
            return refused.view
        except EngineError as error:
            return ErrorView(key=error.key, values=dict(error.values))

    async def chat_roll(self, where: Where, actor: Actor, text: str) -> View | None:
        """A chat message of ``where``: ``/roll``'s answer if it begins with a dice command and the
        channel allows chat dice, else None (nothing read further, nothing kept)."""
        line = command_line(text)
        if line is None and has_variables(text) and await self.chat.enabled(where):
            # a line pasted from a palette (``2d+{冒険者}+{器用B} 隠密``): its variables from the user's own
            line = command_line(await self.palettes.expand_chat(where, actor, text))
            if line is None:
                return None
        elif line is None or not await self.chat.enabled(where):
            return None
        invocation = Invocation(path="roll", options={"expr": line, "secret": False}, text=line)
        return await self.execute(where, actor, invocation)

    async def _gm_role(self, where: Where, actor: Actor, role: str | None) -> View:
        rights.check_role_setter(actor)

        async def job(transaction: Transaction) -> None:
            await transaction.set_gm_role(where.guild, role)

        await self.storage.run(job)
        self.cache.drop_grants()  # the rights kept here were read under the old role
        return rights.role_set(role)

    async def status(self, where: Where, actor: Actor | None = None) -> StatusView | None:
        """The channel's battle (running, or the last one ended) of any rule set; None if there is none.

        For front-ends that show a battle without a command: the live status message (what the whole
        table may read), autocomplete (what ``actor`` may read).
        """
        async with self.channel_lock(where):
            live = await self.cache.current(where)
            if live is None:
                return None
            viewer = TABLE if actor is None else await self.reads.viewer_of(where, actor, live)
            return await self.reads.status_view(live, viewer)

    async def status_message(self, battle_id: int) -> int | None:
        """The id of the message a front-end keeps the battle's live status in (None: not stored)."""
        return await self.storage.status_message(battle_id)

    async def set_status_message(
        self, battle_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Keep (or, with None, forget) the battle's status message id with the battle, and the
        battle version it shows."""

        async def job(transaction: Transaction) -> None:
            await transaction.set_status_message(battle_id, message_id, version)

        await self.storage.run(job)

    async def stale_status_messages(self) -> list[Where]:
        """Where a running battle's status message shows an older version than the battle's."""
        return [Where(guild, channel) for guild, channel in await self.storage.stale_status_messages()]

    def dice_source(self) -> DiceSource:
        """Where this service's dice come from (a seeded source, or the console's script)."""
        return self._dice

    async def language(self, guild: str) -> str:
        return (await self.storage.settings(guild)).language

    async def set_language(self, guild: str, language: str) -> None:
        async def job(transaction: Transaction) -> None:
            await transaction.set_language(guild, language)

        await self.storage.run(job)
