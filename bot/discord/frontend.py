"""An interaction in, a service call, embeds out: the one place cogs, buttons and errors meet the service.

``command`` runs a generated slash command, ``complete`` answers autocomplete, ``button`` a status
button, ``report_error`` every failure (ephemeral, in the user's language, never a trace).

Discord waits 3 seconds for the first answer to an interaction. Everything that may wait for the
database (the guild's language too) runs against one deadline, ``DEFER_AFTER`` after the handler
started: whatever is not ready by then is deferred ("thinking ...") and sent as an edit. Each
command and button press leaves one structured log line and is counted for ``/metrics``
(``bot.discord.commandlog``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import gm_targets
from bot.commands import CommandSpec, Kind, Option, OptType
from bot.discord import embeds as render
from bot.discord.commandlog import CommandLog, CommandMetrics
from bot.discord.drain import Drain
from bot.discord.errors import error_key, storage_guarded, tell
from bot.discord.lang import language_of
from bot.discord.live import LiveStatus, status_message
from bot.discord.offers import UsedOffers, read_id
from bot.discord.pictures import status_picture
from bot.discord.presenters import presenter
from bot.discord.send import NO_MENTIONS, send
from bot.discord.status import filter_names
from bot.discord.text import md
from bot.i18n import DEFAULT_LANG
from bot.registry import rulesets
from bot.render import command_line
from bot.render.picture.pictures import PictureCache
from bot.service import Actor, BattleService, Invocation, Where
from bot.sheet_fetch import FetchPolicy, SheetFetchError, fetch_sheet_options
from bot.views import ErrorView, MapView, RulesetView, View
from engine.limits import IMPORT_MAX_BYTES

log = logging.getLogger(__name__)
#: the largest import file read from an attachment
MAX_FILE = IMPORT_MAX_BYTES
#: answer within Discord's 3 seconds: what is not ready this long after the handler started is
#: deferred ("thinking ..."), which leaves the rest of the 3 s to the network and a busy event loop
DEFER_AFTER = 1.2
T = TypeVar("T")
#: the guild id used for direct messages
DM = "dm"


def where_of(interaction: discord.Interaction) -> Where:
    guild = str(interaction.guild_id) if interaction.guild_id is not None else DM
    return Where(guild=guild, channel=str(interaction.channel_id))


def actor_of(interaction: discord.Interaction) -> Actor:
    """Who acts, with the rights Discord resolved for them *in the interaction's channel*."""
    user = interaction.user
    # role ids as Discord sent them (Member.roles needs the guild's roles in the cache)
    roles = frozenset(str(r) for r in getattr(user, "_roles", ()))
    permissions = interaction.permissions
    # the names a character owner given as a name matches: username, display name, server nickname
    names = (user.name, user.global_name, getattr(user, "nick", None))
    return Actor(
        id=str(user.id),
        manage_channels=permissions.manage_channels,
        roles=roles,
        manage_guild=permissions.manage_guild,
        names=tuple(dict.fromkeys(n for n in names if n)),
    )


class Frontend:
    def __init__(
        self,
        service: BattleService,
        live: LiveStatus | None = None,
        *,
        defer_after: float | None = DEFER_AFTER,
        fetch_policy: FetchPolicy | None = None,
    ) -> None:
        self.service = service
        self.live = live
        self.defer_after = defer_after
        #: where ``sheet:`` URLs may be fetched from
        self.fetch_policy = fetch_policy if fetch_policy is not None else FetchPolicy.from_env()
        self.pictures = live.pictures if live is not None else PictureCache()
        #: turns new interactions away once the bot stops, and lets it wait for those in flight
        self.drain = Drain()
        #: the messages whose offered command (a button, ``bot.discord.offers``) was run
        self.used_offers = UsedOffers()
        #: the commands answered and their latency, for ``/metrics``
        self.metrics = CommandMetrics()

    async def turned_away(self, interaction: discord.Interaction) -> bool:
        """The bot is stopping: ``interaction`` is answered "restarting, try again in a moment"
        (ephemerally, in the user's language) and not run. False: it may run."""
        if not self.drain.closing:
            return False
        self.drain.turned_away += 1
        try:
            await tell(interaction, "discord.restarting", {}, await self.language(interaction))
        except discord.HTTPException:
            log.info("could not tell a user that the bot is restarting", exc_info=True)
        return True

    async def language(self, interaction: discord.Interaction) -> str:
        lang = language_of(interaction.locale)
        if lang is not None:
            return lang
        if interaction.guild_id is None:
            return DEFAULT_LANG
        try:
            return await self.service.language(str(interaction.guild_id))
        except Exception:
            log.exception("reading the guild language failed")
            return DEFAULT_LANG

    # -----------------------------------------------------------------------------------------
    # slash commands

    async def command(
        self, interaction: discord.Interaction, spec: CommandSpec, raw: Mapping[str, Any]
    ) -> None:
        if await self.turned_away(interaction):
            return
        with self.drain.working():
            await self._command(interaction, spec, raw)

    async def _command(
        self, interaction: discord.Interaction, spec: CommandSpec, raw: Mapping[str, Any]
    ) -> None:
        started = time.monotonic()
        options: dict[str, Any] = {}
        shown: dict[str, Any] = {}
        files: dict[str, discord.Attachment] = {}
        for name, value in raw.items():
            if isinstance(value, discord.User | discord.Member):
                options[name], shown[name] = str(value.id), f"<@{value.id}>"
            elif isinstance(value, discord.Role):
                options[name], shown[name] = str(value.id), f"<@&{value.id}>"
            elif isinstance(value, discord.Attachment):
                files[name], shown[name] = value, value.filename
            else:
                options[name] = shown[name] = value
        in_order = {o.name: shown[o.name] for o in spec.options if o.name in shown}  # as the table lists them
        invocation = Invocation(path=spec.path, options=options, text=command_line.typed(spec.path, in_order))
        where, actor = where_of(interaction), actor_of(interaction)

        async def work() -> View:
            for name, attachment in files.items():  # read within the answer's deadline, like the command
                refused = await self._read(attachment, options, name)
                if refused is not None:
                    return refused
            try:  # a sheet's URL: fetched here, outside the channel's lock, so no other channel waits
                await fetch_sheet_options(spec, options, self.fetch_policy)
            except SheetFetchError as error:
                return ErrorView(key=error.key, values=dict(error.values))
            return await self.service.execute(where, actor, invocation)

        await self.run(
            interaction,
            work,
            spec.path,
            new_battle=spec.kind in (Kind.START, Kind.IMPORT),
            defer_first=spec.kind is Kind.PLAN,
            started=started,
            secret=self.service.will_be_private(where, actor, invocation),
        )

    async def _read(self, attachment: discord.Attachment, options: dict[str, Any], name: str) -> View | None:
        if attachment.size > MAX_FILE:
            return ErrorView(key="discord.file_too_large", values={"max": MAX_FILE // 1000})
        try:
            options[name] = (await attachment.read()).decode("utf-8-sig")
        except UnicodeDecodeError:
            return ErrorView(key="discord.file_not_text", values={"file": attachment.filename})
        except discord.HTTPException:
            return ErrorView(key="discord.file_unreadable", values={"file": attachment.filename})
        return None

    async def run(
        self,
        interaction: discord.Interaction,
        work: Callable[[], Awaitable[View]],
        path: str,
        *,
        new_battle: bool = False,
        defer_first: bool = False,
        started: float | None = None,
        via: str = "command",
        secret: bool = False,
    ) -> View:
        """Answer with what ``work`` (a service call) gives; defer if it is not ready in time, or at
        once with ``defer_first`` (the odds planner: it takes seconds by design).

        ``secret``: the reply will be for the invoker alone (S-HIDE-1), so a deferral is ephemeral
        too: no public "thinking ..." shows that something secret is being done."""
        where = where_of(interaction)
        entry = CommandLog(where, path, via, started)

        async def answer() -> tuple[View, str]:
            lang = await self.language(interaction)
            view = await storage_guarded(work)
            # pictures drawn off the event loop, within the answer's deadline
            if isinstance(view, MapView):
                await status_picture(view.status, lang, self.pictures)
            if isinstance(view, RulesetView):
                prepare = presenter(view.ruleset).prepare
                if prepare is not None:
                    await prepare(view, lang)
            return view, lang

        try:
            (view, lang), deferred = await self.in_time(
                answer(),
                lambda: interaction.response.defer(thinking=True, ephemeral=secret),
                entry.started,
                at_once=defer_first,
            )
            entry.deferred = deferred
            entry.view(view)
            reply = render.render(view, lang, user=interaction.user.display_name, pictures=self.pictures)
            if reply.changed and self.live is not None:
                # first: the battle changed even if the answer cannot be sent (an expired interaction)
                self.live.changed(where, new_battle=new_battle and view.ok)
            await send(interaction, reply, deferred=deferred, deferred_ephemeral=secret)
        except BaseException as error:
            entry.failed(error)
            raise
        finally:
            entry.write(self.metrics)
        return view

    async def in_time(
        self,
        work: Awaitable[T],
        defer: Callable[[], Awaitable[Any]],
        started: float,
        *,
        at_once: bool = False,
    ) -> tuple[T, bool]:
        """``work``'s result, and whether ``defer`` was called because it was not ready by the
        deadline (``defer_after`` after ``started``), or first (``at_once``: work that takes
        seconds by design, the odds planner)."""
        call = asyncio.ensure_future(work)
        if not at_once:
            if self.defer_after is None:
                return await call, False
            remaining = max(0.0, started + self.defer_after - time.monotonic())
            done, _ = await asyncio.wait({call}, timeout=remaining)
            if done:
                return call.result(), False
        try:
            await defer()
        except BaseException:
            call.cancel()
            raise
        return await call, True

    # -----------------------------------------------------------------------------------------
    # autocomplete

    async def complete(
        self, interaction: discord.Interaction, spec: CommandSpec, opt: Option, current: str
    ) -> list[app_commands.Choice[str]]:
        if self.drain.closing:
            return []
        if opt.type is OptType.CHOICE:
            names = filter_names(opt.choices, current)
        elif spec.kind is Kind.PALETTE:  # the user's own palettes: a line in the sheet's order, or whose
            palettes = self.service.palettes
            where, actor = where_of(interaction), actor_of(interaction)
            if opt.name == "line":
                typed = getattr(interaction.namespace, "name", None)
                names = filter_names(await palettes.lines(where, actor, typed), current)
            else:
                names = filter_names([f.own.name for f in await palettes.found(where, actor)], current)
        else:
            view = await self.service.status(where_of(interaction), actor_of(interaction))
            ruleset = None if view is None else rulesets().get(view.ruleset)
            if view is not None and ruleset is not None and gm_targets.completes(spec.path, opt.name):
                table = ruleset.gm_targets
                if table is None:
                    return []
                offered = gm_targets.offered(table, view.document, await self.language(interaction))
                return [app_commands.Choice(name=n, value=n) for n in filter_names(offered, current)]
            if view is None or ruleset is None or ruleset.names is None:
                return []
            kind = ruleset.names.completion(spec, opt)
            if kind is None:
                return []
            typed = {k: v for k, v in vars(interaction.namespace).items() if k != opt.name}
            names = filter_names(ruleset.names.candidates(view.document, kind, spec, typed), current)
        return [app_commands.Choice(name=name, value=name) for name in names]

    # -----------------------------------------------------------------------------------------
    # status buttons

    async def button(self, interaction: discord.Interaction, action: str) -> None:
        if await self.turned_away(interaction):
            return
        with self.drain.working():
            await self._button(interaction, action)

    async def _button(self, interaction: discord.Interaction, action: str) -> None:
        started = time.monotonic()
        where = where_of(interaction)
        if action == "refresh":
            await self._refresh(interaction, where, started)
            return
        if action == "full":

            async def full() -> View:
                """The whole status as the presser may read it, for them only."""
                view = await self.service.status(where, actor_of(interaction))
                return ErrorView(key="service.no_battle") if view is None else replace(view, ephemeral=True)

            await self.run(interaction, full, "button full", started=started, via="button")
            return
        path: str | None = "gm undo"

        async def work() -> View:
            nonlocal path
            if action == "next":
                view = await self.service.status(where)
                path = presenter(view.ruleset).next_path if view is not None else None
            if path is None:
                return ErrorView(key="service.no_battle")
            invocation = Invocation(path=path, options={}, text="/" + path)
            return await self.service.execute(where, actor_of(interaction), invocation)

        await self.run(interaction, work, f"button {action}", started=started, via="button")

    async def offer(self, interaction: discord.Interaction, data: str) -> None:
        """A reply's offer pressed (``bot.discord.offers``): its command, run as the presser."""
        if await self.turned_away(interaction):
            return
        with self.drain.working():
            started = time.monotonic()
            where, actor = where_of(interaction), actor_of(interaction)
            found = read_id(data)
            message = interaction.message

            async def work() -> View:
                if found is None:
                    return ErrorView(key="palette.offer_unknown")
                if message is not None and not self.used_offers.take(message.id):
                    return ErrorView(key="palette.offer_used")
                path, options = found
                invocation = Invocation(path=path, options=options, text=command_line.typed(path, options))
                view = await self.service.execute(where, actor, invocation)
                if message is not None and not view.ok:
                    self.used_offers.give_back(message.id)
                return view

            view = await self.run(interaction, work, "button offer", started=started, via="button")
            if view.ok and message is not None:
                with contextlib.suppress(discord.HTTPException):  # the buttons go; the damage stands
                    await message.edit(view=None)

    async def _refresh(self, interaction: discord.Interaction, where: Where, started: float) -> None:
        """The refresh button: the status message shows the battle as it is now."""
        entry = CommandLog(where, "button refresh", "button", started)

        async def shown() -> tuple[list[discord.Embed], list[discord.File], discord.ui.View | None] | str:
            """The status message, or (no battle here) the presser's language for the refusal."""
            view = await self.service.status(where)
            if view is None:
                return await self.language(interaction)
            guild_lang = await self.service.language(where.guild)
            message, files = await status_message(view, guild_lang, self.pictures)
            buttons = self.live.status_buttons(view, guild_lang, message) if self.live is not None else None
            return message.embeds, files, buttons

        try:
            # a late answer edits the message afterwards (Discord's "deferred update": no new message)
            message, deferred = await self.in_time(shown(), interaction.response.defer, started)
            entry.deferred = deferred
            if isinstance(message, str):
                entry.refused("service.no_battle")
                embeds = render.error_embeds("service.no_battle", {}, message)
                tell_them = interaction.followup.send if deferred else interaction.response.send_message
                await tell_them(embeds=embeds, ephemeral=True, allowed_mentions=NO_MENTIONS)
                return
            embeds, files, buttons = message
            if deferred:
                await interaction.edit_original_response(
                    embeds=embeds, attachments=files, view=buttons, allowed_mentions=NO_MENTIONS
                )
            else:
                await interaction.response.edit_message(
                    embeds=embeds, attachments=files, view=buttons, allowed_mentions=NO_MENTIONS
                )
        except BaseException as error:
            entry.failed(error)
            raise
        finally:
            entry.write(self.metrics)

    # -----------------------------------------------------------------------------------------
    # errors

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.report_error(interaction, error)

    async def report_error(self, interaction: discord.Interaction, error: Exception) -> None:
        """Log the failure; tell the user, ephemerally and in their language, without a trace."""
        key = error_key(error)
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            await tell(
                interaction, key, {"value": md(getattr(error, "value", ""))}, await self.language(interaction)
            )
        except discord.HTTPException:
            log.exception("could not report an error to the user")
