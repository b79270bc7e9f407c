"""One live status message per battle, edited after each change, at most once every 2 s per channel.

Only a change of what the message shows edits it (the table's status: a secret action leaves it as it
was, S-HIDE-1).

After a command that changed the battle, ``changed(where)`` asks for an edit; the ``Coalescer``
runs it at most once per interval per channel, reading the battle when it runs (the latest state
wins). The first edit of a battle posts the message (with its buttons); when the battle ends the
message shows the final state without buttons and is let go. The message carries the battlefield
picture (``bot.discord.pictures``), drawn again only when the battle changed. The message id is
stored with its battle (``battles.status_message_id``), so after a restart the next change edits
the same message, and with it the battle version the message shows
(``battles.status_message_version``): at start, ``refresh_stale`` edits every message that is
behind its battle (a change within the last interval before a stop or a crash). A battle from
before that column (or whose id was never stored) falls back to a search among the channel's last
50 messages (by its buttons), once per channel per process, and posts a fresh message if it is not
there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord.buttons import REFRESH, StatusButtons
from bot.discord.coalesce import Coalescer
from bot.discord.live_layout import LiveMessage
from bot.discord.pictures import status_files
from bot.discord.presenters import live_message, presenter
from bot.discord.reminders import Reminders
from bot.render.picture.pictures import PictureCache
from bot.service import BattleService, Where
from bot.views import StatusView

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
#: how many of a channel's last messages are searched for its status message after a restart
HISTORY = 50


class LiveStatus:
    def __init__(
        self,
        client: discord.Client,
        service: BattleService,
        coalescer: Coalescer,
        buttons: type[StatusButtons] | None = None,
        pictures: PictureCache | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.coalescer = coalescer
        self.buttons = buttons
        #: the battlefield pictures of the status messages, kept by battle and version
        self.pictures = pictures if pictures is not None else PictureCache()
        self.frontend: object = None
        #: what the battles wait for, asked again in their channels (``bot.discord.reminders``)
        self.reminders = Reminders(client, service, coalescer.clock, coalescer.sleep)
        #: channel id → (battle id, the id of its live status message): saves a read per edit
        self.messages: dict[str, tuple[int, int]] = {}
        #: channels whose status message was looked for in the channel's history (once, after a start-up)
        self._searched: set[str] = set()
        #: channel id → (message id, what it shows): S-HIDE-1, an edit only when that changed, so that
        #: a secret action leaves the public message as it was
        self._shows: dict[str, tuple[int, Any]] = {}

    def changed(self, where: Where, *, new_battle: bool = False) -> None:
        """The battle in ``where`` changed: its status message is due an edit (or a new one)."""
        if new_battle:
            self.messages.pop(where.channel, None)
            self._searched.add(where.channel)  # a new battle gets a new message

        async def job() -> None:
            await self.refresh(where)

        self.coalescer.submit(where.channel, job)

    async def _message_id(self, where: Where, battle_id: int) -> int | None:
        """The battle's status message: remembered here, else stored with the battle, else (a battle
        from before the stored id) found in the channel's history."""
        known = self.messages.get(where.channel)
        if known is not None and known[0] == battle_id:
            return known[1]
        message_id = await self.service.status_message(battle_id)
        if message_id is None and where.channel not in self._searched:
            self._searched.add(where.channel)
            message_id = await self._find(where.channel)
            if message_id is not None:
                await self.service.set_status_message(battle_id, message_id)
        return message_id

    async def refresh(self, where: Where) -> None:
        view = await self.service.status(where)
        if view is None or view.battle_id is None:
            self.messages.pop(where.channel, None)
            return
        battle_id = view.battle_id
        message_id = await self._message_id(where, battle_id)
        if view.ended and message_id is None:
            self.messages.pop(where.channel, None)
            return
        self.reminders.seen(where, view)
        lang = await self.service.language(where.guild)
        shows = (view.document, view.ended, view.gms, lang)
        if message_id is not None and self._shows.get(where.channel) == (message_id, shows):
            return  # the table's status is as the message shows it (the change was secret)
        shown, files = await status_message(view, lang, self.pictures)
        embeds = shown.embeds
        buttons = self.status_buttons(view, lang, shown)
        channel = self.client.get_partial_messageable(int(where.channel))
        if message_id is not None:
            try:
                # the picture is sent again (kept, not redrawn, while the battle is unchanged): an
                # edit that only names it would show it beside the embed rather than in it
                await channel.get_partial_message(message_id).edit(
                    embeds=embeds, attachments=files, view=buttons, allowed_mentions=NO_MENTIONS
                )
            except discord.NotFound:
                message_id = None
            except discord.Forbidden:
                log.warning("cannot edit the status message in channel %s", where.channel)
                return
        if message_id is None:
            try:
                extra: dict[str, Any] = {"files": files} if files else {}
                if buttons is not None:
                    extra["view"] = buttons
                message = await channel.send(embeds=embeds, allowed_mentions=NO_MENTIONS, **extra)
            except discord.Forbidden:
                log.warning("cannot post the status message in channel %s", where.channel)
                return
            message_id = message.id
        if view.ended:
            # the final state is shown; a battle taken back by /gm undo gets a new message
            self.messages.pop(where.channel, None)
            await self.service.set_status_message(battle_id, None)
        else:
            self.messages[where.channel] = (battle_id, message_id)
            self._shows[where.channel] = (message_id, shows)
            # with the version it shows: a restart refreshes it if the battle moved on meanwhile
            await self.service.set_status_message(battle_id, message_id, view.version)

    def status_buttons(self, view: StatusView, lang: str, message: LiveMessage) -> discord.ui.View | None:
        """The status message's buttons: next turn and undo (none once the battle is over), refresh,
        and the full status when the message is compact."""
        if view.ended or self.buttons is None:
            return None
        has_next = presenter(view.ruleset).next_path is not None
        return self.buttons(self.frontend, lang, next_turn=has_next, full=message.compact)

    async def refresh_stale(self, handles: Callable[[str], bool] = lambda guild: True) -> int:
        """At start: an edit for each running battle (of the guilds ``handles``) whose status message
        shows an older version than the battle's (a change within the last interval before a stop)."""
        stale = [where for where in await self.service.stale_status_messages() if handles(where.guild)]
        for where in stale:
            self.changed(where)
        if stale:
            log.info("refreshing %d status messages that are behind their battles", len(stale))
        return len(stale)

    async def _find(self, channel_id: str) -> int | None:
        """After a restart: the bot's status message among the channel's last messages (by its buttons)."""
        me = self.client.user
        if me is None:
            return None
        channel = self.client.get_partial_messageable(int(channel_id))
        try:
            async for message in channel.history(limit=HISTORY):
                if message.author.id == me.id and _has_status_buttons(message):
                    return message.id
        except discord.HTTPException:
            log.info("cannot read the history of channel %s", channel_id)
        return None


async def status_message(
    view: StatusView, lang: str, pictures: PictureCache
) -> tuple[LiveMessage, list[discord.File]]:
    """The status message of a battle: one message (the full status, or compact when that does not
    fit) and its picture."""
    message = live_message(view, lang)
    return message, await status_files(view, lang, message.embeds, pictures)


def _has_status_buttons(message: discord.Message) -> bool:
    return any(
        getattr(child, "custom_id", None) == REFRESH
        for row in message.components
        for child in getattr(row, "children", ())
    )
