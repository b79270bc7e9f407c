"""Japanese (and English) names and descriptions for the slash commands, from the catalogues."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.labels import CHOICE_MAX, DESC_MAX, shorten, valid_name
from bot.discord.lang import language_of
from bot.i18n import catalogue


class CatalogueTranslator(app_commands.Translator):
    """Answers Discord's localisation questions from ``bot/i18n/{ja,en}/*.toml``.

    English is the base language of the command payloads, so only other catalogue languages are
    answered. A name the catalogue lacks, or that Discord would refuse, stays the base name;
    ``names=False`` keeps every name as in COMMANDS.md and translates descriptions only.
    """

    def __init__(self, *, names: bool = True) -> None:
        self.names = names

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.lookup(string, locale)

    def lookup(self, string: app_commands.locale_str, locale: discord.Locale) -> str | None:
        """The ``locale`` text of ``string`` (a ``locale_str`` made by ``bot.discord.labels``), or None."""
        lang = language_of(locale)
        key = string.extras.get("key")
        if lang is None or lang == "en" or not key:
            return None
        text = catalogue(lang).get(key)
        if not text or text == string.message:
            return None
        kind = string.extras.get("kind")
        if kind == "name":
            return text if self.names and valid_name(text) else None
        if kind == "choice":
            return shorten(text, CHOICE_MAX)
        return shorten(text, DESC_MAX)
