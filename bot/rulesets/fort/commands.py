"""The fort-defense rule set's commands (engine/fort), who may run them, and what its summaries list.

Every command of COMMANDS.md that changes a battle maps to one engine command class; an
option's default and whether it is required come from that class's fields, and the (GM) mark
from its ``gm_only``, so the table cannot drift from the engine. The sheet and palette commands
extend these (``bot.rulesets.fort.sheets``); ``bot.rulesets.fort.ruleset`` puts them together.
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.commands import (
    BuildContext,
    CommandSpec,
    Kind,
    Option,
    OptType,
    QueryContext,
    UserError,
    engine_command,
    extended,
    ruleset_lifecycle,
)
from bot.rulesets.fort.views import PreviewView, RosterView
from engine.common import Command
from engine.dice import SeededDice
from engine.fort import FORT
from engine.fort import commands as fc
from engine.fort.lookup import GM_OWNER, name_key, owned_by, resolve_actor
from engine.fort.planner import DEFAULT_RUNS, MAX_RUNS, MIN_RUNS, Focus
from engine.fort.planner.request import MAX_SEED, PC_DAMAGE_MAX
from engine.fort.report import RoundReport, round_report
from engine.fort.roster import roster
from engine.fort.rules_turn import MAX_CANNONS, check_turn
from engine.fort.state import PC, Element, FortState, UnitType
from engine.ruleset import RuleError

GROUP = "fort"
AREAS = ("A2", "A1", "F0", "B1", "B2")
POSITIONS = ("top", "inside", "outside")
DAMAGE_KINDS = ("physical", "magic", "fixed")
ELEMENTS = tuple(e.value for e in Element)
OUTCOMES = ("auto", "success", "collapse", "retreat")
TRAPS = ("barricade", "mine")

#: option name → field name where they differ (Python keywords)
_FIELDS = {"from": "from_"}


def _o(name: str, type_: OptType = OptType.STR, **kw: Any) -> Option:
    return Option(name, type_, **kw)


def _spec(
    group: str, name: str, cls: type[Command], *options: Option, kind: Kind = Kind.ENGINE
) -> CommandSpec:
    """The command ``/group name`` building ``cls``: required-ness and defaults come from its fields."""
    return engine_command(FORT.name, group, name, cls, *options, kind=kind, renames=_FIELDS)


def _add_pc(values: Mapping[str, Any], ctx: BuildContext) -> Command:
    """``/pc add``: the PC is the invoker's; naming another ``owner`` is for GMs."""
    owner = values.get("owner")
    if owner is not None and owner != ctx.invoker and not ctx.is_gm:
        raise UserError("service.owner_gm_only")
    return fc.AddPC(**{**values, "invoker": ctx.invoker})


_BY = _o("by")
_HPS = (_o("delta", OptType.INT), _o("set", OptType.INT))
_ELEMENT = _o("element", OptType.CHOICE, choices=ELEMENTS)
_POSITION = _o("position", OptType.CHOICE, choices=POSITIONS)
#: F-UNIT-4: an area effect aims at a unit, a commander or a point in an area
_AIM = (_o("unit"), _o("commander"), _o("area"))

_ENGINE: tuple[CommandSpec, ...] = (
    _spec(
        "fort", "start", fc.StartBattle,
        _o("rounds", OptType.INT, min=1, max=99), _o("fort_hp", OptType.INT, min=1),
        _o("cannons", OptType.INT, min=0, max=MAX_CANNONS),
        _o("first", OptType.CHOICE, choices=("pc", "enemy")),
        _o("title"),
        kind=Kind.START,
    ),
    _spec("fort", "next", fc.NextTurn),
    _spec("fort", "end", fc.EndBattle, _o("outcome", OptType.CHOICE, choices=OUTCOMES)),
    *ruleset_lifecycle(GROUP, FORT.name),
    _spec("fort", "repair", fc.Repair, _BY),
    _spec("fort", "heal", fc.HealFort, _o("amount", OptType.INT, min=0)),
    _spec(
        "fort", "siege", fc.Siege,
        _o("effect", OptType.CHOICE, choices=("mattock", "meteor", "titanfoot", "fixed")),
        _o("roll"), _o("amount", OptType.INT, min=0),
    ),
    dataclasses.replace(
        _spec(
            "pc", "add", fc.AddPC,
            _o("name"), _o("position", OptType.CHOICE, choices=POSITIONS), _o("hp", OptType.INT, min=0),
            _o("move", OptType.INT, min=0), _o("owner", OptType.USER),
        ),
        build=_add_pc,
    ),
    _spec("pc", "move", fc.MovePC, _o("name"), _o("position", OptType.CHOICE, choices=POSITIONS), _o("area")),
    _spec("pc", "hp", fc.SetPCHP, _o("name"), *_HPS),
    _spec("pc", "remove", fc.RemovePC, _o("name")),
    _spec("pc", "claim", fc.ClaimPC, _o("name")),
    _spec(
        "unit", "add", fc.AddUnit,
        _o("name"), _o("type", OptType.CHOICE, choices=tuple(t.value for t in UnitType)), _o("area"),
        _o("hp", OptType.INT, min=1), _o("fort_damage", OptType.INT, min=0), _o("strike"),
        _o("defense", OptType.INT, min=0), _o("move", OptType.INT, min=0),
        _o("arrive_round", OptType.INT, min=1), _POSITION, _o("weakness"),
    ),
    _spec("unit", "remove", fc.RemoveUnit, _o("unit")),
    _spec("unit", "move", fc.MoveUnit, _o("unit"), _o("to"), _o("force", OptType.BOOL), _o("via"), _POSITION),
    _spec("unit", "advance", fc.AdvanceUnits, _o("unit")),  # + preview: ``with_preview`` below
    _spec("unit", "hp", fc.SetUnitHP, _o("unit"), *_HPS),
    _spec("unit", "attack", fc.UnitAttack, _o("attacker"), _o("target"), _o("hit", OptType.BOOL)),
    _spec("unit", "barrage", fc.UnitBarrage, _o("unit"), _o("apply_hp", OptType.BOOL)),
    _spec(
        "commander", "add", fc.AddCommander, _o("name"), _o("hp", OptType.INT, min=1), _o("area"), _o("horn")
    ),
    _spec("commander", "move", fc.MoveCommander, _o("name"), _o("to")),
    _spec("commander", "hp", fc.SetCommanderHP, _o("name"), *_HPS),
    _spec(
        "attack", "single", fc.AttackSingle,
        _o("unit"), _o("bodies", OptType.INT, min=1, max=10), _o("melee", OptType.BOOL), _BY,
    ),
    _spec(
        "attack", "area", fc.AttackArea,
        *_AIM, _o("damage", OptType.DAMAGE), _o("radius", OptType.INT, min=1, max=30),
        _o("kind", OptType.CHOICE, choices=DAMAGE_KINDS), _ELEMENT, _o("targets", OptType.INT, min=1), _BY,
    ),
    _spec(
        "attack", "pierce", fc.AttackPierce,
        _o("from"), _o("to"), _o("damage", OptType.DAMAGE), _o("kind", OptType.CHOICE, choices=DAMAGE_KINDS),
        _ELEMENT, _o("resisted", OptType.BOOL, aliases=(("半減", "true"), ("抵抗なし", "false"))), _BY,
    ),
    _spec("trap", "set", fc.SetTrap, _o("kind", OptType.CHOICE, choices=TRAPS), _o("edge"),
          _o("uses", OptType.INT, min=1, max=99)),
    _spec("trap", "remove", fc.RemoveTrap, _o("kind", OptType.CHOICE, choices=TRAPS), _o("edge")),
    _spec("cannon", "load", fc.LoadCannon, _o("cannon", OptType.INT, min=1), _o("check", OptType.INT),
          _o("bonus", OptType.INT), _BY),
    _spec("cannon", "fire", fc.FireCannon, _o("cannon", OptType.INT, min=1), *_AIM, _BY),
    _spec("ballista", "load", fc.LoadBallista, _o("bolt"), _BY),
    _spec("ballista", "fire", fc.FireBallista, *_AIM, _o("bonus", OptType.INT), _o("crit", OptType.INT),
          _o("hit", OptType.BOOL), _BY),
)  # fmt: skip


#: ``/fort odds``: anyone may ask (it changes nothing); the planner runs outside the channel's lock
ODDS = CommandSpec(
    GROUP,
    "odds",
    Kind.PLAN,
    (
        _o("runs", OptType.INT, default=DEFAULT_RUNS, min=MIN_RUNS, max=MAX_RUNS),
        _o("pc_damage", max_len=PC_DAMAGE_MAX),
        _o("focus", OptType.CHOICE, choices=tuple(f.value for f in Focus), default=Focus.THREATS.value),
        _o("repair", OptType.BOOL, default=False),
        _o("seed", OptType.INT, min=0, max=MAX_SEED),
    ),
    ruleset=FORT.name,
)


def _list_query(state: FortState, options: Mapping[str, Any], ctx: QueryContext) -> RosterView:
    """``/unit list [area:]``: the roster (``engine.fort.roster``); it changes nothing."""
    return RosterView(ruleset=FORT.name, roster=roster(state, options.get("area")))


#: ``/unit list``: anyone may read it
UNIT_LIST = CommandSpec("unit", "list", Kind.QUERY, (_o("area"),), ruleset=FORT.name, query=_list_query)


def _preview_dice(state: FortState) -> SeededDice:
    """The dice of a preview: its own (a console's script or the table's luck is not spent), the same
    for the same battle."""
    return SeededDice(zlib.crc32(json.dumps(FORT.export(state), sort_keys=True).encode("utf-8")))


def with_preview(spec: CommandSpec) -> CommandSpec:
    """``/unit advance [unit:] [preview:false]``: with ``preview:true`` the engine runs on the battle, the
    reply shows what it would do (moves, traps, fort damage), and the result is dropped: no log row, no
    new version."""
    build = spec.build
    assert build is not None

    def query(state: FortState, options: Mapping[str, Any], ctx: QueryContext) -> Any:
        values = {k: v for k, v in options.items() if k != "preview"}
        command = build(values, BuildContext(invoker=ctx.invoker, is_gm=ctx.is_gm, names=ctx.names))
        if not options.get("preview"):
            return command
        outcome = FORT.apply(state, command, _preview_dice(state))
        return PreviewView(ruleset=FORT.name, command="/unit advance", events=tuple(outcome.events))

    return dataclasses.replace(
        spec,
        kind=Kind.QUERY,
        options=(*spec.options, _o("preview", OptType.BOOL, default=False)),
        query=query,
    )


def authorize(state: FortState, command: Any, who: BuildContext) -> None:
    """Players run their own PCs (and soldier units), in their side's turn (F-TURN-3); everything else is
    the GM's (COMMANDS.md), whose actions out of turn the rules carry out and mark."""
    if who.is_gm:
        return
    _authorize_player(state, command, who)
    check_turn(state, command, gm=False)


def check_own_pc(pc: PC, who: BuildContext) -> None:
    """A player runs their own PC and one without an owner; another player's PC and the GM's
    (``GM``) are refused, in words (``engine.fort.lookup.owned_by`` says whose a PC is)."""
    if who.is_gm or pc.owner is None or owned_by(pc.owner, who.invoker, who.names):
        return
    if pc.owner == GM_OWNER:
        raise UserError("service.gm_pc", name=pc.name)
    raise UserError("service.not_your_pc", name=pc.name)


def _authorize_player(state: FortState, command: Any, who: BuildContext) -> None:
    if isinstance(command, fc.MovePC | fc.SetPCHP | fc.RemovePC):
        key = name_key(command.name)
        for pc in state.pcs:
            if pc.key == key:
                check_own_pc(pc, who)
        return
    if isinstance(command, fc.UnitAttack):
        key = name_key(command.attacker)
        for unit in state.units:
            if unit.key == key and unit.type is not UnitType.SOLDIER:
                raise UserError("service.enemy_unit_gm_only", name=unit.name)
        return
    by = getattr(command, "by", None)
    if by is not None:
        try:
            actor = resolve_actor(state, by, who.invoker)
        except RuleError:
            return  # the rules will say what is wrong with ``by``
        if actor.pc is not None:
            check_own_pc(state.pcs[actor.pc], who)


#: what a summary lists: damage to the fort and units, moves, traps, shots, arrivals, the end
_SUMMARY_PREFIXES = (
    "fort.",
    "unit.",
    "trap.",
    "commander.",
    "pc.damaged",
    "cannon.fired",
    "ballista.fired",
    "battle.confused",
    "battle.round_summary",
    "battle.ended",
    "battle.outcome_set",
)
_NOT_IN_SUMMARY = frozenset(
    {"unit.added", "unit.removed", "commander.added", "trap.set", "trap.removed", "unit.advanced"}
)


def in_summary(kind: str) -> bool:
    return kind.startswith(_SUMMARY_PREFIXES) and kind not in _NOT_IN_SUMMARY


def report(entries: Sequence[Any], kind: str, number: int | None, document: Mapping[str, Any]) -> RoundReport:
    """A round's (or the end's) summary: ``engine.fort.report``."""
    fort = document.get("fort") or {}
    hp, max_hp = fort.get("hp"), fort.get("max_hp")
    return round_report(
        entries,
        kind=kind,
        round_=number,
        fort_max=max_hp if isinstance(max_hp, int) else None,
        fort_now=hp if isinstance(hp, int) else None,
    )


def is_over(state: FortState) -> bool:
    return state.ended


#: the fort's commands (the sheet and palette ones are ``bot.rulesets.fort.sheets``'s)
COMMANDS: tuple[CommandSpec, ...] = extended(
    (CommandSpec(GROUP, "map", Kind.MAP, ruleset=FORT.name), *_ENGINE, ODDS, UNIT_LIST),
    "unit advance",
    with_preview,
)
