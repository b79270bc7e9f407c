"""The PCs' attacks on units (``/attack single``, ``area``, ``pierce``)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.common import Command


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
