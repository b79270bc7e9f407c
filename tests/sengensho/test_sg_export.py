"""Export and import (``toride.sengensho/1``), the command JSON codec, ``/gm set``."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from sg_helpers import battle, check_refusal, enemy, pc

from engine.ruleset import RuleError
from engine.sengensho import SENGENSHO, command_from_json, command_to_json
from engine.sengensho.commands import (
    GMSet,
    Hide,
    Item,
    Join,
    NextTurn,
    Roll,
    SpellCard,
    Surprise,
)
from engine.sengensho.state import Down


def busy_battle():  # type: ignore[no-untyped-def]
    run = battle(
        Join(
            "霊夢",
            body=3,
            endurance=2,
            intellect=4,
            sense=5,
            will=3,
            hp=20,
            invoker="u1",
            skills="隠密3 感知2",
        ),
        pc("H", dp=20),
        enemy("B", dp=12, hp=9),
        enemy("S", dp=15),
        opening="ambush",
        gm_fixed="checks",
    )
    run(SpellCard("霊夢", declare="霊符「夢想封印」, 夢符「封魔陣」", use="霊符「夢想封印」"))
    run(Hide("S", 9, 2))
    run(NextTurn())
    run(Item("霊夢", holder="H"))
    run(Surprise("H", "B", distance=120, wary=True))
    run(Roll("霊夢", None, 2, kind="stealth", check="身体+隠密-1"), 3, 4)
    run(Roll("B", 7, 2, kind="perception", against="霊夢"))
    run(Join("R", dp_max=20, recovery=5))
    run(SpellCard("R", declare="幻符「殺人ドール」"))
    return run


def test_export_document() -> None:
    run = busy_battle()
    doc = SENGENSHO.export(run.s)
    assert json.loads(json.dumps(doc)) == doc
    assert doc["format"] == "toride.sengensho/1"
    assert (doc["title"], doc["opening"], doc["gm_fixed"], doc["turn"], doc["step"], doc["ended"]) == (
        "test",
        "ambush",
        "checks",
        1,
        20,
        False,
    )
    assert doc["spell_cards"] == {
        "pc": 3,
        "enemy": 0,
        "unused": {"pc": 2, "enemy": 0},
        "allowance": {"pc": 0, "enemy": 1},
    }
    reimu = doc["characters"][0]
    assert reimu["attributes"] == {"body": 3, "endurance": 2, "intellect": 4, "sense": 5, "will": 3}
    assert reimu["skills"] == {"隠密": 3, "感知": 2}
    assert (reimu["dp"], reimu["dp_max"], reimu["held_by"], reimu["spell_cards"]) == (
        7,
        18,
        "H",
        [{"name": "霊符「夢想封印」", "used": True}, {"name": "夢符「封魔陣」", "used": False}],
    )
    assert reimu["exposed"] is True  # B's 14 beat its 3 + 3 - 1 + 7 = 12
    b = doc["characters"][2]
    assert b["last_roll"] == {
        "total": 14,
        "kind": "perception",
        "turn": 1,
        "against": "霊夢",
        "won": True,
        "aim": None,
    }
    assert b["surprise"] == {
        "case": "S-SUR-2",
        "attacker": "H",
        "evasion": "perceive_max3",
        "at": None,  # S-SUR-5: named, its attack not made yet
        "unaware": False,
        "spent": False,
    }
    assert doc["characters"][1]["attack_limit"] == "S-SUR-2"
    assert doc["characters"][3]["hidden"] == {"total": 16, "turn": 0}
    assert (doc["characters"][4]["entry_turn"], doc["characters"][4]["declared"]) == (1, 15)


def test_an_earlier_document_still_reads() -> None:
    """Booleans for ``ambush`` and ``gm_fixed``, spell cards as counts (before S-CARD-1)."""
    state = SENGENSHO.import_(
        {
            "format": "toride.sengensho/1",
            "ambush": True,
            "gm_fixed": True,
            "characters": [
                {
                    "name": "A",
                    "dp_max": 10,
                    "recovery": 2,
                    "hidden": {"total": 9, "turn": 0},
                    "spell_cards": {"declared": 2, "used": 1},
                }
            ],
        }
    )
    (a,) = state.characters
    assert (state.opening.value, state.gm_fixed.value) == ("ambush", "checks")
    assert (a.hidden, a.hidden_total, [(k.name, k.used) for k in a.cards]) == (
        True,
        9,
        [("#1", True), ("#2", False)],
    )


def test_round_trip_is_lossless() -> None:
    run = busy_battle()
    doc = SENGENSHO.export(run.s)
    state = SENGENSHO.import_(json.loads(json.dumps(doc, ensure_ascii=False)))
    assert state == run.s
    assert SENGENSHO.export(state) == doc


def test_import_a_scenario_with_defaults() -> None:
    state = SENGENSHO.import_(
        {
            "format": "toride.sengensho/1",
            "title": "妖怪の山",
            "characters": [
                {"name": "ＮＩＴＯＲＩ", "dp_max": 16, "recovery": 4, "hp": 14},
                {"name": "文", "side": "enemy", "dp_max": 20, "recovery": 5, "dp": 7, "down": "hp1", "hp": 1},
            ],
        }
    )
    nitori, aya = state.characters
    assert (nitori.name, nitori.key, nitori.dp, nitori.max_hp, nitori.side.value) == (
        "NITORI",
        "nitori",
        16,
        14,
        "pc",
    )
    assert (aya.dp, aya.down, aya.max_hp) == (7, Down.INCAPACITATED, 1)
    assert (state.turn, state.opening.value, state.card_allowance) == (0, "full", (0, 0))


@pytest.mark.parametrize(
    ("document", "field", "reason"),
    [
        ({"format": "toride.fort/1"}, "format", "wrong_format"),
        ({"format": "toride.sengensho/1", "turn": "2"}, "turn", "not_int"),
        ({"format": "toride.sengensho/1", "characters": [3]}, "characters.0.", "not_an_object"),
        (
            {"format": "toride.sengensho/1", "characters": [{"name": "a", "recovery": 2}]},
            "characters.0.dp_max",
            "missing",
        ),
        (
            {
                "format": "toride.sengensho/1",
                "characters": [{"name": "a", "dp_max": 5, "recovery": 2, "side": "x"}],
            },
            "characters.0.side",
            "unknown_value",
        ),
        (
            {
                "format": "toride.sengensho/1",
                "characters": [{"name": "a", "dp_max": 5, "dp": 6, "recovery": 2}],
            },
            "a",
            "above_max",
        ),
        (
            {
                "format": "toride.sengensho/1",
                "characters": [{"name": "a", "dp_max": 5, "recovery": 2, "held_by": "z"}],
            },
            "a",
            "unknown_reference",
        ),
        (
            {
                "format": "toride.sengensho/1",
                "characters": [
                    {"name": "a", "dp_max": 5, "recovery": 2},
                    {"name": "A", "dp_max": 5, "recovery": 2},
                ],
            },
            "characters",
            "duplicate_name",
        ),
    ],
)
def test_import_refuses_bad_documents(document: dict[str, object], field: str, reason: str) -> None:
    with pytest.raises(RuleError) as caught:
        SENGENSHO.import_(document)
    assert caught.value.key == "sg.import_invalid"
    values = dict(caught.value.values)
    values.pop("detail", None)
    assert values == {"place": field, "reason": reason}
    check_refusal(caught.value)


def test_commands_as_json_round_trip() -> None:
    run = busy_battle()
    for command, _ in run.log:
        raw = command_to_json(command)
        assert command_from_json(json.loads(json.dumps(raw))) == command
    assert command_to_json(Roll("A", 5, 2, kind="evasion")) == {
        "type": "Roll",
        "name": "A",
        "base": 5,
        "dice": 2,
        "cap": None,
        "target": None,
        "against": None,
        "label": "",
        "kind": "evasion",
        "check": None,
        "at": None,
        "gm": False,
    }


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ([], "not_an_object"),
        ({"type": "Nope"}, "unknown_type"),
        ({"type": "Declare", "name": "A"}, "missing"),
        ({"type": "Declare", "name": "A", "dp": True}, "wrong_type"),
        ({"type": "Roll", "name": "A", "base": 1, "dice": 1, "cap": "3"}, "wrong_type"),
    ],
)
def test_command_json_refusals(raw: object, reason: str) -> None:
    with pytest.raises(RuleError) as caught:
        command_from_json(raw)
    assert (caught.value.key, caught.value.values["reason"]) == ("sg.command_invalid", reason)


def test_replay_refuses_a_log_with_dice_left() -> None:
    run = battle(pc("A"))
    run(Roll("A", 1, 1), 4)
    run.log[-1] = (run.log[-1][0], [4, 5])
    with pytest.raises(RuleError) as caught:
        run.replayed()
    assert (caught.value.key, caught.value.values) == ("sg.replay_dice_left", {"step": 3, "left": 1})


# --- /gm set -----------------------------------------------------------------------------------


def test_gm_set_overrides_values() -> None:
    run = battle(pc("A", dp=20, hp=30), enemy("B"))
    run(GMSet("a.dp", "７"))
    assert (run.c("A").dp, run.event("sg.gm_set")) == (7, {"target": "a.dp", "before": 20, "value": 7})
    run(GMSet("A.dp_max", "5"))
    assert (run.c("A").dp, run.c("A").dp_max) == (5, 5)
    run(GMSet("A.down", "unconscious"))
    assert run.event("sg.gm_set") == {"target": "A.down", "before": None, "value": "unconscious"}
    run(GMSet("A.down", "none"))
    run(GMSet("B.hidden", "15"))
    assert (run.c("B").hidden, run.c("B").hidden_total) == (True, 15)
    assert run.secret() == [("sg.gm_set", ())]  # S-HIDE-1: the GM's only (B is the GM's)
    run(GMSet("B.hidden", "false"))
    run(GMSet("turn", "3"))
    run(GMSet("allowance.enemy", "2"))
    assert (run.s.turn, run.s.card_allowance, run.c("B").hidden) == (3, (0, 2), False)
    run(GMSet("opening", "keep"))
    run(GMSet("gm_fixed", "all"))
    assert (run.s.opening.value, run.s.gm_fixed.value) == ("keep", "all")
    run(GMSet("A.skills", "射撃4 隠密2"))
    run(GMSet("A.attributes", "3 2 4 5 3"))
    assert (run.c("A").skills, run.c("A").attributes) == ((("射撃", 4), ("隠密", 2)), (3, 2, 4, 5, 3))
    run(GMSet("A.cards", "恋符「マスタースパーク」, 魔符「スターダストレヴァリエ」"))
    run(GMSet("A.used", "恋符「マスタースパーク」"))
    assert [(k.name, k.used) for k in run.c("A").cards] == [
        ("恋符「マスタースパーク」", True),
        ("魔符「スターダストレヴァリエ」", False),
    ]
    run.refused(GMSet("A.used", "恋符「ノンディレクショナルレーザー」"), "sg.set_value_invalid")
    run(GMSet("A.unable", "true"))
    assert run.c("A").unable is True
    run.refused(GMSet("A.dp", "6"), "sg.set_value_invalid")  # above the maximum of 5
    run.refused(GMSet("A.hp", "31"), "sg.set_value_invalid")
    run.refused(GMSet("A.dp", "x"), "sg.set_value_invalid")
    run.refused(GMSet("A.colour", "red"), "sg.set_target_invalid")
    run.refused(GMSet("Z.dp", "1"), "sg.unknown_character")


def test_states_compare_by_value() -> None:
    run = busy_battle()
    assert replace(run.s, title="other") != run.s
