"""One frozen dataclass per ``/battle`` command of BATTLE.md that changes a battle, and their JSON form.

Fields hold what the user gave (names and words as text, numbers as int, an amount as a number or a
dice expression), so a command is stored as it was given; the rules check it when applied.
``gm_only`` follows the (GM) marks; the bot refuses those to players. The other commands carry
``invoker`` (the user's id, filled in by the bot) and ``gm`` (set by the bot, never typed: whether the
invoker is a GM of the battle): the rules need them for who owns what (B-CHAR-1, B-DMG-4) and whose
turn it is (B-INIT-2). ``/battle status``, ``log``, ``export`` and ``import`` change nothing.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Union

from engine.common import Command, CommandCodec
from engine.ruleset import RuleError


@dataclass(frozen=True, slots=True)
class Start(Command):
    """``/battle start [title] [first:pc|enemy]``: a battle before its first turn, whose GM is who starts it
    (B-INIT-1: ``first`` set, the GM's choice of the side that acts first; left out, the 先制判定 decides)."""

    title: str = ""
    first: str | None = None
    #: what the battle begins with, applied as the GM's commands (B-VIEW-2, the boss fight after a
    #: fort battle: its PCs, its commanders as monsters, their war-horn as an effect)
    setup: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class AddPC(Command):
    """``/battle pc name [hp mp defense evasion fortitude willpower initiative] [palette] [sheet]``
    (B-CHAR-1): the owner is ``owner`` (a GM's choice) or the invoker. The bot reads a sheet and passes
    its values as these fields, ``sheet`` being the sheet read as JSON text."""

    name: str
    hp: int
    mp: int = 0
    defense: int = 0
    evasion: int = 0
    fortitude: int = 0
    willpower: int = 0
    initiative: int = 0
    owner: str | None = None
    palette: str | None = None
    sheet: str | None = None
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class PartSpec:
    """One part of ``AddMonster`` (B-CHAR-2): ``name`` ``""`` for a monster of one part."""

    hp: int
    name: str = ""
    mp: int = 0
    defense: int = 0
    hit: int | None = None
    strike: str | None = None
    evasion: int | None = None


@dataclass(frozen=True, slots=True)
class AddMonster(Command):
    """``/battle monster name ... [count] [hidden_stats:true]`` (GM, B-CHAR-2): ``parts`` one or more
    (at most 10), ``core`` the index of the core part among several (None: none is); ``count`` > 1 adds
    ``<name>A``, ``<name>B`` ... (the first letters free)."""

    gm_only: ClassVar[bool] = True
    name: str
    parts: tuple[PartSpec, ...] = ()
    core: int | None = None
    count: int = 1
    reputation: int = 0
    weakness_value: int = 0
    weakness: str | None = None
    initiative: int = 0
    move: str | None = None
    fortitude: int | None = None
    willpower: int | None = None
    level: int | None = None
    hidden_stats: bool = False


@dataclass(frozen=True, slots=True)
class Knowledge(Command):
    """``/battle knowledge name monster check:<expr>`` (B-KNOW-1): PC ``name``'s 魔物知識判定 against
    ``monster`` (one of the kind, or the kind's name): ``total`` a total, or a dice expression rolled."""

    name: str
    monster: str
    total: int | str
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Initiative(Command):
    """``/battle initiative name [check:<expr>]`` (B-INIT-1): ``total`` a total, a dice expression, or
    None: 2D6 + the PC's 先制力."""

    name: str
    total: int | str | None = None
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Damage(Command):
    """``/battle damage targets amount [kind] [element] [resisted] [by]`` (B-DMG-1..3).

    ``targets``: names separated by commas, a part as ``グリフォン:頭部``; ``amount`` a number or a dice
    expression, rolled for each target; ``kind`` physical|magic|fixed (物理|魔法|確定); ``resisted``
    full|half|none (半減|消滅), one word for every target or one per target, separated by commas;
    ``by`` the character that deals it (left out: damage to a monster is the PC side's, to a PC the
    enemy side's)."""

    targets: str
    amount: int | str
    kind: str = "physical"
    element: str | None = None
    resisted: str = "full"
    by: str | None = None
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Heal(Command):
    """``/battle heal targets amount [by]`` (B-DMG-4): up to each target's maximum; a dice ``amount``
    is rolled for each target."""

    targets: str
    amount: int | str
    by: str | None = None
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class MP(Command):
    """``/battle mp name delta`` (B-DMG-4): ``delta`` < 0 spends, > 0 restores (up to the maximum);
    ``name`` may be ``<monster>:<part>``."""

    name: str
    delta: int
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class EffectAdd(Command):
    """``/battle effect add target name rounds [text] [mod] [by]`` (B-EFF-1, B-EFF-2).

    ``rounds``: a number of rounds, a time (``10秒``, ``1分``, ``3分``) or ``end`` (until the battle
    ends); ``mod``: numbers the bot applies (``防護点+2 回避力-1``); ``by``: the character that made it
    (left out: the side whose turn it is; before the first turn, the target's side)."""

    target: str
    name: str
    rounds: int | str
    text: str = ""
    mod: str | None = None
    by: str | None = None
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class EffectEnd(Command):
    """``/battle effect end target name`` (B-EFF-1): ``name`` or ``#<id>``."""

    target: str
    name: str
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class EffectExtend(Command):
    """``/battle effect extend target name rounds`` (GM, B-EFF-1): ``rounds`` more (fewer if < 0)."""

    gm_only: ClassVar[bool] = True
    target: str
    name: str
    rounds: int


@dataclass(frozen=True, slots=True)
class Next(Command):
    """``/battle next`` (B-INIT-2): ends the side's turn (before the first turn: starts it). The GM's;
    a player's in the PC side's turn once every PC standing has acted."""

    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Act(Command):
    """``/battle act name [acted:false]`` (B-INIT-2): marks a character as having acted (or not)."""

    name: str
    acted: bool = True
    invoker: str | None = None
    gm: bool = False


@dataclass(frozen=True, slots=True)
class Reveal(Command):
    """``/battle reveal monster [numbers] [weakness]`` (GM, B-KNOW-1, B-KNOW-2): the table learns the
    numbers and/or the weakness of the monster's kind (False takes a reveal back)."""

    gm_only: ClassVar[bool] = True
    monster: str
    numbers: bool = True
    weakness: bool = False


@dataclass(frozen=True, slots=True)
class End(Command):
    """``/battle end`` (GM)"""

    gm_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class GMSet(Command):
    """``/gm set target:<name>.<field>|round|turn|first|title value:`` (GM) in an ordinary battle."""

    gm_only: ClassVar[bool] = True
    target: str
    value: str
    #: the target as the GM typed it (``砦HP``), which a refusal echoes; empty: ``target``
    typed: str = ""


BattleCommand = Union[  # noqa: UP007 - a runtime alias, its members are listed with typing.get_args
    Start,
    AddPC,
    AddMonster,
    Knowledge,
    Initiative,
    Damage,
    Heal,
    MP,
    EffectAdd,
    EffectEnd,
    EffectExtend,
    Next,
    Act,
    Reveal,
    End,
    GMSet,
]

COMMAND_TYPES: tuple[type[Command], ...] = typing.get_args(BattleCommand)
CODEC: CommandCodec[Any] = CommandCodec("bt", COMMAND_TYPES)
_INVALID = "bt.command_invalid"


def _part_to_json(part: PartSpec) -> dict[str, Any]:
    return {f.name: getattr(part, f.name) for f in fields(part)}


def _part_from_json(raw: Any) -> PartSpec:
    """One part of ``AddMonster``'s JSON form (``bt.command_invalid`` if it is not one)."""
    if not isinstance(raw, Mapping):
        raise RuleError(_INVALID, reason="wrong_type", type="AddMonster", field="parts")
    codec: CommandCodec[Any] = CommandCodec("bt", (PartSpec,))
    part: PartSpec = codec.from_json({**raw, "type": "PartSpec"})
    return part


def command_to_json(command: BattleCommand) -> dict[str, Any]:
    """A command as a JSON-ready dict: ``{"type": "Damage", "targets": "ゴブリンA", ...}``."""
    if isinstance(command, Start):
        out = CODEC.to_json(replace(command, setup=()))
        out["setup"] = [command_to_json(c) for c in command.setup]
        return out
    if isinstance(command, AddMonster):
        out = CODEC.to_json(command)
        out["parts"] = [_part_to_json(p) for p in command.parts]
        return out
    return CODEC.to_json(command)


def command_from_json(raw: Any) -> BattleCommand:
    """The command a ``command_to_json`` dict describes; ``bt.command_invalid`` if it is not one."""
    if isinstance(raw, Mapping) and raw.get("type") == "Start":
        setup = raw.get("setup", [])
        if not isinstance(setup, list):
            raise RuleError(_INVALID, reason="wrong_type", type="Start", field="setup")
        inner = [command_from_json(c) for c in setup]
        if any(isinstance(c, Start) for c in inner):
            raise RuleError(_INVALID, reason="wrong_type", type="Start", field="setup")
        start: Start = CODEC.from_json({k: v for k, v in raw.items() if k != "setup"})
        return replace(start, setup=tuple(inner))
    if isinstance(raw, Mapping) and raw.get("type") == "AddMonster":
        parts = raw.get("parts")
        if not isinstance(parts, list):
            reason = "missing" if parts is None else "wrong_type"
            raise RuleError(_INVALID, reason=reason, type="AddMonster", field="parts")
        monster: AddMonster = CODEC.from_json({k: v for k, v in raw.items() if k != "parts"})
        return replace(monster, parts=tuple(_part_from_json(p) for p in parts))
    return typing.cast(BattleCommand, CODEC.from_json(raw))
