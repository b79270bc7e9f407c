"""What of this battle the planner does not play (``not_played``): each thing named for the battle it
is in, never a generic line. The answer's text (``odds.not_played.<what>``) and its JSON both say it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.fort.map import Area
from engine.fort.planner.request import Focus, PlanRequest
from engine.fort.state import FortState, Side


@dataclass(frozen=True, slots=True)
class Omission:
    """One thing left out: ``what`` it is (``horn``, ``pc_hp`` ...), the ``names`` it concerns (PCs,
    units, commanders) and the ``text`` the battle holds for it (a war-horn's, a bolt's)."""

    what: str
    names: tuple[str, ...] = ()
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"what": self.what}
        if self.names:
            out["names"] = list(self.names)
        if self.text is not None:
            out["text"] = self.text
        return out


def not_played(state: FortState, request: PlanRequest) -> tuple[Omission, ...]:
    """What of ``state`` the planner leaves out, asked as ``request``, in a fixed order."""
    out: list[Omission] = []
    for commander in state.commanders:  # F-UNIT-12: its war-horn is a text, no number the planner has
        if commander.horn:
            out.append(Omission("horn", (commander.name,), commander.horn))
    if state.commanders:
        out.append(Omission("commander_actions", tuple(c.name for c in state.commanders)))
    standing = tuple(c.name for c in state.commanders if c.hp > 0)
    if standing and (request.focus is Focus.THREATS or not request.attacks):
        out.append(Omission("commanders_not_attacked", standing))
    if state.pcs:
        names = tuple(p.name for p in state.pcs)
        out.append(Omission("pc_hp", names))
        out.append(Omission("pc_actions", names))
    away = tuple(u.name for u in state.units if u.side is Side.PC and u.on_map and u.area is not Area.F0)
    if away:
        out.append(Omission("soldiers_away", away))
    if not request.equipment:
        out.append(Omission("equipment"))
        return tuple(out)
    out.append(Omission("ballista_shot"))
    if state.ballista.loaded and state.ballista.bolt:
        out.append(Omission("bolt", text=state.ballista.bolt))
    elif not state.ballista.magic_bolt_used:
        out.append(Omission("magic_bolt"))
    return tuple(out)
