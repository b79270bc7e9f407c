"""The bot: a discord.py client whose command tree is generated from the command table."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands as ext

from bot.commands import commands
from bot.discord.buttons import StatusButtons
from bot.discord.coalesce import Coalescer
from bot.discord.cogs import build_cogs
from bot.discord.frontend import DEFER_AFTER, Frontend
from bot.discord.live import LiveStatus
from bot.discord.pictures import warm_up
from bot.discord.translator import CatalogueTranslator
from bot.i18n import DEFAULT_LANG
from bot.service import BattleService

log = logging.getLogger(__name__)


class TorideBot(ext.Bot):
    def __init__(
        self,
        service: BattleService,
        *,
        dev_guild: int | None = None,
        localized_names: bool = True,
        coalescer: Coalescer | None = None,
        defer_after: float | None = DEFER_AFTER,
    ) -> None:
        super().__init__(
            command_prefix=ext.when_mentioned,
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.service = service
        self.dev_guild = dev_guild
        self.localized_names = localized_names
        self.coalescer = coalescer if coalescer is not None else Coalescer()
        self.live = LiveStatus(self, service, self.coalescer, StatusButtons)
        self.frontend = Frontend(service, self.live, defer_after=defer_after)
        self.live.frontend = self.frontend
        self.tree.error(self.frontend.on_tree_error)
        self._installed = False

    async def install(self) -> None:
        """The translator, one cog per command group, and the status buttons (idempotent)."""
        if self._installed:
            return
        self._installed = True
        await self.tree.set_translator(CatalogueTranslator(names=self.localized_names))
        for cog in build_cogs(self.frontend, commands()):
            await self.add_cog(cog)
        self.add_view(StatusButtons(self.frontend, DEFAULT_LANG))

    async def setup_hook(self) -> None:
        await self.install()
        warm_up()
        if self.dev_guild is not None:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.dev_guild)

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d guilds", self.user, getattr(self.user, "id", "-"), len(self.guilds)
        )

    async def close(self) -> None:
        await self.coalescer.close()
        await super().close()
