"""The buttons of the status message: next turn and undo (GM only, the service checks), refresh,
and, on a compact status message, the full status (shown to the presser only).

Their custom ids are fixed, so a ``StatusButtons`` added to the client at start-up
(``client.add_view``) answers presses on every status message, also those posted before a restart.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.i18n import t

NEXT = "toride:status:next"
UNDO = "toride:status:undo"
REFRESH = "toride:status:refresh"
#: the full status, for the presser only (on a compact status message)
FULL = "toride:status:full"


class Presses(Protocol):
    """Who answers the buttons' presses (``bot.discord.frontend.Frontend``)."""

    async def button(self, interaction: discord.Interaction, action: str) -> None: ...

    async def report_error(self, interaction: discord.Interaction, error: Exception) -> None: ...


class StatusButtons(discord.ui.View):
    def __init__(
        self, frontend: Presses | Any, lang: str, *, next_turn: bool = True, full: bool = True
    ) -> None:
        super().__init__(timeout=None)
        self.frontend = frontend
        if next_turn:
            self._add(NEXT, t("discord.button.next", lang), discord.ButtonStyle.primary, "next")
        self._add(UNDO, t("discord.button.undo", lang), discord.ButtonStyle.secondary, "undo")
        self._add(REFRESH, t("discord.button.refresh", lang), discord.ButtonStyle.secondary, "refresh")
        if full:
            self._add(FULL, t("live.button.full", lang), discord.ButtonStyle.secondary, "full")

    def _add(self, custom_id: str, label: str, style: discord.ButtonStyle, action: str) -> None:
        button: discord.ui.Button[StatusButtons] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id
        )

        async def callback(interaction: discord.Interaction) -> None:
            await self.frontend.button(interaction, action)

        button.callback = callback  # type: ignore[method-assign]
        self.add_item(button)

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await self.frontend.report_error(interaction, error)
