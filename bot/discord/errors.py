"""What a failed interaction is told (``Frontend.report_error``), and the storage's failures in words.

``error_key`` names the catalogue entry for an exception and logs it (the details stay in the log);
``tell`` sends one line ephemerally; ``storage_guarded`` turns a storage failure of a service call (a
full disk, a lost database connection ..., ``bot.storage.failures``) into a refusal: nothing changed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

import discord
from discord import app_commands

from bot.discord import embeds as render
from bot.storage.failures import storage_failure
from bot.views import ErrorView, View

log = logging.getLogger("bot.discord.frontend")
NO_MENTIONS = discord.AllowedMentions.none()


def error_key(error: Exception) -> str:
    """The message key for a failed interaction; the failure logged."""
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("command out of date: %s", error)
        return "discord.out_of_date"
    if isinstance(error, app_commands.TransformerError):
        log.info("option refused by Discord's conversion: %s", error)
        return "discord.bad_option"
    failure = storage_failure(getattr(error, "original", error))
    if failure is not None:
        log.error("the storage failed (%s)", failure, exc_info=error)
        return failure
    log.error("command failed", exc_info=error)
    return "discord.internal_error"


async def tell(interaction: discord.Interaction, key: str, values: Mapping[str, object], lang: str) -> None:
    """One line for the user only (a follow-up if the interaction was answered or deferred)."""
    embeds = render.error_embeds(key, values, lang)
    if interaction.response.is_done():
        await interaction.followup.send(embeds=embeds, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(embeds=embeds, ephemeral=True, allowed_mentions=NO_MENTIONS)


async def storage_guarded(work: Callable[[], Awaitable[View]]) -> View:
    """``work``'s view; a storage failure is told as a refusal (nothing was changed), its details
    logged."""
    try:
        return await work()
    except Exception as error:
        key = storage_failure(error)
        if key is None:
            raise
        log.error("the storage failed (%s)", key, exc_info=error)
        return ErrorView(key=key)
