"""Export and import in the format of COMMANDS.md (``toride.fort/1``), lossless both ways.

What the documented format lacks goes in extra keys: a PC's ``max_hp``, ``move``, ``moved_m`` (this
turn), ``sheet`` (what a character sheet gave it) and ``palette`` (its own chat palette); a unit's
``arrived``, ``position`` (a soldier's at F0), ``weakness``, ``moved_m``, ``halted`` and ``acted`` (this
turn, F-TURN-3), ``held_edge`` and ``held_to``; a commander's ``horn``; the ballista's ``bolt``; the
battle's ``begun`` (round 1 has begun, F-TURN-3; left out: not yet, unless a later turn is given). A
scenario file may leave out everything but ``rounds``. Exports of the earlier per-round keys (``moved_round``,
``acted_round``, ``position_round``) still import.
Import validates everything and refuses with ``fort.import_invalid`` (``reason`` says where and why).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.common import REQUIRED, ImportInvalid, JsonDoc, JsonStyle, fold
from engine.fort.context import parse_damage_expression
from engine.fort.lookup import MAIN_ACTIONS, clean_name
from engine.fort.map import Area, Position, edge_text, parse_area, parse_edge, parse_position
from engine.fort.rules_roster import POSITION_CHANGE_M
from engine.fort.rules_turn import MAX_ROUNDS
from engine.fort.state import (
    MAX_SHELLS,
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
from engine.fort.weakness import clean_weakness
from engine.limits import MAX_HP
from engine.palette import parse_palette
from engine.ruleset import RuleError
from engine.sheets.model import PCSheet, sheet_from_json, sheet_to_json

FORMAT = "toride.fort/1"
#: why a unit's movement ended early this turn (F-UNIT-2, F-TRAP-3)
HALTS = ("blocked", "barricade")
DEFAULT_FORT_HP = 300
#: battles stored before COMMANDS.md limited a battle to 10 cannons had up to 20, and still load; an
#: imported document is held to the limits afterwards (``engine.fort.limits``)
STORED_MAX_CANNONS = 20


#: what becomes of a list of elements in ``export_parts``: ``part(elements, make)``, ``make`` giving
#: one element's document
Part = Callable[[tuple[Any, ...], Callable[[Any], dict[str, Any]]], Any]


def export_state(state: FortState) -> dict[str, Any]:
    """The ``toride.fort/1`` document of ``state``."""
    return export_parts(state, _made)


def _made(elements: tuple[Any, ...], make: Callable[[Any], dict[str, Any]]) -> list[dict[str, Any]]:
    return [make(e) for e in elements]


def export_parts(state: FortState, part: Part) -> dict[str, Any]:
    """``state``'s document, its lists of elements (PCs, units, commanders, traps) each given by
    ``part(elements, make)``: a caller that keeps the text of what it exported last time makes only
    the elements that changed (``bot.storage.docpatch.Items``)."""
    return {
        "format": FORMAT,
        "title": state.title,
        "rounds": state.rounds,
        "round": state.round,
        "turn": state.turn.value,
        "first": state.first.value,
        "outcome": state.outcome.value if state.outcome else None,
        "fort": {"hp": state.fort_hp, "max_hp": state.fort_max_hp, "repaired_round": state.repaired_round},
        "pcs": part(state.pcs, _pc_doc),
        "units": part(state.units, _unit_doc),
        "commanders": part(state.commanders, _commander_doc),
        "traps": part(state.traps, _trap_doc),
        "cannons": [{"shells": s} for s in state.cannons],
        "ballista": {
            "loaded": state.ballista.loaded,
            "magic_bolt_used": state.ballista.magic_bolt_used,
            "bolt": state.ballista.bolt,
        },
        "confused_round": state.confused_round,
        "begun": state.begun,
    }


def _pc_doc(p: PC) -> dict[str, Any]:
    return {
        "name": p.name,
        "area": p.area.value,
        "position": p.position.value if p.position else None,
        "hp": p.hp,
        "owner": p.owner,
        "max_hp": p.max_hp,
        "move": p.move,
        "moved_m": p.moved_m,
        "sheet": sheet_to_json(p.sheet) if p.sheet is not None else None,
        "palette": p.palette,
    }


def _unit_doc(u: Unit) -> dict[str, Any]:
    return {
        "name": u.name,
        "type": u.type.value,
        "side": u.side.value,
        "area": u.area.value,
        "hp": u.hp,
        "max_hp": u.max_hp,
        "fort_damage": u.fort_damage,
        "strike": u.strike,
        "defense": u.defense,
        "move": u.move,
        "arrive_round": u.arrive_round,
        "destroyed": u.destroyed,
        "arrived": u.arrived,
        "position": u.position.value if u.position else None,
        "weakness": u.weakness,
        "moved_m": u.moved_m,
        "halted": u.halted,
        "acted": u.acted,
        "held_edge": edge_text(u.held_edge) if u.held_edge else None,
        "held_to": u.held_to.value if u.held_to else None,
    }


def _commander_doc(c: Commander) -> dict[str, Any]:
    return {"name": c.name, "area": c.area.value, "hp": c.hp, "max_hp": c.max_hp, "horn": c.horn}


def _trap_doc(t: Trap) -> dict[str, Any]:
    return {"kind": t.kind.value, "edge": edge_text(t.edge), "uses": t.uses}


_WRONG_TYPE = {int: "not_an_integer", str: "not_a_string", bool: "not_a_boolean", list: "not_a_list"}

#: the fort's paths and reasons: ``$.pcs[0].hp: not_an_integer``
STYLE = JsonStyle(sep=".", end="", item="[{}]", wrong_type=_WRONG_TYPE.__getitem__, null_is_missing=False)


def _one_of(d: JsonDoc, key: str, values: tuple[str, ...], default: Any = REQUIRED) -> Any:
    """One of ``values`` (compared folded), returned folded."""

    def parse(text: str) -> str:
        if fold(text) not in values:
            raise ValueError(text)
        return fold(text)

    return d.enum(key, parse, default, reason="not_one_of", allowed=values)


def import_state(document: Mapping[str, Any]) -> FortState:
    """The battle a document describes; ``fort.import_invalid`` naming the ``place`` of the bad value
    (``$.units[2].hp``), the ``reason`` (a code, or the rule's own refusal key) and its ``detail``."""
    trail = ["$"]
    try:
        return _read(JsonDoc(document, "$", STYLE, trail))
    except ImportInvalid as invalid:
        raise RuleError(
            "fort.import_invalid",
            about=_key_of(invalid.path),
            place=invalid.path,
            reason=invalid.reason,
            detail=invalid.detail,
        ) from None
    except RuleError as error:
        raise RuleError(
            "fort.import_invalid",
            about=_key_of(trail[0]),
            place=trail[0],
            reason=error.key,
            detail=dict(error.values),
        ) from None


def _key_of(path: str) -> str | None:
    """The key a place names last: ``$.units[2].hp`` → ``hp``, ``$.cannons[1]`` → ``cannons``
    (``$``: None). Each refusal of an import is about the value at its place."""
    last = path.rsplit(".", 1)[-1].split("[", 1)[0]
    return None if last in ("", "$") else last


def _read(d: JsonDoc) -> FortState:
    fmt = d.get("format", str, None)
    if fmt is not None and fmt != FORMAT:
        raise d.bad("format", "wrong_format", format=FORMAT)
    rounds = d.int_("rounds", REQUIRED, 1, MAX_ROUNDS)
    round_ = d.int_("round", 1, 1, rounds)
    first = Side(_one_of(d, "first", ("pc", "enemy"), "pc"))
    turn = Turn(_one_of(d, "turn", ("pc", "enemy", "ended"), first.value))
    outcome_text = _one_of(d, "outcome", ("success", "collapse", "retreat"), None)
    fort = d.obj_or_empty("fort")
    hp = fort.int_("hp", DEFAULT_FORT_HP)
    max_hp = fort.int_("max_hp", max(DEFAULT_FORT_HP, hp), 1)
    if hp > max_hp:
        raise fort.bad("hp", "above_max_hp")
    if hp <= 0 and turn is not Turn.ENDED:  # F-FORT-6: at 0 or less the battle is over
        raise fort.bad("hp", "collapsed_but_running")
    keys: set[str] = set()

    def name_of(doc: JsonDoc) -> tuple[str, str]:
        name, key = clean_name(doc.get("name", str))
        if key in keys:
            raise doc.bad("name", "name_taken")
        keys.add(key)
        return name, key

    pcs = tuple(_pc(p, *name_of(p), round_) for p in d.items("pcs"))
    units = tuple(_unit(u, *name_of(u), round_, turn, first) for u in d.items("units"))
    commanders = []
    for c in d.items("commanders"):
        name, key = name_of(c)
        c_max = c.int_("max_hp", c.int_("hp"), 1)
        c_hp = c.int_("hp", REQUIRED, None, c_max)
        horn = c.get("horn", str, None)
        commanders.append(
            Commander(name, key, parse_area(c.get("area", str, "A2")), c_hp, c_max, horn or None)
        )
    traps = tuple(
        Trap(
            TrapKind(_one_of(t, "kind", ("barricade", "mine"))),
            parse_edge(t.get("edge", str)),
            t.int_("uses", REQUIRED, 0),
        )
        for t in d.items("traps")
    )
    cannon_docs = d.items("cannons") if "cannons" in d.raw else None
    cannons = (
        (0, 0) if cannon_docs is None else tuple(c.int_("shells", 0, 0, MAX_SHELLS) for c in cannon_docs)
    )
    if len(cannons) > STORED_MAX_CANNONS:
        raise d.bad("cannons", "too_many")
    b = d.obj_or_empty("ballista")
    ballista = Ballista(
        b.get("loaded", bool, False), b.get("magic_bolt_used", bool, False), b.get("bolt", str, None)
    )
    return FortState(
        title=d.get("title", str, ""),
        rounds=rounds,
        round=round_,
        turn=turn,
        first=first,
        fort_hp=hp,
        fort_max_hp=max_hp,
        repaired_round=fort.int_("repaired_round", None, 1),
        pcs=pcs,
        units=units,
        commanders=tuple(commanders),
        traps=traps,
        cannons=cannons,
        ballista=ballista,
        confused_round=d.int_("confused_round", None, 1),
        outcome=BattleOutcome(outcome_text) if outcome_text else None,
        begun=d.get("begun", bool, False),
    )


def _this_turn(doc: JsonDoc, key: str, round_: int) -> bool:
    """Whether an earlier export's per-round mark (``moved_round`` ...) is of the battle's round."""
    return doc.int_(key, None, 1) == round_


def _pc(p: JsonDoc, name: str, key: str, round_: int) -> PC:
    area = parse_area(p.get("area", str, "F0"))
    position_text = p.get("position", str, None)
    position: Position | None = None
    if area is Area.F0:
        position = parse_position(position_text) if position_text is not None else Position.TOP
    elif position_text is not None:
        raise p.bad("position", "only_at_f0")
    hp = p.int_("hp", None, -MAX_HP, MAX_HP)
    max_hp = p.int_("max_hp", hp, -MAX_HP, MAX_HP)
    if hp is not None and max_hp is not None and hp > max_hp:
        raise p.bad("hp", "above_max_hp")
    return PC(
        name,
        key,
        p.get("owner", str, None),
        area,
        position,
        hp,
        max_hp,
        p.int_("move", None, 0),
        p.int_("moved_m", POSITION_CHANGE_M if _this_turn(p, "position_round", round_) else 0, 0),
        sheet=_sheet(p),
        palette=_palette(p),
    )


def _sheet(p: JsonDoc) -> PCSheet | None:
    raw = p.raw.get("sheet")
    return None if raw is None else sheet_from_json(raw, p.key_path("sheet"))


def _palette(p: JsonDoc) -> str | None:
    text = p.get("palette", str, None)
    if text is not None:
        try:
            parse_palette(text)
        except RuleError:
            raise p.bad("palette", "too_long") from None
    return text or None


def _unit(u: JsonDoc, name: str, key: str, round_: int, turn: Turn, first: Side) -> Unit:
    utype = UnitType(_one_of(u, "type", tuple(t.value for t in UnitType)))
    side = _one_of(u, "side", ("pc", "enemy"), None)
    if side is not None and (side == "pc") != (utype is UnitType.SOLDIER):
        raise u.bad("side", "does_not_match_type")
    max_hp = u.int_("max_hp", u.int_("hp"), 1)
    hp = u.int_("hp", REQUIRED, None, max_hp)
    strike_text = u.get("strike", str, None)
    strike = parse_damage_expression(strike_text).command if strike_text is not None else None
    if utype is UnitType.RAM and strike is None:
        raise u.bad("strike", "ram_needs_strike")
    arrive_round = u.int_("arrive_round", None, 1)
    done = (
        arrive_round is None
        or arrive_round < round_
        or turn is Turn.ENDED
        or (arrive_round == round_ and first is Side.ENEMY and turn is Turn.PC)
    )
    area = parse_area(u.get("area", str))
    position_text = u.get("position", str, None)
    position: Position | None = None
    if utype is UnitType.SOLDIER and area is Area.F0:
        position = parse_position(position_text) if position_text is not None else Position.TOP
    elif position_text is not None:
        raise u.bad("position", "only_soldiers_at_f0")
    weakness_text = u.get("weakness", str, None)
    weakness = clean_weakness(weakness_text) if weakness_text else None  # read and parsed at its place
    moved_default = 0 if "moved_round" in u.raw and not _this_turn(u, "moved_round", round_) else None
    held_edge_text = u.get("held_edge", str, None)
    held_edge = parse_edge(held_edge_text) if held_edge_text else None
    held_to_text = u.get("held_to", str, None)
    held_to = parse_area(held_to_text) if held_to_text else None
    return Unit(
        name,
        key,
        utype,
        area,
        hp,
        max_hp,
        u.int_("fort_damage", 0, 0),
        strike,
        u.int_("defense", 0, 0),
        u.int_("move", 10, 0),
        arrive_round,
        u.get("arrived", bool, done),
        u.get("destroyed", bool, hp <= 0),
        position,
        weakness,
        u.int_("moved_m", 0, 0) if moved_default is None else moved_default,
        _one_of(u, "halted", HALTS, None),
        _one_of(u, "acted", MAIN_ACTIONS, MAIN_ACTIONS[-1] if _this_turn(u, "acted_round", round_) else None),
        held_edge,
        held_to,
    )
