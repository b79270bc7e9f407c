"""Finding PCs, units and commanders by name (NFKC + casefold), and who acts (``by:``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import common
from engine.common import fold, kana_fold
from engine.fort.map import Area, Position
from engine.fort.state import PC, Commander, FortState, Unit, UnitType, evolve
from engine.ruleset import RuleError


def name_key(name: str) -> str:
    return fold(name)


def clean_name(name: str) -> tuple[str, str]:
    """A new name as stored (NFKC, trimmed) and its key; ``fort.name_invalid`` if empty or too long."""
    return common.clean_name(name, "fort")


def ensure_name_free(state: FortState, key: str, name: str) -> None:
    """Names are unique over PCs, units and commanders together."""
    if (
        any(p.key == key for p in state.pcs)
        or any(u.key == key for u in state.units)
        or any(c.key == key for c in state.commanders)
    ):
        raise RuleError("fort.name_taken", name=name)


def find_unit(state: FortState, name: str) -> int:
    key = name_key(name)
    for i, u in enumerate(state.units):
        if u.key == key:
            return i
    typed = kana_fold(name)
    near = tuple(
        u.name for u in state.units if typed and (typed in kana_fold(u.name) or kana_fold(u.name) in typed)
    )
    if near:  # ``ゴブリン`` or ``ごぶりん隊`` for ``ゴブリン隊``: said, never taken for it
        raise RuleError("fort.unit_unknown_near", name=name, near=near[:5])
    raise RuleError("fort.unit_unknown", name=name)


def unit_on_map(state: FortState, name: str) -> int:
    """The index of a unit that can act or be targeted: arrived and not destroyed."""
    i = find_unit(state, name)
    u = state.units[i]
    if u.destroyed:
        raise RuleError("fort.unit_destroyed", name=u.name)
    if not u.arrived:
        raise RuleError("fort.unit_not_arrived", name=u.name, arrive_round=u.arrive_round)
    return i


def find_pc(state: FortState, name: str) -> int:
    key = name_key(name)
    for i, p in enumerate(state.pcs):
        if p.key == key:
            return i
    raise RuleError("fort.pc_unknown", name=name)


def find_commander(state: FortState, name: str) -> int:
    key = name_key(name)
    for i, c in enumerate(state.commanders):
        if c.key == key:
            return i
    raise RuleError("fort.commander_unknown", name=name)


def set_unit(state: FortState, i: int, unit: Unit) -> FortState:
    return evolve(state, units=(*state.units[:i], unit, *state.units[i + 1 :]))


def set_pc(state: FortState, i: int, pc: PC) -> FortState:
    return evolve(state, pcs=(*state.pcs[:i], pc, *state.pcs[i + 1 :]))


def set_commander(state: FortState, i: int, commander: Commander) -> FortState:
    return evolve(state, commanders=(*state.commanders[:i], commander, *state.commanders[i + 1 :]))


#: the owner of the GM's own PCs and NPCs: only a GM acts for them
GM_OWNER = "GM"


def owned_by(owner: str | None, invoker: str | None, names: Iterable[str] = ()) -> bool:
    """Is the user ``invoker`` the player of a PC whose owner is ``owner``?

    An owner is a user's id as its front-end gives it (Discord's user id, digits), or a player's name
    (``はなこ`` or ``@はなこ``: the console's user is its name, and the prep page and a file may name a
    Discord player so), which is the user whose id or one of whose ``names`` (Discord: username, display
    name, server nickname) it is, compared as PC names are; or ``GM`` (``GM_OWNER``): no player's, only
    a GM acts for it. None: no one's yet (``/pc claim`` takes it). An id is never a name: digits match
    the user of that id only, not one who calls themselves so."""
    if owner is None or invoker is None or owner == GM_OWNER:
        return False
    if owner == invoker:
        return True
    if owner.isascii() and owner.isdigit():
        return False
    wanted = fold(owner.removeprefix("@"))
    return bool(wanted) and any(fold(name) == wanted for name in (invoker, *names))


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a PC (``pc`` is its index) or a soldier unit (``unit`` is its index)."""

    name: str
    pc: int | None = None
    unit: int | None = None


def resolve_actor(state: FortState, by: str | None, invoker: str | None) -> Actor:
    """``by:`` names a PC or a soldier unit; left out, the one PC the invoking user owns (``owned_by``)."""
    if by is None:
        owned = [i for i, p in enumerate(state.pcs) if owned_by(p.owner, invoker)]
        if not owned:
            raise RuleError("fort.actor_required", invoker=invoker)
        if len(owned) > 1:
            raise RuleError("fort.actor_ambiguous", pcs=[state.pcs[i].name for i in owned])
        return Actor(state.pcs[owned[0]].name, pc=owned[0])
    key = name_key(by)
    for i, p in enumerate(state.pcs):
        if p.key == key:
            return Actor(p.name, pc=i)
    for i, u in enumerate(state.units):
        if u.key == key:
            if u.type is not UnitType.SOLDIER:
                raise RuleError("fort.actor_not_allowed", name=u.name)
            if not u.on_map:
                raise RuleError(
                    "fort.unit_destroyed" if u.destroyed else "fort.unit_not_arrived", name=u.name
                )
            return Actor(u.name, unit=i)
    raise RuleError("fort.actor_unknown", name=by)


def require_pc_actor(state: FortState, actor: Actor) -> PC:
    """Attacks on units are made by PCs; a soldier unit fights with ▶ユニット攻撃 (/unit attack)."""
    if actor.pc is None:
        raise RuleError("fort.actor_not_pc", name=actor.name)
    pc = state.pcs[actor.pc]
    if pc.area is Area.F0 and pc.position is Position.INSIDE:
        raise RuleError("fort.actor_inside", name=pc.name)
    return pc


def require_equipment(state: FortState, actor: Actor) -> None:
    """F-FORT-3, F-UNIT-13, F-MAP-4: defence equipment is used from the fort top, by a PC at the top or
    a soldier unit at F0 at the top; F-UNIT-14: it is the soldier's main action of the turn."""
    if actor.pc is not None:
        pc = state.pcs[actor.pc]
        if pc.area is not Area.F0 or pc.position is not Position.TOP:
            raise RuleError(
                "fort.equipment_not_at_top",
                name=pc.name,
                area=pc.area.value,
                position=pc.position.value if pc.position else None,
            )
        return
    assert actor.unit is not None
    unit = state.units[actor.unit]
    if unit.area is not Area.F0:
        raise RuleError("fort.equipment_soldier_not_at_f0", name=unit.name, area=unit.area.value)
    if unit.position is not Position.TOP:
        raise RuleError(
            "fort.equipment_soldier_not_at_top",
            name=unit.name,
            position=unit.position.value if unit.position else None,
        )
    require_main_action(unit)


#: F-UNIT-14: a unit's main actions (``gm``: marked by ``/gm set unit.<name>.acted value:true``)
MAIN_ACTIONS = (
    "unit_attack",
    "barrage",
    "repair",
    "cannon_load",
    "cannon_fire",
    "ballista_load",
    "ballista_fire",
    "gm",
)


def require_main_action(unit: Unit) -> None:
    """F-UNIT-14: a unit has one main action in its side's turn; a second is refused, naming the first."""
    if unit.acted is not None:
        raise RuleError("fort.unit_already_acted", name=unit.name, action=unit.acted)


def take_main_action(state: FortState, i: int, action: str) -> FortState:
    """F-UNIT-14: the unit's main action of this turn is ``action`` (renewed when its side's turn starts)."""
    return set_unit(state, i, evolve(state.units[i], acted=action))


def soldier_acted(state: FortState, actor: Actor, action: str) -> FortState:
    """F-UNIT-13, F-UNIT-14: a soldier's equipment action is its main action (nothing for a PC)."""
    if actor.unit is None:
        return state
    return take_main_action(state, actor.unit, action)
