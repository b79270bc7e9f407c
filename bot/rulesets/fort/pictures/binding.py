"""The fort's ``Pictures`` (``RuleSet.pictures``): imported when a fort picture is first drawn, so Pillow
and the drawing code load with it, not with the console."""

from __future__ import annotations

from bot.ruleset import Pictures
from bot.rulesets.fort import text as fort_text
from bot.rulesets.fort.pictures.chart import chart_png
from bot.rulesets.fort.pictures.draw import map_png
from bot.rulesets.fort.pictures.odds_chart import odds_png
from bot.rulesets.fort.views import OddsView
from bot.views import StatusView, Summary, View


def chart(summary: Summary, lang: str) -> bytes:
    """The fort HP chart of a final summary: the HP by round and what moved it most."""
    return chart_png(summary.history, summary.document, lang)


def alt(view: StatusView, lang: str) -> str:
    """What the battlefield shows, in words: the status's title and fort HP lines."""
    return fort_text.header(view.document, lang) + "\n" + fort_text.fort_line(view.document, lang)


def odds_chart(view: View, lang: str) -> tuple[bytes, str] | None:
    """``/fort odds``'s chart (the fort's HP at the end of the runs) and its file's name."""
    if not isinstance(view, OddsView) or view.result is None:
        return None
    return odds_png(view.result, view.title, lang), view.filename


PICTURES = Pictures(
    map=map_png,
    chart=chart,
    chart_file="fort-hp.png",
    chart_written="map.chart_written",
    alt=alt,
    view_picture=odds_chart,
    view_picture_written="odds.chart_written",
    sample={"rounds": 1},
)
