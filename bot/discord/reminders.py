"""What a battle waits for, asked again in the channel (``RuleSet.text.awaiting``): an answer to an
attack not given within ``REMIND_AFTER`` is asked again, once, mentioning whom it waits for, with its
buttons; it is never decided for them.

It reads the table's document each time the live status does (``LiveStatus.refresh``), notes when
each wait was first seen, and sleeps until the oldest unasked one is due; a wait answered meanwhile
is forgotten. The clock and the sleep are the status coalescer's (a test's fake time).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord import limits
from bot.discord.offers import offer_view
from bot.discord.presenter import NEUTRAL
from bot.discord.text import tr
from bot.render.text import text_of
from bot.service import BattleService, Where
from bot.views import Awaited, StatusView

log = logging.getLogger(__name__)

#: how long an answer may stay ungiven before it is asked again (issue: 2 minutes)
REMIND_AFTER = 120.0


class Reminders:
    def __init__(
        self,
        client: discord.Client,
        service: BattleService,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
        after: float = REMIND_AFTER,
    ) -> None:
        self.client = client
        self.service = service
        self.clock = clock
        self.sleep = sleep
        self.after = after
        #: channel → wait key → when it was first seen
        self._since: dict[str, dict[str, float]] = {}
        #: channel → the waits asked again already
        self._asked: dict[str, set[str]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        #: how many were asked again (for tests and logs)
        self.sent = 0

    def since(self, channel: str) -> dict[str, float]:
        """What ``channel``'s battle waits for, and since when (by the clock it reads)."""
        return dict(self._since.get(channel, {}))

    def seen(self, where: Where, view: StatusView | None) -> None:
        """The battle in ``where`` as the table reads it now: new waits noted, answered ones forgotten."""
        self._note(where, self._waits(view))
        pending = any(k not in self._asked[where.channel] for k in self._since[where.channel])
        if pending and where.channel not in self._tasks:
            self._tasks[where.channel] = asyncio.create_task(
                self._wait(where), name=f"toride-remind-{where.channel}"
            )

    def _note(self, where: Where, waits: dict[str, Awaited]) -> None:
        since = self._since.setdefault(where.channel, {})
        asked = self._asked.setdefault(where.channel, set())
        for key in [k for k in since if k not in waits]:
            del since[key]
            asked.discard(key)
        now = self.clock()
        for key in waits:
            since.setdefault(key, now)

    @staticmethod
    def _waits(view: StatusView | None) -> dict[str, Awaited]:
        if view is None or view.ended:
            return {}
        awaiting = text_of(view.ruleset).awaiting
        return {} if awaiting is None else {a.key: a for a in awaiting(view.document)}

    async def _wait(self, where: Where) -> None:
        """Sleeps until the oldest unasked wait is due, then asks each one due that still waits."""
        try:
            while True:
                since, asked = self._since[where.channel], self._asked[where.channel]
                due = [at + self.after for key, at in since.items() if key not in asked]
                if not due:
                    return
                await self.sleep(max(0.0, min(due) - self.clock()))
                waits = self._waits(await self.service.status(where))
                self._note(where, waits)
                now = self.clock()
                for key, at in list(since.items()):
                    if key not in asked and at + self.after <= now:
                        asked.add(key)
                        await self._ask(where, waits[key])
        except Exception:  # a reminder never takes the bot down; the status still shows the wait
            log.exception("could not ask again in channel %s", where.channel)
        finally:
            self._tasks.pop(where.channel, None)

    async def _ask(self, where: Where, wait: Awaited) -> None:
        lang = await self.service.language(where.guild)
        embeds = limits.build(lines=[tr(wait.text, lang, **wait.values)], colour=NEUTRAL)
        owner = wait.owner if wait.owner is not None and wait.owner.isdigit() else None
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(owner))] if owner else False
        )
        content = f"<@{owner}>" if owner else None
        buttons = offer_view(wait.offers, lang) if wait.offers else None
        channel = self.client.get_partial_messageable(int(where.channel))
        with contextlib.suppress(discord.Forbidden, discord.NotFound):
            if buttons is not None:
                await channel.send(content=content, embeds=embeds, allowed_mentions=mentions, view=buttons)
            else:
                await channel.send(content=content, embeds=embeds, allowed_mentions=mentions)
            self.sent += 1

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
