"""Battles for the picture tests: made with the fort engine, then exported (the document the map reads)."""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from engine.fort import FORT, AddCommander, AddPC, AddUnit, FortCommand, SetTrap, StartBattle

EDGES = ("A2-A1", "A1-F0", "F0-B1", "B1-B2", "A1-B1", "A2-B2")
OUTER = ("A2", "A1", "B1", "B2")
TYPES = ("normal", "ram", "flying", "normal", "soldier")
POSITIONS = ("top", "inside", "outside")
#: COMMANDS.md, Conventions: at most 200 units, 20 commanders, 20 PCs, 40 traps, 10 cannons
LIMITS = {"units": 200, "commanders": 20, "pcs": 20, "traps": 40, "cannons": 10}


def battle(
    units: int = 0, commanders: int = 0, pcs: int = 0, traps: int = 0, cannons: int = 2, title: str = "北の砦"
) -> dict[str, Any]:
    """A battle with that many of each, spread over the areas, positions and edges; some units are
    reinforcements still to come (every seventh), some destroyed (every eleventh)."""
    commands: list[FortCommand] = [StartBattle(rounds=5, cannons=cannons, title=title)]
    commands += [
        AddPC(name=f"冒険者{i}", position=POSITIONS[i % 3], hp=30 + i if i % 4 else None, invoker=f"u{i}")
        for i in range(pcs)
    ]
    for i in range(units):
        kind = TYPES[i % len(TYPES)]
        area = "F0" if kind == "soldier" else OUTER[i % 4]
        arrive = 3 if i % 7 == 6 and kind != "soldier" else None
        commands.append(
            AddUnit(
                name=f"ゴブリン隊{i:03d}",
                type=kind,
                area=area,
                hp=40,
                fort_damage=5,
                strike="2d+6",
                arrive_round=arrive,
            )
        )
    commands += [AddCommander(name=f"隊長{i}", hp=60, area=OUTER[i % 4]) for i in range(commanders)]
    commands += [
        SetTrap(kind=("mine", "barricade")[i % 2], edge=EDGES[i % 6], uses=1 + i % 3) for i in range(traps)
    ]
    state = None
    for command in commands:
        state = FORT.apply(state, command, ScriptedDice([])).state
    assert state is not None
    doc = FORT.export(state)
    for i, unit in enumerate(doc["units"]):
        unit["hp"] = 40 - i % 40
        if i % 11 == 10:
            unit["hp"], unit["destroyed"] = 0, True
        if unit["type"] == "soldier" and i % 3:  # issue 11's field (F-MAP-4); a third without it: top
            unit["position"] = POSITIONS[i % 3]
    return doc


def limits_battle() -> dict[str, Any]:
    return battle(**LIMITS)
