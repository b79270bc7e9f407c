"""Issue 28: the prep table's checks are the bot's (its options, its engine commands, ``/fort import``),
and a document opened keeps what the forms do not show."""

from __future__ import annotations

from typing import Any

from bot.render.common import refusal_text
from bot.rulesets.fort.prep.build import check, forms_of
from engine.fort.rules_turn import MAX_ROUNDS

SETTINGS = {"title": "砦", "rounds": "3", "fort_hp": "300", "cannons": "2", "first": "pc"}
GOBLIN = {"name": "ゴブリン", "type": "normal", "area": "A2", "hp": "30", "fort_damage": "10"}


def _refusals(draft: dict[str, Any], lang: str = "ja") -> list[tuple[str, str]]:
    return [(r.place, r.text) for r in check(draft, lang).refusals]


def _units(*forms: dict[str, str]) -> dict[str, Any]:
    return {"settings": SETTINGS, "units": [{"form": f} for f in forms]}


def test_a_field_gets_its_options_sentence():
    assert _refusals(_units({**GOBLIN, "hp": "abc"}), "en") == [
        ("$.units[0].hp", refusal_text("command.not_int", {"option": "hp", "value": "abc"}, "en"))
    ]
    assert _refusals({"settings": {**SETTINGS, "rounds": str(MAX_ROUNDS + 1)}}) == [
        ("$.rounds", "「ラウンド数:」は1から99までです(「100」)。")
    ]  # fmt: skip


def test_each_element_gets_its_engine_commands_refusal():
    """F-UNIT-1 (a ram's strike), F-MAP-7 (enemies not at F0), F-MAP-4 (soldiers at F0),
    reinforcements within the battle's rounds, F-TRAP-1 (uses): every element refused at once."""
    draft = _units(
        {**GOBLIN, "name": "槌", "type": "ram"},
        {**GOBLIN, "name": "兵", "type": "soldier"},
        {**GOBLIN, "name": "狼", "area": "F0"},
        {**GOBLIN, "name": "増援", "arrive_round": "4"},
    )
    draft["commanders"] = [{"form": {"name": "隊長", "hp": "30", "area": "F0"}}]
    places = [place for place, _ in _refusals(draft)]
    assert places == [
        "$.units[0].strike", "$.units[1].area", "$.units[2].area",
        "$.units[3].arrive_round", "$.commanders[0].area",
    ]  # fmt: skip


def test_a_move_not_a_multiple_of_10_is_taken_as_unit_add_takes_it():
    """F-MAP-2 and COMMANDS.md's Conventions: 15 m is 10 m, in the document saved, and the bot's sentence
    for it stands beside the field; nothing is refused."""
    checked = check(_units({**GOBLIN, "move": "15"}), "ja")
    assert checked.refusals == [] and checked.document is not None
    assert checked.document["units"][0]["move"] == 10
    assert [(n.place, n.text) for n in checked.notes] == [
        ("$.units[0].move", "ゴブリン: 移動速度15 → 10m(移動は10m単位です)。")
    ]


def test_names_are_checked_across_the_battle_as_import_checks_them():
    refused = _refusals(_units(GOBLIN, GOBLIN))
    assert [place for place, _ in refused] == ["$.units[1].name"]
    assert check(_units(GOBLIN, {**GOBLIN, "name": "ゴブリン2"}), "ja").document is not None


def test_a_required_field_left_empty_is_the_commands_missing_option():
    place, text = _refusals(_units({**GOBLIN, "fort_damage": ""}))[0]
    assert place == "$.units[0].fort_damage"
    assert text.startswith("/ユニット 追加 には「砦ダメージ:」が必要です。")


def test_an_opened_battle_keeps_what_the_forms_do_not_show():
    """A battle in its second round, a hurt unit that has moved: opened and saved unchanged, and an edit
    changes only its field (F-TURN-1: the round and the turn stay)."""
    built = check(_units(GOBLIN, {**GOBLIN, "name": "槌", "type": "ram", "strike": "2d+6"}), "ja").document
    assert built is not None
    running = {**built, "round": 2, "turn": "enemy"}
    running["units"] = [{**built["units"][0], "hp": 12, "moved_m": 10, "area": "A1"}, built["units"][1]]
    running["fort"] = {**built["fort"], "hp": 250}
    again = check(forms_of(running), "ja")
    assert again.refusals == [] and again.document == running
    draft = forms_of(running)
    draft["units"][1]["form"]["hp"] = "70"
    edited = check(draft, "ja").document
    assert edited is not None
    assert edited["units"][1] == {**running["units"][1], "hp": 70, "max_hp": 70}
    assert edited["units"][0] == running["units"][0] and edited["fort"]["hp"] == 250
