"""The bot: a sharded discord.py client whose command tree is generated from the command table.

One process runs the shards it is given (``shard_ids`` of ``shard_count``, discord.py's
``AutoShardedBot``: one gateway connection each); several processes with different shards share one
database. A guild's interactions come to the shard ``(guild_id >> 22) % shard_count``, so each
channel's live status message is kept by one process. On PostgreSQL the processes take turns to
IDENTIFY (``before_identify_hook``), and with ``TORIDE_SHARDS=auto`` they share the shards Discord
recommends through shard leases (``bot.discord.shards``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
import yarl
from discord.ext import commands as ext

from bot.discord.buttons import StatusButtons
from bot.discord.chat import ChatDice
from bot.discord.coalesce import Coalescer
from bot.discord.cogs import build_cogs
from bot.discord.frontend import DEFER_AFTER, DM, Frontend
from bot.discord.live import LiveStatus
from bot.discord.offers import OfferButton
from bot.discord.pictures import warm_up
from bot.discord.reconnect import ReconnectBackoff, install_log
from bot.discord.settings import chat_dice_from_env, intents
from bot.discord.shards import IdentifyGate, ShardAssigner, Timings
from bot.discord.translator import CatalogueTranslator
from bot.discord.watchdog import GatewayWatchdog
from bot.i18n import DEFAULT_LANG
from bot.registry import rulesets
from bot.service import BattleService
from bot.storage.leases import ShardLeases

log = logging.getLogger(__name__)
#: how long discord.py waits, after a shard's READY, for the next GUILD_CREATE before it says ready
#: (its default: 2 s after the last one). The bot answers interactions by their ids, not from the
#: guild cache, so a guild that comes later is simply added; the wait only held back the start.
GUILD_READY_WITHIN = 0.2
#: Discord's spacing of the IDENTIFYs of one ``max_concurrency`` bucket (seconds); this process keeps
#: it between its own shards (their buckets taken as one)
IDENTIFY_SPACING = 5.0


def shard_of(guild: str, shard_count: int) -> int:
    """The shard Discord sends a guild's events to (direct messages: shard 0)."""
    return 0 if guild == DM or not guild.isdigit() else (int(guild) >> 22) % shard_count


class TorideBot(ext.AutoShardedBot):
    def __init__(
        self,
        service: BattleService,
        *,
        dev_guild: int | None = None,
        localized_names: bool = True,
        coalescer: Coalescer | None = None,
        defer_after: float | None = DEFER_AFTER,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        chat_dice: bool | None = None,
        leases: ShardLeases | None = None,
        auto_shards: bool = False,
    ) -> None:
        #: roll chat messages that begin with a dice command (``TORIDE_CHAT_DICE``; needs Message Content)
        self.chat_dice = chat_dice_from_env() if chat_dice is None else chat_dice
        shards: dict[str, Any] = {"shard_count": shard_count}
        if shard_ids is not None:
            shards["shard_ids"] = list(shard_ids)
        super().__init__(
            command_prefix=ext.when_mentioned,
            intents=intents(self.chat_dice),
            max_messages=None,  # no chat message is kept in memory
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            guild_ready_timeout=GUILD_READY_WITHIN,
            **shards,
        )
        self.service = service
        self.dev_guild = dev_guild
        self.localized_names = localized_names
        self.coalescer = coalescer if coalescer is not None else Coalescer()
        self.live = LiveStatus(self, service, self.coalescer, StatusButtons)
        self.frontend = Frontend(service, self.live, defer_after=defer_after)
        self.chat = ChatDice(service, metrics=self.frontend.metrics)
        service.chat.intent = self.chat_dice
        self.live.frontend = self.frontend
        self.tree.error(self.frontend.on_tree_error)
        self.watchdog = GatewayWatchdog(self)
        #: each shard's waits before it tries the gateway again (``bot.discord.reconnect``)
        self.backoffs: dict[int, ReconnectBackoff] = {}
        #: when this process may IDENTIFY next (``loop.time``)
        self._identify_at = 0.0
        install_log()
        self._installed = False
        self._refreshed = False
        #: the commands' registration in the development guild, beside the gateway's connection
        self.dev_sync: asyncio.Task[None] | None = None
        #: PostgreSQL: the IDENTIFY turns (and with ``auto_shards`` the shard leases) shared with the
        #: other processes; None (SQLite): discord.py's own IDENTIFY spacing, in this process alone
        self.shard_leases = leases
        self.timings = Timings.from_env()
        self.identify_gate: IdentifyGate | None = None
        self._stopping: asyncio.Task[None] | None = None
        self.assigner = ShardAssigner(leases, self.timings) if leases is not None and auto_shards else None

    async def install(self) -> None:
        """The translator, one cog per command group, and the status buttons (idempotent)."""
        if self._installed:
            return
        self._installed = True
        await self.tree.set_translator(CatalogueTranslator(names=self.localized_names))
        for cog in build_cogs(self.frontend, rulesets().commands):
            await self.add_cog(cog)
        self.add_view(StatusButtons(self.frontend, DEFAULT_LANG))
        self.add_dynamic_items(OfferButton)

    async def setup_hook(self) -> None:
        await self.install()
        warm_up()
        if self.shard_count is not None or self.shard_leases is not None:
            # discord.py connects a fixed shard count to its built-in gateway address; Discord's
            # documented way is the address GET /gateway/bot gives (the same one, for Discord itself)
            count, url, limit = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
            if self.shard_leases is not None:
                concurrency = int(limit.get("max_concurrency") or 1)
                self.identify_gate = IdentifyGate(self.shard_leases, self.timings.spacing, concurrency)
            if self.assigner is not None:
                self.shard_ids = await self.assigner.first(count, self.is_closed)
                self.shard_count = self.assigner.shard_count
            elif self.shard_count is None:
                self.shard_count = count  # as discord.py takes it
        if self.dev_guild is not None and self.dev_sync is None:
            # not on the way to READY: Discord has the commands of the last start meanwhile
            self.dev_sync = asyncio.get_running_loop().create_task(self._sync_dev_guild(self.dev_guild))

    async def _sync_dev_guild(self, guild_id: int) -> None:
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException:
            log.exception("could not sync the commands to the development guild %s", guild_id)
            return
        log.info("synced %d commands to the development guild %s", len(synced), guild_id)

    async def launch_shard(self, gateway: yarl.URL, shard_id: int, *, initial: bool = False) -> None:
        """discord.py's launch of a shard, with the bot's backoff (capped at a few seconds) for its
        reconnections instead of discord.py's (up to minutes): ``bot.discord.reconnect``. A new
        connection (after an outage) goes to the address this launch used, the one GET /gateway/bot
        gave, not discord.py's built-in one."""
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
        await super().launch_shard(gateway, shard_id, initial=initial)
        info = self.get_shard(shard_id)
        if info is not None:
            info._parent._backoff = self.backoffs.setdefault(shard_id, ReconnectBackoff())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """On PostgreSQL: the turn of the shard's ``max_concurrency`` bucket, across processes
        (``bot.discord.shards``). Else keep ``IDENTIFY_SPACING`` between this process's IDENTIFYs: a
        shard that identifies long after the last one (after an outage) goes at once, instead of
        discord.py's fixed 5 s."""
        if self.identify_gate is not None:
            await self.identify_gate.before_identify(shard_id or 0)
            return
        now = asyncio.get_running_loop().time()
        wait = self._identify_at - now
        self._identify_at = max(now, self._identify_at) + IDENTIFY_SPACING
        if wait > 0:
            await asyncio.sleep(wait)

    async def launch_shards(self) -> None:
        """The shards this process starts with; then, with shard leases, the renewal that takes over
        the shards of a process that died."""
        await super().launch_shards()
        if self.assigner is not None and not self.is_closed():
            self.assigner.keep(self._take_over, self._lost_leases)

    async def _take_over(self, shard_id: int) -> None:
        assert isinstance(self.shard_ids, list)  # the list discord.py's state reads too
        self.shard_ids.append(shard_id)
        self.shard_ids.sort()
        await self.launch_shard(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, shard_id)

    def _lost_leases(self, why: str) -> None:
        log.error("%s: stopping (no shard may run twice)", why)
        self._stopping = asyncio.get_running_loop().create_task(self.close())

    async def connect(self, *, reconnect: bool = True) -> None:
        """The gateway connections, watched by the ``GatewayWatchdog`` while they run."""
        self.watchdog.start()
        await super().connect(reconnect=reconnect)

    def handles(self, guild: str) -> bool:
        """Do this process's shards receive ``guild``'s interactions?"""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild, self.shard_count) in self.shard_ids

    def shard_up(self, shard_id: int) -> bool:
        """The shard is connected and its heartbeats are acknowledged (``GatewayWatchdog``)."""
        shard = self.get_shard(shard_id)
        return shard is not None and not shard.is_closed() and not self.watchdog.missed(shard_id)

    def gateway_connected(self) -> bool:
        """Every shard of this process is connected, has received READY (or RESUMED), and has its
        heartbeats acknowledged."""
        shards = self.shards
        return self.is_ready() and not self.is_closed() and bool(shards) and all(map(self.shard_up, shards))

    async def on_message(self, message: discord.Message) -> None:
        """Chat dice (``bot.discord.chat``); the bot has no prefix commands."""
        if self.chat_dice and not self.frontend.drain.closing:
            with self.frontend.drain.working():
                await self.chat.on_message(message)

    def _back(self, shard_id: int) -> None:
        self.watchdog.back(shard_id)
        backoff = self.backoffs.get(shard_id)
        if backoff is not None:
            backoff.reset()

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._back(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        self._back(shard_id)

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d guilds, shards %s of %s",
            self.user,
            getattr(self.user, "id", "-"),
            len(self.guilds),
            sorted(self.shards),
            self.shard_count,
        )
        if not self._refreshed:  # once per process: READY comes again after a new session
            self._refreshed = True
            await self.live.refresh_stale(self.handles)

    async def close(self) -> None:
        """Stop under load (``bot.discord.drain``): turn new interactions away, finish those in flight,
        run each channel's waiting status edit once (bounded), then close the gateway and the HTTP
        session."""
        await self.frontend.drain.close()
        await self.watchdog.stop()
        if self.dev_sync is not None and not self.dev_sync.done():
            self.dev_sync.cancel()
        await self.coalescer.close()
        await self.live.reminders.close()
        await super().close()
        if self.assigner is not None:
            await self.assigner.close()
        if self.identify_gate is not None:
            await self.identify_gate.close()
