"""The end of a fast run as the export document writes a battle: what the differential tests compare
with the engine's own end state (``export_state``), field by field."""

from __future__ import annotations

from typing import Any

from engine.fort.export import export_state
from engine.fort.map import AREAS, EDGES, edge_text
from engine.fort.planner.fast_compiled import CompiledBattle
from engine.fort.state import BattleOutcome


def end_document(battle: CompiledBattle) -> dict[str, Any]:
    """The battle's document after ``battle``'s last run: fort, round, outcome, units, traps, cannons."""
    document = export_state(battle.state)
    outcome = BattleOutcome.SUCCESS if battle.held else BattleOutcome.COLLAPSE
    document.update(
        round=battle.round,
        turn="ended",
        outcome=outcome.value,
        fort={**document["fort"], "hp": battle.fort, "repaired_round": battle.repaired},
        confused_round=battle.confused,
        begun=True,  # F-TURN-3: a run takes an action or ends a turn, so round 1 has begun
        cannons=[{"shells": s} for s in battle.cannons],
        commanders=[
            {**c, "hp": hp} for c, hp in zip(document["commanders"], battle.commander_hp, strict=True)
        ],
        ballista={
            "loaded": battle.ballista.loaded,
            "magic_bolt_used": battle.ballista.magic_bolt_used,
            "bolt": battle.ballista.bolt,
        },
        traps=[{**t, "uses": u} for t, u in zip(document["traps"], battle.uses, strict=True)],
    )
    if battle.pcs_renewed:
        document["pcs"] = [{**p, "moved_m": 0} for p in document["pcs"]]
    units = []
    for i, unit in enumerate(document["units"]):
        held_edge, held_to = battle.held_edge[i], battle.held_to[i]
        units.append(
            {
                **unit,
                "hp": battle.hp[i],
                "area": AREAS[battle.area[i]].value,
                "destroyed": battle.gone[i],
                "arrived": battle.arrived[i],
                "moved_m": battle.moved[i],
                "halted": battle.halted[i],
                "acted": battle.acted[i],
                "held_edge": edge_text(EDGES[held_edge]) if held_edge is not None else None,
                "held_to": AREAS[held_to].value if held_to is not None else None,
            }
        )
    document["units"] = units
    return document
