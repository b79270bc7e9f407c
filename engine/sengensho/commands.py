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
    """``/sg start [title] [opening:full|keep|ambush] [gm_fixed:off|checks|all]`` (S-START-1, S-GM-1)

    The earlier ``ambush:true`` is kept: it means ``opening:ambush``.
    """

    title: str = ""
    opening: str = "full"
    gm_fixed: str = "off"
    ambush: bool = False


@dataclass(frozen=True, slots=True)
class Join(Command):
    """``/sg join name [body endurance intellect sense will] [skills] [hp] [dp_max] [recovery] [side]
    [owner] [initiative] [hidden]``

    The owner defaults to ``invoker``, the invoking user's id. ``skills`` is the sheet's text
    (``隠密3 感知2 射撃4``); ``initiative`` the value a reinforcement joins at (S-REIN-1); ``hidden``
    joins it unseen by the table (S-HIDE-1). ``gm`` is set by the bot, never typed: a player's name
    that a hidden character has is no refusal (S-HIDE-1, ``engine.sengensho.names``).
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
    skills: str | None = None
    initiative: int | None = None
    hidden: bool = False
    gm: bool = False


@dataclass(frozen=True, slots=True)
class NextTurn(Command):
    """``/sg turn`` (GM)"""

    gm_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class NextStep(Command):
    """``/sg next`` (GM): the turn moves to the next initiative value (S-CORE-3)."""

    gm_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Declare(Command):
    """``/sg declare name dp``"""

    name: str
    dp: int


@dataclass(frozen=True, slots=True)
class Roll(Command):
    """``/sg roll name [base] [check] dice [kind:check] [cap] [target] [against] [at] [label]``

    ``kind`` is check, attack, melee, ability, evasion, guard, resist, perception, stealth or damage;
    ``check`` (``感覚+感知``) takes the base from the sheet, ``base`` gives it (one of the two);
    ``at`` names whom an attack or ability is aimed at. ``gm`` is set by the bot, never typed: the
    GM's rolls out of step are carried out and marked (S-CORE-3).
    """

    name: str
    base: int | None
    dice: int
    cap: int | None = None
    target: int | None = None
    against: str | None = None
    label: str = ""
    kind: str = "check"
    check: str | None = None
    at: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Surprise(Command):
    """``/sg surprise attacker target distance [wary] [alert:<range m>] [ability] [disguised]``"""

    attacker: str
    target: str
    distance: int
    wary: bool = False
    #: the range in metres of the [アラート]/[識閾結界] the target is in (0: none; ``true``, an earlier
    #: command's word: one the attacker is inside, of a range not given)
    alert: bool | int = False
    ability: bool = False
    disguised: bool = False


@dataclass(frozen=True, slots=True)
class Hide(Command):
    """``/sg hide name [base] dice`` (S-HIDE-1): base 身体+〈隠密〉 from the sheet unless given."""

    name: str
    base: int | None
    dice: int
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Search(Command):
    """``/sg search name [base] dice [target]`` (S-HIDE-1): ``name``'s perception (感覚+〈感知〉 from the
    sheet unless given) against ``target``, or against every hidden foe it has not searched this turn."""

    name: str
    base: int | None
    dice: int
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Damage(Command):
    """``/sg damage name amount [mercy:none|unconscious|hp1] [via:direct|barrage|area]``"""

    name: str
    amount: int
    mercy: str | None = None
    via: str = "direct"


@dataclass(frozen=True, slots=True)
class Item(Command):
    """``/sg item name holder:<name> [holder_knows:true]`` or ``/sg item name release:true`` (S-ITEM-2)

    ``holder_knows``: the holder knows what it carries (default: it does not, the character hid in
    its things); only a holder who knows is told."""

    name: str
    holder: str | None = None
    release: bool = False
    holder_knows: bool = False


@dataclass(frozen=True, slots=True)
class SetState(Command):
    """``/sg state name [unable:true|false]`` (GM, S-CORE-2)"""

    gm_only: ClassVar[bool] = True
    name: str
    unable: bool | None = None


@dataclass(frozen=True, slots=True)
class SpellCard(Command):
    """``/sg spellcard name [declare:<card>] [use:<card>] [take_from:<name> card:<card>]
    [give_to:<name> card:<card>]`` (S-CARD-1, S-REIN-1). ``declare`` may name several cards, separated
    by commas. ``give_to``: ``name``'s owner hands one of its cards over (the giver agrees)."""

    name: str
    declare: str | None = None
    take_from: str | None = None
    use: str | None = None
    card: str | None = None
    give_to: str | None = None


@dataclass(frozen=True, slots=True)
class End(Command):
    """``/sg end [reveal:true]`` (GM): ``reveal`` shows the hidden characters (S-HIDE-1)."""

    gm_only: ClassVar[bool] = True
    reveal: bool = False


@dataclass(frozen=True, slots=True)
class Attack(Command):
    """``/sg attack [name] target dice [check|base] [damage] [kind:attack|melee]``: the exchange in one
    step. The attacker rolls (``name``: by default the invoker's own character; ``check``/``damage``:
    by default what it stored, and what is given is stored), and the defender is asked (``Answer``);
    the GM side answers by itself under ``gm_fixed`` (S-GM-1). ``invoker``/``gm`` are set by the bot."""

    target: str
    dice: int
    name: str | None = None
    check: str | None = None
    base: int | None = None
    damage: str | None = None
    kind: str = "attack"
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Answer(Command):
    """``/sg answer [exchange] [name] [defence:evasion|guard|take] [dice] [mercy]``: the answer to an
    attack awaited (``Attack``), or, once it brought its target to 0 HP, the attacker's mercy
    (S-MERCY-1). ``exchange`` is its number; ``name`` the defender's (the oldest attack on it)."""

    exchange: int | None = None
    name: str | None = None
    defence: str = "evasion"
    dice: int = 0
    mercy: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Profile(Command):
    """``/sg set name [attack] [evasion] [guard] [damage] [answer]``: what ``/sg attack`` and its answer
    read from a character (checks as ``感覚+射撃``, damage as ``2d+2``, the GM side's own answer as
    ``evasion:2``, ``guard:1`` or ``take``); an empty text forgets one."""

    name: str
    attack: str | None = None
    evasion: str | None = None
    guard: str | None = None
    damage: str | None = None
    answer: str | None = None


@dataclass(frozen=True, slots=True)
class GMSet(Command):
    """``/gm set target:<name>.<field>|turn value:`` (GM) in a 千幻抄 battle."""

    gm_only: ClassVar[bool] = True
    target: str
    value: str
    #: the target as the GM typed it (``砦HP``), which a refusal echoes; empty: ``target``
    typed: str = ""


SengenshoCommand = Union[  # noqa: UP007 - a runtime alias, its members are listed with typing.get_args
    Start,
    Join,
    NextTurn,
    NextStep,
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
    Attack,
    Answer,
    Profile,
]

CODEC: CommandCodec[Any] = CommandCodec("sg", typing.get_args(SengenshoCommand))


def command_to_json(command: SengenshoCommand) -> dict[str, Any]:
    """A command as a JSON-ready dict: ``{"type": "Roll", "name": "霊夢", "base": 7, ...}``."""
    return CODEC.to_json(command)


def command_from_json(raw: Any) -> SengenshoCommand:
    """The command a ``command_to_json`` dict describes; ``sg.command_invalid`` if it is not one."""
    return typing.cast(SengenshoCommand, CODEC.from_json(raw))
