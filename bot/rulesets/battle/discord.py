"""The ordinary battle (``/battle``) in Discord (its ``Presenter``): the console's status text in an embed,
and the live status message (B-VIEW-1).

It reads the export document (``toride.battle/1``) as the reader may see it (the live message is public:
the table's view, B-KNOW-1); the status is the console's (``bot.rulesets.battle.text``), with user text
escaped.
"""

from __future__ import annotations

import discord

from bot.discord.live_layout import LiveMessage, parts_message
from bot.discord.presenter import ENDED, NEUTRAL, Presenter
from bot.discord.status import escaped_view, text_status
from bot.discord.text import md
from bot.i18n import t
from bot.rulesets.battle import text as battle_text
from bot.rulesets.battle.summary import summary_extra
from bot.views import StatusView, Summary


def live_embeds(view: StatusView, lang: str) -> LiveMessage:
    """The live status message: the full status if it fits one embed, else each list (the PC side, the
    enemy side, the effects, what the party knows) cut to its share of the room, in the order of the
    full status, with how many were left out; the header, whose turn and who has not acted, and the
    GMs always."""
    shown = battle_text.status_parts(escaped_view(view), lang)
    colour = ENDED if view.ended else NEUTRAL
    return parts_message(
        shown, colour, t("live.compact.battle", lang), lambda k: t("live.more", lang, count=k)
    )


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
