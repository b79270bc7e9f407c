"""The 千幻抄 battle (``/sg``) in Discord: the console's status text in an embed, character names completed.

It reads the export document (``toride.sengensho/1``: ``characters`` with ``name``); the status is the
console's (``bot.render.sengensho_text``), with user text escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, Option, OptType
from bot.discord.presenters import Presenter, generic_status, register

#: options that name a character already in the battle (``/sg join name`` names a new one)
_CHARACTER_OPTIONS = frozenset({"name", "attacker", "target", "against", "holder", "take_from"})


def completion(spec: CommandSpec, opt: Option) -> str | None:
    if spec.ruleset != "sengensho" or opt.type is not OptType.STR or opt.name not in _CHARACTER_OPTIONS:
        return None
    if spec.path == "sg join":
        return None
    return "character"


def candidates(doc: Mapping[str, Any], kind: str, spec: CommandSpec, typed: Mapping[str, Any]) -> list[str]:
    if kind != "character":
        return []
    return [str(c["name"]) for c in doc.get("characters", []) if c.get("name")]


register(
    Presenter(
        ruleset="sengensho",
        status=generic_status,
        completion=completion,
        candidates=candidates,
        next_path="sg turn",
    )
)
