"""One planned battle played through the engine itself: its commands applied to the state.

The enemy side's turn is ``/unit advance`` (unless confused, F-UNIT-12), ``/unit attack`` by each
unit at F0 on a soldier outside, and ``/fort next``; the PC side's is the policy of
``engine.fort.planner.policy`` as commands: ``/fort repair``, ``/cannon fire``, ``/ballista fire`` or
``/ballista load``, each attack rolled with the engine's dice and applied as ``/commander hp`` or
``/unit hp`` (its applied damage by F-UNIT-6's own function), ``/unit attack`` by soldiers outside,
``/cannon load``; then ``/fort next``. This is the truth the fast runs
(``engine.fort.planner.fast``) are checked against: the dice a fast run used, replayed here, must give
the same end state. It is also the benchmark's baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import DiceSource, ParsedCommand
from engine.fort.commands import (
    AdvanceUnits,
    FireBallista,
    FireCannon,
    FortCommand,
    LoadBallista,
    LoadCannon,
    NextTurn,
    Repair,
    SetCommanderHP,
    SetUnitHP,
    UnitAttack,
)
from engine.fort.context import parse_amount
from engine.fort.engine import FORT
from engine.fort.map import Area
from engine.fort.planner.policy import (
    attacks_now,
    commander_target,
    equipment_actor,
    soldier_target,
    threat_order,
    works_equipment,
)
from engine.fort.planner.request import Focus, PlanRequest
from engine.fort.rules_damage import Blow, applied_damage, applied_to
from engine.fort.rules_equipment import MAGIC_BOLT
from engine.fort.rules_move import confused
from engine.fort.state import MAX_SHELLS, FortState, Side, Turn
from engine.ruleset import Event, RuleError


@dataclass(frozen=True, slots=True)
class Played:
    """A battle played to its end: the final state, the fort damage each unit dealt (by index), and
    every event of it, as the engine emitted them."""

    state: FortState
    fort_damage: tuple[int, ...]
    events: tuple[Event, ...]


class _Battle:
    def __init__(self, state: FortState, dice: DiceSource) -> None:
        self.state = state
        self.dice = dice
        self.damage = [0] * len(state.units)
        self.events: list[Event] = []
        self._index = {u.name: i for i, u in enumerate(state.units)}

    def apply(self, command: FortCommand) -> None:
        outcome = FORT.apply(self.state, command, self.dice)
        self.events += outcome.events
        for event in outcome.events:
            if event.kind == "fort.damaged" and event.data.get("unit") is not None:
                self.damage[self._index[event.data["unit"]]] += event.data["amount"]
        self.state = outcome.state


def play(state: FortState, request: PlanRequest, dice: DiceSource) -> Played:
    """The rest of the battle from ``state`` by the planner's policy, every die from ``dice``."""
    if state.ended:
        raise RuleError("odds.battle_over")
    battle = _Battle(state, dice)
    attacks = [(parse_amount(a.expression), Blow(a.kind)) for a in request.attacks]
    while not battle.state.ended:
        if battle.state.turn is Turn.PC:
            _pc_turn(battle, request, attacks)
        else:
            if not confused(battle.state):
                battle.apply(AdvanceUnits())
            if not battle.state.ended:
                _enemy_attacks(battle)
        if not battle.state.ended:
            battle.apply(NextTurn())
    return Played(battle.state, tuple(battle.damage), tuple(battle.events))


def _enemy_attacks(battle: _Battle) -> None:
    """F-TURN-2, F-UNIT-7: after the moves, each enemy unit at F0 attacks the first soldier outside."""
    for i in range(len(battle.state.units)):
        unit = battle.state.units[i]
        target = soldier_target(battle.state)
        if target is None:
            return
        if attacks_now(unit, Side.ENEMY):
            battle.apply(UnitAttack(attacker=unit.name, target=battle.state.units[target].name, hit=True))


def _pc_turn(battle: _Battle, request: PlanRequest, attacks: list[tuple[int | ParsedCommand, Blow]]) -> None:
    order = threat_order(battle.state)

    def target(melee: bool = False) -> int | None:
        units = battle.state.units
        for i in order:
            unit = units[i]
            if unit.on_map and (not melee or (unit.area is Area.F0 and not unit.flying)):
                return i
        return None

    equipment = request.equipment
    if equipment:
        state = battle.state
        actor = equipment_actor(state)
        if state.fort_hp < state.fort_max_hp and state.repaired_round != state.round and actor is not None:
            battle.apply(Repair(by=actor))
        for k in range(len(battle.state.cannons)):
            if battle.state.cannons[k] < 1:
                continue
            t, actor = target(), equipment_actor(battle.state)
            if t is None or actor is None:
                break
            battle.apply(FireCannon(cannon=k + 1, unit=battle.state.units[t].name, by=actor))
        _ballista(battle, target())
    for amount, blow in attacks:
        c = commander_target(battle.state) if request.focus is Focus.COMMANDERS else None
        if c is not None:
            commander = battle.state.commanders[c]
            applied = applied_damage(_raw(battle, amount), blow.kind, 0)  # F-UNIT-12: no defence
            battle.apply(SetCommanderHP(name=commander.name, delta=-applied))
            continue
        t = target()
        if t is None:
            break
        unit = battle.state.units[t]
        applied, _ = applied_to(unit, _raw(battle, amount), blow)
        battle.apply(SetUnitHP(unit=unit.name, delta=-applied))
    for i in range(len(battle.state.units)):
        if attacks_now(battle.state.units[i], Side.PC):
            t = target(melee=True)
            if t is None:
                break
            battle.apply(UnitAttack(attacker=battle.state.units[i].name, target=battle.state.units[t].name))
    if equipment:
        for i in range(len(battle.state.units)):
            unit = battle.state.units[i]
            if not works_equipment(unit):
                continue
            cannons = battle.state.cannons
            free = next((c for c, shells in enumerate(cannons) if shells < MAX_SHELLS), None)
            if free is None:
                break
            battle.apply(LoadCannon(cannon=free + 1, by=unit.name))


def _raw(battle: _Battle, amount: int | ParsedCommand) -> int:
    return amount if isinstance(amount, int) else amount.roll(battle.dice).damage


def _ballista(battle: _Battle, target: int | None) -> None:
    """F-BAL-1: loaded, it fires at the most urgent threat; empty, it is loaded (〈魔力の太矢〉 first)."""
    actor = equipment_actor(battle.state)
    ballista = battle.state.ballista
    if actor is None:
        return
    if ballista.loaded:
        if target is not None:
            battle.apply(FireBallista(unit=battle.state.units[target].name, hit=True, by=actor))
        return
    battle.apply(LoadBallista(bolt=None if ballista.magic_bolt_used else MAGIC_BOLT, by=actor))
