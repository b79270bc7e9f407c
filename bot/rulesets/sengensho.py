"""The 千幻抄 rule set (engine/sengensho) in the bot: its ``/sg`` commands and who may run them.

Each command of SENGENSHO.md that changes a battle builds one engine command class; required
options, defaults and the (GM) mark come from that class (``rulesets.engine_command``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from bot import commands as cmd
from bot import rulesets
from bot.commands import BuildContext, CommandSpec, Kind, Option, OptType, UserError
from bot.render import sengensho_text  # noqa: F401 - registers the sg.* event values for every front-end
from engine.common import Command, fold
from engine.sengensho import SENGENSHO, SengenshoState
from engine.sengensho import commands as sc
from engine.sengensho.items import VIAS
from engine.sengensho.limits import check_state
from engine.sengensho.state import Down, RollKind, Side

GROUP = "sg"


def _o(name: str, type_: OptType = OptType.STR, **kw: Any) -> Option:
    return Option(name, type_, **kw)


def _spec(name: str, cls: type[Command], *options: Option, kind: Kind = Kind.ENGINE) -> CommandSpec:
    return rulesets.engine_command(SENGENSHO.name, GROUP, name, cls, *options, kind=kind)


def _join(values: Mapping[str, Any], ctx: BuildContext) -> Command:
    """``/sg join``: the character is the invoker's; another ``owner`` or the enemy side is for GMs."""
    owner = values.get("owner")
    if owner is not None and owner != ctx.invoker and not ctx.is_gm:
        raise UserError("service.owner_gm_only")
    if values.get("side") == Side.ENEMY.value and not ctx.is_gm:
        raise UserError("sg.enemy_gm_only", name=values.get("name"))
    return sc.Join(**{**values, "invoker": ctx.invoker})


_NAME = _o("name")
_DICE = (_o("base", OptType.INT, min=-99, max=999), _o("dice", OptType.INT, min=0, max=30))
_ATTRIBUTE: dict[str, Any] = {"min": 0, "max": 99}

COMMANDS: tuple[CommandSpec, ...] = (
    _spec(
        "start",
        sc.Start,
        _o("title"),
        _o("ambush", OptType.BOOL),
        _o("gm_fixed", OptType.BOOL),
        kind=Kind.START,
    ),
    dataclasses.replace(
        _spec(
            "join",
            sc.Join,
            _NAME,
            *(_o(a, OptType.INT, **_ATTRIBUTE) for a in ("body", "endurance", "intellect", "sense", "will")),
            _o("hp", OptType.INT, min=1),
            _o("dp_max", OptType.INT, min=0, max=999),
            _o("recovery", OptType.INT, min=0, max=99),
            _o("side", OptType.CHOICE, choices=tuple(s.value for s in Side)),
            _o("owner", OptType.USER),
        ),
        build=_join,
    ),
    _spec("turn", sc.NextTurn),
    _spec("declare", sc.Declare, _NAME, _o("dp", OptType.INT, min=0, max=999)),
    _spec(
        "roll",
        sc.Roll,
        _NAME,
        *_DICE,
        _o("cap", OptType.INT, min=0, max=30),
        _o("target", OptType.INT),
        _o("against"),
        _o("label"),
        _o("kind", OptType.CHOICE, choices=tuple(k.value for k in RollKind)),
    ),
    _spec(
        "surprise",
        sc.Surprise,
        _o("attacker"),
        _o("target"),
        _o("distance", OptType.INT, min=0, max=100000),
        _o("wary", OptType.BOOL),
        _o("alert", OptType.BOOL),
        _o("ability", OptType.BOOL),
        _o("disguised", OptType.BOOL),
    ),
    _spec("hide", sc.Hide, _NAME, *_DICE),
    _spec("search", sc.Search, _NAME, *_DICE, _o("target")),
    _spec(
        "damage",
        sc.Damage,
        _NAME,
        _o("amount", OptType.INT, min=0),
        _o("mercy", OptType.CHOICE, choices=tuple(d.value for d in Down)),
        _o("via", OptType.CHOICE, choices=VIAS),
    ),
    _spec("item", sc.Item, _NAME, _o("holder"), _o("release", OptType.BOOL)),
    _spec("state", sc.SetState, _NAME, _o("unable", OptType.BOOL)),
    _spec(
        "spellcard",
        sc.SpellCard,
        _NAME,
        _o("declare", OptType.INT, min=1, max=99),
        _o("take_from"),
        _o("use", OptType.INT, min=1, max=99),
    ),
    _spec("end", sc.End),
    *cmd.ruleset_lifecycle(GROUP, SENGENSHO.name),
)


def _actor(command: Any) -> str | None:
    """The character a command acts as (whose owner may run it), if any."""
    if isinstance(command, sc.Surprise):
        return command.attacker
    if isinstance(command, sc.Declare | sc.Roll | sc.Hide | sc.Search | sc.Item | sc.SpellCard):
        return command.name
    return None


def authorize(state: SengenshoState, command: Any, invoker: str, is_gm: bool) -> None:
    """Players act as their own characters (and deal damage); the (GM) commands are the GM's."""
    if is_gm:
        return
    name = _actor(command)
    if name is None:
        return
    i = state.find(fold(name))
    if i is None:
        return  # the rules will say the character is unknown
    character = state.characters[i]
    if character.owner not in (None, invoker):
        if character.side is Side.ENEMY:
            raise UserError("service.enemy_gm_only", name=character.name)
        raise UserError("service.not_your_pc", name=character.name)


#: what the final summary lists
_SUMMARY = frozenset({"sg.damaged", "sg.knocked_out", "sg.revealed", "sg.joined", "sg.ended"})


rulesets.register(
    rulesets.RulesetBinding(
        ruleset=SENGENSHO,
        group=GROUP,
        command_to_json=sc.command_to_json,
        authorize=authorize,
        builders={"gm set": rulesets.gm_set_builder(sc.GMSet)},
        battle_end_kinds=frozenset({"sg.ended"}),
        in_summary=lambda kind: kind in _SUMMARY,
        check_limits=check_state,
    )
)
cmd.register(*COMMANDS)
