"""A battle's presenter by its rule set's name (``presenter``): the rule set's own
(``RuleSet.discord``), or, for a rule set without one, the generic presenter: its console status text
in an embed (``RuleSet.text.status``), else every value of its document."""

from __future__ import annotations

import discord

from bot.discord.live_layout import LiveMessage, first_message
from bot.discord.presenter import Presenter, StatusEmbeds
from bot.discord.status import document_status, text_status
from bot.i18n import t
from bot.registry import rulesets
from bot.ruleset import RuleSet
from bot.views import StatusView


def presenter(ruleset: str) -> Presenter:
    found = rulesets().get(ruleset)
    if found is not None and found.discord is not None:
        return found.discord()
    return generic_presenter(ruleset, found)


def generic_presenter(name: str, ruleset: RuleSet | None) -> Presenter:
    """The presenter of a rule set without one of its own (or of a battle whose rule set is gone)."""
    status: StatusEmbeds = document_status
    renderer = ruleset.text.status if ruleset is not None else None
    if renderer is not None:

        def status(view: StatusView, lang: str) -> list[discord.Embed]:
            return text_status(view, lang, renderer)

    next_path = f"{ruleset.group} next" if ruleset is not None else None
    return Presenter(
        ruleset=name, status=status, next_path=next_path if next_path in rulesets().commands else None
    )


def live_message(view: StatusView, lang: str) -> LiveMessage:
    """The battle's live status message: within one Discord message, the whole battle in it."""
    shown = presenter(view.ruleset)
    if shown.live is not None:
        return shown.live(view, lang)
    return first_message(shown.status(view, lang), t("live.compact.other", lang))
