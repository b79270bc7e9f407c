"""``/fort odds`` in Discord: the answer as an embed, the histogram of the fort's HP at the end as its
image (an attachment). The chart is drawn in the pictures' worker thread before the reply is built
(``draw_chart``), never on the event loop."""

from __future__ import annotations

from bot.discord import limits
from bot.discord.pictures import ALT_MAX, attach, in_picture_thread
from bot.discord.presenter import CRITICAL, DANGER, GOOD, WARN
from bot.discord.reply import Reply
from bot.discord.text import md
from bot.rulesets.fort.odds_text import odds_lines, odds_title
from bot.rulesets.fort.pictures.odds_chart import odds_png
from bot.rulesets.fort.views import OddsView
from bot.views import View

#: the embed's colour by the chance that the defence holds: (at least, colour)
COLOURS = ((0.9, GOOD), (0.6, WARN), (0.3, DANGER), (0.0, CRITICAL))


async def draw_chart(view: View, lang: str) -> None:
    """Draws an odds view's chart in the pictures' thread; ``odds_reply`` then finds it drawn."""
    if isinstance(view, OddsView) and view.result is not None:
        await in_picture_thread(odds_png, view.result, view.title, lang)


def odds_reply(view: OddsView, lang: str) -> Reply:
    assert view.result is not None
    colour = next(c for floor, c in COLOURS if view.result.hold >= floor)
    lines = odds_lines(view, lang, md)
    embeds = limits.build(title=odds_title(view, lang, md), lines=lines, colour=colour)
    png = odds_png(view.result, view.title, lang)
    alt = limits.shorten("\n".join(odds_lines(view, lang)[:2]), ALT_MAX)
    file = attach(embeds, png, view.filename, alt)
    return Reply(limits.messages(embeds), view.ephemeral, file=file)
