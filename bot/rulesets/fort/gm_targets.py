"""The fort's ``/gm set`` targets (``engine.fort.gmset``) for ``bot.gm_targets``: their words are
``fort.gm_target.*`` (``gm_targets.toml``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.gm_targets import GMTargets, Owner

#: a unit's attributes (``unit.<name>.<attr>``), those autocomplete offers first
UNIT = (
    "hp", "area", "acted", "moved_m", "weakness", "position", "halted", "max_hp", "fort_damage", "strike",
    "defense", "move", "type", "arrive_round", "arrived", "destroyed",
)  # fmt: skip
#: a PC's (``pc.<name>.<attr>``): its place and HP, then the totals of its sheet (any other value of the
#: sheet, ``命中1``, ``器用度``, is taken as its sheet names it)
PC = (
    "position", "area", "hp", "moved_m", "mp", "evasion", "defense", "max_hp", "move", "owner", "max_mp",
    "vit_resist", "mnd_resist", "initiative", "monster_lore", "level",
)  # fmt: skip
COMMANDER = ("hp", "area", "horn", "max_hp")


def _list(key: str) -> Any:
    return lambda doc: [e for e in doc.get(key, []) if isinstance(e, Mapping)]


def _unit_offered(unit: Mapping[str, Any]) -> Sequence[str]:
    """F-MAP-4: only a soldier has a position."""
    return UNIT[:6] if unit.get("type") == "soldier" else UNIT[:5]


def _pc_offered(pc: Mapping[str, Any]) -> Sequence[str]:
    return PC[:7] if pc.get("sheet") else PC[:4]


def _fills(doc: Mapping[str, Any]) -> dict[str, list[str]]:
    traps = [t for t in doc.get("traps", []) if isinstance(t, Mapping)]
    return {
        "cannon": [str(n) for n in range(1, len(doc.get("cannons", [])) + 1)],
        **{kind: [str(t["edge"]) for t in traps if t.get("kind") == kind] for kind in ("mine", "barricade")},
    }


#: the battle's own targets, in the order autocomplete offers them
WHOLE = (
    "fort.hp", "fort.max_hp", "round", "rounds", "turn", "first", "title", "outcome", "cannons",
    "cannon.{cannon}.shells", "trap.mine.{mine}.uses", "trap.barricade.{barricade}.uses",
    "ballista.loaded", "ballista.bolt", "ballista.magic_bolt_used", "fort.repaired_round", "confused_round",
)  # fmt: skip

TARGETS = GMTargets(
    key="fort.gm_target.",
    whole=WHOLE,
    owners=(
        Owner("unit", "unit.", UNIT, _list("units"), _unit_offered),
        Owner("pc", "pc.", PC, _list("pcs"), _pc_offered, free=True),
        Owner("commander", "commander.", COMMANDER, _list("commanders"), lambda c: COMMANDER[:3]),
    ),
    fills=_fills,
)
