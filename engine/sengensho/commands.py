"""One frozen dataclass per ``/sg`` command of SENGENSHO.md that changes a battle, and their JSON form.

Fields hold what the user gave (names as text, numbers as int), so a command is stored as it was
given; the rules check it when applied. ``gm_only`` follows the (GM) marks; permissions are the
service's business. ``/sg status``, ``/sg export`` and ``/sg import`` change nothing and have none.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from engine.common import Command, CommandCodec


@dataclass(frozen=True, slots=True)
class Start(Command):
    """``/sg start [title] [ambush:false] [gm_fixed:false]`` (S-START-1, S-GM-1)"""

    title: str = ""
    ambush: bool = False
    gm_fixed: bool = False


@dataclass(frozen=True, slots=True)
class Join(Command):
    """``/sg join name [body endurance intellect sense will] [hp] [dp_max] [recovery] [side] [owner]``

    The owner defaults to ``invoker``, the invoking user's id.
    """

    name: str
    body: int | None = None
    endurance: int | None = None
    intellect: int | None = None
    sense: int | None = None
    will: int | None = None
    hp: int | None = None
    dp_max: int | None = None
    recovery: int | None = None
    side: str = "pc"
    owner: str | None = None
    invoker: str | None = None


@dataclass(frozen=True, slots=True)
class NextTurn(Command):
    """``/sg turn`` (GM)"""

    gm_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Declare(Command):
    """``/sg declare name dp``"""

    name: str
    dp: int


@dataclass(frozen=True, slots=True)
class Roll(Command):
    """``/sg roll name base dice [cap] [target] [against] [label] [kind:check]``

    ``kind`` is check, attack, melee, ability, evasion, resist, perception, stealth or damage.
    """

    name: str
    base: int
    dice: int
    cap: int | None = None
    target: int | None = None
    against: str | None = None
    label: str = ""
    kind: str = "check"


@dataclass(frozen=True, slots=True)
class Surprise(Command):
    """``/sg surprise attacker target distance [wary] [alert] [ability] [disguised]`` (flags false)"""

    attacker: str
    target: str
    distance: int
    wary: bool = False
    alert: bool = False
    ability: bool = False
    disguised: bool = False


@dataclass(frozen=True, slots=True)
class Hide(Command):
    """``/sg hide name base dice`` (S-HIDE-1)"""

    name: str
    base: int
    dice: int


@dataclass(frozen=True, slots=True)
class Search(Command):
    """``/sg search name base dice target`` (S-HIDE-1): ``name`` searches for ``target``."""

    name: str
    base: int
    dice: int
    target: str


@dataclass(frozen=True, slots=True)
class Damage(Command):
    """``/sg damage name amount [mercy:unconscious|hp1] [via:direct|barrage|area]``"""

    name: str
    amount: int
    mercy: str | None = None
    via: str = "direct"


@dataclass(frozen=True, slots=True)
class Item(Command):
    """``/sg item name holder:<name>`` or ``/sg item name release:true`` (S-ITEM-2)"""

    name: str
    holder: str | None = None
    release: bool = False


@dataclass(frozen=True, slots=True)
class SetState(Command):
    """``/sg state name [unable:true|false]`` (GM, S-CORE-2)"""

    gm_only: ClassVar[bool] = True
    name: str
    unable: bool | None = None


@dataclass(frozen=True, slots=True)
class SpellCard(Command):
    """``/sg spellcard name [declare:<n>] [take_from:<name>] [use:<n>]`` (S-REIN-1)"""

    name: str
    declare: int | None = None
    take_from: str | None = None
    use: int | None = None


@dataclass(frozen=True, slots=True)
class End(Command):
    """``/sg end`` (GM)"""

    gm_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class GMSet(Command):
    """``/gm set target:<name>.<field>|turn value:`` (GM) in a 千幻抄 battle."""

    gm_only: ClassVar[bool] = True
    target: str
    value: str


SengenshoCommand = Union[  # noqa: UP007 - a runtime alias, its members are listed with typing.get_args
    Start,
    Join,
    NextTurn,
    Declare,
    Roll,
    Surprise,
    Hide,
    Search,
    Damage,
    Item,
    SetState,
    SpellCard,
    End,
    GMSet,
]

CODEC: CommandCodec[Any] = CommandCodec("sg", typing.get_args(SengenshoCommand))


def command_to_json(command: SengenshoCommand) -> dict[str, Any]:
    """A command as a JSON-ready dict: ``{"type": "Roll", "name": "霊夢", "base": 7, ...}``."""
    return CODEC.to_json(command)


def command_from_json(raw: Any) -> SengenshoCommand:
    """The command a ``command_to_json`` dict describes; ``sg.command_invalid`` if it is not one."""
    return typing.cast(SengenshoCommand, CODEC.from_json(raw))
