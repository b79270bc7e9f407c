"""Status embeds any rule set can use: its console status text in an embed (user text escaped), or
every value of its document; and the names autocomplete offers for what was typed."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterable

import discord

from bot.discord import limits
from bot.discord.presenter import ENDED, NEUTRAL
from bot.discord.text import escaped, md, who
from bot.views import StatusView
from engine.common import kana_fold


def fold(text: str) -> str:
    """What autocomplete compares: full width, case and kana folded (``ごぶ`` finds ゴブリン隊)."""
    return kana_fold(unicodedata.normalize("NFKC", text))


def filter_names(names: Iterable[str], current: str, limit: int = 25) -> list[str]:
    """Names containing what was typed (full-width and case folded), those starting with it first."""
    typed = fold(current.strip())
    seen: set[str] = set()
    starts: list[str] = []
    contains: list[str] = []
    for name in names:
        if not name or name in seen or len(name) > 100:
            continue
        seen.add(name)
        folded = fold(name)
        if folded.startswith(typed):
            starts.append(name)
        elif typed in folded:
            contains.append(name)
    return (starts + contains)[:limit]


def escaped_view(view: StatusView) -> StatusView:
    """``view`` for a text renderer whose lines go into an embed: user text escaped, GMs as mentions
    (an embed shows them as names, never pinging)."""
    return StatusView(
        ruleset=view.ruleset,
        document=escaped(view.document),
        gms=tuple(who(gm) for gm in view.gms),
        ended=view.ended,
    )


def text_status(
    view: StatusView, lang: str, renderer: Callable[[StatusView, str], str]
) -> list[discord.Embed]:
    """The console's status text of ``renderer`` (user text escaped) in an embed: its first line the
    title."""
    title, *lines = renderer(escaped_view(view), lang).split("\n")
    return limits.build(title=title, lines=lines, colour=ENDED if view.ended else NEUTRAL)


def document_status(view: StatusView, lang: str) -> list[discord.Embed]:
    """A rule set without any status of its own: every value of its document."""
    fields = []
    for key, value in view.document.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        fields.append((md(str(key)), md(limits.shorten(text, limits.FIELD_VALUE - 50)), True))
    title = str(view.document.get("title") or view.ruleset)
    return limits.build(title=md(title), fields=fields, colour=ENDED if view.ended else NEUTRAL)
