"""The battle's own commands: its lifecycle (``/fort start``, ``/fort next``, ``/fort end``) and the
GM's overrides (``/gm set``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.common import Command


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


@dataclass(frozen=True, slots=True)
class GMSet(Command):
    """``/gm set target: value:`` (GM)"""

    gm_only: ClassVar[bool] = True
    target: str
    value: str
    #: the target as the GM typed it (``砦HP``), which a refusal echoes; empty: ``target``
    typed: str = ""
