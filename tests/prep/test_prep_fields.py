"""Issue 35: the prep page's fields are every field a fort battle has, each with a short label, its long
help, and only where its type has it (``when``); the page's kinds of element name and mark themselves;
and every refusal the page can get is in the page's own words: no slash command, no ``option:``."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.commands import SheetSource
from bot.i18n import LANGUAGES, catalogue
from bot.i18n.names import command_text, option_text
from bot.registry import commands
from bot.rulesets.fort.prep import binding
from bot.rulesets.fort.prep.build import check, forms_of
from bot.rulesets.fort.prep.forms import FORMS, LISTS, SETTINGS
from bot.rulesets.fort.prep.page import MARK_KINDS, fields, kinds, mark_png, page_data

ROOT = Path(__file__).resolve().parents[2]
MONSTER = ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "monster.json"
SETTINGS_FORM = {"title": "砦", "rounds": "3", "max_hp": "300", "first": "pc"}
GOOD: dict[str, dict[str, Any]] = {
    "pcs": {"name": "アリス", "max_hp": "40", "move": "20", "owner": "GM", "position": "top"},
    "units": {"name": "ゴブリン", "type": "normal", "area": "A2", "max_hp": "30", "fort_damage": "10",
              "strike": "2d+6", "defense": "2", "move": "10", "weakness": "炎属性ダメージ+3"},
    "commanders": {"name": "隊長", "area": "A2", "max_hp": "60", "horn": "命中力+1"},
    "traps": {"kind": "mine", "edge": "A1-F0", "uses": "2"},
    "cannons": {"shells": "1"},
}  # fmt: skip


def _by_name(kind: str, lang: str = "ja") -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in fields(lang)[kind]}


def test_every_field_a_battle_has():
    """PC 移動力 and owner, current and maximum HP apart, the cannons as a list with their shells, the
    ballista's load and bolt; the settings have no cannon count."""
    assert [f["name"] for f in fields("ja")["settings"]] == [
        "title", "rounds", "first", "hp", "max_hp", "loaded", "bolt"
    ]  # fmt: skip
    assert list(_by_name("pcs")) == ["name", "area", "position", "hp", "max_hp", "move", "owner"]
    assert {"hp", "max_hp", "strike", "defense", "weakness", "arrive_round", "position"} <= set(
        _by_name("units")
    )
    assert list(_by_name("commanders")) == ["name", "area", "hp", "max_hp", "horn"]
    assert list(_by_name("traps")) == ["kind", "edge", "uses"]
    assert list(_by_name("cannons")) == ["shells"]
    assert [f["name"] for f in fields("ja")["sheet"]] == ["type", "area", "fort_damage", "arrive_round"]


def test_short_labels_and_long_help():
    labels = {name: f["label"] for name, f in _by_name("units").items()}
    assert labels == {
        "name": "名前", "type": "タイプ", "area": "エリア", "hp": "HP", "max_hp": "最大HP",
        "fort_damage": "砦ダメージ", "strike": "打撃点", "defense": "防護点", "move": "移動力",
        "weakness": "弱点", "arrive_round": "到着ラウンド", "position": "位置",
    }  # fmt: skip
    assert _by_name("traps")["uses"]["label"] == "使用回数" and _by_name("traps")["edge"]["label"] == "経路"
    assert (
        _by_name("units")["arrive_round"]["help"]
        == "増援として到着するラウンド(このラウンドの敵手番の終わり)"
    )
    assert _by_name("units", "en")["max_hp"] == {**_by_name("units", "en")["max_hp"], "label": "Max HP",
                                                  "help": "Maximum HP (it starts full)"}  # fmt: skip
    assert _by_name("traps")["edge"]["choices"][1] == ["A1-F0", "A1-F0"]
    assert _by_name("units")["type"]["choices"][1] == ["ram", "破城槌"]


def test_a_field_only_where_its_type_has_it():
    """F-MAP-4: a soldier's position at F0; F-UNIT-10, F-UNIT-13: fixed fort damage for normal and flying
    units (a ram's is its strike, a soldier deals none); F-MAP-7: no soldier arrives later; the strike of
    every type (F-UNIT-7: each unit attacks with it); a bolt only in a ballista loaded."""
    units = _by_name("units")
    assert units["position"]["when"] == {"type": ["soldier"], "area": ["F0"]}
    assert units["fort_damage"]["when"] == {"type": ["normal", "flying"]}
    assert units["arrive_round"]["when"] == {"type": ["normal", "ram", "flying"]}
    assert units["strike"]["when"] is None and units["name"]["when"] is None
    assert _by_name("pcs")["position"]["when"] == {"area": ["F0"]}
    assert _by_name("settings")["bolt"]["when"] == {"loaded": [True, "true"]}


def test_the_kinds_name_and_mark_their_elements():
    assert [k["kind"] for k in kinds("ja")] == list(LISTS)
    by_kind = {k["kind"]: k for k in kinds("ja")}
    assert by_kind["units"] == {
        "kind": "units", "title": "ユニット", "one": "ユニット", "add": "ユニットを加える",
        "mark": None, "mark_field": "type", "mark_default": "normal", "title_fields": ["name"],
    }  # fmt: skip
    assert by_kind["traps"]["title_fields"] == ["kind", "edge"] and by_kind["traps"]["mark_field"] == "kind"
    assert by_kind["cannons"]["mark"] == "cannon" and by_kind["cannons"]["title_fields"] == []
    for lang in LANGUAGES:
        for kind in kinds(lang):
            assert "部隊" not in kind["title"] + kind["add"]
            marks = [kind["mark"], kind["mark_default"]]
            assert all(m is None or m in MARK_KINDS for m in marks)
            assert all(mark_png(m) for m in marks if m)
    assert all(mark_png(t) for t in ("normal", "ram", "flying", "soldier", "barricade", "mine"))


def test_page_data_is_what_a_template_needs():
    data = page_data("en")
    assert set(data) == {"fields", "kinds", "words", "lang", "file_stem"}
    assert set(data["fields"]) == {"settings", *LISTS, "sheet", "odds"}
    assert data["kinds"] == kinds("en") and data["lang"] == "en"
    assert "Alice" not in _by_name("odds")["pc_damage"]["help"]
    assert "アリス" in _by_name("odds")["pc_damage"]["help"]


# --- every refusal the page can get, in the page's own words ---------------------------------------


@cache
def _syntax(lang: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A slash command of the fort's table, and an option written as one types it (``uses:``,
    ``「回数:」``), in ``lang``'s words and in English."""
    table = commands()
    paths, options = set(), set()
    for each in {lang, "en"}:
        names = catalogue(each)
        paths |= {command_text(path, names) for path in table}
        paths |= {command_text(spec.group, names) for spec in table.values() if spec.group}
        options |= {option_text(o.name, names, s.path) for s in table.values() for o in s.options}
    command = re.compile(
        "|".join(re.escape(p) for p in sorted(paths, key=len, reverse=True) if p.startswith("/"))
    )
    option = re.compile(
        r"(?<![\w.\-/])(?:"
        + "|".join(re.escape(o) for o in sorted(options, key=len, reverse=True))
        + r")[:：]"
        r"|「[^」]*[:：]」"
    )
    return command, option


def _bad_drafts() -> list[dict[str, Any]]:
    """A draft for each bad value of each field, and drafts each element or the whole refuses."""
    valid: dict[str, Any] = {"settings": SETTINGS_FORM, **{k: [{"form": dict(GOOD[k])}] for k in LISTS}}
    soldier = {"name": "兵", "type": "soldier", "area": "F0", "max_hp": "20"}
    bad_values: list[Any] = [
        "abc", "-5", "999999999", "", "dragon", "2d6+", "a\nb", "x" * 120,
        ["a"], {"a": 1}, True, 10**40, "\u200b",
    ]  # fmt: skip
    drafts = []
    for kind, form in (("settings", SETTINGS), *FORMS.items()):
        for field in form.fields:
            for value in bad_values:
                draft = {**valid, "settings": dict(SETTINGS_FORM)}
                if kind == "settings":
                    draft["settings"][field.name] = value
                    if field.name == "bolt":
                        draft["settings"]["loaded"] = "true"
                else:
                    base = soldier if kind == "units" and field.name == "position" else GOOD[kind]
                    draft[kind] = [{"form": {**base, field.name: value}}]
                drafts.append(draft)

    def units(*forms: dict[str, Any]) -> dict[str, Any]:
        return {**valid, "units": [{"form": f} for f in forms]}

    goblin = GOOD["units"]
    drafts += [
        units({**goblin, "type": "ram", "strike": ""}),
        units({**soldier, "area": "A1"}),
        units({**goblin, "area": "F0"}),
        units({**goblin, "arrive_round": "5"}),
        units({**goblin, "weakness": "炎"}),
        units({**goblin, "strike": "99999d6"}),
        units(goblin, goblin),
        units({**goblin, "hp": "31"}),
        units(*({**goblin, "name": f"g{i}"} for i in range(201))),
        {**valid, "pcs": [{"form": {**GOOD["pcs"], "name": f"p{i}"}} for i in range(21)]},
        {**valid, "cannons": [{"form": {"shells": "0"}}] * 11},
        {**valid, "commanders": [{"form": {**GOOD["commanders"], "area": "F0"}}]},
        {**valid, "pcs": [{"form": {**GOOD["pcs"], "hp": "50"}}]},
        {**valid, "traps": [{"base": {"kind": "mine", "edge": "A1-F0", "uses": 0}, "form": {"uses": "0"}}]},
    ]
    bases = (
        {"fort": "y"}, {"round": "x"}, {"turn": "later"}, {"first": "x"}, {"rounds": 3, "round": 9},
        {"ballista": {"bolt": 3}}, {"fort": {"hp": 0}}, {"outcome": "won"}, {"format": "x"},
    )  # fmt: skip
    for base in bases:
        draft = forms_of({"rounds": 3, **base})
        draft["base"] = {"rounds": 3, **base}
        drafts.append(draft)
    for element in ({"moved_m": "x"}, {"destroyed": 3}, {"halted": "x"}, {"held_edge": "Z"}, {"side": "pc"},
                    {"sheet": {"x": 1}}, {"palette": 3}, {"hp": "x", "max_hp": "y"}):  # fmt: skip
        kind = "pcs" if "sheet" in element or "palette" in element else "units"
        one = {
            **{"name": "n", "type": "normal", "area": "A1", "hp": 5, "max_hp": 5, "fort_damage": 1},
            **element,
        }
        draft = forms_of({"rounds": 3, kind: [one]})
        drafts.append(draft)
    return drafts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_refusal_names_a_command_or_an_option(lang: str) -> None:
    command, option = _syntax(lang)
    seen: dict[str, str] = {}
    for draft in _bad_drafts():
        for refusal in check(draft, lang).refusals:
            seen.setdefault(refusal.text, refusal.place)
    monster = SheetSource(MONSTER.read_text(encoding="utf-8"), "monster.json")
    draft = {"settings": SETTINGS_FORM}
    for form in ({"type": "dragon"}, {"area": "Z9", "type": "normal"}, {"fort_damage": "x"}, {}, ["a"]):
        for source in (monster, SheetSource("{", ""), SheetSource("[]", "")):
            for refusal in binding.sheet(source, form, draft, lang)["refusals"]:
                seen.setdefault(refusal["text"], refusal["place"])
    assert len(seen) > 40
    bad = {text: place for text, place in seen.items() if command.search(text) or option.search(text)}
    assert bad == {}
    assert all(text.strip() for text in seen)


def test_the_checker_finds_a_command_and_an_option():
    command, option = _syntax("ja")
    assert command.search("/罠 設置 には「回数:」が必要です")
    assert option.search("「ラウンド数:」には整数を指定してください") and option.search("use uses: here")
    assert not option.search("読み込めない戦闘データです。1番目のユニットの最大HP: 整数ではありません。")
