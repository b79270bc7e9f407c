"""Random fort battles for the differential tests: every kind of unit, trap, soldier and equipment,
the ballista, commanders, reinforcements, confusion, and a battle caught mid-turn (units moved, held
by barricades, units that have attacked)."""

from __future__ import annotations

import random

from engine.dice import SeededDice
from engine.fort import (
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    FortCommand,
    FortState,
    GMSet,
    MoveUnit,
    NextTurn,
    SetCommanderHP,
    SetTrap,
    StartBattle,
    UnitAttack,
)
from engine.fort.map import AREAS, EDGES, edge_text
from engine.fort.planner import PlanRequest, parse_pc_damage
from engine.fort.planner.request import Focus
from engine.ruleset import RuleError

#: strikes the fast runs compile (sums, plain rating rolls) and some the engine rolls for them
STRIKES = ("2d+4", "1d+2", "3d-2", "2d", "K20+5@10", "K10-3", "1d10+1", "2d6*2", "K10+3$+1", "(2d+1)/2")
WEAKNESSES = (None, None, "炎属性ダメージ+3", "物理ダメージ+2", "魔法ダメージ+2")
PC_DAMAGE = (None, "2d+4", "A=K20+8:magic,B=2d+6", "12:fixed", "K30+5@9,1d+3,2d6*2", "1d10:magic")
OUTSIDE = ("A2", "A1", "B1", "B2")


def random_battle(rng: random.Random) -> FortState:
    """A battle a GM could have: set up with the engine's commands (refused ones skipped), then played
    a few random steps so that it is caught anywhere in a turn."""
    rounds = rng.randint(1, 4)
    dice = SeededDice(rng.randrange(1 << 30))
    state = FORT.apply(
        None,
        StartBattle(
            rounds=rounds,
            fort_hp=rng.randint(30, 160),
            cannons=rng.randint(0, 2),
            first=rng.choice(("pc", "enemy")),
        ),
        dice,
    ).state
    commands: list[FortCommand] = []
    for p in range(rng.randint(0, 2)):
        commands.append(
            AddPC(name=f"PC{p}", position=rng.choice(("top", "inside", "outside")), invoker=f"u{p}")
        )
    for s in range(rng.randint(0, 3)):
        name = f"兵{s}"
        commands.append(
            AddUnit(name=name, type="soldier", area="F0", hp=rng.randint(5, 40), fort_damage=0,
                    strike=rng.choice(("2d", "2d+3", "K10+2", None)), defense=rng.randint(0, 3),
                    weakness=rng.choice(WEAKNESSES), position=rng.choice(("top", "top", "inside", "outside")))
        )  # fmt: skip
        if rng.random() < 0.3:
            commands.append(MoveUnit(unit=name, to=rng.choice(("A1", "B1")), force=True))
    for u in range(rng.randint(1, 9)):
        kind = rng.choice(("normal", "normal", "ram", "flying"))
        commands.append(
            AddUnit(
                name=f"U{u}",
                type=kind,
                area=rng.choice(OUTSIDE),
                hp=rng.randint(3, 50),
                fort_damage=rng.randint(0, 15),
                strike=rng.choice(STRIKES) if kind == "ram" or rng.random() < 0.5 else None,
                defense=rng.randint(0, 4),
                move=rng.choice((0, 10, 10, 10, 20, 30)),
                arrive_round=rng.randint(1, rounds) if rng.random() < 0.2 else None,
                weakness=rng.choice(WEAKNESSES),
            )
        )
    for _ in range(rng.randint(0, 4)):
        edge = edge_text(rng.choice(EDGES))
        commands.append(SetTrap(kind=rng.choice(("barricade", "mine")), edge=edge, uses=rng.randint(1, 3)))
    for c in range(len(state.cannons)):
        commands.append(GMSet(target=f"cannon.{c + 1}.shells", value=str(rng.randint(0, 5))))
    if rng.random() < 0.5:
        commands.append(GMSet(target="fort.hp", value=str(rng.randint(1, state.fort_max_hp))))
    if rng.random() < 0.2:  # F-UNIT-12: the last commander falls, the enemy's next turn is confused
        commands += [AddCommander(name="隊長", hp=10), SetCommanderHP(name="隊長", set=0)]
    elif rng.random() < 0.5:  # commanders standing, for focus:commanders
        for c in range(rng.randint(1, 2)):
            commands.append(AddCommander(name=f"将{c}", hp=rng.randint(5, 40), horn="全員の命中+1"))
        if rng.random() < 0.3:
            commands.append(SetCommanderHP(name="将0", delta=-rng.randint(1, 10)))
    if rng.random() < 0.3:  # F-BAL-1: loaded, or its one magic bolt already used
        commands.append(GMSet(target="ballista.loaded", value="true"))
    if rng.random() < 0.3:
        commands.append(GMSet(target="ballista.magic_bolt_used", value="true"))
    if rng.random() < 0.2:
        commands.append(GMSet(target="unit.U0.area", value=rng.choice(AREAS).value))
    for _ in range(rng.randint(0, 5)):
        attack = UnitAttack(attacker="U0", target="兵0")
        steps = (NextTurn(), AdvanceUnits(), MoveUnit(unit="U0", to="F0"), attack)
        commands.append(rng.choice(steps))
    for command in commands:
        try:
            outcome = FORT.apply(state, command, dice)
        except RuleError:
            continue
        if not outcome.state.ended:
            state = outcome.state
    return state


def random_request(rng: random.Random) -> PlanRequest:
    return PlanRequest(
        runs=100,
        attacks=parse_pc_damage(rng.choice(PC_DAMAGE)),
        equipment=rng.random() < 0.6,
        seed=rng.randrange(1 << 30),
        focus=rng.choice((Focus.THREATS, Focus.COMMANDERS, Focus.COMMANDERS)),
    )
