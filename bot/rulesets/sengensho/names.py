"""Which of a 千幻抄 battle's names an option takes (a character, a spell card), and those names in its
document (``toride.sengensho/1``, as its reader may see it): for Discord's autocomplete and the
console's Tab."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, Option, OptType
from bot.rulesets.sengensho.commands import CHARACTER_OPTIONS


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


#: options that name a spell card: one to use (the character's), one to take over (the giver's)
_CARD_OWNER = {"use": "name", "card": "take_from"}


def completion(spec: CommandSpec, opt: Option) -> str | None:
    if spec.ruleset != "sengensho" or opt.type is not OptType.STR or spec.path == "sg join":
        return None
    if spec.path == "sg spellcard" and opt.name in _CARD_OWNER:
        return "card." + _CARD_OWNER[opt.name]
    # an option that names a character already in the battle (``/sg join name`` names a new one)
    return "character" if opt.name in CHARACTER_OPTIONS else None


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
