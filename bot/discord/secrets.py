"""Secret rolls in Discord: the channel's note that one was made, the list (``/roll secrets``) and the
reveal (``/roll reveal``), times as Discord's timestamps (each reader's own time zone)."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.discord import limits
from bot.discord.presenter import SECRET
from bot.discord.reply import Reply
from bot.discord.text import md, who
from bot.i18n import t
from bot.render import secret_text
from bot.views import PaletteRollView, RevealView, RollView, SecretsView


def secret_notice(view: RollView | PaletteRollView, lang: str, name: str) -> list[discord.Embed]:
    """What the channel reads of a secret roll: that it was made, and its number once kept."""
    if isinstance(view, PaletteRollView):
        line = t("palette.secret_notice", lang, actor=md(name), pc=md(view.pc))
    elif view.number is None:
        line = t("roll.secret_notice", lang, actor=md(name))
    else:
        line = t("roll.secret_notice_numbered", lang, actor=md(name), number=view.number)
    return limits.build(lines=[line], colour=SECRET)


def discord_time(at: datetime) -> str:
    """A time as Discord shows it to each reader, in their own time zone."""
    return f"<t:{int(at.timestamp())}:f>"


def secret_reply(view: SecretsView | RevealView, lang: str) -> Reply:
    if isinstance(view, SecretsView):
        lines = secret_text.list_lines(view, lang, discord_time, md, who)
    else:  # a mention and a time are not read in a title: all in the text
        lines = secret_text.reveal_lines(view, lang, discord_time, md, who)
    embeds = limits.build(lines=lines, colour=SECRET)
    return Reply(limits.messages(embeds), view.ephemeral)
