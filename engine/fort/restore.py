"""A stored battle made a state again without the import's checks (``toride.fort/1`` as
``export_state`` wrote it).

A battle loaded from the database was checked when it was written (by the import, or by the rules
that made each state), so loading it again need not check every field as if it were a user's file
(most of a load's cost). ``restore_state`` builds the state straight from the document when it has
exactly the keys ``export_state`` writes; any other document (one written before a key was added)
goes through ``import_state``, which reads every older form. A test holds the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine.common import fold
from engine.fort.export import export_state, import_state
from engine.fort.map import AREA_BY_TEXT, EDGES, POSITION_BY_TEXT, Area, Edge, Position, edge_text, parse_edge
from engine.fort.state import (
    PC,
    Ballista,
    BattleOutcome,
    Commander,
    FortState,
    Side,
    Trap,
    TrapKind,
    Turn,
    Unit,
    UnitType,
)
from engine.sheets.model import sheet_from_json

_EDGES: dict[str, Edge] = {edge_text(e): e for e in EDGES}
# the members by value, looked up directly (as ``AREA_BY_TEXT``): calling the enum costs several times
# more, twice per unit of a hundred on every load
_UNIT_TYPES: dict[str, UnitType] = {t.value: t for t in UnitType}
#: ``fold`` of the stored names seen last (a name stored was checked: at most ``NAME_MAX`` characters)
_folded = lru_cache(maxsize=4096)(fold)


def _edge(text: str) -> Edge:
    edge = _EDGES.get(text)
    return edge if edge is not None else parse_edge(text)


def _keys(state: FortState, part: str) -> frozenset[str]:
    items: Any = export_state(state)[part]
    return frozenset(items[0] if isinstance(items, list) else items)


_SAMPLE = FortState(
    "", 1, 1, Turn.PC, Side.PC, 1, 1,
    pcs=(PC("p", "p", None, Area.F0, Position.TOP),),
    units=(Unit("u", "u", UnitType.NORMAL, Area.A1, 1, 1, 0),),
    commanders=(Commander("c", "c", Area.A2, 1, 1),),
    traps=(Trap(TrapKind.MINE, EDGES[0], 1),),
)  # fmt: skip
#: the keys ``export_state`` writes: of the document, the fort, the ballista, each element
_DOC = frozenset(export_state(_SAMPLE))
_FORT, _BALLISTA = _keys(_SAMPLE, "fort"), _keys(_SAMPLE, "ballista")
_PC, _UNIT, _COMMANDER, _TRAP = (_keys(_SAMPLE, k) for k in ("pcs", "units", "commanders", "traps"))


def _written_now(doc: Mapping[str, Any]) -> bool:
    """Has ``doc`` exactly the keys ``export_state`` writes now, everywhere?"""
    return (
        doc.keys() == _DOC
        and doc["fort"].keys() == _FORT
        and doc["ballista"].keys() == _BALLISTA
        and all(p.keys() == _PC for p in doc["pcs"])
        and all(u.keys() == _UNIT for u in doc["units"])
        and all(c.keys() == _COMMANDER for c in doc["commanders"])
        and all(t.keys() == _TRAP for t in doc["traps"])
    )


def restore_state(doc: Mapping[str, Any]) -> FortState:
    """The state of a document this program stored (see the module's docstring)."""
    if not _written_now(doc):
        return import_state(doc)
    fort, ballista = doc["fort"], doc["ballista"]
    return FortState(
        title=doc["title"],
        rounds=doc["rounds"],
        round=doc["round"],
        turn=Turn(doc["turn"]),
        first=Side(doc["first"]),
        fort_hp=fort["hp"],
        fort_max_hp=fort["max_hp"],
        repaired_round=fort["repaired_round"],
        pcs=tuple(_pc(p) for p in doc["pcs"]),
        units=tuple(_unit(u) for u in doc["units"]),
        commanders=tuple(
            Commander(c["name"], _folded(c["name"]), AREA_BY_TEXT[c["area"]], c["hp"], c["max_hp"], c["horn"])
            for c in doc["commanders"]
        ),
        traps=tuple(Trap(TrapKind(t["kind"]), _edge(t["edge"]), t["uses"]) for t in doc["traps"]),
        cannons=tuple(c["shells"] for c in doc["cannons"]),
        ballista=Ballista(ballista["loaded"], ballista["magic_bolt_used"], ballista["bolt"]),
        confused_round=doc["confused_round"],
        outcome=BattleOutcome(doc["outcome"]) if doc["outcome"] else None,
        begun=doc["begun"],
    )


def _pc(p: Mapping[str, Any]) -> PC:
    sheet = p["sheet"]
    return PC(
        p["name"],
        _folded(p["name"]),
        p["owner"],
        AREA_BY_TEXT[p["area"]],
        POSITION_BY_TEXT[p["position"]] if p["position"] else None,
        p["hp"],
        p["max_hp"],
        p["move"],
        p["moved_m"],
        sheet=sheet_from_json(sheet) if sheet is not None else None,
        palette=p["palette"] or None,
    )


def _unit(u: Mapping[str, Any]) -> Unit:
    return Unit(
        u["name"],
        _folded(u["name"]),
        _UNIT_TYPES[u["type"]],
        AREA_BY_TEXT[u["area"]],
        u["hp"],
        u["max_hp"],
        u["fort_damage"],
        u["strike"],
        u["defense"],
        u["move"],
        u["arrive_round"],
        u["arrived"],
        u["destroyed"],
        POSITION_BY_TEXT[u["position"]] if u["position"] else None,
        u["weakness"] or None,
        u["moved_m"],
        u["halted"],
        u["acted"],
        _edge(u["held_edge"]) if u["held_edge"] else None,
        AREA_BY_TEXT[u["held_to"]] if u["held_to"] else None,
    )
