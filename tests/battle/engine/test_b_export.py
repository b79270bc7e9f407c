"""``toride.battle/1`` export and import, the command JSON codec, replay, and ``/gm set``."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from battle_helpers import GM, Run, battle, check_refusal, monster, pc

from engine.battle import BATTLE, COMMAND_TYPES, check_state, command_from_json, command_to_json
from engine.battle.commands import (
    MP,
    Act,
    AddMonster,
    AddPC,
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
)
from engine.battle.state import Side
from engine.ruleset import RuleError


def busy() -> Run:
    run = battle(
        AddPC(
            "アル", hp=24, mp=18, defense=5, evasion=11, palette="2d+7 命中力", sheet='{"a": 1}', invoker="u1"
        ),
        pc("ベル", owner="u2", initiative=4),
        AddMonster(
            "グリフォン",
            parts=(
                PartSpec(hp=28, name="頭部", hit=11, strike="2d+6"),
                PartSpec(hp=36, name="胴体", defense=6),
            ),
            core=1,
            reputation=13,
            weakness_value=18,
            weakness="炎属性ダメージ+3",
            move="20",
            hidden_stats=False,
        ),
        monster("ゴブリン", count=2, initiative=9),
        title="峠の戦い",
    )
    run(Knowledge("アル", "グリフォン", "2d+8", invoker="u1"), 3, 3)
    run(Initiative("ベル", invoker="u2"), 4, 4)
    run(EffectAdd("グリフォン:頭部", "【ガード】", 3, mod="防護点+2", invoker=GM, gm=True))
    run(Next(invoker=GM, gm=True))
    run(Damage("ゴブリンA, グリフォン:胴体", "2d+3", resisted="half", by="アル", invoker="u1"), 2, 5, 6, 6)
    run(EffectAdd("アル", "【ブレス】", "1分", text="器用度+1", by="ベル", invoker="u2"))
    run(MP("アル", -4, invoker="u1"))
    run(EffectAdd("ゴブリンB", "鼓咆", "end", mod="命中力+1 ダメージ+1", invoker=GM, gm=True))
    run(Next(invoker=GM, gm=True))
    return run


def test_export_and_import_lose_nothing() -> None:
    run = busy()
    document = BATTLE.export(run.s)
    assert json.loads(json.dumps(document)) == document
    assert document["format"] == "toride.battle/1"
    assert BATTLE.import_(document) == run.s
    assert BATTLE.export(BATTLE.import_(document)) == document
    effect = document["effects"][0]
    assert effect == {
        "id": 1,
        "name": "【ガード】",
        "target": "グリフォン",
        "part": "頭部",
        "text": "",
        "rounds": 3,
        "left": 3,
        "made_round": 0,
        "side": "enemy",
        "by": None,
        "mods": [{"stat": "defense", "delta": 2}],
    }
    assert document["knowledge"][0] == {
        "kind": "グリフォン",
        "best": 14,
        "by": "アル",
        "rolled": ["アル"],
        "numbers_revealed": False,
        "weakness_revealed": False,
    }
    check_state(run.s)


def test_replay_gives_the_same_battle() -> None:
    run = busy()
    assert run.replayed() == run.s


def _refused(document: dict[str, Any], key: str = "bt.import_invalid") -> RuleError:
    with pytest.raises(RuleError) as caught:
        BATTLE.import_(document)
    assert caught.value.key == key, caught.value
    check_refusal(caught.value)
    return caught.value


def _changed(path: list[Any], value: Any) -> dict[str, Any]:
    document = copy.deepcopy(BATTLE.export(busy().s))
    at: Any = document
    for step in path[:-1]:
        at = at[step]
    at[path[-1]] = value
    return document


@pytest.mark.parametrize(
    ("path", "value", "place", "reason"),
    [
        (["format"], "toride.fort/1", "format", "wrong_format"),
        (["round"], "2", "round", "not_int"),
        (["phase"], "paused", "phase", "unknown_value"),
        (["round"], 0, "phase", "order_mismatch"),
        (["pcs", 0, "hp"], 25, "pcs.0.hp", "out_of_range"),
        (["pcs", 0, "mp"], -1, "pcs.0.mp", "out_of_range"),
        (["pcs", 1, "name"], "アル", "characters", "duplicate_name"),
        (["monsters", 0, "core"], 2, "monsters.0.core", "out_of_range"),
        (["monsters", 0, "parts"], [], "monsters.0.parts", "empty"),
        (["monsters", 0, "hidden_stats"], "yes", "monsters.0.hidden_stats", "not_bool"),
        (["knowledge", 0, "kind"], "ドラゴン", "knowledge.0.kind", "unknown_reference"),
        (["knowledge", 0, "rolled"], ["ゴブリンA"], "knowledge.0.rolled", "unknown_reference"),
        (["effects", 0, "target"], "ドラゴン", "effects.0.target", "unknown_reference"),
        (["effects", 0, "part"], "尻尾", "effects.0.part", "unknown_reference"),
        (["effects", 2, "left"], 3, "effects.2.left", "until_end_mismatch"),
        (["effects", 1, "id"], 1, "effects", "duplicate_id"),
        (["effects", 0, "mods"], [{"stat": "str", "delta": 1}], "effects.0.mods.0.stat", "unknown_value"),
        (["next_effect"], 2, "effects", "duplicate_id"),
    ],
)  # fmt: skip
def test_import_refuses_a_bad_document_saying_where_and_why(
    path: list[Any], value: Any, place: str, reason: str
) -> None:
    error = _refused(_changed(path, value))
    assert (error.values["place"], error.values["reason"]) == (place, reason)


def test_import_holds_a_document_to_the_limits() -> None:
    document = BATTLE.export(battle().s)
    document["pcs"] = [{"name": f"PC{n}", "max_hp": 10} for n in range(51)]
    assert _refused(document, "limits.too_many").values["what"] == "characters"
    document["pcs"] = [{"name": "x" * 33, "max_hp": 10}]
    _refused(document, "limits.name")
    document["pcs"] = [{"name": "アル", "max_hp": 10, "hp": "x"}]
    assert _refused(document).values["place"] == "pcs.0.hp"


def test_a_scenario_file_may_leave_out_what_has_a_default() -> None:
    state = BATTLE.import_(
        {
            "format": "toride.battle/1",
            "pcs": [{"name": "アル", "max_hp": 20}],
            "monsters": [{"name": "ゴブリン", "parts": [{"max_hp": 12}]}],
        }
    )
    assert (state.pcs[0].hp, state.monsters[0].parts[0].hp, state.monsters[0].kind) == (20, 12, "ゴブリン")


# --- commands as JSON ----------------------------------------------------------------------------


EVERY_COMMAND = [
    Start("t", first="pc"),
    AddPC("アル", hp=20, invoker="u1", gm=False),
    AddMonster(
        "グリフォン", parts=(PartSpec(hp=1, name="頭部", hit=None), PartSpec(hp=2, name="胴体")), core=1
    ),
    Knowledge("アル", "グリフォン", "2d+5", invoker="u1"),
    Initiative("アル", None, invoker="u1"),
    Damage("a,b", 10, kind="magic", element="fire", resisted="half", by="アル", invoker="u1", gm=True),
    Heal("a", "K10", by=None),
    MP("a", -3),
    EffectAdd("a", "x", "end", mod="防護点+2"),
    EffectEnd("a", "#1"),
    EffectExtend("a", "x", 2),
    Next(invoker="u1"),
    Act("a", acted=False),
    Reveal("ゴブリン", numbers=True, weakness=True),
    End(),
    GMSet("アル.hp", "3"),
]


def test_every_command_round_trips_through_json() -> None:
    assert {type(c) for c in EVERY_COMMAND} == set(COMMAND_TYPES)
    for command in EVERY_COMMAND:
        raw = json.loads(json.dumps(command_to_json(command)))
        assert command_from_json(raw) == command


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"type": "Fly"}, "unknown_type"),
        ([], "not_an_object"),
        ({"type": "AddMonster", "name": "x"}, "missing"),
        ({"type": "AddMonster", "name": "x", "parts": [{"hp": "1"}]}, "wrong_type"),
        ({"type": "AddMonster", "name": "x", "parts": [3]}, "wrong_type"),
        ({"type": "Damage", "targets": "a", "amount": 1.5}, "wrong_type"),
    ],
)
def test_a_bad_command_is_refused(raw: Any, reason: str) -> None:
    with pytest.raises(RuleError) as caught:
        command_from_json(raw)
    assert (caught.value.key, caught.value.values["reason"]) == ("bt.command_invalid", reason)


# --- /gm set ---------------------------------------------------------------------------------------


def test_gm_set_overrides_values_of_the_battle_its_characters_and_parts() -> None:
    run = busy()
    run(GMSet("round", "4"))
    assert run.event("bt.gm_set") == {"target": "round", "before": 1, "value": 4}
    run(GMSet("turn", "pc"))
    assert run.s.turn is Side.PC
    run(GMSet("アル.hp", "3"))
    assert run.pc("アル").hp == 3
    run(GMSet("ベル.acted", "true"))
    assert run.pc("ベル").acted
    run(GMSet("グリフォン:頭部.hp", "1"))
    assert run.part("グリフォン", "頭部").hp == 1 and run.only("bt.gm_set").audience is None  # known
    run(GMSet("ゴブリンA.hp", "2"))
    assert run.part("ゴブリンA").hp == 2 and run.only("bt.gm_set").audience == ()  # not known
    run(GMSet("ゴブリンA.acted", "true"))
    assert run.only("bt.gm_set").audience is None
    run(GMSet("ゴブリンA.reveal", "all"))
    assert run.event("bt.gm_set") == {"target": "ゴブリンA.reveal", "before": "none", "value": "all"}
    run(GMSet("グリフォン.knowledge", "none"))
    assert run.s.lore_of("グリフォン").best is None
    run(GMSet("グリフォン.weakness", "none"))
    assert run.monster("グリフォン").weakness is None
    run.refused(GMSet("グリフォン.hp", "3"), "bt.part_required")
    run.refused(GMSet("アル.hp", "99"), "bt.set_value_invalid")
    run.refused(GMSet("アル.wings", "2"), "bt.set_target_invalid")
    run.refused(GMSet("weather", "rain"), "bt.set_target_invalid")
    run.refused(GMSet("first", "none"), "bt.set_value_invalid")
    run.refused(GMSet("round", "0"), "bt.set_value_invalid")


def test_gm_set_keeps_the_order_before_the_first_turn() -> None:
    run = battle(pc("アル"))
    run.refused(GMSet("round", "2"), "bt.set_value_invalid")
    run.refused(GMSet("turn", "pc"), "bt.set_value_invalid")
    run(GMSet("first", "enemy"))
    assert run.s.first is Side.ENEMY
    run(GMSet("title", "夜の森"))
    assert BATTLE.import_(BATTLE.export(run.s)) == run.s
