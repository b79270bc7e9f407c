"""The order (B-INIT-1, B-INIT-2): 先制判定, the first side, rounds and turns, who has acted, the end.

**Rulings.** Each PC rolls its 先制判定 once, before the first turn (the GM may let it roll again). The
GM ends a side's turn; a player may end the PC side's turn once every PC standing has acted. The first
``/battle next`` starts the first turn; it needs the first side: the GM's, or the 先制判定's (a PC must
have rolled, unless there is no monster).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.common import EventRecorder
from engine.dice import parse_command
from engine.ruleset import RuleError

from . import lookup
from .commands import Act, End, Initiative, Next
from .effects import expire
from .knowledge import knows_numbers, rough_state
from .rolls import roll_check
from .state import BattleState, Monster, Phase, Side
from .words import parse_check


def first_side(pc_best: int | None, enemy_best: int | None) -> Side | None:
    """B-INIT-1: PC side first when its best 先制判定 reaches the highest 先制値."""
    # None: no PC has rolled while there are monsters.
    if enemy_best is None:
        return Side.PC
    if pc_best is None:
        return None
    return Side.PC if pc_best >= enemy_best else Side.ENEMY


def initiative(state: BattleState, command: Initiative, rec: EventRecorder) -> BattleState:
    """B-INIT-1: a PC's 先制判定 (2D6 + 先制力 unless a total or another expression is given), once."""
    if state.phase is not Phase.SETUP:
        raise RuleError("bt.initiative_closed", round=state.round)
    who = lookup.pc(state, command.name)
    lookup.check_owner(who, command.invoker, command.gm)
    if who.initiative_total is not None and not command.gm:
        raise RuleError("bt.initiative_rolled", name=who.name, total=who.initiative_total)
    check = (
        parse_check(command.total) if command.total is not None else parse_command(f"2D6{who.initiative:+d}")
    )
    total, roll = roll_check(check, rec)
    new = state.put(replace(who, initiative_total=total))
    best = _pc_best(new)
    rec.emit(
        "bt.initiative",
        {"name": who.name, "total": total, "roll": roll, "best": best[0], "best_name": best[1]},
    )
    return new


def _pc_best(state: BattleState) -> tuple[int | None, str | None]:
    rolled = [p for p in state.pcs if p.initiative_total is not None]
    if not rolled:
        return None, None
    top = max(rolled, key=lambda p: p.initiative_total or 0)
    return top.initiative_total, top.name


def _enemy_best(state: BattleState) -> tuple[Monster | None, int | None]:
    if not state.monsters:
        return None, None
    top = max(state.monsters, key=lambda m: m.initiative)
    return top, top.initiative


def _decide_first(state: BattleState, rec: EventRecorder) -> Side:
    """B-INIT-1: the GM's first side, or the 先制判定 against the highest 先制値."""
    pc_best, pc_name = _pc_best(state)
    top, enemy_best = _enemy_best(state)
    first = state.first if state.first is not None else first_side(pc_best, enemy_best)
    if first is None:
        raise RuleError("bt.initiative_needed", enemy=top.name if top else None)
    how = "gm" if state.first is not None else "initiative" if top is not None else "no_monsters"
    shown = top is not None and knows_numbers(state, top)
    rec.emit(
        "bt.first_decided",
        {
            "first": first.value,
            "how": how,
            "pc_best": pc_best,
            "pc_name": pc_name,
            "enemy_best": enemy_best if shown else None,
            "enemy_name": top.name if top else None,
        },
    )
    return first


def _may_end_turn(state: BattleState, command: Next) -> None:
    """B-INIT-2: the GM ends a turn; a player the PC side's, once every PC standing has acted."""
    if command.gm:
        return
    if state.phase is Phase.SETUP:
        raise RuleError("bt.turns_gm_only")
    assert state.turn is not None
    if state.turn is Side.ENEMY:
        raise RuleError("bt.not_your_turn", name=None, turn=state.turn.value, round=state.round)
    waiting = lookup.not_acted(state, Side.PC)
    if waiting:
        raise RuleError("bt.turn_not_done", names=waiting, round=state.round)


def turn_start(state: BattleState, round_: int, side: Side, rec: EventRecorder) -> BattleState:
    """B-INIT-2, B-EFF-1: a side's turn begins: no one has acted, its side's effects count a turn."""
    # Those that end are said in the turn's first line (``ended``).
    state = replace(
        state,
        round=round_,
        turn=side,
        pcs=tuple(replace(p, acted=False) for p in state.pcs),
        monsters=tuple(replace(m, acted=False) for m in state.monsters),
    )
    state, ended = expire(state, side)
    rec.emit(
        "bt.turn_started",
        {"round": round_, "side": side.value, "ended": ended, "to_act": lookup.not_acted(state, side)},
    )
    return state


def next_turn(state: BattleState, command: Next, rec: EventRecorder) -> BattleState:
    """B-INIT-2: a round is the first side's turn, then the other's; ``next`` ends the turn now."""
    _may_end_turn(state, command)
    if state.phase is Phase.SETUP:
        first = _decide_first(state, rec)
        return turn_start(replace(state, phase=Phase.RUNNING, first=first), 1, first, rec)
    assert state.turn is not None and state.first is not None
    rec.emit(
        "bt.turn_ended",
        {"round": state.round, "side": state.turn.value, "not_acted": lookup.not_acted(state, state.turn)},
    )
    if state.turn is state.first:
        return turn_start(state, state.round, state.turn.other, rec)
    rec.emit("bt.round_ended", {"round": state.round})
    return turn_start(state, state.round + 1, state.first, rec)


def act(state: BattleState, command: Act, rec: EventRecorder) -> BattleState:
    """B-INIT-2: a character marked as having acted in its side's turn (or, ``acted:false``, not)."""
    who = lookup.character(state, command.name)
    lookup.check_owner(who, command.invoker, command.gm)
    if state.phase is not Phase.RUNNING:
        raise RuleError("bt.no_turn")
    lookup.turn_guard(state, who, command.gm)
    done = False
    if command.acted and who.side is state.turn:
        new, done = lookup.with_acted(state, who)
    else:
        new = state.put(replace(who, acted=command.acted))
    side = state.turn
    assert side is not None
    rec.emit("bt.acted", {"name": who.name, "acted": command.acted, "not_acted": lookup.not_acted(new, side)})
    if done:
        lookup.side_done(new, rec)
    return new


def _summary(state: BattleState) -> dict[str, Any]:
    pcs = [{"name": p.name, "hp": p.hp, "max_hp": p.max_hp, "down": p.down} for p in state.pcs]
    monsters = [
        {
            "name": m.name,
            "down": m.down,
            "parts": [{"name": p.name, "state": rough_state(p.hp, p.max_hp).value} for p in m.parts],
        }
        for m in state.monsters
    ]
    return {"pcs": pcs, "monsters": monsters}


def end(state: BattleState, command: End, rec: EventRecorder) -> BattleState:
    """B-VIEW-1: the GM ends the battle; the summary lists each side as the table sees it."""
    rec.emit("bt.ended", {"title": state.title, "round": state.round, **_summary(state)})
    return replace(state, phase=Phase.ENDED)
