"""The 千幻抄 battle (``/sg``) in Discord (its ``Presenter``): the console's status text in an embed, and
the live status message.

It reads the export document (``toride.sengensho/1``) as the reader may see it; the status is the
console's (``bot.rulesets.sengensho.text``), with user text escaped.
"""

from __future__ import annotations

import discord

from bot.discord.live_layout import LiveMessage, parts_message
from bot.discord.presenter import ENDED, NEUTRAL, Presenter
from bot.discord.status import escaped_view, text_status
from bot.i18n import t
from bot.rulesets.sengensho import text as sengensho_text
from bot.views import StatusView


def live_embeds(view: StatusView, lang: str) -> LiveMessage:
    """The live status message: the full status if it fits one embed, else each list (who acts when,
    who waits, who is down) cut to its share of the room, earliest to act first, with how many were
    left out; the header, the step now acting, the spell cards and the GMs always. It reads the
    table's view (the service leaves out what is hidden from the table, S-HIDE-1): the message is
    public."""
    shown = sengensho_text.status_parts(escaped_view(view), lang)
    colour = ENDED if view.ended else NEUTRAL
    return parts_message(
        shown, colour, t("live.compact.sengensho", lang), lambda k: t("live.more", lang, count=k)
    )


def status_embeds(view: StatusView, lang: str) -> list[discord.Embed]:
    """``/sg status``: the console's status text in an embed (user text escaped)."""
    return text_status(view, lang, sengensho_text.status)


PRESENTER = Presenter(ruleset="sengensho", status=status_embeds, live=live_embeds, next_path="sg turn")
