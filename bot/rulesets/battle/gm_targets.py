"""The ordinary battle's ``/gm set`` targets (``engine.battle.gmset``) for ``bot.gm_targets``: their
words are ``bt.gm_target.*`` (``gm_targets.toml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.gm_targets import GMTargets, Owner
from engine.battle.gmset import MONSTER_FIELDS, PART_FIELDS, PC_FIELDS

#: a monster's own values beside its table's (B-KNOW-1: what the table knows of it), and a part's
MONSTER = (*MONSTER_FIELDS, "core", "knowledge", "reveal")
PART = tuple(PART_FIELDS)


def _pcs(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [p for p in doc.get("pcs", []) if isinstance(p, Mapping)]


def _monsters(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [m for m in doc.get("monsters", []) if isinstance(m, Mapping)]


def _parts(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The parts of the monsters of several, each as ``グリフォン:頭部``."""
    return [
        {"name": f"{m['name']}:{p['name']}"}
        for m in _monsters(doc)
        if len(m.get("parts") or []) > 1
        for p in m["parts"]
        if isinstance(p, Mapping) and p.get("name")
    ]


def _monster_offered(monster: Mapping[str, Any]) -> tuple[str, ...]:
    """A monster of one part: its HP too (``<monster>.hp``); of several, its parts have it."""
    return ("hp", "acted") if len(monster.get("parts") or []) <= 1 else ("acted",)


TARGETS = GMTargets(
    key="bt.gm_target.",
    whole=("round", "turn", "first", "title"),
    owners=(
        Owner("pc", "", tuple(PC_FIELDS), _pcs, lambda p: ("hp", "mp", "acted")),
        # a monster of one part takes its part's values by its own name
        Owner("monster", "", (*MONSTER, *(f for f in PART if f not in MONSTER)), _monsters, _monster_offered),
        Owner("part", "", PART, _parts, lambda p: ("hp",)),
    ),
)
