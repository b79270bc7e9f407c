"""Issues 28 and 35: the prep table's checks are the bot's (its options, its engine commands, ``/fort
import``), every refusal found at once beside the field it is about and in the page's own words, and a
document opened keeps what the forms do not show."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rulesets.fort.prep.build import check, forms_of
from engine.fort.rules_turn import MAX_ROUNDS

SETTINGS = {"title": "砦", "rounds": "3", "max_hp": "300", "first": "pc"}
GOBLIN = {"name": "ゴブリン", "type": "normal", "area": "A2", "max_hp": "30", "fort_damage": "10"}


def _refusals(draft: dict[str, Any], lang: str = "ja") -> list[tuple[str, str]]:
    return [(r.place, r.text) for r in check(draft, lang).refusals]


def _units(*forms: dict[str, str]) -> dict[str, Any]:
    return {"settings": SETTINGS, "units": [{"form": f} for f in forms]}


def test_a_field_gets_the_pages_own_words():
    """What the field takes, by its short label and its option's bounds: no command, no option."""
    assert _refusals(_units({**GOBLIN, "max_hp": "abc"}), "en") == [
        ("$.units[0].max_hp", "Enter the max HP, a whole number of at least 1.")
    ]
    assert _refusals({"settings": {**SETTINGS, "rounds": str(MAX_ROUNDS + 1)}}) == [
        ("$.rounds", "ラウンド数を1〜99で入れてください。")
    ]
    assert _refusals({"settings": SETTINGS, "traps": [{"form": {"kind": "mine", "edge": "A1-F0"}}]}) == [
        ("$.traps[0].uses", "使用回数を1〜99で入れてください。")
    ]
    assert _refusals(_units({**GOBLIN, "type": "dragon"}), "en") == [
        ("$.units[0].type", "Choose the type from normal, ram, flying, soldier (PC side).")
    ]


def test_each_element_gets_its_engine_commands_refusal():
    """F-UNIT-1 (a ram's strike), F-MAP-7 (enemies not at F0), F-MAP-4 (soldiers at F0),
    reinforcements within the battle's rounds: every element refused at once, at its field."""
    draft = _units(
        {**GOBLIN, "name": "槌", "type": "ram"},
        {**GOBLIN, "name": "兵", "type": "soldier"},
        {**GOBLIN, "name": "狼", "area": "F0"},
        {**GOBLIN, "name": "増援", "arrive_round": "4"},
    )
    draft["commanders"] = [{"form": {"name": "隊長", "max_hp": "30", "area": "F0"}}]
    refused = _refusals(draft)
    assert [place for place, _ in refused] == [
        "$.units[0].strike", "$.units[1].area", "$.units[2].area",
        "$.units[3].arrive_round", "$.commanders[0].area",
    ]  # fmt: skip
    assert refused[0][1] == "破城槌には打撃点が必要です。"


def test_every_refusal_is_found_in_one_check():
    """A refused setting, a name taken and a ram at F0: all three at once, the elements checked against
    the settings as far as they are valid."""
    draft = {
        "settings": {**SETTINGS, "rounds": "三"},
        "pcs": [{"form": {"name": "アリス"}}, {"form": {"name": "アリス"}}],
        "units": [{"form": {**GOBLIN, "type": "ram", "strike": "2d+6", "area": "F0"}}],
    }
    assert sorted(place for place, _ in _refusals(draft)) == ["$.pcs[1].name", "$.rounds", "$.units[0].area"]


def test_names_are_checked_across_the_battle_as_import_checks_them():
    refused = _refusals(_units(GOBLIN, GOBLIN, GOBLIN))
    assert [place for place, _ in refused] == ["$.units[1].name", "$.units[2].name"]
    assert check(_units(GOBLIN, {**GOBLIN, "name": "ゴブリン2"}), "ja").document is not None


def test_a_weakness_is_refused_at_its_field_in_a_plain_sentence():
    """F-UNIT-15: the fifth unit's weakness, not a word of the file's other keys."""
    draft = _units(*({**GOBLIN, "name": f"g{i}"} for i in range(4)), {**GOBLIN, "weakness": "炎"})
    assert _refusals(draft) == [
        ("$.units[4].weakness",
         "弱点「炎」は読めません。ソード・ワールドの書き方で指定してください"
         "(例: 炎属性ダメージ+3、物理ダメージ+2、魔法ダメージ+2)。"),
    ]  # fmt: skip


def test_the_drawable_is_the_valid_part():
    """The picture is drawn of the settings (a refused one defaulted) and every element not refused."""
    draft = _units(GOBLIN, {**GOBLIN, "name": "狼", "area": "F0"}, {**GOBLIN, "name": "槌", "max_hp": "x"})
    draft["settings"] = {**SETTINGS, "rounds": "0"}
    checked = check(draft, "ja")
    assert checked.document is None and checked.drawable is not None
    assert [u["name"] for u in checked.drawable["units"]] == ["ゴブリン"]
    assert checked.to_json()["drawable"] == checked.drawable


def test_a_move_not_a_multiple_of_10_is_taken_as_unit_add_takes_it():
    """F-MAP-2 and COMMANDS.md's Conventions: 15 m is 10 m, in the document saved, and the bot's sentence
    for it stands beside the field; nothing is refused."""
    checked = check(_units({**GOBLIN, "move": "15"}), "ja")
    assert checked.refusals == [] and checked.document is not None
    assert checked.document["units"][0]["move"] == 10
    assert [(n.place, n.text) for n in checked.notes] == [
        ("$.units[0].move", "ゴブリン: 移動速度15 → 10m(移動は10m単位です)。")
    ]


def test_a_required_field_left_empty_says_what_it_takes():
    assert _refusals(_units({**GOBLIN, "fort_damage": ""})) == [
        ("$.units[0].fort_damage", "砦ダメージを0以上の整数で入れてください。")
    ]


def test_hp_and_max_hp_apart():
    """A new element's HP is its maximum; an HP above it is refused at the HP; the fort's too."""
    built = check(_units(GOBLIN, {**GOBLIN, "name": "狼", "hp": "12"}), "ja").document
    assert built is not None
    assert [(u["hp"], u["max_hp"]) for u in built["units"]] == [(30, 30), (12, 30)]
    assert _refusals(_units({**GOBLIN, "hp": "31"})) == [
        ("$.units[0].hp", "HPは最大HPより大きくできません。")
    ]
    fort = check({"settings": {**SETTINGS, "hp": "250"}}, "ja").document
    assert fort is not None and fort["fort"]["hp"] == 250 and fort["fort"]["max_hp"] == 300
    assert _refusals({"settings": {**SETTINGS, "hp": "301"}}) == [
        ("$.hp", "砦HPは砦の最大HPより大きくできません。")
    ]


def test_an_opened_battle_keeps_what_the_forms_do_not_show():
    """A battle in its second round, a hurt unit that has moved: opened and saved unchanged, and an edit
    changes only its field (F-TURN-1: the round and the turn stay); a unit at full HP follows its new
    maximum."""
    built = check(_units(GOBLIN, {**GOBLIN, "name": "槌", "type": "ram", "strike": "2d+6"}), "ja").document
    assert built is not None
    running = {**built, "round": 2, "turn": "enemy"}
    running["units"] = [{**built["units"][0], "hp": 12, "moved_m": 10, "area": "A1"}, built["units"][1]]
    running["fort"] = {**built["fort"], "hp": 250}
    again = check(forms_of(running), "ja")
    assert again.refusals == [] and again.document == running
    draft = forms_of(running)
    assert draft["units"][0]["form"]["hp"] == "12" and draft["units"][0]["form"]["max_hp"] == "30"
    draft["units"][1]["form"]["max_hp"] = "70"
    draft["units"][0]["form"]["max_hp"] = "40"
    edited = check(draft, "ja").document
    assert edited is not None
    assert edited["units"][1] == {**running["units"][1], "hp": 70, "max_hp": 70}
    assert edited["units"][0] == {**running["units"][0], "max_hp": 40}
    assert edited["fort"]["hp"] == 250


def test_cannons_are_a_list_with_their_shells():
    """F-CAN-1: the cannons are the list's elements, each with 0 to 5 shells; at most 10 cannons."""
    doc = check(
        {"settings": SETTINGS, "cannons": [{"form": {"shells": "3"}}, {"form": {"shells": ""}}]}, "ja"
    )
    assert doc.document is not None and doc.document["cannons"] == [{"shells": 3}, {"shells": 0}]
    assert _refusals({"settings": SETTINGS, "cannons": [{"form": {"shells": "6"}}]}, "en") == [
        ("$.cannons[0].shells", "Enter the shells, 0 to 5.")
    ]
    many = {"settings": SETTINGS, "cannons": [{"form": {"shells": "0"}}] * 11}
    assert [place for place, _ in _refusals(many)] == ["$.cannons"]
    assert [
        len(forms_of({"rounds": 3})["cannons"]),
        len(forms_of({"rounds": 3, "cannons": []})["cannons"]),
    ] == [2, 0]


def test_the_ballista_loaded_and_its_bolt():
    """F-BAL-1: loaded with a bolt; a bolt is no part of a ballista not loaded."""
    loaded = check({"settings": {**SETTINGS, "loaded": True, "bolt": "魔力の太矢"}}, "ja").document
    assert loaded is not None and loaded["ballista"]["loaded"] is True
    assert loaded["ballista"]["bolt"] == "魔力の太矢"
    empty = check({"settings": {**SETTINGS, "loaded": "false", "bolt": "魔力の太矢"}}, "ja").document
    assert empty is not None and empty["ballista"] == {
        "loaded": False,
        "magic_bolt_used": False,
        "bolt": None,
    }
    assert forms_of(loaded)["settings"]["loaded"] == "true"


def test_a_field_its_type_does_not_have_is_no_part_of_it():
    """F-MAP-4: a position is a soldier's at F0; F-UNIT-10, F-UNIT-13: a ram's fort damage is its strike
    and a soldier deals none (0 where the form gives none); F-MAP-7: a soldier is no reinforcement."""
    draft = _units(
        {**GOBLIN, "position": "top", "arrive_round": "2"},
        {
            "name": "兵",
            "type": "soldier",
            "area": "F0",
            "max_hp": "20",
            "position": "inside",
            "arrive_round": "2",
        },
        {"name": "槌", "type": "ram", "area": "A2", "max_hp": "50", "strike": "2d+6"},
    )
    built = check(draft, "ja").document
    assert built is not None
    goblin, soldier, ram = built["units"]
    assert (goblin["position"], goblin["arrive_round"]) == (None, 2)
    assert (soldier["position"], soldier["arrive_round"], soldier["fort_damage"]) == ("inside", None, 0)
    assert (ram["fort_damage"], ram["strike"]) == (0, "2D+6")


def test_a_pc_has_its_move_and_owner():
    alice = {"name": "アリス", "max_hp": "40", "move": "20", "owner": "<@123>", "position": "inside"}
    pcs = [{"form": alice}, {"form": {"name": "ボブ", "owner": "GM", "area": "A1"}}]
    built = check({"settings": SETTINGS, "pcs": pcs}, "ja").document
    assert built is not None
    alice, bob = built["pcs"]
    assert (alice["hp"], alice["max_hp"], alice["move"], alice["owner"], alice["position"]) == (
        40, 40, 20, "123", "inside"
    )  # fmt: skip
    assert (bob["hp"], bob["owner"], bob["area"], bob["position"]) == (None, "GM", "A1", None)


def test_the_engine_says_which_field_a_refusal_is_about():
    """``EngineError.field``: set where the engine refuses one field (commands, import, limits)."""
    from engine.dice import SeededDice
    from engine.errors import EngineError
    from engine.fort import FORT
    from engine.fort import commands as fc
    from engine.fort.export import import_state

    def field_of(step: Any) -> str | None:
        try:
            step()
        except EngineError as error:
            return error.field
        raise AssertionError("not refused")

    dice = SeededDice(0)
    state = FORT.apply(None, fc.StartBattle(rounds=3), dice).state
    assert field_of(lambda: FORT.apply(None, fc.StartBattle(rounds=0), dice)) == "rounds"
    assert field_of(lambda: FORT.apply(None, fc.StartBattle(rounds=3, first="x"), dice)) == "first"
    unit = {"name": "槌", "type": "ram", "area": "A1", "hp": 30, "fort_damage": 0}
    assert field_of(lambda: FORT.apply(state, fc.AddUnit(**unit), dice)) == "strike"
    assert field_of(lambda: FORT.apply(state, fc.AddUnit(**{**unit, "area": "Z9"}), dice)) == "area"
    assert field_of(lambda: FORT.apply(state, fc.AddUnit(**{**unit, "name": ""}), dice)) == "name"
    assert field_of(lambda: FORT.apply(state, fc.SetTrap("mine", "A1-F0", 0), dice)) == "uses"
    assert field_of(lambda: FORT.apply(state, fc.AddPC("a", hp=-1), dice)) == "hp"
    bad = {"rounds": 3, "units": [{**unit, "type": "normal", "weakness": "炎", "destroyed": False}]}
    with pytest.raises(EngineError) as refused:
        import_state(bad)
    assert (refused.value.field, refused.value.values["place"]) == ("weakness", "$.units[0].weakness")
