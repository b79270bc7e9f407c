"""Property tests: random command sequences with dice drawn by hypothesis.

Nothing but a rule refusal is ever raised; the invariants hold after every command (0 ≤ shells ≤ 5,
uses ≥ 0, HP ≤ maximum, a destroyed unit never acts, a position exactly for soldiers at F0, no unit acting
twice in a turn without the GM's ``acted`` override, no allowance carried over between turns); a refusal
changes nothing; replaying the recorded dice reproduces the battle exactly; export/import is lossless.
"""

from __future__ import annotations

import json
from typing import Any

from fort_helpers import check_catalogued
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice
from engine.fort import (
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    AttackArea,
    AttackPierce,
    AttackSingle,
    EndBattle,
    FireBallista,
    FireCannon,
    FortCommand,
    FortState,
    GMSet,
    HealFort,
    LoadBallista,
    LoadCannon,
    MoveCommander,
    MovePC,
    MoveUnit,
    NextTurn,
    RemovePC,
    RemoveTrap,
    RemoveUnit,
    Repair,
    SetCommanderHP,
    SetPCHP,
    SetTrap,
    SetUnitHP,
    Siege,
    StartBattle,
    UnitAttack,
    UnitBarrage,
    command_from_json,
    command_to_json,
    dice_values,
    replay,
)
from engine.fort.export import import_state
from engine.fort.map import Area
from engine.fort.restore import restore_state
from engine.fort.state import MAX_SHELLS, Side, UnitType
from engine.ruleset import RuleError

UNITS = ["狼", "槌", "鳥", "兵", "衛", "鬼", "Ｇｈｏｓｔ"]
PCS = ["Alice", "Bob", "Cid"]
COMMANDERS = ["隊長", "副長"]
AREAS = ["A2", "A1", "F0", "B1", "B2", "A1", "F0", "Ａ１", "C9"]
EDGES = ["A2-A1", "F0-A1", "F0-B1", "B1-B2", "A1-B1", "B2-A2", "A1-F0", "A1-B2"]
POSITIONS = ["top", "inside", "outside", "outside", "under"]
WEAKNESSES = [None, "炎属性ダメージ+3", "物理ダメージ+2", "魔法ダメージ+2", "命中力+1", "炎ダメージ"]
ELEMENTS = [None, None, "fire", "water", "炎", "holy"]
USERS = ["u1", "u1", "u2", "u3", None]
DAMAGE = st.one_of(st.integers(0, 40), st.sampled_from(["2d+6", "K20+5", "K40+12@10", "1d", "bad", "2D6>=7"]))

unit_name = st.sampled_from([*UNITS, "狼", "鬼", "槌", "鳥"])
pc_name = st.sampled_from(PCS)
actor = st.sampled_from([None, "Alice", "Alice", "Alice", "Bob", "兵", "兵", "衛", "狼"])
invoker = st.sampled_from(USERS)
area = st.sampled_from(AREAS)
hp_change = st.one_of(st.integers(-60, 30), st.none())
hp_delta = st.integers(-40, 10)

_end = st.builds(EndBattle, outcome=st.sampled_from(["auto", "success", "collapse", "retreat"]))
_rare: st.SearchStrategy[FortCommand] = st.one_of(
    st.builds(
        Siege,
        effect=st.sampled_from(["mattock", "meteor", "titanfoot", "fixed", "ram"]),
        roll=st.one_of(st.none(), st.sampled_from(["K30+10", "K20+5@8", "2d", "1d-4"])),
        amount=st.one_of(st.none(), st.integers(-1, 80)),
    ),
    st.builds(
        AddPC,
        name=pc_name,
        position=st.one_of(st.none(), st.sampled_from(POSITIONS)),
        hp=st.one_of(st.none(), st.integers(0, 60)),
        move=st.one_of(st.none(), st.sampled_from([0, 10, 20, 30])),
        owner=st.none(),
        invoker=invoker,
    ),
    st.builds(
        MovePC,
        name=pc_name,
        position=st.one_of(st.none(), st.sampled_from(POSITIONS)),
        area=st.one_of(st.none(), area),
    ),
    st.builds(SetPCHP, name=pc_name, delta=hp_delta),
    st.builds(SetPCHP, name=pc_name, set=hp_change),
    st.builds(RemovePC, name=pc_name),
    st.builds(RemoveUnit, unit=unit_name),
    st.builds(RemoveTrap, kind=st.sampled_from(["barricade", "mine"]), edge=st.sampled_from(EDGES)),
    st.builds(HealFort, amount=st.integers(-1, 20)),
    st.builds(AddCommander, name=st.sampled_from(COMMANDERS), hp=st.integers(0, 40), area=area,
              horn=st.sampled_from([None, "", "命中力+1"])),
    st.builds(MoveCommander, name=st.sampled_from(COMMANDERS), to=area),
)  # fmt: skip
_common: st.SearchStrategy[FortCommand] = st.one_of(
    st.builds(NextTurn),
    st.builds(AddUnit, name=unit_name, type=st.sampled_from(["normal", "ram", "flying", "soldier", "dragon"]),
              area=area, hp=st.integers(0, 60), fort_damage=st.integers(0, 30),
              strike=st.one_of(st.none(), st.sampled_from(["2d+6", "K20+3", "1d-4", "x"])),
              defense=st.integers(0, 6),
              move=st.sampled_from([0, 10, 20, 30, 15]),
              arrive_round=st.one_of(st.none(), st.integers(1, 4)),
              position=st.sampled_from([None, None, *POSITIONS]), weakness=st.sampled_from(WEAKNESSES)),
    st.builds(MoveUnit, unit=unit_name, to=area, force=st.booleans(), via=st.one_of(st.none(), area),
              position=st.sampled_from([None, None, None, *POSITIONS])),
    st.builds(AdvanceUnits, unit=st.one_of(st.none(), unit_name)),
    st.builds(SetUnitHP, unit=unit_name, delta=hp_delta),
    st.builds(SetUnitHP, unit=unit_name, set=hp_change),
    st.builds(UnitAttack, attacker=unit_name, target=unit_name, hit=st.booleans()),
    st.builds(UnitBarrage, unit=unit_name, apply_hp=st.booleans()),
    st.builds(SetCommanderHP, name=st.sampled_from(COMMANDERS), delta=hp_delta),
    st.builds(SetCommanderHP, name=st.sampled_from(COMMANDERS), set=hp_change),
    st.builds(AttackSingle, unit=unit_name, bodies=st.integers(0, 11), melee=st.booleans(), by=actor,
              invoker=invoker),
    st.builds(AttackArea, unit=unit_name, damage=DAMAGE, radius=st.integers(0, 9),
              kind=st.sampled_from(["physical", "magic", "fixed", "holy"]), element=st.sampled_from(ELEMENTS),
              targets=st.one_of(st.none(), st.integers(0, 3)), by=actor, invoker=invoker),
    st.builds(AttackArea, commander=st.sampled_from(COMMANDERS), damage=DAMAGE, radius=st.integers(3, 8),
              by=actor, invoker=invoker),
    st.builds(AttackArea, area=area, damage=DAMAGE, radius=st.integers(3, 8), kind=st.just("magic"),
              targets=st.one_of(st.none(), st.integers(1, 3)), by=actor, invoker=invoker),
    st.builds(AttackPierce, from_=area, to=area, damage=DAMAGE, kind=st.sampled_from(["physical", "magic"]),
              element=st.sampled_from(ELEMENTS), resisted=st.booleans(), by=actor, invoker=invoker),
    st.builds(Repair, by=actor, invoker=invoker),
    st.builds(SetTrap, kind=st.sampled_from(["barricade", "mine", "pit"]), edge=st.sampled_from(EDGES),
              uses=st.integers(0, 4).map(lambda n: n or 1) | st.just(0)),
    st.builds(LoadCannon, cannon=st.sampled_from([1, 1, 2, 0, 3]),
              check=st.one_of(st.none(), st.integers(5, 30)),
              bonus=st.integers(-2, 15), by=actor, invoker=invoker),
    st.builds(FireCannon, cannon=st.sampled_from([1, 1, 2, 0, 3]), unit=unit_name, by=actor, invoker=invoker),
    st.builds(FireCannon, cannon=st.just(1), commander=st.sampled_from(COMMANDERS), by=actor,
              invoker=invoker),
    st.builds(FireCannon, cannon=st.just(1), area=area, by=actor, invoker=invoker),
    st.builds(LoadBallista, bolt=st.sampled_from([None, "魔力の太矢", "竜牙の太矢", "銀"]), by=actor,
              invoker=invoker),
    st.builds(FireBallista, unit=unit_name, bonus=st.integers(-3, 5), crit=st.integers(2, 12),
              hit=st.booleans(), by=actor, invoker=invoker),
    st.builds(FireBallista, area=area, commander=st.sampled_from([None, None, "隊長"]), hit=st.booleans(),
              by=actor, invoker=invoker),
    st.builds(GMSet, target=st.sampled_from([
        "fort.hp", "fort.max_hp", "round", "rounds", "turn", "cannon.1.shells", "cannon.3.shells",
        "ballista.loaded", "trap.mine.A1-F0.uses", "unit.狼.hp", "unit.狼.area", "unit.槌.type",
        "unit.兵.destroyed", "pc.Alice.position", "pc.Bob.hp", "commander.隊長.hp", "confused_round",
        "outcome", "nonsense", "unit.狼.acted", "unit.兵.acted", "unit.兵.position", "unit.衛.area",
        "unit.狼.moved_m", "unit.狼.halted", "unit.鬼.weakness", "unit.兵.type", "pc.Alice.moved_m",
        "commander.隊長.horn",
    ]), value=st.sampled_from(["0", "1", "3", "5", "6", "-4", "200", "A1", "F0", "top", "true", "ram",
                               "enemy", "none", "x", "false", "inside", "outside", "soldier",
                               "炎属性ダメージ+3"])),
)  # fmt: skip
_turns = st.builds(NextTurn)
_moves = st.builds(AdvanceUnits, unit=st.none())


#: Weights out of 100 (hypothesis draws sampled elements evenly, shrinking toward the first).
_MIX = [_common] * 78 + [_turns] * 8 + [_moves] * 6 + [_rare] * 7 + [_end]
commands: st.SearchStrategy[FortCommand] = st.sampled_from(_MIX).flatmap(lambda strategy: strategy)

SETUP: list[FortCommand] = [
    AddPC(name="Alice", position="top", hp=40, move=20, invoker="u1"),
    AddPC(name="Bob", position="outside", hp=30, move=10, invoker="u2"),
    AddPC(name="Cid", position="inside", invoker="u3"),
    AddUnit(name="狼", type="normal", area="A1", hp=30, fort_damage=10, strike="2d+4", defense=1, move=20),
    AddUnit(name="槌", type="ram", area="A2", hp=40, fort_damage=0, strike="2d+6"),
    AddUnit(name="鳥", type="flying", area="B2", hp=20, fort_damage=5, move=20),
    AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d+3"),
    AddUnit(
        name="衛", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d", move=20, position="outside"
    ),
    AddUnit(
        name="鬼",
        type="normal",
        area="B1",
        hp=50,
        fort_damage=8,
        strike="2d+6",
        defense=3,
        weakness="炎属性ダメージ+3",
    ),
    AddUnit(name="Ｇｈｏｓｔ", type="normal", area="B2", hp=25, fort_damage=6, arrive_round=2),
    AddCommander(name="隊長", hp=20, area="A2"),
    AddCommander(name="副長", hp=15, area="B2"),
    SetTrap(kind="mine", edge="A1-F0", uses=2),
    SetTrap(kind="barricade", edge="B1-F0", uses=1),
]


class DrawnDice:
    """Dice drawn by hypothesis (so failures shrink); a script, never seeded luck."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def roll(self, sides: int) -> int:
        value: int = self.data.draw(st.integers(1, sides), label=f"d{sides}")
        return value


def check_invariants(state: FortState) -> None:
    assert all(0 <= s <= MAX_SHELLS for s in state.cannons)
    assert all(t.uses >= 0 for t in state.traps)
    assert state.fort_hp <= state.fort_max_hp
    assert all(u.hp <= u.max_hp for u in state.units)
    assert all(c.hp <= c.max_hp for c in state.commanders)
    assert all(p.hp is None or p.max_hp is None or p.hp <= p.max_hp for p in state.pcs)
    keys = [p.key for p in state.pcs] + [u.key for u in state.units] + [c.key for c in state.commanders]
    assert len(keys) == len(set(keys))
    assert 1 <= state.round <= state.rounds
    assert all((p.position is None) == (p.area.value != "F0") for p in state.pcs)
    # F-MAP-4: a position exactly for soldier units at F0
    assert all(
        (u.position is not None) == (u.type is UnitType.SOLDIER and u.area is Area.F0) for u in state.units
    )


#: F-UNIT-14: the events that show a unit's main action (the unit's field), and the equipment events
#: whose ``by`` is a soldier's main action
_MAIN_ACTIONS = {"unit.attacked": "attacker", "unit.barrage": "unit"}
_EQUIPMENT = ("cannon.loaded", "cannon.load_failed", "cannon.fired", "ballista.loaded", "ballista.fired",
              "fort.repaired")  # fmt: skip


class TurnLedger:
    """What each unit did in the current turn, read from the events (F-UNIT-14, F-TURN-3): no unit takes a
    second main action in one turn unless the GM cleared ``acted``; no unit moves past its allowance
    unless forced or overridden; everything of a side is renewed when its turn starts."""

    def __init__(self) -> None:
        self.acted: set[str] = set()
        self.overridden: set[str] = set()

    def check(self, before: FortState, command: FortCommand, after: FortState, events: list[Any]) -> None:
        soldiers = {u.name for u in before.units if u.type is UnitType.SOLDIER}
        actors = {  # one command is at most one main action of a unit (a barrage has an event per target)
            e.data[_MAIN_ACTIONS.get(e.kind, "by")]
            for e in events
            if e.kind in _MAIN_ACTIONS or (e.kind in _EQUIPMENT and e.data["by"] in soldiers)
        }
        for name in actors:
            assert name not in self.acted, ("a second main action in one turn", name, command)
        self.acted |= actors
        self.acted -= {e.data["unit"] for e in events if e.kind in ("unit.added", "unit.removed")}
        if isinstance(command, GMSet) and command.target.startswith("unit."):
            touched = {u.name for u in after.units if command.target.startswith(f"unit.{u.name}.")}
            self.overridden |= touched  # the GM's values: the allowance is the GM's call
            self.acted -= {u.name for u in after.units if u.name in touched and u.acted is None}
        if isinstance(command, MoveUnit) and command.force:
            self.overridden |= {
                e.data["unit"] for e in events if e.kind in ("unit.moved", "unit.repositioned")
            }
        if (after.round, after.turn) != (before.round, before.turn):
            self.acted.clear()
        for event in events:
            if event.kind == "battle.turn_started":  # F-TURN-3: nothing of that side carries over
                side = Side(event.data["side"])
                for u in after.units:
                    if u.side is side:
                        assert (u.moved_m, u.halted, u.acted) == (0, None, None), u
                        self.overridden.discard(u.name)
                if side is Side.PC:
                    assert all(p.moved_m == 0 for p in after.pcs)
        for u in after.units:
            if u.name not in self.overridden:
                assert u.moved_m <= u.move, ("moved past its allowance", u, command)


def check_destroyed_never_act(before: FortState, events: list[Any]) -> None:
    """F-UNIT-6: a destroyed unit (or one not yet arrived) never moves, attacks or damages the fort,
    including later in the same command."""
    gone = {u.name for u in before.units if not u.on_map}
    for event in events:
        data = event.data
        if event.kind == "unit.moved" and data["stopped"] == "destroyed":
            continue  # the report of the move a mine ended: the unit died on its way
        if event.kind in ("unit.moved", "unit.barrage") or (event.kind == "fort.damaged" and "unit" in data):
            assert data["unit"] not in gone, event
        if event.kind == "unit.attacked":
            assert data["attacker"] not in gone and data["target"] not in gone, event
        if event.kind == "unit.destroyed":
            gone.add(data["unit"])
        if event.kind in ("unit.arrived", "unit.revived"):
            gone.discard(data["unit"])


@settings(
    max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    rounds=st.integers(2, 5),
    first=st.sampled_from(["pc", "enemy"]),
    cannons=st.integers(0, 3),
    script=st.lists(commands, min_size=10, max_size=45),
    data=st.data(),
)
def test_random_battles_keep_every_invariant_and_replay_exactly(
    rounds: int, first: str, cannons: int, script: list[FortCommand], data: Any
) -> None:
    """F-FORT-1, F-CAN-1, F-TRAP-1, F-UNIT-6, F-MAP-4, F-UNIT-14, F-TURN-3: invariants under any command
    sequence (soldier positions, one main action a turn, allowances renewed per turn); replay is exact."""
    dice = DrawnDice(data)
    state = FORT.apply(
        None, StartBattle(rounds=rounds, first=first, cannons=cannons, fort_hp=400), dice
    ).state
    for command in SETUP:
        state = FORT.apply(state, command, dice).state
    initial = state
    ledger = TurnLedger()
    log: list[tuple[FortCommand, list[int]]] = []
    history: list[list[Any]] = []
    for command in script:
        snapshot = FORT.export(state)
        try:
            outcome = FORT.apply(state, command, dice)
        except RuleError as error:
            assert FORT.export(state) == snapshot  # a refusal leaves the state untouched
            check_catalogued(error=error)
            continue
        check_catalogued(list(outcome.events))
        check_invariants(outcome.state)
        check_destroyed_never_act(state, list(outcome.events))
        ledger.check(state, command, outcome.state, list(outcome.events))
        log.append((command, dice_values(outcome.events)))
        history.append(list(outcome.events))
        state = outcome.state
    assert replay(initial, log) == state
    again: FortState = initial  # the same commands with the recorded dice give the same events, too
    for (command, values), events in zip(log, history, strict=True):
        outcome = FORT.apply(again, command, ScriptedDice(values))
        assert list(outcome.events) == events
        again = outcome.state
    assert FORT.import_(FORT.export(state)) == state
    # a stored battle (its document through JSON) is restored to the same state without the import
    stored = json.loads(json.dumps(FORT.export(state), ensure_ascii=False))
    assert restore_state(stored) == state == import_state(stored)
    assert [command_from_json(command_to_json(c)) for c, _ in log] == [c for c, _ in log]


@settings(max_examples=40, deadline=None)
@given(script=st.lists(commands, min_size=1, max_size=15), seed=st.integers(0, 2**32 - 1))
def test_commands_survive_json_in_an_event_log(script: list[FortCommand], seed: int) -> None:
    """Commands go into the service's event log as JSON and come back equal."""
    import json

    for command in script:
        assert command_from_json(json.loads(json.dumps(command_to_json(command)))) == command


_VALID_AREAS = st.sampled_from(["A2", "A1", "F0", "B1", "B2"])
_FIGHTERS = st.sampled_from(["狼", "鬼", "兵", "衛", "槌"])
_SOLDIERS = st.sampled_from(["兵", "衛"])
_POSITIONS = st.sampled_from(["top", "inside", "outside"])
_TURN_COMMANDS: st.SearchStrategy[FortCommand] = st.one_of(
    st.builds(NextTurn),
    st.builds(MoveUnit, unit=_FIGHTERS, to=_VALID_AREAS, force=st.sampled_from([False, False, False, True])),
    st.builds(MoveUnit, unit=_SOLDIERS, to=st.just("F0"), position=_POSITIONS),
    st.builds(AdvanceUnits),
    st.builds(UnitAttack, attacker=_FIGHTERS, target=_FIGHTERS, hit=st.booleans()),
    st.builds(UnitBarrage, unit=_FIGHTERS),
    st.builds(LoadCannon, cannon=st.just(1), by=_SOLDIERS),
    st.builds(FireCannon, cannon=st.just(1), area=_VALID_AREAS, by=_SOLDIERS),
    st.builds(LoadBallista, by=_SOLDIERS),
    st.builds(FireBallista, area=_VALID_AREAS, by=_SOLDIERS),
    st.builds(Repair, by=_SOLDIERS),
    st.builds(MovePC, name=st.just("Alice"), area=_VALID_AREAS),
    st.builds(MovePC, name=st.just("Alice"), position=_POSITIONS),
    st.builds(GMSet, target=_FIGHTERS.map(lambda name: f"unit.{name}.acted"), value=st.just("false")),
    st.builds(GMSet, target=st.just("fort.hp"), value=st.just("250")),
)  # fmt: skip
_TURN_SETUP: list[FortCommand] = [
    AddPC(name="Alice", position="top", hp=40, move=20, invoker="u1"),
    AddPC(name="Bob", position="outside", hp=30, move=10, invoker="u2"),
    AddUnit(name="兵", type="soldier", area="F0", hp=60, fort_damage=0, strike="2d+3", move=20),
    AddUnit(
        name="衛", type="soldier", area="F0", hp=60, fort_damage=0, strike="2d", move=20, position="outside"
    ),
    AddUnit(name="狼", type="normal", area="A1", hp=60, fort_damage=1, strike="2d+4", move=20),
    AddUnit(name="鬼", type="normal", area="B1", hp=80, fort_damage=1, strike="2d+6", defense=3),
    AddUnit(name="槌", type="ram", area="A2", hp=60, fort_damage=0, strike="1d"),
    SetTrap(kind="barricade", edge="A1-F0", uses=3),
    SetTrap(kind="mine", edge="B1-F0", uses=2),
    GMSet(target="unit.狼.area", value="F0"),  # in melee with the soldier outside from the start
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.sampled_from(["pc", "enemy"]), script=st.lists(_TURN_COMMANDS, min_size=20, max_size=80),
       data=st.data())  # fmt: skip
def test_random_turns_no_unit_acts_twice_and_no_allowance_carries_over(
    first: str, script: list[FortCommand], data: Any
) -> None:
    """F-UNIT-14, F-TURN-3, F-MAP-4: for mostly legal sequences of moves, attacks, barrages and equipment
    actions over many turns: no unit acts twice in a turn without the GM's ``acted`` override, no unit
    moves past its allowance, nothing carries over between turns, positions only for soldiers at F0."""
    dice = DrawnDice(data)
    state = FORT.apply(None, StartBattle(rounds=8, first=first, fort_hp=2000), dice).state
    for command in _TURN_SETUP:
        state = FORT.apply(state, command, dice).state
    ledger = TurnLedger()
    for command in script:
        try:
            outcome = FORT.apply(state, command, dice)
        except RuleError as error:
            check_catalogued(error=error)
            continue
        check_invariants(outcome.state)
        ledger.check(state, command, outcome.state, list(outcome.events))
        state = outcome.state
