"""User text made safe for Discord, and catalogue sentences whose values are user text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import t
from bot.render.common import dice_text, value_text
from engine.ruleset import Event


def md(text: Any) -> str:
    """``text`` with Discord markdown and mentions neutralised (a name never formats or pings)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(str(text)))


def who(user_id: str) -> str:
    """A user id as a mention (shown as the name in an embed, and never pinging); other text escaped."""
    return f"<@{user_id}>" if user_id.isdigit() else md(user_id)


def safe_values(values: Mapping[str, Any], lang: str) -> dict[str, str]:
    return {k: md(value_text(v, lang)) for k, v in values.items()}


def tr(key: str, lang: str, **values: Any) -> str:
    """``t`` with every value escaped."""
    return t(key, lang, **safe_values(values, lang))


def event_line(event: Event, lang: str) -> str:
    line = tr(event.kind, lang, **event.data)
    if event.dice:
        line += " " + t("render.dice", lang, dice=dice_text(event.dice))
    return line
