"""A reply's offers as buttons (``View.offers``: a damage line rolled at a target, ``/battle damage``).

A button's custom id carries the whole command (``toride:offer:<json>``, at most Discord's 100
characters), so it answers after a restart too (a ``DynamicItem``). A press runs the command as its
presser: the command's own rights decide (the roller's PC, or a GM), a player who may not is refused
in words as if they had typed it. A message's offers are used once: the first press that applies one
removes the buttons; a second press the moment after is told it was used.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import t
from bot.registry import rulesets
from bot.render.common import sentence
from bot.views import Offer

PREFIX = "toride:offer:"
#: Discord's longest custom id
CUSTOM_ID_MAX = 100
#: how many messages' used offers a process remembers
USED_KEPT = 5_000


def custom_id(offer: Offer) -> str | None:
    """The button's id, None if the command does not fit one."""
    data = json.dumps([offer.path, dict(offer.options)], ensure_ascii=False, separators=(",", ":"))
    found = PREFIX + data
    return found if len(found) <= CUSTOM_ID_MAX else None


def read_id(data: str) -> tuple[str, dict[str, str]] | None:
    """The command a button's id carries, None if it carries none this bot offers."""
    try:
        path, options = json.loads(data)
    except (ValueError, TypeError):
        return None
    # the ids come from Discord: only the commands a rule set offers are ever run from one
    if not isinstance(path, str) or path not in rulesets().offered or not isinstance(options, Mapping):
        return None
    return path, {str(k): str(v) for k, v in options.items()}


class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(PREFIX) + r"(?P<data>.+)"
):
    def __init__(self, data: str, label: str = "▶") -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary, custom_id=PREFIX + data)
        )
        self.data = data

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OfferButton:
        return cls(match["data"])

    async def callback(self, interaction: discord.Interaction) -> None:
        frontend = getattr(interaction.client, "frontend", None)
        if frontend is not None:
            await frontend.offer(interaction, self.data)


def offer_view(offers: tuple[Offer, ...], lang: str) -> discord.ui.View | None:
    """The buttons of ``offers`` (those whose command fits a button), None if none does."""
    view = discord.ui.View(timeout=None)
    for offer in offers:
        cid = custom_id(offer)
        if cid is not None:
            view.add_item(OfferButton(cid.removeprefix(PREFIX), sentence(offer.key, lang, offer.values)))
    return view if view.children else None


class UsedOffers:
    """The messages whose offer was applied (the first press wins)."""

    def __init__(self, kept: int = USED_KEPT) -> None:
        self._used: OrderedDict[int, None] = OrderedDict()
        self._kept = kept

    def take(self, message_id: int) -> bool:
        """True the first time ``message_id`` is taken."""
        if message_id in self._used:
            return False
        self._used[message_id] = None
        while len(self._used) > self._kept:
            self._used.popitem(last=False)
        return True

    def give_back(self, message_id: int) -> None:
        """A press that was refused does not use the offer up."""
        self._used.pop(message_id, None)


def used_text(lang: str) -> str:
    return t("palette.offer_used", lang)
