"""User text made safe for Discord, and catalogue sentences whose values are user text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.render import common
from engine.ruleset import Event


def md(text: Any) -> str:
    """``text`` with Discord markdown and mentions neutralised (a name never formats or pings)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(str(text)))


def who(user_id: str) -> str:
    """A user id as a mention (shown as the name in an embed, and never pinging); other text escaped."""
    return f"<@{user_id}>" if user_id.isdigit() else md(user_id)


def escaped(value: Any) -> Any:
    """``value`` with every string in it escaped (lists and mappings followed; keys kept)."""
    if isinstance(value, str):
        return md(value)
    if isinstance(value, Mapping):
        return {k: escaped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [escaped(v) for v in value]
    return value


def tr(key: str, lang: str, **values: Any) -> str:
    """``t`` with every value escaped: the sentence of ``bot.render.common.sentence`` (absent values
    left out, reasons in words, plurals)."""
    return common.sentence(key, lang, values, escape=md)


#: event fields that hold a user (a Discord id): shown as a mention, which an embed shows as the name
USER_FIELDS = ("owner", "user")


def event_line(event: Event, lang: str) -> str:
    """The console's sentence for ``event`` (``bot.render.common``), its user text escaped."""
    data = escaped(dict(event.data))
    for name in USER_FIELDS:
        value = event.data.get(name)
        if isinstance(value, str):
            data[name] = who(value)
    return common.event_line(Event(event.kind, data, event.dice), lang)
