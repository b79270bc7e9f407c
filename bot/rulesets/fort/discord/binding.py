"""The fort's ``Presenter``: how a fort battle looks in Discord (``RuleSet.discord``)."""

from __future__ import annotations

from bot.discord import limits
from bot.discord.presenter import NEUTRAL, Presenter
from bot.discord.reply import Reply
from bot.discord.text import event_line, md
from bot.rulesets.fort import roster_text
from bot.rulesets.fort.discord import live, odds, presenter
from bot.rulesets.fort.views import OddsView, PreviewView, RosterView


def roster_reply(view: RosterView, lang: str) -> Reply:
    """``/unit list``: the roster, names escaped, its sub-lines indented with full-width spaces."""
    assert view.roster is not None
    lines = roster_text.roster_lines(view.roster, lang, name=md, indent="", sub="　　")
    return Reply(limits.messages(limits.build(lines=lines, colour=NEUTRAL)), view.ephemeral)


def preview_reply(view: PreviewView, lang: str) -> Reply:
    """``/unit advance preview:true``: what the advance would do."""
    lines = roster_text.preview_lines(view.events, lang, line=event_line, indent="　")
    return Reply(limits.messages(limits.build(lines=lines, colour=NEUTRAL)), view.ephemeral)


PRESENTER = Presenter(
    ruleset="fort",
    status=presenter.status_embeds,
    live=live.live_embeds,
    summary_fields=presenter.summary_fields,
    colour=presenter.colour,
    next_path="fort next",
    report=presenter.report,
    views={RosterView: roster_reply, PreviewView: preview_reply, OddsView: odds.odds_reply},
    prepare=odds.draw_chart,
)
