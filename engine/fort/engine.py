"""The fort rule set: ``FORT.apply(state, command, dice)``, export/import, and replay."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine import common
from engine.dice import DiceSource
from engine.fort import commands as c
from engine.fort import (
    rules_attack,
    rules_equipment,
    rules_fort,
    rules_move,
    rules_roster,
    rules_sheets,
    rules_turn,
)
from engine.fort.commands import FortCommand
from engine.fort.context import Context
from engine.fort.export import FORMAT, export_state, import_state
from engine.fort.gmset import gm_set
from engine.fort.state import FortState
from engine.ruleset import Event, Outcome, RuleError, Ruleset

Handler = Callable[[Context, FortState, Any], FortState]

_HANDLERS: dict[type, Handler] = {
    c.NextTurn: lambda ctx, s, cmd: rules_turn.next_turn(ctx, s),
    c.EndBattle: rules_turn.end_battle,
    c.AddPC: rules_roster.add_pc,
    c.MovePC: rules_roster.move_pc,
    c.SetPCHP: rules_roster.set_pc_hp,
    c.RemovePC: rules_roster.remove_pc,
    c.ClaimPC: rules_roster.claim_pc,
    c.ReadPCSheet: rules_sheets.read_pc_sheet,
    c.SetPCPalette: rules_sheets.set_pc_palette,
    c.AddUnit: rules_roster.add_unit,
    c.RemoveUnit: rules_roster.remove_unit,
    c.MoveUnit: rules_move.move_unit,
    c.AdvanceUnits: rules_move.advance,
    c.SetUnitHP: rules_roster.set_unit_hp,
    c.UnitAttack: rules_attack.unit_attack,
    c.UnitBarrage: rules_attack.unit_barrage,
    c.AddCommander: rules_roster.add_commander,
    c.MoveCommander: rules_roster.move_commander,
    c.SetCommanderHP: rules_roster.commander_hp,
    c.AttackSingle: rules_attack.attack_single,
    c.AttackArea: rules_attack.attack_area,
    c.AttackPierce: rules_attack.attack_pierce,
    c.Repair: rules_fort.repair,
    c.HealFort: rules_fort.heal_fort,
    c.Siege: rules_fort.siege,
    c.SetTrap: rules_equipment.set_trap,
    c.RemoveTrap: rules_equipment.remove_trap,
    c.LoadCannon: rules_equipment.load_cannon,
    c.FireCannon: rules_equipment.fire_cannon,
    c.LoadBallista: rules_equipment.load_ballista,
    c.FireBallista: rules_equipment.fire_ballista,
    c.GMSet: gm_set,
}
#: Commands that still apply once the battle has ended (the GM's overrides and outcome).
_AFTER_END = (c.GMSet, c.EndBattle)


class FortRules:
    """The 砦防衛戦闘 rule set (satisfies ``engine.ruleset.Ruleset``)."""

    name = "fort"
    export_format = FORMAT

    def apply(self, state: FortState | None, command: FortCommand, dice: DiceSource) -> Outcome[FortState]:
        """Applies one command: a new state and its events, or a ``RuleError`` and nothing changed.

        ``state`` is None before a battle exists; only ``StartBattle`` applies then (and after an end).
        """
        ctx = Context(dice)
        if isinstance(command, c.StartBattle):
            if state is not None and not state.ended:
                raise RuleError("fort.battle_running", round=state.round)
            new = rules_turn.start_battle(ctx, command)
        else:
            if state is None:
                raise RuleError("fort.no_battle")
            handler = _HANDLERS.get(type(command))
            if handler is None:
                raise RuleError("fort.command_invalid", reason="unknown_type", type=type(command).__name__)
            if state.ended and not isinstance(command, _AFTER_END):
                raise RuleError("fort.battle_over", outcome=state.outcome.value if state.outcome else None)
            new = rules_turn.begin_round(state, handler(ctx, state, command), command)
            turn = rules_turn.out_of_turn(state, command)
            if turn is not None:  # F-TURN-3: the GM's action out of its side's turn, carried out, marked
                ctx.events[:] = [mark_out_of_turn(e, turn.value) for e in ctx.events]
        ctx.check_all_dice_emitted()
        return Outcome(new, tuple(ctx.events))

    def export(self, state: FortState) -> dict[str, Any]:
        return export_state(state)

    def import_(self, document: Mapping[str, Any]) -> FortState:
        return import_state(document)


def mark_out_of_turn(event: Event, turn: str) -> Event:
    """F-TURN-3: an event of an action taken out of its side's turn says whose turn it was."""
    return Event(event.kind, {**event.data, "out_of_turn": turn}, event.dice)


FORT = FortRules()
_conforms: Ruleset[FortState, FortCommand] = FORT


def replay(initial: FortState | None, steps: Iterable[tuple[FortCommand, Sequence[int]]]) -> FortState | None:
    """Re-applies commands with the dice recorded in their events; gives the same state exactly.

    Raises ``dice.script_exhausted`` (too few dice) or ``fort.replay_dice_left`` (too many) if the
    recorded dice do not fit a command.
    """
    return common.replay(FORT.apply, initial, steps, "fort")
