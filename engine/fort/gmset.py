"""``/gm set target: value:``: the GM overrides any value, within the invariants of the state.

Targets: ``fort.hp``, ``fort.max_hp``, ``fort.repaired_round``, ``round``, ``rounds``, ``turn``, ``first``,
``title``, ``outcome``, ``confused_round``, ``cannons`` (how many), ``cannon.<n>.shells``,
``ballista.loaded``, ``ballista.magic_bolt_used``, ``ballista.bolt``, ``trap.<kind>.<edge>.uses``,
``unit.<name>.<hp|max_hp|area|position|fort_damage|strike|defense|move|type|weakness|arrive_round|arrived|
destroyed|acted|moved_m|halted>``, ``pc.<name>.<position|area|hp|max_hp|move|moved_m|owner>``, a value of a
PC's sheet ``pc.<name>.<mp|max_mp|evasion|defense|vit_resist|mnd_resist|initiative|monster_lore|level|命中1|
weapon1_rate|器用度 ...>``, ``commander.<name>.<hp|max_hp|area|horn>``.
Every ruling of the engine can be overridden here (the GM can always undo a result).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from engine.common import Unfit, fold, parse_bool
from engine.fort.commands import GMSet
from engine.fort.context import Context, parse_damage_expression
from engine.fort.lookup import (
    MAIN_ACTIONS,
    find_commander,
    find_pc,
    find_unit,
    set_commander,
    set_pc,
    set_unit,
)
from engine.fort.map import Area, Position, edge_text, parse_area, parse_edge, parse_position
from engine.fort.rules_characters import check_confusion
from engine.fort.rules_equipment import parse_trap_kind
from engine.fort.rules_fort import finish
from engine.fort.rules_roster import parse_unit_type
from engine.fort.rules_sheets import set_sheet_value
from engine.fort.rules_turn import MAX_CANNONS, MAX_ROUNDS, parse_side
from engine.fort.state import MAX_SHELLS, BattleOutcome, FortState, Turn, Unit, UnitType, evolve
from engine.fort.weakness import clean_weakness
from engine.ruleset import RuleError

_NONE = ("none", "null", "-", "")
#: F-UNIT-14: what ``unit.<name>.acted`` = true records as the unit's main action
GM_ACTED = MAIN_ACTIONS[-1]


def _int(text: str, minimum: int | None = None, maximum: int | None = None) -> int:
    try:
        value = int(unicodedata.normalize("NFKC", text).strip())
    except ValueError:
        raise Unfit("not_an_integer") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise Unfit("out_of_range", min=minimum, max=maximum)
    return value


def _opt_int(text: str, minimum: int | None = None) -> int | None:
    return None if fold(text) in _NONE else _int(text, minimum)


def _bool(text: str) -> bool:
    value = parse_bool(text)
    if value is None:
        raise Unfit("not_a_boolean")
    return value


def _opt_text(text: str) -> str | None:
    return None if fold(text) in _NONE else unicodedata.normalize("NFKC", text).strip()


def _plain(v: Any) -> Any:
    return v.value if hasattr(v, "value") else v


def gm_set(ctx: Context, state: FortState, cmd: GMSet) -> FortState:
    """Applies one override; ``fort.gm_set_invalid`` (with a reason) if the value does not fit."""
    target = unicodedata.normalize("NFKC", cmd.target).strip()
    typed = cmd.typed or cmd.target
    try:
        before, after, new = _apply(state, target, cmd.value)
    except Unfit as bad:
        raise RuleError(
            "fort.gm_set_invalid", target=typed, value=cmd.value, reason=bad.reason, detail=bad.detail
        ) from None
    except RuleError as error:
        if error.key == "fort.gm_set_target_unknown":
            raise RuleError(error.key, target=typed) from None
        if error.key.endswith("_unknown"):
            raise
        raise RuleError(
            "fort.gm_set_invalid", target=typed, value=cmd.value, reason=error.key, detail=dict(error.values)
        ) from None
    data = {"target": target, "before": _plain(before), "after": _plain(after)}
    if new.fort_hp != state.fort_hp and fold(target) != "fort.hp":
        # the fort's HP moved with another value (``fort.max_hp`` below it): the summary adds it up
        data |= {"fort_hp_before": state.fort_hp, "fort_hp_after": new.fort_hp}
    ctx.emit("battle.gm_set", data)
    said_destroyed(ctx, state, new)
    new = check_confusion(ctx, state, new)
    if new.fort_hp <= 0 and not new.ended:
        new = finish(ctx, new, BattleOutcome.COLLAPSE, "collapse")
    return new


def said_destroyed(ctx: Context, before: FortState, after: FortState) -> None:
    """F-UNIT-6: a unit an override destroys (its HP set to 0, ``destroyed``) or brings back is said, as
    ``/unit hp`` says it."""
    for old, new in zip(before.units, after.units, strict=True):
        if old.destroyed != new.destroyed:
            kind = "unit.destroyed" if new.destroyed else "unit.revived"
            ctx.emit(kind, {"unit": new.name, "area": new.area.value})


def _apply(state: FortState, target: str, value: str) -> tuple[Any, Any, FortState]:
    head, _, rest = target.partition(".")
    head = fold(head)
    if head == "unit" and "." in rest:
        name, _, attr = rest.rpartition(".")
        return _unit(state, find_unit(state, name), fold(attr), value)
    if head == "pc" and "." in rest:
        name, _, attr = rest.rpartition(".")
        return _pc(state, find_pc(state, name), fold(attr), value)
    if head == "commander" and "." in rest:
        name, _, attr = rest.rpartition(".")
        return _commander(state, find_commander(state, name), fold(attr), value)
    if head == "trap" and rest.count(".") == 2:
        kind_text, edge_text_, attr = rest.split(".")
        if fold(attr) != "uses":
            raise RuleError("fort.gm_set_target_unknown", target=target)
        kind, edge = parse_trap_kind(kind_text), parse_edge(edge_text_)
        for i, t in enumerate(state.traps):
            if t.kind is kind and t.edge == edge:
                traps = (*state.traps[:i], evolve(t, uses=_int(value, 0)), *state.traps[i + 1 :])
                return t.uses, traps[i].uses, evolve(state, traps=traps)
        raise RuleError("fort.trap_unknown", kind=kind.value, edge=edge_text(edge))
    if head == "cannon" and rest.count(".") == 1:
        number, attr = rest.split(".")
        n = _int(number) - 1
        if fold(attr) != "shells" or not 0 <= n < len(state.cannons):
            raise RuleError("fort.cannon_unknown", cannon=number, cannons=len(state.cannons))
        shells = _int(value, 0, MAX_SHELLS)
        return (
            state.cannons[n],
            shells,
            evolve(state, cannons=(*state.cannons[:n], shells, *state.cannons[n + 1 :])),
        )
    setter = _TOP.get(fold(target))
    if setter is None:
        raise RuleError("fort.gm_set_target_unknown", target=target)
    return setter(state, value)


def _fort_max(s: FortState, v: str) -> tuple[Any, Any, FortState]:
    m = _int(v, 1)
    return s.fort_max_hp, m, evolve(s, fort_max_hp=m, fort_hp=min(s.fort_hp, m))


def _cannons(s: FortState, v: str) -> tuple[Any, Any, FortState]:
    n = _int(v, 0, MAX_CANNONS)
    return len(s.cannons), n, evolve(s, cannons=(s.cannons + (0,) * n)[:n])


def _outcome(s: FortState, v: str) -> tuple[Any, Any, FortState]:
    o = (
        None
        if fold(v) in _NONE
        else BattleOutcome(fold(v))
        if fold(v) in ("success", "collapse", "retreat")
        else None
    )
    if o is None and fold(v) not in _NONE:
        raise Unfit("not_one_of", allowed=["success", "collapse", "retreat", "none"], allowed_kind="outcome")
    return s.outcome, o, evolve(s, outcome=o)


def _turn(s: FortState, v: str) -> tuple[Any, Any, FortState]:
    if fold(v) not in ("pc", "enemy", "ended"):
        raise Unfit("not_one_of", allowed=["pc", "enemy", "ended"], allowed_kind="turn")
    return s.turn, Turn(fold(v)), evolve(s, turn=Turn(fold(v)))


_TOP: dict[str, Callable[[FortState, str], tuple[Any, Any, FortState]]] = {
    "fort.hp": lambda s, v: (
        s.fort_hp,
        _int(v, None, s.fort_max_hp),
        evolve(s, fort_hp=_int(v, None, s.fort_max_hp)),
    ),
    "fort.max_hp": _fort_max,
    "fort.repaired_round": lambda s, v: (
        s.repaired_round,
        _opt_int(v, 1),
        evolve(s, repaired_round=_opt_int(v, 1)),
    ),
    "round": lambda s, v: (s.round, _int(v, 1, s.rounds), evolve(s, round=_int(v, 1, s.rounds))),
    "rounds": lambda s, v: (
        s.rounds,
        _int(v, s.round, MAX_ROUNDS),
        evolve(s, rounds=_int(v, s.round, MAX_ROUNDS)),
    ),
    "turn": _turn,
    "first": lambda s, v: (s.first, parse_side(v), evolve(s, first=parse_side(v))),
    "title": lambda s, v: (s.title, v, evolve(s, title=v)),
    "outcome": _outcome,
    "confused_round": lambda s, v: (
        s.confused_round,
        _opt_int(v, 1),
        evolve(s, confused_round=_opt_int(v, 1)),
    ),
    "cannons": _cannons,
    "ballista.loaded": lambda s, v: (
        s.ballista.loaded,
        _bool(v),
        evolve(s, ballista=evolve(s.ballista, loaded=_bool(v))),
    ),
    "ballista.magic_bolt_used": lambda s, v: (
        s.ballista.magic_bolt_used,
        _bool(v),
        evolve(s, ballista=evolve(s.ballista, magic_bolt_used=_bool(v))),
    ),
    "ballista.bolt": lambda s, v: (
        s.ballista.bolt,
        _opt_text(v),
        evolve(s, ballista=evolve(s.ballista, bolt=_opt_text(v))),
    ),
}


def _soldier_position(unit: Unit, area: Area, position: Position | None) -> Position | None:
    """F-MAP-4: a soldier at F0 keeps its position (outside when it comes in); nobody else has one."""
    if unit.type is not UnitType.SOLDIER or area is not Area.F0:
        return None
    return position or Position.OUTSIDE


def _unit(state: FortState, i: int, attr: str, value: str) -> tuple[Any, Any, FortState]:
    u = state.units[i]
    if attr == "hp":  # F-UNIT-6: HP 0 destroys the unit, above 0 it is up again
        hp = _int(value, 0, u.max_hp)
        new = evolve(u, hp=hp, destroyed=hp <= 0)
    elif attr == "max_hp":
        m = _int(value, 1)
        new = evolve(u, max_hp=m, hp=min(u.hp, m))
    elif attr == "area":
        area = parse_area(value)
        position = _soldier_position(u, area, u.position if u.area is area else None)
        new = evolve(u, area=area, position=position, held_edge=None, held_to=None)
    elif attr == "position":
        if u.type is not UnitType.SOLDIER or u.area is not Area.F0:
            raise Unfit("position_only_soldier_at_f0")
        new = evolve(u, position=parse_position(value))
    elif attr in ("fort_damage", "defense", "move"):
        fields: dict[str, Any] = {attr: _int(value, 0)}
        new = evolve(u, **fields)
    elif attr == "moved_m":
        new = evolve(u, moved_m=_int(value, 0), halted=None)
    elif attr == "strike":
        text = _opt_text(value)
        new = evolve(u, strike=parse_damage_expression(text).command if text else None)
    elif attr == "weakness":
        text = _opt_text(value)
        new = evolve(u, weakness=clean_weakness(text) if text else None)
    elif attr == "type":
        utype = parse_unit_type(value)
        new = evolve(u, type=utype)
        new = evolve(new, position=_soldier_position(new, u.area, u.position or Position.TOP))
    elif attr == "arrive_round":
        new = evolve(u, arrive_round=_opt_int(value, 1))
    elif attr in ("arrived", "destroyed"):
        flags: dict[str, Any] = {attr: _bool(value)}
        new = evolve(u, **flags)
    elif attr == "acted":  # F-UNIT-14: false lets the unit take another main action this turn
        new = evolve(u, acted=GM_ACTED if _bool(value) else None)
        return u.acted is not None, new.acted is not None, set_unit(state, i, new)
    elif attr == "halted":  # F-UNIT-2, F-TRAP-3: false lets a stopped unit move on this turn
        if _bool(value):
            raise Unfit("only_false")
        new = evolve(u, halted=None)
    else:
        raise RuleError("fort.gm_set_target_unknown", target=f"unit.{u.name}.{attr}")
    if new.type is UnitType.RAM and new.strike is None:
        raise Unfit("ram_needs_strike")
    return getattr(u, attr), getattr(new, attr), set_unit(state, i, new)


def _pc(state: FortState, i: int, attr: str, value: str) -> tuple[Any, Any, FortState]:
    p = state.pcs[i]
    if attr == "position":
        if p.area is not Area.F0:
            raise Unfit("position_only_at_f0")
        new = evolve(p, position=parse_position(value))
    elif attr == "area":
        area = parse_area(value)
        position = (p.position or parse_position("outside")) if area is Area.F0 else None
        new = evolve(p, area=area, position=position)
    elif attr in ("hp", "max_hp", "move"):
        numbers: dict[str, Any] = {attr: _opt_int(value, 0 if attr != "hp" else None)}
        new = evolve(p, **numbers)
        if new.hp is not None and new.max_hp is not None and new.hp > new.max_hp:
            raise Unfit("above_max")
    elif attr == "moved_m":
        new = evolve(p, moved_m=_int(value, 0))
    elif attr == "owner":
        new = evolve(p, owner=_opt_text(value))
    else:  # a value of its sheet (mp, evasion, 命中1, 器用度 ...)
        try:
            before, after, new = set_sheet_value(p, attr, value)
        except ValueError as bad:
            raise Unfit(str(bad)) from None
        return before, after, set_pc(state, i, new)
    return getattr(p, attr), getattr(new, attr), set_pc(state, i, new)


def _commander(state: FortState, i: int, attr: str, value: str) -> tuple[Any, Any, FortState]:
    c = state.commanders[i]
    if attr == "hp":  # F-UNIT-12: HP 0 is a commander down (the last one down: confusion)
        new = evolve(c, hp=_int(value, 0, c.max_hp))
    elif attr == "max_hp":
        m = _int(value, 1)
        new = evolve(c, max_hp=m, hp=min(c.hp, m))
    elif attr == "area":
        new = evolve(c, area=parse_area(value))
    elif attr == "horn":
        new = evolve(c, horn=_opt_text(value))
    else:
        raise RuleError("fort.gm_set_target_unknown", target=f"commander.{c.name}.{attr}")
    return getattr(c, attr), getattr(new, attr), set_commander(state, i, new)
