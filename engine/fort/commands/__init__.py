"""One frozen dataclass per command of COMMANDS.md that changes a battle, and their JSON form.

Fields hold what the user typed (names, areas, positions as text; numbers as int), so a command
can be stored in an event log as it was given; the rules parse and validate them when applied.
``gm_only`` follows the (GM) marks of COMMANDS.md; permissions are the service's business.
Commands with ``by`` also carry ``invoker``, the invoking user's id: when ``by`` is None the
actor is the PC that user owns (``fort.actor_required`` if there is none).

The classes live by concern: the battle's lifecycle and the GM's overrides (``battle``), PCs, units
and commanders (``characters``), attacks on units (``attacks``), the fort and its equipment
(``equipment``); this module gathers them (``FortCommand``) with their JSON form.
"""

from __future__ import annotations

import typing
from typing import Any, Union

from engine.common import Command, CommandCodec
from engine.fort.commands.attacks import (
    AttackArea,
    AttackPierce,
    AttackSingle,
)
from engine.fort.commands.battle import (
    EndBattle,
    GMSet,
    NextTurn,
    StartBattle,
)
from engine.fort.commands.characters import (
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    ClaimPC,
    MoveCommander,
    MovePC,
    MoveUnit,
    ReadPCSheet,
    RemovePC,
    RemoveUnit,
    SetCommanderHP,
    SetPCHP,
    SetPCPalette,
    SetUnitHP,
    UnitAttack,
    UnitBarrage,
)
from engine.fort.commands.equipment import (
    FireBallista,
    FireCannon,
    HealFort,
    LoadBallista,
    LoadCannon,
    RemoveTrap,
    Repair,
    SetTrap,
    Siege,
)

FortCommand = Union[  # noqa: UP007 - a runtime alias, its members are listed with typing.get_args
    StartBattle,
    NextTurn,
    EndBattle,
    AddPC,
    MovePC,
    SetPCHP,
    RemovePC,
    ClaimPC,
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


__all__ = [
    "CODEC",
    "COMMAND_TYPES",
    "AddCommander",
    "AddPC",
    "AddUnit",
    "AdvanceUnits",
    "AttackArea",
    "AttackPierce",
    "AttackSingle",
    "ClaimPC",
    "Command",
    "EndBattle",
    "FireBallista",
    "FireCannon",
    "FortCommand",
    "GMSet",
    "HealFort",
    "LoadBallista",
    "LoadCannon",
    "MoveCommander",
    "MovePC",
    "MoveUnit",
    "NextTurn",
    "ReadPCSheet",
    "RemovePC",
    "RemoveTrap",
    "RemoveUnit",
    "Repair",
    "SetCommanderHP",
    "SetPCHP",
    "SetPCPalette",
    "SetTrap",
    "SetUnitHP",
    "Siege",
    "StartBattle",
    "UnitAttack",
    "UnitBarrage",
    "command_from_json",
    "command_to_json",
]
