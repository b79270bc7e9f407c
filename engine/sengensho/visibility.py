"""S-HIDE-1: a battle's document as a reader who is not the GM may read it.

What is hidden — who, where, the stealth value — is for the GM and the hidden character's owner: the
table's document leaves out every hidden character (an owner's keeps their own), and every mention
of one elsewhere (who searched, whom a roll answered, who holds an item, who surprised whom).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _without(c: Mapping[str, Any], gone: set[str]) -> dict[str, Any]:
    out = dict(c)
    out["searched_by"] = [n for n in c.get("searched_by") or [] if n not in gone]
    last = c.get("last_roll")
    if isinstance(last, Mapping):
        out["last_roll"] = {
            k: (None if k in ("against", "aim") and v in gone else v) for k, v in last.items()
        }
    surprise = c.get("surprise")
    if isinstance(surprise, Mapping) and surprise.get("attacker") in gone:
        out["surprise"] = {**surprise, "attacker": None}
    if c.get("held_by") in gone:
        out["held_by"] = None
    return out


def visible(document: Mapping[str, Any], user: str | None) -> dict[str, Any]:
    """The document for ``user`` (None: the whole table): hidden characters not theirs left out."""
    characters = document.get("characters") or []
    gone = {
        c.get("name")
        for c in characters
        if c.get("hidden") is not None and (user is None or c.get("owner") != user)
    }
    if not gone:
        return dict(document)
    return {
        **document,
        "characters": [_without(c, gone) for c in characters if c.get("name") not in gone],
    }
