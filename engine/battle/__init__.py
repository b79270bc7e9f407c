"""Ordinary Sword World 2.5 combat (BATTLE.md), a pure rule set: *state + command + dice → new state +
events*.

- ``BATTLE.apply(state, command, dice) -> Outcome(state, events)``: ``state`` a ``BattleState`` (None
  before ``Start``); a refusal raises ``RuleError`` (``bt.*``, ``limits.*``, ``palette.*``, ``dice.*``) and
  changes nothing (states are immutable).
- ``BATTLE.export(state)`` / ``BATTLE.import_(document)``: the ``toride.battle/1`` document.
- Commands: ``engine.battle.commands`` (one frozen dataclass each, ``gm_only``; ``command_to_json`` and
  ``command_from_json``).
- What the table may see: ``engine.battle.visibility`` (``visible``, ``monster_view``, ``status``,
  ``rough_state``); events about a monster the table does not know carry ``audience=()`` (the GM's).
- Event kinds and refusal keys, with their fields: ``engine.battle.keys``.
- ``replay(initial, [(command, dice_values), ...])`` re-applies commands with their events' dice.
Rule ids (B-...) are those of BATTLE.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.common import EventRecorder, dice_values
from engine.common import replay as common_replay
from engine.dice.source import DiceSource
from engine.ruleset import Outcome, RuleError, Ruleset

from . import damage, effects, gmset, knowledge, roster, turns
from .commands import (
    COMMAND_TYPES,
    MP,
    Act,
    AddMonster,
    AddPC,
    BattleCommand,
    Damage,
    EffectAdd,
    EffectEnd,
    EffectExtend,
    End,
    GMSet,
    Heal,
    Initiative,
    Knowledge,
    Next,
    PartSpec,
    Reveal,
    Start,
    command_from_json,
    command_to_json,
)
from .export import FORMAT, export_state, import_state
from .keys import EVENTS, REFUSALS
from .limits import check_state
from .lookup import running
from .state import PC, BattleState, Effect, Lore, Monster, Part, Phase, Side

Rule = Callable[[BattleState, Any, EventRecorder], BattleState]

#: the rule each command runs (``Start`` is handled apart: it needs no running battle)
RULES: dict[type[Any], Rule] = {
    AddPC: roster.add_pc,
    AddMonster: roster.add_monster,
    Knowledge: knowledge.knowledge,
    Reveal: knowledge.reveal,
    Initiative: turns.initiative,
    Next: turns.next_turn,
    Act: turns.act,
    End: turns.end,
    Damage: damage.damage,
    Heal: damage.heal,
    MP: damage.mp,
    EffectAdd: effects.effect_add,
    EffectEnd: effects.effect_end,
    EffectExtend: effects.effect_extend,
    GMSet: gmset.gm_set,
}


class BattleRules:
    """The ``Ruleset`` of ordinary SW2.5 combat."""

    name = "battle"
    export_format = FORMAT

    def apply(
        self, state: BattleState | None, command: BattleCommand, dice: DiceSource
    ) -> Outcome[BattleState]:
        """One command: the new state and its events, or a ``RuleError`` and nothing changed.

        ``state`` is None before a battle exists; only ``Start`` applies then (and after an end).
        """
        rec = EventRecorder(dice)
        if isinstance(command, Start):
            new = roster.start(state, command, rec)
            for step in command.setup:  # B-VIEW-2: what it begins with, as the GM's commands
                rule = RULES.get(type(step))
                if rule is None or isinstance(step, Start | Next | End):
                    raise RuleError("bt.command_invalid", reason="unknown_type", type=type(step).__name__)
                new = rule(new, step, rec)
        else:
            rule = RULES.get(type(command))
            if rule is None:
                raise RuleError("bt.command_invalid", reason="unknown_type", type=type(command).__name__)
            new = rule(running(state), command, rec)
        rec.check_all_dice_emitted()
        return Outcome(new, tuple(rec.events))

    #: ``toride.battle/1`` (engine.battle.export)
    export = staticmethod(export_state)
    import_ = staticmethod(import_state)
    check_limits = staticmethod(check_state)


BATTLE = BattleRules()
_conforms: Ruleset[BattleState, BattleCommand] = BATTLE


def replay(
    initial: BattleState | None, steps: Iterable[tuple[BattleCommand, Sequence[int]]]
) -> BattleState | None:
    """The battle after each logged command again, with the dice values its events carry."""
    return common_replay(BATTLE.apply, initial, steps, "bt")


__all__ = [
    "BATTLE",
    "COMMAND_TYPES",
    "EVENTS",
    "FORMAT",
    "MP",
    "PC",
    "REFUSALS",
    "RULES",
    "Act",
    "AddMonster",
    "AddPC",
    "BattleCommand",
    "BattleRules",
    "BattleState",
    "Damage",
    "Effect",
    "EffectAdd",
    "EffectEnd",
    "EffectExtend",
    "End",
    "GMSet",
    "Heal",
    "Initiative",
    "Knowledge",
    "Lore",
    "Monster",
    "Next",
    "Part",
    "PartSpec",
    "Phase",
    "Reveal",
    "Side",
    "Start",
    "check_state",
    "command_from_json",
    "command_to_json",
    "dice_values",
    "export_state",
    "import_state",
    "replay",
]
