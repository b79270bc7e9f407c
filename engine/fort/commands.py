"""One frozen dataclass per command of COMMANDS.md that changes a battle, and their JSON form.

Fields hold what the user typed (names, areas, positions as text; numbers as int), so a command
can be stored in an event log as it was given; the rules parse and validate them when applied.
``gm_only`` follows the (GM) marks of COMMANDS.md; permissions are the service's business.
Commands with ``by`` also carry ``invoker``, the invoking user's id: when ``by`` is None the
actor is the PC that user owns (``fort.actor_required`` if there is none).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from engine.common import Command, CommandCodec

# --- battle lifecycle -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartBattle(Command):
    """``/fort start rounds: [fort_hp:300] [cannons:2] [first:pc|enemy] [title:]``"""

    rounds: int
    fort_hp: int = 300
    cannons: int = 2
    first: str = "pc"
    title: str = ""


@dataclass(frozen=True, slots=True)
class NextTurn(Command):
    """``/fort next`` (GM)"""

    gm_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class EndBattle(Command):
    """``/fort end [outcome:auto|success|collapse|retreat]`` (GM)"""

    gm_only: ClassVar[bool] = True
    outcome: str = "auto"


# --- PCs ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddPC(Command):
    """``/pc add name: [position:top] [hp:] [move:] [owner:] [sheet:]``; the owner defaults to ``invoker``.

    ``sheet`` is the sheet read (``engine.sheets.model.sheet_to_json`` as JSON text), ``palette`` its own
    chat palette.
    """

    name: str
    position: str | None = None
    hp: int | None = None
    move: int | None = None
    owner: str | None = None
    invoker: str | None = None
    sheet: str | None = None
    palette: str | None = None


@dataclass(frozen=True, slots=True)
class ReadPCSheet(Command):
    """``/pc sheet name: sheet:``: the sheet read (JSON text as in ``AddPC``), its HP, 移動力 and palette."""

    name: str
    sheet: str
    hp: int | None = None
    move: int | None = None
    palette: str | None = None


@dataclass(frozen=True, slots=True)
class SetPCPalette(Command):
    """``/pc palette name: text:``: the PC's own chat palette (empty: back to the generated one)."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class MovePC(Command):
    """``/pc move name: [position:] [area:]``"""

    name: str
    position: str | None = None
    area: str | None = None


@dataclass(frozen=True, slots=True)
class SetPCHP(Command):
    """``/pc hp name: [delta:] [set:]``"""

    name: str
    delta: int | None = None
    set: int | None = None


@dataclass(frozen=True, slots=True)
class RemovePC(Command):
    """``/pc remove name:``"""

    name: str


# --- units and commanders ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddUnit(Command):
    """``/unit add name: type: area: hp: fort_damage: [strike:] [defense:] [move:] [arrive_round:]
    [position:] [weakness:]`` (GM); a move that is not a multiple of 10 m is the multiple below (at least
    10 m), as COMMANDS.md's Conventions say."""

    gm_only: ClassVar[bool] = True
    name: str
    type: str
    area: str
    hp: int
    fort_damage: int
    strike: str | None = None
    defense: int = 0
    move: int = 10
    arrive_round: int | None = None
    position: str | None = None
    weakness: str | None = None
    #: a monster sheet's レベル, 命中力 and 回避力 of the part: shown when the unit is added
    level: int | None = None
    accuracy: int | None = None
    evasion: int | None = None


@dataclass(frozen=True, slots=True)
class RemoveUnit(Command):
    """``/unit remove unit:`` (GM)"""

    gm_only: ClassVar[bool] = True
    unit: str


@dataclass(frozen=True, slots=True)
class MoveUnit(Command):
    """``/unit move unit: to: [force:false] [via:] [position:]`` (GM). ``via`` picks one of two equal
    paths; ``position`` is a soldier's at F0 (``to:F0 position:inside`` changes it)."""

    gm_only: ClassVar[bool] = True
    unit: str
    to: str
    force: bool = False
    via: str | None = None
    position: str | None = None


@dataclass(frozen=True, slots=True)
class AdvanceUnits(Command):
    """``/unit advance [unit:]`` (GM)"""

    gm_only: ClassVar[bool] = True
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class SetUnitHP(Command):
    """``/unit hp unit: [delta:] [set:]`` (GM)"""

    gm_only: ClassVar[bool] = True
    unit: str
    delta: int | None = None
    set: int | None = None


@dataclass(frozen=True, slots=True)
class UnitAttack(Command):
    """``/unit attack attacker: target: [hit:true]`` (GM for enemy units; anyone for soldiers)"""

    attacker: str
    target: str
    hit: bool = True


@dataclass(frozen=True, slots=True)
class UnitBarrage(Command):
    """``/unit barrage unit: [apply_hp:false]`` (GM). ``apply_hp:true`` applies every strike as a hit."""

    gm_only: ClassVar[bool] = True
    unit: str
    apply_hp: bool = False


@dataclass(frozen=True, slots=True)
class AddCommander(Command):
    """``/commander add name: hp: [area:A2] [horn:]`` (GM)"""

    gm_only: ClassVar[bool] = True
    name: str
    hp: int
    area: str = "A2"
    horn: str | None = None


@dataclass(frozen=True, slots=True)
class MoveCommander(Command):
    """``/commander move name: to:`` (GM)"""

    gm_only: ClassVar[bool] = True
    name: str
    to: str


@dataclass(frozen=True, slots=True)
class SetCommanderHP(Command):
    """``/commander hp name: [delta:] [set:]``"""

    name: str
    delta: int | None = None
    set: int | None = None


# --- attacks on units ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackSingle(Command):
    """``/attack single unit: bodies:<1-10> [melee:false] [by:]``"""

    unit: str
    bodies: int
    melee: bool = False
    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class AttackArea(Command):
    """``/attack area unit:|commander:|area: damage: radius:<1-30> [kind:physical] [element:] [targets:]
    [by:]``

    One of ``unit``, ``commander``, ``area`` (a point in that area); ``targets`` is the N of
    対象：1エリア(半径r)/N (no limit when left out).
    """

    damage: int | str
    radius: int
    unit: str | None = None
    commander: str | None = None
    area: str | None = None
    kind: str = "physical"
    element: str | None = None
    targets: int | None = None
    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class AttackPierce(Command):
    """``/attack pierce from: to: damage: [kind:physical] [element:] [resisted:false] [by:]``"""

    from_: str
    to: str
    damage: int | str
    kind: str = "physical"
    element: str | None = None
    resisted: bool = False
    by: str | None = None
    invoker: str | None = None


# --- fort and equipment ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Repair(Command):
    """``/fort repair [by:]``"""

    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class HealFort(Command):
    """``/fort heal amount:``"""

    amount: int


@dataclass(frozen=True, slots=True)
class Siege(Command):
    """``/fort siege effect:mattock|meteor|titanfoot|fixed [roll:] [amount:]`` (GM)"""

    gm_only: ClassVar[bool] = True
    effect: str
    roll: str | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class SetTrap(Command):
    """``/trap set kind:barricade|mine edge: uses:<1-99>``"""

    kind: str
    edge: str
    uses: int


@dataclass(frozen=True, slots=True)
class RemoveTrap(Command):
    """``/trap remove kind: edge:``"""

    kind: str
    edge: str


@dataclass(frozen=True, slots=True)
class LoadCannon(Command):
    """``/cannon load cannon: [check:] [bonus:] [by:]``"""

    cannon: int
    check: int | None = None
    bonus: int = 0
    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class FireCannon(Command):
    """``/cannon fire cannon: unit:|commander:|area: [by:]``"""

    cannon: int
    unit: str | None = None
    commander: str | None = None
    area: str | None = None
    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class LoadBallista(Command):
    """``/ballista load [bolt:] [by:]``"""

    bolt: str | None = None
    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class FireBallista(Command):
    """``/ballista fire unit:|commander:|area: [bonus:0] [crit:10] [hit:true] [by:]``"""

    unit: str | None = None
    commander: str | None = None
    area: str | None = None
    bonus: int = 0
    crit: int = 10
    hit: bool = True
    by: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class GMSet(Command):
    """``/gm set target: value:`` (GM)"""

    gm_only: ClassVar[bool] = True
    target: str
    value: str


FortCommand = Union[  # noqa: UP007 - a runtime alias, its members are listed with typing.get_args
    StartBattle,
    NextTurn,
    EndBattle,
    AddPC,
    MovePC,
    SetPCHP,
    RemovePC,
    ReadPCSheet,
    SetPCPalette,
    AddUnit,
    RemoveUnit,
    MoveUnit,
    AdvanceUnits,
    SetUnitHP,
    UnitAttack,
    UnitBarrage,
    AddCommander,
    MoveCommander,
    SetCommanderHP,
    AttackSingle,
    AttackArea,
    AttackPierce,
    Repair,
    HealFort,
    Siege,
    SetTrap,
    RemoveTrap,
    LoadCannon,
    FireCannon,
    LoadBallista,
    FireBallista,
    GMSet,
]

COMMAND_TYPES: dict[str, type[Command]] = {cls.__name__: cls for cls in typing.get_args(FortCommand)}

#: JSON keys that differ from the field names: Python keywords (``from``), and AddUnit's ``type`` option,
#: which would clash with the command's own ``"type"``.
CODEC: CommandCodec[Any] = CommandCodec(
    "fort", typing.get_args(FortCommand), renames={"from_": "from", "type": "unit_type"}
)


def command_to_json(command: FortCommand) -> dict[str, Any]:
    """A command as a JSON-ready dict: ``{"type": "MoveUnit", "unit": "ゴブリン", "to": "A1", ...}``.

    Keys are the option names of COMMANDS.md, but for AddUnit's unit type, written ``unit_type``.
    """
    return CODEC.to_json(command)


def command_from_json(raw: Any) -> FortCommand:
    """The command a ``command_to_json`` dict describes; ``fort.command_invalid`` if it is not one."""
    return typing.cast(FortCommand, CODEC.from_json(raw))
