"""Rounds and turns (F-TURN-1..3), reinforcements (F-MAP-7) and the end (F-END-1, F-END-2)."""

from __future__ import annotations

from typing import Any

from engine import limits
from engine.common import fold
from engine.errors import about
from engine.fort import commands as c
from engine.fort.commands import EndBattle, StartBattle
from engine.fort.context import Context
from engine.fort.lookup import name_key
from engine.fort.rules_fort import finish, unit_fort_damage
from engine.fort.state import BattleOutcome, FortState, Side, Turn, UnitType, evolve
from engine.ruleset import RuleError

MAX_ROUNDS = 99
MAX_CANNONS = limits.MAX_CANNONS
MAX_FORT_HP = limits.MAX_HP
END_OUTCOMES = ("auto", "success", "collapse", "retreat")


def parse_side(text: str) -> Side:
    try:
        return Side(fold(text))
    except ValueError:
        raise RuleError("fort.side_invalid", side=text, allowed=[s.value for s in Side]) from None


def start_battle(ctx: Context, cmd: StartBattle) -> FortState:
    """F-TURN-1, F-FORT-1, F-CAN-1: rounds, fort HP (300), cannons (2) and which side goes first, fixed
    at start."""
    if not 1 <= cmd.rounds <= MAX_ROUNDS:
        raise RuleError("fort.rounds_invalid", about="rounds", rounds=cmd.rounds, max=MAX_ROUNDS)
    if not 1 <= cmd.fort_hp <= MAX_FORT_HP:
        raise RuleError("fort.fort_hp_invalid", about="fort_hp", fort_hp=cmd.fort_hp, max=MAX_FORT_HP)
    if not 0 <= cmd.cannons <= MAX_CANNONS:
        raise RuleError("fort.cannons_invalid", about="cannons", cannons=cmd.cannons, max=MAX_CANNONS)
    with about("first"):
        first = parse_side(cmd.first)
    state = FortState(
        title=cmd.title,
        rounds=cmd.rounds,
        round=1,
        turn=Turn(first.value),
        first=first,
        fort_hp=cmd.fort_hp,
        fort_max_hp=cmd.fort_hp,
        cannons=(0,) * cmd.cannons,
    )
    ctx.emit(
        "battle.started",
        {
            "title": cmd.title,
            "rounds": cmd.rounds,
            "fort_hp": cmd.fort_hp,
            "cannons": cmd.cannons,
            "first": first.value,
        },
    )
    ctx.emit("battle.turn_started", {"round": 1, "side": first.value})
    return state


def enemy_turn_start(ctx: Context, state: FortState) -> FortState:
    """F-FORT-4, F-TURN-2: each enemy unit at F0 deals its fort damage, once per unit, in unit order,
    before any movement (a ram rolls its strike)."""
    for unit in state.units:
        if unit.on_map and unit.side is Side.ENEMY and unit.area.value == "F0":
            state = unit_fort_damage(ctx, state, unit, "turn_start")
            if state.ended:
                break
    return state


def enemy_turn_end(ctx: Context, state: FortState) -> FortState:
    """F-MAP-7, F-TURN-2, F-UNIT-12: at the end of the enemy side's turn this round's reinforcements
    arrive, and confusion ends."""
    units = list(state.units)
    for i, unit in enumerate(units):
        if not unit.arrived and unit.arrive_round is not None and unit.arrive_round <= state.round:
            units[i] = evolve(unit, arrived=True)
            if not unit.destroyed:  # F-UNIT-6: one destroyed before it came never arrives on the map
                ctx.emit("unit.arrived", {"unit": unit.name, "area": unit.area.value, "round": state.round})
    state = evolve(state, units=tuple(units))
    if state.confused_round is not None and state.confused_round <= state.round:
        ctx.emit("battle.confusion_ended", {"round": state.confused_round})
        state = evolve(state, confused_round=None)
    return state


def round_end(ctx: Context, state: FortState) -> FortState:
    """F-TURN-1: a round ends when its second side's turn ends, whichever side went first: only then
    its end line (and the round's summary, which follows it)."""
    ctx.emit(
        "battle.round_summary",
        {
            "round": state.round,
            "fort_hp": state.fort_hp,
            "fort_max_hp": state.fort_max_hp,
            "units_on_map": [u.name for u in state.units if u.on_map and u.side is Side.ENEMY],
            "cannons": list(state.cannons),
        },
    )
    return state


#: F-TURN-3: the commands that are always a PC-side action (attacks, equipment, repair, heal, a PC's move)
_PC_ACTIONS = (
    c.MovePC,
    c.AttackSingle,
    c.AttackArea,
    c.AttackPierce,
    c.Repair,
    c.HealFort,
    c.LoadCannon,
    c.FireCannon,
    c.LoadBallista,
    c.FireBallista,
)
#: F-TURN-3: the commands that are always an enemy-side action
_ENEMY_ACTIONS = (c.AdvanceUnits, c.MoveCommander)
#: F-TURN-3: the commands that are the action of the unit they name, in that unit's side's turn
_UNIT_ACTIONS: dict[type, str] = {c.MoveUnit: "unit", c.UnitAttack: "attacker", c.UnitBarrage: "unit"}


_TURN_OF = {Side.PC: Turn.PC, Side.ENEMY: Turn.ENEMY}


def action_side(state: FortState, command: Any) -> Side | None:
    """F-TURN-3: whose turn an action belongs to: PCs' and soldiers' actions to the PC side's, enemy
    units' moves and attacks to the enemy side's; None for what belongs to no turn (set-up, HP, the
    GM's overrides) or a unit the rules will not find."""
    if isinstance(command, _PC_ACTIONS):
        return Side.PC
    if isinstance(command, _ENEMY_ACTIONS):
        return Side.ENEMY
    field = _UNIT_ACTIONS.get(type(command))
    if field is not None:
        key = name_key(getattr(command, field))
        return next((u.side for u in state.units if u.key == key), None)
    return None


def out_of_turn(state: FortState, command: Any) -> Side | None:
    """F-TURN-3: the side whose turn it is, when ``command`` is an action of the other side; else None."""
    side = action_side(state, command)
    if side is None or state.turn is _TURN_OF[side] or state.ended:
        return None
    return Side.ENEMY if side is Side.PC else Side.PC


def round_begun(state: FortState) -> bool:
    """F-TURN-3: round 1 has begun once an action of a side's turn was taken or its first turn ended;
    before that is the set-up (the preparation)."""
    return state.begun or state.round > 1 or state.turn is not _TURN_OF[state.first]


def begin_round(before: FortState, state: FortState, command: Any) -> FortState:
    """F-TURN-3: an action of a side's turn (or a turn's end) carried out begins round 1."""
    if state.begun or not (isinstance(command, c.NextTurn) or action_side(before, command) is not None):
        return state
    return evolve(state, begun=True)


def check_trap_setting(state: FortState, command: Any) -> None:
    """F-TURN-3: setting a trap once round 1 has begun is the GM's (traps are laid in the preparation)."""
    if isinstance(command, c.SetTrap) and round_begun(state):
        raise RuleError("fort.trap_set_gm_only", round=state.round)


def check_turn(state: FortState, command: Any, gm: bool) -> None:
    """F-TURN-3: a player's action out of its side's turn is refused, saying whose turn it is (the GM's
    is carried out, and its events marked ``out_of_turn``); so is a player's trap once round 1 has begun."""
    if gm:
        return
    turn = out_of_turn(state, command)
    if turn is not None:
        raise RuleError("fort.not_your_turn", turn=turn.value, round=state.round)
    check_trap_setting(state, command)


def renew(state: FortState, side: Side) -> FortState:
    """F-TURN-3: when a side's turn starts, its units' movement allowance and main action, and (for the
    PC side) the PCs' moves, are renewed: nothing carries over from an earlier turn."""
    units, pcs = state.units, state.pcs
    used = [i for i, u in enumerate(units) if u.moved_m or u.halted is not None or u.acted is not None]
    if any(units[i].side is side for i in used):
        renewed = list(units)
        for i in used:
            if units[i].side is side:
                renewed[i] = evolve(units[i], moved_m=0, halted=None, acted=None)
        units = tuple(renewed)
    if side is Side.PC and any(p.moved_m for p in pcs):
        pcs = tuple(evolve(p, moved_m=0) if p.moved_m else p for p in pcs)
    return evolve(state, units=units, pcs=pcs)


def next_turn(ctx: Context, state: FortState) -> FortState:
    """F-TURN-1: one side's turn, then the other's; after the last round's second turn, the end.
    F-TURN-3: the side whose turn starts has its allowances renewed."""
    side = Side(state.turn.value)
    ctx.emit("battle.turn_ended", {"round": state.round, "side": side.value})
    if side is Side.ENEMY:
        state = enemy_turn_end(ctx, state)
    if side is state.second:
        state = round_end(ctx, state)
        if state.round >= state.rounds:
            return end_of_battle(ctx, state)
        state = evolve(state, round=state.round + 1, turn=Turn(state.first.value))
    else:
        state = evolve(state, turn=Turn(state.second.value))
    ctx.emit("battle.turn_started", {"round": state.round, "side": state.turn.value})
    state = renew(state, Side(state.turn.value))
    if state.turn is Turn.ENEMY:
        state = enemy_turn_start(ctx, state)
    return state


def end_of_battle(ctx: Context, state: FortState, reason: str = "rounds") -> FortState:
    """F-END-1, F-END-2: every enemy unit with HP 1 or more deals its fort damage once more, unit by
    unit; then HP 1 or more: the defence holds, else collapse. ``reason`` is ``gm`` when the GM ends
    the battle early with ``outcome:auto``."""
    for unit in state.units:
        if unit.on_map and unit.hp >= 1 and unit.type is not UnitType.SOLDIER:
            state = unit_fort_damage(ctx, state, unit, "end")
            if state.ended:
                return state
    outcome = BattleOutcome.SUCCESS if state.fort_hp >= 1 else BattleOutcome.COLLAPSE
    return finish(ctx, state, outcome, reason)


def end_battle(ctx: Context, state: FortState, cmd: EndBattle) -> FortState:
    """F-END-2: the GM ends the battle: ``auto`` as if the rounds were over, or the given outcome; after a
    collapse the GM may still record ``retreat`` (or another outcome)."""
    outcome = fold(cmd.outcome)
    if outcome not in END_OUTCOMES:
        raise RuleError("fort.outcome_invalid", outcome=cmd.outcome, allowed=list(END_OUTCOMES))
    if state.ended:
        if outcome == "auto":
            raise RuleError("fort.battle_over", outcome=state.outcome.value if state.outcome else None)
        before = state.outcome.value if state.outcome else None
        ctx.emit("battle.outcome_set", {"before": before, "after": outcome})
        return evolve(state, outcome=BattleOutcome(outcome))
    if outcome == "auto":
        return end_of_battle(ctx, state, reason="gm")
    return finish(ctx, state, BattleOutcome(outcome), "gm")
