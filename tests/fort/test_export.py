"""Export and import in the COMMANDS.md format (toride.fort/1), lossless; commands as JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fort_helpers import battle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.fort import (
    COMMAND_TYPES,
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    AttackPierce,
    GMSet,
    LoadBallista,
    LoadCannon,
    MovePC,
    MoveUnit,
    NextTurn,
    SetTrap,
    command_from_json,
    command_to_json,
)
from engine.fort.commands import Command
from engine.ruleset import RuleError

DOCUMENTED = {
    "format",
    "title",
    "rounds",
    "round",
    "turn",
    "first",
    "outcome",
    "fort",
    "pcs",
    "units",
    "commanders",
    "traps",
    "cannons",
    "ballista",
    "confused_round",
}


def busy() -> Any:
    run = battle(rounds=4, title="北の砦")
    run(AddPC(name="Bob", position="outside", invoker="u2"))
    run(MovePC(name="Bob", area="B1"))
    run(AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=40, fort_damage=10, strike="2d+6", defense=2))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0))
    run(AddUnit(name="援", type="flying", area="B2", hp=10, fort_damage=3, arrive_round=3))
    run(AddCommander(name="隊長", hp=60))
    run(SetTrap(kind="mine", edge="F0-A1", uses=1))
    run(SetTrap(kind="barricade", edge="A1-A2", uses=2))
    run(LoadCannon(cannon=2, check=21, by="Alice"))
    run(LoadBallista(bolt="魔力の太矢", by="兵"))
    run(GMSet(target="fort.hp", value="270"))
    run(NextTurn())
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(MoveUnit(unit="ゴブリン隊", to="F0"))  # held by the barricade: an extra key to keep
    return run


def test_export_has_the_documented_format() -> None:
    run = busy()
    doc = FORT.export(run.s)
    assert set(doc) >= DOCUMENTED
    assert (doc["format"], doc["title"], doc["rounds"], doc["round"], doc["turn"], doc["first"]) == (
        "toride.fort/1",
        "北の砦",
        4,
        1,
        "enemy",
        "pc",
    )
    assert doc["fort"] == {"hp": 270, "max_hp": 300, "repaired_round": None}
    assert {k: doc["pcs"][1][k] for k in ("name", "area", "position", "hp", "owner")} == {
        "name": "Bob",
        "area": "B1",
        "position": None,
        "hp": None,
        "owner": "u2",
    }
    goblins = doc["units"][0]
    assert {
        k: goblins[k]
        for k in (
            "name",
            "type",
            "side",
            "area",
            "hp",
            "max_hp",
            "fort_damage",
            "strike",
            "defense",
            "move",
            "arrive_round",
            "destroyed",
        )
    } == {
        "name": "ゴブリン隊",
        "type": "normal",
        "side": "enemy",
        "area": "A1",
        "hp": 40,
        "max_hp": 40,
        "fort_damage": 10,
        "strike": "2D+6",
        "defense": 2,
        "move": 10,
        "arrive_round": None,
        "destroyed": False,
    }
    assert goblins["held_edge"] == "A1-F0"
    assert doc["commanders"] == [{"name": "隊長", "area": "A2", "hp": 60, "max_hp": 60, "horn": None}]
    assert doc["traps"] == [
        {"kind": "mine", "edge": "A1-F0", "uses": 1},
        {"kind": "barricade", "edge": "A2-A1", "uses": 2},
        {"kind": "barricade", "edge": "A1-F0", "uses": 0},
    ]
    assert doc["cannons"] == [{"shells": 0}, {"shells": 3}]
    assert {k: doc["ballista"][k] for k in ("loaded", "magic_bolt_used")} == {
        "loaded": True,
        "magic_bolt_used": True,
    }
    assert doc["confused_round"] is None and doc["outcome"] is None
    json.dumps(doc)


def test_import_of_export_is_lossless() -> None:
    run = busy()
    doc = json.loads(json.dumps(FORT.export(run.s)))
    assert FORT.import_(doc) == run.s


def test_a_scenario_file_may_leave_out_everything_but_rounds() -> None:
    state = FORT.import_(
        {
            "rounds": 3,
            "units": [
                {"name": "狼", "type": "normal", "area": "A2", "hp": 20, "fort_damage": 5},
                {"name": "援", "type": "ram", "area": "B2", "hp": 20, "strike": "2d+5", "arrive_round": 2},
            ],
            "pcs": [{"name": "Ａｌｉｃｅ", "position": "top", "hp": 30}],
            "traps": [{"kind": "mine", "edge": "F0-A1", "uses": 2}],
        }
    )
    assert (state.round, state.turn.value, state.fort_hp, state.cannons) == (1, "pc", 300, (0, 0))
    assert state.pcs[0].name == "Alice" and state.pcs[0].area.value == "F0"
    assert state.units[0].on_map and not state.units[1].arrived
    assert FORT.import_(FORT.export(state)) == state


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda d: d.pop("rounds"), "$.rounds: missing"),
        (lambda d: d.update(format="other/1"), "$.format: wrong_format"),
        (lambda d: d.update(rounds="3"), "$.rounds: not_an_integer"),
        (lambda d: d.update(turn="gm"), "$.turn: not_one_of"),
        (lambda d: d["fort"].update(hp=301), "$.fort.hp: above_max_hp"),
        (lambda d: d["fort"].update(hp=0), "$.fort.hp: collapsed_but_running"),  # F-FORT-6
        (lambda d: d["cannons"].append({"shells": 6}), "$.cannons[2].shells: out_of_range"),
        (lambda d: d["traps"][0].update(uses=-1), "$.traps[0].uses: out_of_range"),
        (lambda d: d["units"][0].update(hp=41), "$.units[0].hp: out_of_range"),
        (lambda d: d["units"][0].update(side="pc"), "$.units[0].side: does_not_match_type"),
        (lambda d: d["units"][1].update(name="ゴブリン隊"), "$.units[1].name: name_taken"),
        (lambda d: d["pcs"][1].update(position="top"), "$.pcs[1].position: only_at_f0"),
        (lambda d: d.update(units={}), "$.units: not_a_list"),
        (lambda d: d["units"].append(3), "$.units[3]: not_an_object"),
        (lambda d: d["ballista"].update(loaded="yes"), "$.ballista.loaded: not_a_boolean"),
        (lambda d: d["units"][0].update(position="top"), "$.units[0].position: only_soldiers_at_f0"),
        (lambda d: d["units"][0].update(halted="tired"), "$.units[0].halted: not_one_of"),
        (lambda d: d["units"][0].update(moved_m=-10), "$.units[0].moved_m: out_of_range"),
        (lambda d: d["commanders"][0].update(horn=3), "$.commanders[0].horn: not_a_string"),
    ],
)
def test_import_refuses_bad_documents_with_a_reason(mutate: Any, reason: str) -> None:
    doc = json.loads(json.dumps(FORT.export(busy().s)))
    mutate(doc)
    with pytest.raises(RuleError) as caught:
        FORT.import_(doc)
    values = caught.value.values
    assert (caught.value.key, f"{values['place']}: {values['reason']}") == ("fort.import_invalid", reason)


def test_import_refuses_bad_values_inside_with_the_rule_key() -> None:
    doc = json.loads(json.dumps(FORT.export(busy().s)))
    doc["traps"][0]["edge"] = "A1-B2"
    with pytest.raises(RuleError) as caught:
        FORT.import_(doc)
    assert caught.value.key == "fort.import_invalid"
    values = caught.value.values
    assert (values["place"], values["reason"]) == ("$.traps[0].edge", "fort.edge_not_adjacent")
    assert values["detail"]["edge"] == "A1-B2"
    with pytest.raises(RuleError) as caught:
        FORT.import_([])  # type: ignore[arg-type]
    assert (caught.value.values["place"], caught.value.values["reason"]) == ("$", "not_an_object")


def test_every_command_type_round_trips_through_json() -> None:
    """Every command class has a JSON form with its ``type`` and its options."""
    run = busy()
    for command, _ in run.log:
        raw = json.loads(json.dumps(command_to_json(command)))
        assert command_from_json(raw) == command
    assert command_to_json(AttackPierce(from_="F0", to="B2", damage="2d+3")) == {
        "type": "AttackPierce",
        "from": "F0",
        "to": "B2",
        "damage": "2d+3",
        "kind": "physical",
        "element": None,
        "resisted": False,
        "by": None,
        "invoker": None,
    }
    unit = command_to_json(AddUnit(name="狼", type="ram", area="A1", hp=1, fort_damage=2, strike="2d"))
    assert (unit["type"], unit["unit_type"]) == ("AddUnit", "ram")
    assert len(COMMAND_TYPES) == 33  # with ReadPCSheet and SetPCPalette (sheets), MoveCommander and ClaimPC


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ([], "not_an_object"),
        ({"type": "Nope"}, "unknown_type"),
        ({"type": "MoveUnit", "unit": "狼"}, "missing"),
        ({"type": "AttackSingle", "unit": "狼", "bodies": True}, "wrong_type"),
        ({"type": "AttackArea", "unit": "狼", "damage": 1.5, "radius": 3}, "wrong_type"),
    ],
)
def test_command_json_refusals(raw: Any, reason: str) -> None:
    with pytest.raises(RuleError) as caught:
        command_from_json(raw)
    assert (caught.value.key, caught.value.values["reason"]) == ("fort.command_invalid", reason)


def test_gm_only_follows_the_gm_marks_of_commands_md() -> None:
    gm = sorted(name for name, cls in COMMAND_TYPES.items() if cls.gm_only)
    assert gm == sorted(
        [
            "NextTurn",
            "EndBattle",
            "AddUnit",
            "RemoveUnit",
            "MoveUnit",
            "AdvanceUnits",
            "SetUnitHP",
            "UnitBarrage",
            "AddCommander",
            "MoveCommander",
            "Siege",
            "GMSet",
        ]
    )
    assert all(issubclass(cls, Command) for cls in COMMAND_TYPES.values())


_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 400), st.text(max_size=6),
    st.sampled_from(["A1", "F0", "top", "mine", "A1-F0", "ram", "2d+3", "pc", "enemy", "ended"]),
)  # fmt: skip
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    return [p for k, v in items for p in [(*prefix, k), *_paths(v, (*prefix, k))]]


_BASE = json.loads(json.dumps(FORT.export(busy().s)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.sampled_from(_paths(_BASE)), _VALUE), max_size=3))
def test_import_of_any_damaged_document_refuses_or_round_trips(
    edits: list[tuple[tuple[Any, ...], Any]],
) -> None:
    """A damaged export is refused with fort.import_invalid (never a KeyError or TypeError) or imports."""
    doc = json.loads(json.dumps(_BASE))
    for path, value in edits:
        node = doc
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        state = FORT.import_(doc)
    except RuleError as error:
        assert error.key == "fort.import_invalid"
        return
    assert FORT.import_(FORT.export(state)) == state


def test_the_second_pass_fields_are_exported_and_read_back() -> None:
    """F-MAP-4, F-UNIT-15, F-UNIT-14, F-TURN-3, F-UNIT-12: a soldier's ``position``, a unit's ``weakness``,
    this turn's ``moved_m``, ``halted`` and ``acted``, a PC's ``moved_m``, a commander's ``horn``; every one
    of them reachable by /gm set."""
    run = busy()
    run(AddUnit(name="骨", type="normal", area="B2", hp=20, fort_damage=5, weakness="炎属性ダメージ+3"))
    run(AddCommander(name="副長", hp=20, area="B2", horn="命中力+1"))
    run(GMSet(target="unit.兵.position", value="outside"))
    run(GMSet(target="unit.兵.acted", value="true"))
    run(GMSet(target="unit.骨.moved_m", value="10"))
    run(GMSet(target="pc.Alice.moved_m", value="20"))
    doc = FORT.export(run.s)
    units = {u["name"]: u for u in doc["units"]}
    assert {k: units["ゴブリン隊"][k] for k in ("position", "weakness", "moved_m", "halted", "acted")} == {
        "position": None,
        "weakness": None,
        "moved_m": 0,  # held at its first edge
        "halted": "barricade",
        "acted": None,
    }
    assert (
        units["兵"]["position"],
        units["兵"]["acted"],
        units["骨"]["weakness"],
        units["骨"]["moved_m"],
    ) == (
        "outside",
        "gm",
        "炎属性ダメージ+3",
        10,
    )
    assert doc["pcs"][0]["moved_m"] == 20
    assert doc["commanders"][1]["horn"] == "命中力+1"
    assert FORT.import_(json.loads(json.dumps(doc))) == run.s


def test_an_export_with_the_earlier_per_round_keys_still_imports() -> None:
    """F-TURN-3: ``moved_round``/``acted_round``/``position_round`` of earlier exports count only for the
    battle's round; a soldier at F0 without a position is at the top (F-MAP-4)."""
    state = FORT.import_(
        {
            "rounds": 3,
            "round": 2,
            "pcs": [{"name": "Alice", "position": "outside", "position_round": 2}],
            "units": [
                {"name": "今", "type": "normal", "area": "A1", "hp": 5, "moved_round": 2, "moved_m": 10},
                {"name": "前", "type": "normal", "area": "A2", "hp": 5, "moved_round": 1, "moved_m": 10},
                {"name": "兵", "type": "soldier", "area": "F0", "hp": 5, "acted_round": 2},
            ],
        }
    )
    assert [u.moved_m for u in state.units] == [10, 0, 0]
    assert (state.units[2].acted, state.units[2].position.value) == ("gm", "top")  # type: ignore[union-attr]
    assert state.pcs[0].moved_m == 10


def test_a_stored_battle_is_restored_as_the_import_reads_it_and_an_older_one_through_the_import() -> None:
    """A document as ``export_state`` writes it is built straight into the state; one written before
    a key was added (here a unit without ``held_to``, a PC with the earlier ``position_round``) goes
    through the import, which reads every older form."""
    import json

    from engine.fort.export import export_state, import_state
    from engine.fort.restore import restore_state

    document = {
        "format": "toride.fort/1", "title": "復元", "rounds": 3,
        "pcs": [{"name": "Ａｌｉｃｅ", "position": "outside", "hp": 20, "sheet": None}],
        "units": [
            {"name": "Ram", "type": "ram", "area": "A1", "hp": 30, "fort_damage": 5, "strike": "2d+3"},
            {"name": "兵", "type": "soldier", "area": "F0", "hp": 10, "fort_damage": 0},
        ],
        "traps": [{"kind": "mine", "edge": "A1-F0", "uses": 2}],
        "commanders": [{"name": "将", "area": "A2", "hp": 40, "horn": "k"}],
    }  # fmt: skip
    state = import_state(document)
    stored = json.loads(json.dumps(export_state(state), ensure_ascii=False))
    assert restore_state(stored) == state
    older = json.loads(json.dumps(stored))
    del older["units"][0]["held_to"]
    older["pcs"][0]["position_round"] = 1
    assert restore_state(older) == import_state(older)
