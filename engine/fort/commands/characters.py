"""The commands that add, move, hurt and remove PCs, enemy units and soldiers, and commanders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.common import Command

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


@dataclass(frozen=True, slots=True)
class ClaimPC(Command):
    """``/pc claim name:``: a PC without an owner becomes the invoker's (the first who asks, once)."""

    name: str
    invoker: str


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
