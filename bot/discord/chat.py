"""Chat dice in Discord (``/settings chat_dice:``): a message that begins with a dice command, in a
channel that allows it, answered as a reply with ``/roll``'s text.

Only with the Message Content intent does Discord send a message's text (``TORIDE_CHAT_DICE=1``,
``bot.discord.settings``). Each message is answered at most once (its id kept in a bounded table: a
gateway event that comes again after a RESUME is not rolled twice); edits are not read (no
``on_message_edit``), nor bots' messages. A secret command (``S2d6``) is answered in the channel by the
notice that a secret roll was made, and its result goes to the roller by DM. A rate limit (429) is
waited out by discord.py's HTTP layer, which sends the reply again after ``retry_after``.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict

import discord

from bot.discord import embeds as render
from bot.discord.commandlog import CommandMetrics
from bot.discord.errors import storage_guarded
from bot.discord.send import NO_MENTIONS
from bot.service import Actor, BattleService, Where
from bot.service.chat import secret_line
from bot.views import ErrorView, RollView, View

log = logging.getLogger(__name__)
#: how many message ids are kept to answer each message once
SEEN_MAX = 10_000


class ChatDice:
    def __init__(
        self, service: BattleService, *, seen_max: int = SEEN_MAX, metrics: CommandMetrics | None = None
    ) -> None:
        self.service = service
        #: the answered messages are counted for ``/metrics`` (command ``chat``)
        self.metrics = metrics
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._seen_max = seen_max

    def first_time(self, message_id: int) -> bool:
        """Is this the first time the message is seen (and now it is kept as seen)?"""
        if message_id in self._seen:
            return False
        self._seen[message_id] = None
        while len(self._seen) > self._seen_max:
            self._seen.popitem(last=False)
        return True

    async def on_message(self, message: discord.Message) -> None:
        """Answer ``message`` if it is a chat dice roll; anything else is left alone."""
        author = message.author
        if author.bot or author.system or message.webhook_id is not None:
            return
        if message.type not in (discord.MessageType.default, discord.MessageType.reply):
            return
        guild = message.guild
        guild_id = guild.id if guild is not None else getattr(message.channel, "guild_id", None)
        if guild_id is None or not message.content or not self.first_time(message.id):
            return
        where = Where(guild=str(guild_id), channel=str(message.channel.id))
        roles = frozenset(str(r) for r in getattr(author, "_roles", ()))
        names = (author.name, author.global_name, getattr(author, "nick", None))
        actor = Actor(id=str(author.id), roles=roles, names=tuple(dict.fromkeys(n for n in names if n)))

        async def work() -> View:
            view = await self.service.chat_roll(where, actor, message.content)
            return view if view is not None else _NOTHING

        started = time.monotonic()
        view = await storage_guarded(work)
        if view is _NOTHING:
            return  # no dice command: not answered, not counted
        lang = await self.service.language(where.guild)
        await self.answer(message, view, lang)
        if self.metrics is not None:
            self.metrics.chat("ok" if view.ok else "refused", time.monotonic() - started)

    async def answer(self, message: discord.Message, view: View, lang: str) -> None:
        reply = render.render(view, lang, user=message.author.display_name)
        secret = (isinstance(view, RollView) and view.secret) or (
            isinstance(view, ErrorView) and secret_line(message.content)
        )
        if not secret:
            for embeds in reply.messages:
                await message.reply(embeds=embeds, mention_author=False, allowed_mentions=NO_MENTIONS)
            return
        # the channel reads that a secret roll was made; the roller reads its result by DM
        name = message.author.display_name
        notice = reply.notice or render.render(RollView(actor=name, secret=True), lang, user=name).notice
        await message.reply(embeds=notice, mention_author=False, allowed_mentions=NO_MENTIONS)
        try:
            for embeds in reply.messages:
                await message.author.send(embeds=embeds, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:  # DMs closed (403), or Discord failed: the roller is told
            log.info("could not send a secret chat roll by DM", exc_info=True)
            await message.reply(
                embeds=render.error_embeds("chat.secret_dm_failed", {}, lang),
                mention_author=False,
                allowed_mentions=NO_MENTIONS,
            )


_NOTHING = ErrorView(key="")
