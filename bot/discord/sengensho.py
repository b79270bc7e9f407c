"""The 千幻抄 battle (``/sg``) in Discord: the console's status text in an embed, names completed.

It reads the export document (``toride.sengensho/1``: ``characters`` with ``name`` and
``spell_cards``) as the reader may see it; the status is the console's (``bot.render.sengensho_text``),
with user text escaped.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, Option, OptType
from bot.discord import limits
from bot.discord.live_layout import SLACK, LiveMessage, Part, fill, fits, in_order
from bot.discord.presenters import ENDED, NEUTRAL, Presenter, escaped_view, fold, generic_status, register
from bot.i18n import t
from bot.render import sengensho_text
from bot.views import StatusView

#: the longest row of the compact live status (a row with many marks is cut after them)
ROW_MAX = 200
#: options that name a character already in the battle (``/sg join name`` names a new one)
_CHARACTER_OPTIONS = frozenset({"name", "attacker", "target", "against", "at", "holder", "take_from"})
#: options that name a spell card: one to use (the character's), one to take over (the giver's)
_CARD_OWNER = {"use": "name", "card": "take_from"}


def completion(spec: CommandSpec, opt: Option) -> str | None:
    if spec.ruleset != "sengensho" or opt.type is not OptType.STR or spec.path == "sg join":
        return None
    if spec.path == "sg spellcard" and opt.name in _CARD_OWNER:
        return "card." + _CARD_OWNER[opt.name]
    return "character" if opt.name in _CHARACTER_OPTIONS else None


def candidates(doc: Mapping[str, Any], kind: str, spec: CommandSpec, typed: Mapping[str, Any]) -> list[str]:
    characters = doc.get("characters", [])
    if kind == "character":
        return [str(c["name"]) for c in characters if c.get("name")]
    if not kind.startswith("card."):
        return []
    owner = fold(str(typed.get(kind.removeprefix("card."), "") or ""))
    return [
        str(card["name"])
        for c in characters
        if owner and fold(str(c.get("name", ""))) == owner
        for card in c.get("spell_cards") or []
        if isinstance(card, Mapping) and not card.get("used")
    ]


def live_embeds(view: StatusView, lang: str) -> LiveMessage:
    """The live status message: the full status if it fits one embed, else each list (who acts when,
    who waits, who is down) cut to its share of the room, earliest to act first, with how many were
    left out; the header, the step now acting, the spell cards and the GMs always. It reads the
    table's view (the service leaves out what is hidden from the table, S-HIDE-1): the message is
    public."""
    shown = sengensho_text.status_parts(escaped_view(view), lang)
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
    note = t("live.compact.sengensho", lang)
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


register(
    Presenter(
        ruleset="sengensho",
        status=generic_status,
        live=live_embeds,
        completion=completion,
        candidates=candidates,
        next_path="sg turn",
    )
)
