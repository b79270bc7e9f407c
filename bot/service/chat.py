"""Chat dice (COMMANDS.md, ``/settings chat_dice:``): in a channel that allows it, a chat message that
begins with a dice command is rolled as ``/roll`` would roll it.

BCDice's rule: the command is the message up to its first space, the rest a comment, and the command
must start the message (a leading space: not a command). A message whose first word is not a dice
command is not one for the bot: it is ignored, read no further and kept nowhere. Whether a channel
allows chat dice is read once from the storage and then kept here (a bounded table), and changed here
when ``/settings`` changes it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from bot.service.types import Actor, Refused, Where
from bot.storage.interface import Storage, Transaction
from bot.views import NoticeView
from engine.dice import DiceError, parse_command

log = logging.getLogger(__name__)
#: how many channels' chat dice setting a process keeps in memory
CHANNELS_KEPT = 10_000
#: the longest command line rolled (``/roll``'s ``expr:``); a longer comment is cut
LINE_MAX = 300
_BLANK = (" ", "\t", "\u3000", "\r", "\n")


def command_line(text: str) -> str | None:
    """The dice command line a chat message begins with (its first line, control characters of the
    comment as spaces, cut to ``LINE_MAX``), or None: the message is not a dice command."""
    if not text or text.startswith(_BLANK):
        return None
    first = text.split("\n", 1)[0]
    first = "".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c for c in first).rstrip()
    line = first[:LINE_MAX].rstrip()
    try:
        # the whole first line: a repeat (``x3 2d6 命中``) or a spaced choice has its command past a space
        parse_command(line)
    except DiceError:
        return None
    except Exception:  # a command the dice engine cannot read is no command: never a failed message
        log.exception("the dice engine failed on a chat message's first word")
        return None
    return line


def has_variables(text: str) -> bool:
    """Does a chat message's first line name a palette's variable (``{命中}``, full-width braces too)?"""
    first = text.split("\n", 1)[0]
    return ("{" in first or "｛" in first) and not text.startswith(_BLANK)


def secret_line(text: str) -> bool:
    """Is the dice command a chat message begins with a secret one (``S2d6``)? Its refusal too is for
    the roller alone."""
    line = command_line(text)
    return line is not None and parse_command(line).secret


class ChatDice:
    """Which channels roll their chat's dice commands, and ``/settings chat_dice:``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: does the front-end receive the messages' text (Discord: the Message Content intent)? None:
        #: a front-end without chat (the console), which says nothing of it
        self.intent: bool | None = None
        self._on: OrderedDict[tuple[str, str], bool] = OrderedDict()

    def _keep(self, key: tuple[str, str], on: bool) -> None:
        self._on[key] = on
        self._on.move_to_end(key)
        while len(self._on) > CHANNELS_KEPT:
            self._on.popitem(last=False)

    async def enabled(self, where: Where) -> bool:
        key = (where.guild, where.channel)
        kept = self._on.get(key)
        if kept is not None:
            self._on.move_to_end(key)
            return kept
        on = await self.storage.chat_dice(where.guild, where.channel)
        self._keep(key, on)
        return on

    async def set(self, where: Where, actor: Actor, on: bool) -> NoticeView:
        """``/settings chat_dice:``: Manage Server or the server's GM role only."""
        if not actor.manage_guild:
            role = (await self.storage.settings(where.guild)).gm_role_id
            if role is None or role not in actor.roles:
                raise Refused("settings.not_allowed")

        async def job(transaction: Transaction) -> None:
            await transaction.set_chat_dice(where.guild, where.channel, on)

        await self.storage.run(job)
        self._keep((where.guild, where.channel), on)
        if not on:
            return NoticeView(key="settings.chat_dice_off")
        if self.intent is False:
            return NoticeView(key="settings.chat_dice_on_no_intent")
        return NoticeView(key="settings.chat_dice_on")
