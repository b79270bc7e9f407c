"""The 千幻抄 rule set's ``/sg`` commands (engine/sengensho), who may run them, and what of them is secret.

Each command of SENGENSHO.md that changes a battle builds one engine command class; required
options, defaults and the (GM) mark come from that class (``rulesets.engine_command``).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from bot.commands import (
    BuildContext,
    CommandSpec,
    Kind,
    Option,
    OptType,
    UserError,
    engine_command,
    ruleset_lifecycle,
)
from engine.common import Command, fold
from engine.ruleset import RuleError
from engine.sengensho import SENGENSHO, SengenshoState
from engine.sengensho import commands as sc
from engine.sengensho.core import ATTRIBUTES
from engine.sengensho.exchange import DEFENCES, find_exchange
from engine.sengensho.items import MERCY_CHOICES, VIAS
from engine.sengensho.state import GMFixed, Opening, RollKind, Side

GROUP = "sg"


def _o(name: str, type_: OptType = OptType.STR, **kw: Any) -> Option:
    return Option(name, type_, **kw)


def _spec(name: str, cls: type[Command], *options: Option, kind: Kind = Kind.ENGINE) -> CommandSpec:
    return engine_command(SENGENSHO.name, GROUP, name, cls, *options, kind=kind)


def _join(values: Mapping[str, Any], ctx: BuildContext) -> Command:
    """``/sg join``: the character is the invoker's; another ``owner``, the enemy side, or a
    reinforcement's ``initiative`` (S-REIN-1) is for GMs."""
    owner = values.get("owner")
    if owner is not None and owner != ctx.invoker and not ctx.is_gm:
        raise UserError("service.owner_gm_only")
    if values.get("side") == Side.ENEMY.value and not ctx.is_gm:
        raise UserError("sg.enemy_gm_only", name=values.get("name"))
    if values.get("initiative") is not None and not ctx.is_gm:
        raise UserError("sg.initiative_gm_only", name=values.get("name"))
    return sc.Join(**{**values, "invoker": ctx.invoker, "gm": ctx.is_gm})


def _item(values: Mapping[str, Any], ctx: BuildContext) -> Command:
    """``/sg item``: whether the holder knows what it carries is the GM's to say (S-ITEM-2)."""
    if values.get("holder_knows") and not ctx.is_gm:
        raise UserError("sg.holder_knows_gm_only", name=values.get("name"))
    return sc.Item(**values)


def _attack(values: Mapping[str, Any], ctx: BuildContext) -> Command:
    """``/sg attack``: the attacker is by default the invoker's own character."""
    return sc.Attack(**{**values, "invoker": ctx.invoker, "gm": ctx.is_gm})


def _optional(spec: CommandSpec, *names: str) -> CommandSpec:
    """``names`` may be left out although the engine class has no default for them (``base``: the
    sheet gives it, S-CORE-4); the rules then say what is missing."""
    options = tuple(dataclasses.replace(o, required=False) if o.name in names else o for o in spec.options)
    return dataclasses.replace(spec, options=options)


def _as_gm(spec: CommandSpec) -> CommandSpec:
    """A command whose engine class learns whether the GM runs it, never an option (S-CORE-3: the
    GM's rolls out of step are carried out and marked)."""
    build = spec.build
    assert build is not None

    def with_gm(values: Mapping[str, Any], ctx: BuildContext) -> Command:
        command: Any = build(values, ctx)
        return typing.cast(Command, dataclasses.replace(command, gm=ctx.is_gm))

    return dataclasses.replace(spec, build=with_gm)


def _reads() -> tuple[CommandSpec, ...]:
    """``status``, ``log``, ``export``, ``import``; ``gm:true`` on the first two shows what is hidden
    to a GM (and a player their own hidden characters), to them only (S-HIDE-1)."""
    gm = _o("gm", OptType.BOOL, default=False)
    return tuple(
        dataclasses.replace(spec, options=(*spec.options, gm)) if spec.name in ("status", "log") else spec
        for spec in ruleset_lifecycle(GROUP, SENGENSHO.name)
    )


_NAME = _o("name")
_DICE = _o("dice", OptType.INT, min=0, max=30)
_BASE = _o("base", OptType.INT, min=-99, max=999)
_ATTRIBUTE: dict[str, Any] = {"min": 0, "max": 99}

COMMANDS: tuple[CommandSpec, ...] = (
    _spec(
        "start",
        sc.Start,
        _o("title"),
        _o("opening", OptType.CHOICE, choices=tuple(o.value for o in Opening)),
        _o(
            "gm_fixed",
            OptType.CHOICE,
            choices=tuple(g.value for g in GMFixed),
            aliases=(("true", GMFixed.CHECKS.value), ("false", GMFixed.OFF.value)),
        ),
        _o("ambush", OptType.BOOL),
        kind=Kind.START,
    ),
    dataclasses.replace(
        _spec(
            "join",
            sc.Join,
            _NAME,
            *(_o(a, OptType.INT, **_ATTRIBUTE) for a in ATTRIBUTES),
            _o("skills"),
            _o("hp", OptType.INT, min=1),
            _o("dp_max", OptType.INT, min=0, max=999),
            _o("recovery", OptType.INT, min=0, max=99),
            _o("side", OptType.CHOICE, choices=tuple(s.value for s in Side)),
            _o("owner", OptType.USER),
            _o("initiative", OptType.INT, min=0, max=999),
            _o("hidden", OptType.BOOL),
        ),
        build=_join,
    ),
    _spec("turn", sc.NextTurn),
    _spec("next", sc.NextStep),
    _spec("declare", sc.Declare, _NAME, _o("dp", OptType.INT, min=0, max=999)),
    _as_gm(
        _optional(
            _spec(
                "roll",
                sc.Roll,
                _NAME,
                _DICE,
                _BASE,
                _o("check"),
                _o("kind", OptType.CHOICE, choices=tuple(k.value for k in RollKind)),
                _o("cap", OptType.INT, min=0, max=30),
                _o("target", OptType.INT),
                _o("against"),
                _o("at"),
                _o("label"),
            ),
            "base",
        )
    ),
    _spec(
        "surprise",
        sc.Surprise,
        _o("attacker"),
        _o("target"),
        _o("distance", OptType.INT, min=0, max=100000),
        _o("wary", OptType.BOOL),
        _o("alert", OptType.INT, min=0, max=100000),
        _o("ability", OptType.BOOL),
        _o("disguised", OptType.BOOL),
    ),
    _as_gm(_optional(_spec("hide", sc.Hide, _NAME, _DICE, _BASE), "base")),
    _optional(_spec("search", sc.Search, _NAME, _DICE, _BASE, _o("target")), "base"),
    _spec(
        "damage",
        sc.Damage,
        _NAME,
        _o("amount", OptType.INT, min=0),
        _o("mercy", OptType.CHOICE, choices=MERCY_CHOICES),
        _o("via", OptType.CHOICE, choices=VIAS),
    ),
    dataclasses.replace(
        _spec(
            "item",
            sc.Item,
            _NAME,
            _o("holder"),
            _o("release", OptType.BOOL),
            _o("holder_knows", OptType.BOOL),
        ),
        build=_item,
    ),
    _spec("state", sc.SetState, _NAME, _o("unable", OptType.BOOL)),
    _spec(
        "spellcard",
        sc.SpellCard,
        _NAME,
        _o("declare"),
        _o("use"),
        _o("take_from"),
        _o("card"),
        _o("give_to"),
    ),
    dataclasses.replace(
        _spec(
            "attack",
            sc.Attack,
            _o("target"),
            _DICE,
            _o("name"),
            _o("check"),
            _BASE,
            _o("damage"),
            _o("kind", OptType.CHOICE, choices=(RollKind.ATTACK.value, RollKind.MELEE.value)),
        ),
        build=_attack,
    ),
    _as_gm(
        _spec(
            "answer",
            sc.Answer,
            _o("defence", OptType.CHOICE, choices=DEFENCES),
            _o("dice", OptType.INT, min=0, max=30),
            _o("exchange", OptType.INT, min=1),
            _o("name"),
            _o("mercy", OptType.CHOICE, choices=MERCY_CHOICES),
        )
    ),
    _spec("set", sc.Profile, _NAME, _o("attack"), _o("evasion"), _o("guard"), _o("damage"), _o("answer")),
    _spec("end", sc.End, _o("reveal", OptType.BOOL)),
    *_reads(),
)

#: options that name a character already in the battle
CHARACTER_OPTIONS = ("name", "attacker", "target", "against", "at", "holder", "take_from", "give_to")


def _actor(command: Any) -> str | None:
    """The character a command acts as (whose owner may run it), if any."""
    if isinstance(command, sc.Surprise):
        return command.attacker
    if isinstance(command, sc.Declare | sc.Roll | sc.Hide | sc.Search | sc.Item | sc.SpellCard):
        return command.name
    if isinstance(command, sc.Attack | sc.Profile):
        return command.name
    return None


def _answerer(state: SengenshoState, command: sc.Answer) -> str | None:
    """``/sg answer``: the character whose owner answers the exchange (the defender; at 0 HP, the
    attacker's mercy, S-MERCY-1); None if the rules will say there is no such exchange."""
    try:
        x = find_exchange(state, command.exchange, command.name)
    except RuleError:
        return None
    i = state.find(x.awaits())
    return None if i is None else state.characters[i].name


def authorize(state: SengenshoState, command: Any, who: BuildContext) -> None:
    """Players act as their own characters (and deal damage); the (GM) commands are the GM's.

    S-HIDE-1: to a player, a hidden character that is not theirs is not there: naming it gets what
    naming no one gets, checked before anything else, so that no other refusal comes first for one."""
    if who.is_gm:
        return
    invoker = who.invoker
    if not isinstance(command, sc.Join):
        for option in CHARACTER_OPTIONS:
            name = getattr(command, option, None)
            if not isinstance(name, str):
                continue
            i = state.find(fold(name))
            if i is None or (state.characters[i].hidden and state.characters[i].owner != invoker):
                raise UserError("sg.unknown_character", name=name)
    name = _answerer(state, command) if isinstance(command, sc.Answer) else _actor(command)
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
    if isinstance(command, sc.SpellCard) and command.take_from is not None:
        _check_handed_over(state, command, invoker)


def _check_handed_over(state: SengenshoState, command: sc.SpellCard, invoker: str) -> None:
    """S-CARD-1: a card is handed over, not taken: another player's character's card is theirs to give
    (``give_to:``); a player takes over only from their own characters (or the GM's gift)."""
    assert command.take_from is not None
    j = state.find(fold(command.take_from))
    if j is None:
        return  # the rules will say the character is unknown
    giver = state.characters[j]
    if giver.owner not in (None, invoker):
        raise UserError("sg.card_take_needs_giver", giver=giver.name, taker=command.name)


def secret_text(before: SengenshoState, after: SengenshoState, command: Any) -> bool:
    """S-HIDE-1: the command names a character hidden after it (one that appears by it is no secret)."""
    hidden = {c.key for c in after.characters if c.hidden}
    if not hidden:
        return False
    # only the options that name a character: a free text (a roll's label) that happens to be a hidden
    # one's name is no secret, or its command line would vanish exactly when the guess is right
    for option in CHARACTER_OPTIONS:
        value = getattr(command, option, None)
        if isinstance(value, str) and {fold(value), fold(value.rpartition(".")[0])} & hidden:
            return True
    return False


#: own rolls that reveal a hidden character (S-HIDE-1: undiscovered until its attack)
_REVEALING = frozenset({RollKind.ATTACK.value, RollKind.MELEE.value})


def private_reply(state: SengenshoState, path: str, options: Mapping[str, Any], invoker: str) -> bool:
    """S-HIDE-1: the reply to this command will be secret: it joins or hides a character, or names one
    hidden now and is no attack (which reveals it) nor a change of whether it hides."""
    if path == "sg join":
        return bool(options.get("hidden"))
    if path == "sg hide":
        return True
    if path == "sg roll" and fold(str(options.get("kind") or "")) in _REVEALING:
        return False
    names = [options.get(o) for o in CHARACTER_OPTIONS]
    if path == "gm set":
        owner, _, field = str(options.get("target") or "").rpartition(".")
        if fold(field) == "hidden":
            return False
        names = [owner]
    hidden = {c.key for c in state.characters if c.hidden}
    return any(isinstance(n, str) and fold(n) in hidden for n in names)


#: what the final summary lists
SUMMARY = frozenset({"sg.damaged", "sg.knocked_out", "sg.revealed", "sg.joined", "sg.ended"})


def in_summary(kind: str) -> bool:
    return kind in SUMMARY
