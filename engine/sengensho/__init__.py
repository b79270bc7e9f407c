"""千幻抄 dice-pool combat (section 6.3): a pure rule set, *state + command + dice → new state + events*.

``SENGENSHO.apply(state, command, dice)`` applies one command of ``engine.sengensho.commands`` to a
battle (``None`` before ``Start``) and returns an ``Outcome``, or raises a ``RuleError`` (``sg.*``)
and changes nothing. Rule ids (S-...) are those of SENGENSHO.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.common import EventRecorder, dice_values
from engine.common import replay as common_replay
from engine.dice.source import DiceSource
from engine.ruleset import Outcome, RuleError, Ruleset
from engine.sengensho import cards, checks, core, exchange, hiding, items, overrides, steps, surprise
from engine.sengensho.commands import (
    Answer,
    Attack,
    Damage,
    Declare,
    End,
    GMSet,
    Hide,
    Item,
    Join,
    NextStep,
    NextTurn,
    Profile,
    Roll,
    Search,
    SengenshoCommand,
    SetState,
    SpellCard,
    Start,
    Surprise,
    command_from_json,
    command_to_json,
)
from engine.sengensho.export import FORMAT, export_state, import_state
from engine.sengensho.lookup import running
from engine.sengensho.state import SengenshoState

Rule = Callable[[SengenshoState, Any, EventRecorder], SengenshoState]

#: the rule each command runs (``Start`` is handled apart: it needs no running battle)
RULES: dict[type[Any], Rule] = {
    Join: core.join,
    NextTurn: core.next_turn,
    NextStep: steps.next_step,
    Declare: core.declare,
    SetState: core.set_unable,
    End: core.end,
    Roll: checks.roll,
    Hide: hiding.hide,
    Search: hiding.search,
    Surprise: surprise.surprise,
    Damage: items.damage,
    Item: items.item,
    SpellCard: cards.spellcard,
    GMSet: overrides.gm_set,
    Attack: exchange.attack,
    Answer: exchange.answer,
    Profile: exchange.profile,
}


class SengenshoRules:
    """The ``Ruleset`` of 千幻抄 combat."""

    name = "sengensho"
    export_format = FORMAT

    def apply(
        self, state: SengenshoState | None, command: SengenshoCommand, dice: DiceSource
    ) -> Outcome[SengenshoState]:
        """One command: the new state and its events, or a ``RuleError`` and nothing changed.

        ``state`` is None before a battle exists; only ``Start`` applies then (and after an end).
        After any command, a step no one stands at any more moves on (S-CORE-3).
        """
        rec = EventRecorder(dice)
        if isinstance(command, Start):
            new = core.start(state, command, rec)
        else:
            rule = RULES.get(type(command))
            if rule is None:
                raise RuleError("sg.command_invalid", reason="unknown_type", type=type(command).__name__)
            new = steps.settle(rule(running(state), command, rec), rec)
        return Outcome(new, tuple(rec.events))

    #: ``toride.sengensho/1`` (engine.sengensho.export)
    export = staticmethod(export_state)
    import_ = staticmethod(import_state)


SENGENSHO = SengenshoRules()
_conforms: Ruleset[SengenshoState, SengenshoCommand] = SENGENSHO


def replay(
    initial: SengenshoState | None, steps: Iterable[tuple[SengenshoCommand, Sequence[int]]]
) -> SengenshoState | None:
    """The battle after each logged command again, with the dice values its events carry."""
    return common_replay(SENGENSHO.apply, initial, steps, "sg")


__all__ = [
    "FORMAT",
    "RULES",
    "SENGENSHO",
    "SengenshoCommand",
    "SengenshoRules",
    "SengenshoState",
    "command_from_json",
    "command_to_json",
    "dice_values",
    "replay",
]
