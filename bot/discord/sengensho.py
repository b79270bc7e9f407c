"""The 千幻抄 battle (``/sg``) in Discord: the console's status text in an embed, names completed.

It reads the export document (``toride.sengensho/1``: ``characters`` with ``name`` and
``spell_cards``) as the reader may see it; the status is the console's (``bot.render.sengensho_text``),
with user text escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, Option, OptType
from bot.discord.presenters import Presenter, fold, generic_status, register

#: options that name a character already in the battle (``/sg join name`` names a new one)
_CHARACTER_OPTIONS = frozenset({"name", "attacker", "target", "against", "at", "holder", "take_from"})
#: options that name a spell card: one to use (the character's), one to take over (the giver's)
_CARD_OWNER = {"use": "name", "card": "take_from"}


def completion(spec: CommandSpec, opt: Option) -> str | None:
    if spec.ruleset != "sengensho" or opt.type is not OptType.STR or spec.path == "sg join":
        return None
    if spec.path == "sg spellcard" and opt.name in _CARD_OWNER:
        return "card." + _CARD_OWNER[opt.name]
    return "character" if opt.name in _CHARACTER_OPTIONS else None


def candidates(doc: Mapping[str, Any], kind: str, spec: CommandSpec, typed: Mapping[str, Any]) -> list[str]:
    characters = doc.get("characters", [])
    if kind == "character":
        return [str(c["name"]) for c in characters if c.get("name")]
    if not kind.startswith("card."):
        return []
    owner = fold(str(typed.get(kind.removeprefix("card."), "") or ""))
    return [
        str(card["name"])
        for c in characters
        if owner and fold(str(c.get("name", ""))) == owner
        for card in c.get("spell_cards") or []
        if isinstance(card, Mapping) and not card.get("used")
    ]


register(
    Presenter(
        ruleset="sengensho",
        status=generic_status,
        completion=completion,
        candidates=candidates,
        next_path="sg turn",
    )
)
