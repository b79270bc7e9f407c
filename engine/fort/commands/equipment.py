"""The fort and its equipment: repair, heal, siege, traps, cannons and the ballista."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.common import Command


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
