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
        # named by a hidden attacker before its attack (S-SUR-5): nothing of it is for the table
        out["surprise"] = None if surprise.get("spent") is False else {**surprise, "attacker": None}
    several = c.get("surprises")
    if isinstance(several, list):  # S-SUR-5: several on one target, each read as the one above
        kept = [
            s if s.get("attacker") not in gone else {**s, "attacker": None}
            for s in several
            if isinstance(s, Mapping) and not (s.get("attacker") in gone and s.get("spent") is False)
        ]
        out["surprise"] = kept[0] if kept else None
        if len(kept) > 1:
            out["surprises"] = kept
        else:
            out.pop("surprises", None)
    if c.get("found"):
        out["found"] = [n for n in c.get("found") or [] if n not in gone]
    if c.get("held_by") in gone:
        out["held_by"] = None
    return out


def _unnoticed(c: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in c.items() if k != "unnoticed"}


def _cards(characters: list[dict[str, Any]], gone: set[Any]) -> list[dict[str, Any]]:
    """S-HIDE-1, S-REIN-1: a card a hidden character took stays with its giver; one it gave is unseen."""
    moved: dict[Any, list[dict[str, Any]]] = {}
    for c in characters:
        if c.get("name") in gone:
            for card in c.get("spell_cards") or []:
                giver = card.get("taken_from")
                if giver is not None and giver not in gone:
                    moved.setdefault(giver, []).append({k: v for k, v in card.items() if k != "taken_from"})
    out = []
    for c in characters:
        if c.get("name") in gone:
            continue
        kept = [k for k in c.get("spell_cards") or [] if k.get("taken_from") not in gone]
        out.append({**c, "spell_cards": kept + moved.get(c.get("name"), [])})
    return out


def _counts(document: Mapping[str, Any], characters: list[dict[str, Any]]) -> dict[str, Any]:
    """S-CARD-1: the sides' card counts as the table sees the cards."""
    counts = dict(document.get("spell_cards") or {})
    for side in ("pc", "enemy"):
        cards = [k for c in characters if c.get("side") == side for k in c.get("spell_cards") or []]
        counts[side] = len(cards)
        counts.setdefault("unused", {})
        counts["unused"] = {**counts["unused"], side: sum(1 for k in cards if not k.get("used"))}
    return counts


def visible(document: Mapping[str, Any], user: str | None) -> dict[str, Any]:
    """The document for ``user`` (None: the whole table): hidden characters not theirs left out."""
    characters = document.get("characters") or []
    gone = {
        c.get("name")
        for c in characters
        if c.get("hidden") is not None and (user is None or c.get("owner") != user)
    }
    if not gone:  # S-SUR-6: an ability the target did not notice is the GM's alone
        if not any(c.get("unnoticed") for c in characters):
            return dict(document)
        return {**document, "characters": [_unnoticed(c) for c in characters]}
    shown = [_unnoticed(_without(c, gone)) for c in _cards(characters, gone)]
    out = {**document, "characters": shown, "spell_cards": _counts(document, shown)}
    if document.get("exchanges"):  # an attack on or by one hidden is not the table's
        fields = ("attacker", "aim", "defender")
        out["exchanges"] = [x for x in document["exchanges"] if not any(x.get(f) in gone for f in fields)]
    return out
