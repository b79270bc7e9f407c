"""The ordinary battle (``/battle``) in Discord (its ``Presenter``): the console's status text in an embed,
and the live status message (B-VIEW-1).

It reads the export document (``toride.battle/1``) as the reader may see it (the live message is public:
the table's view, B-KNOW-1); the status is the console's (``bot.rulesets.battle.text``), with user text
escaped.
"""

from __future__ import annotations

import itertools

import discord

from bot.discord import limits
from bot.discord.live_layout import SLACK, LiveMessage, Part, fill, fits, in_order
from bot.discord.presenter import ENDED, NEUTRAL, Presenter
from bot.discord.status import escaped_view, text_status
from bot.discord.text import md
from bot.i18n import t
from bot.rulesets.battle import text as battle_text
from bot.rulesets.battle.summary import summary_extra
from bot.views import StatusView, Summary

#: the longest row of the compact live status (a row with many numbers is cut after them)
ROW_MAX = 200


def live_embeds(view: StatusView, lang: str) -> LiveMessage:
    """The live status message: the full status if it fits one embed, else each list (the PC side, the
    enemy side, the effects, what the party knows) cut to its share of the room, in the order of the
    full status, with how many were left out; the header, whose turn and who has not acted, and the
    GMs always."""
    shown = battle_text.status_parts(escaped_view(view), lang)
    title, *head = shown.head
    colour = ENDED if view.ended else NEUTRAL
    room = limits.DESCRIPTION - _size(head) - _size(shown.tail)
    read: list[list[str]] = []  # each list's heading and the rows read so far
    whole = True
    for part in shown.parts:
        rows = [part.heading]
        read.append(rows)
        room -= len(part.heading) + 1
        for row in part.rows:
            rows.append(row)
            room -= len(row) + 1
            if room < 0:
                whole = False
                break
        if not whole:
            break
    if whole:
        lines = [*head, *(row for rows in read for row in rows), *shown.tail]
        embeds = limits.build(title=title, lines=lines, colour=colour)
        if fits(embeds) and len(embeds) == 1:
            return LiveMessage(embeds)
    # compact: the rows read so far are not made again
    note = t("live.compact.battle", lang)
    parts = []
    for n, part in enumerate(shown.parts):
        before = read[n][1:] if n < len(read) else []
        entries = in_order(itertools.chain(before, part.rows))
        more = lambda k: t("live.more", lang, count=k)  # noqa: E731
        parts.append(Part(part.heading, [part.heading], entries, part.count, more, width=ROW_MAX))
    room = limits.DESCRIPTION - _size(head) - _size(shown.tail) - len(note) - 1 - SLACK
    lists = fill(parts, room, cap=None)
    lines = [*head, note, *(line for part in lists for line in part), *shown.tail]
    return LiveMessage(limits.build(title=title, lines=lines, colour=colour), compact=True)


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def status_embeds(view: StatusView, lang: str) -> list[discord.Embed]:
    """``/battle status``: the console's status text in an embed (user text escaped)."""
    return text_status(view, lang, battle_text.status)


def summary_fields(summary: Summary, lang: str) -> list[tuple[str, str, bool]]:
    """B-VIEW-1: the round's damage dealt and taken by each, after the summary's events."""
    lines = [md(line.strip()) for line in summary_extra(summary, lang)]
    return [(t("bt.summary.title", lang), "\n".join(lines), False)] if lines else []


PRESENTER = Presenter(
    ruleset="battle",
    status=status_embeds,
    live=live_embeds,
    next_path="battle next",
    summary_fields=summary_fields,
)
