"""Which catalogue language a Discord user or guild reads."""

from __future__ import annotations

import discord

from bot.i18n import DEFAULT_LANG, LANGUAGES


def language_of(locale: discord.Locale | str | None) -> str | None:
    """``ja`` for a Japanese client, ``en`` for any English one, None for other locales."""
    if locale is None:
        return None
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    base = value.split("-")[0].casefold()
    return base if base in LANGUAGES else None


def interaction_language(interaction: discord.Interaction, guild_language: str | None = None) -> str:
    """The user's client language if we have a catalogue for it, else the guild's, else Japanese."""
    return language_of(interaction.locale) or guild_language or DEFAULT_LANG
