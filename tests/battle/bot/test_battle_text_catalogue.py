"""Every ``bt.*`` event kind and refusal key of ``engine.battle.keys`` has a sentence in ja and en, every
placeholder is filled in (from the event's fields or the parts ``bot.rulesets.battle.events`` computes),
and no message key, Python value, ``None`` or ``-`` standing for a value reaches a reader: rendered with
sample data built from the field lists of ``engine.battle.keys``, with each value that may be absent left
out, and as a whole battle through the engine emits them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from battle_text_helpers import (
    EVENTS,
    REFUSALS,
    Run,
    battle,
    event_data,
    goblins,
    griffon,
    lines,
    pc,
    refusal_data,
)
from test_every_message import leaks
from test_own_words import problems

from bot.i18n import LANGUAGES, catalogue, placeholders
from bot.registry import rulesets
from bot.render.common import event_line, refusal_text
from bot.rulesets.battle.events import EVENT_VALUES
from engine.battle.commands import (
    MP,
    Act,
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
    Reveal,
)
from engine.ruleset import Event

ROOT = Path(__file__).resolve().parents[3]


def _bad(text: str, lang: str) -> list[str]:
    """What in a reader's line is not words in the reader's language (the suite's own checks)."""
    found = leaks(text) + problems(text, lang)
    for mark in ("bt.", "{", "}", "None", "True", "False"):
        if mark in text:
            found.append(mark)
    return found


def every_event() -> Run:
    """A battle that emits every event kind at least once."""
    run = battle()
    run(
        pc("ガルド", hp=35, mp=12, defense=8, evasion=7, initiative=6, palette="2d6+7 命中", sheet='{"n": 1}')
    )
    run(pc("リナ", owner="u2", hp=25, mp=30, defense=2, evasion=5))
    run(goblins())
    run(griffon())
    run(Knowledge("ガルド", "ゴブリン", 12, invoker="u1"))
    run(Reveal("グリフォン", numbers=False, weakness=False))
    run(Initiative("ガルド", "2d6+6", invoker="u1"), 5, 4)
    run(EffectAdd("ガルド", "プロテクション", 1, mod="防護点+1", by="リナ", invoker="u2"))
    run(EffectAdd("ガルド", "プロテクション", 1, mod="防護点+2", by="リナ", invoker="u2"))
    run(EffectAdd("リナ", "ブレス", 3, text="祈り", gm=True))
    run(EffectExtend("リナ", "ブレス", 2))
    run(Next(gm=True))
    # the part destroyed; the table reads the rough line
    run(Damage("グリフォン:頭部", 40, by="ガルド", invoker="u1"))
    run(Heal("グリフォン:頭部", 10, gm=True))
    run(MP("リナ", -5, invoker="u2"))
    run(Act("リナ", invoker="u2"))
    run(Next(gm=True))
    run(Damage("リナ", 30, by="ゴブリンA", gm=True))
    run(Heal("リナ", 10, gm=True))
    run(Damage("ゴブリンB", 50, gm=True))
    run(Heal("ゴブリンB", 40, gm=True))
    run(EffectEnd("リナ", "ブレス", gm=True))
    run(Next(gm=True))
    run(GMSet("ガルド.hp", "30"))
    run(End())
    return run


def test_every_event_kind_and_refusal_has_a_sentence_in_each_language() -> None:
    for lang in LANGUAGES:
        missing = sorted(k for k in (*EVENTS, *REFUSALS) if k not in catalogue(lang))
        assert missing == [], (lang, missing)


def test_the_binding_computes_parts_for_event_kinds_of_the_engine_only() -> None:
    assert set(EVENT_VALUES) <= set(EVENTS)
    assert {k: v for k, v in rulesets().event_values.items() if k.startswith("bt.")} == EVENT_VALUES


def test_every_placeholder_of_a_refusal_is_a_field_of_it() -> None:
    """The sentence and its variants (``.no_<field>``) name only fields the refusal carries."""
    for lang in LANGUAGES:
        texts = catalogue(lang)
        for key, fields in REFUSALS.items():
            for name in (k for k in texts if k == key or k.startswith(key + ".no_")):
                assert placeholders(texts[name]) <= set(fields), (lang, name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_sentence_is_filled_in_from_its_fields(lang: str) -> None:
    for kind in EVENTS:
        data = event_data(kind)
        derived = EVENT_VALUES[kind](data, lang) if kind in EVENT_VALUES else {}
        for key in (k for k in catalogue(lang) if k == kind or k.startswith(kind + ".")):
            names = placeholders(catalogue(lang)[key])
            assert names <= set(data) | set(derived), (key, names - set(data) - set(derived))
        line = event_line(Event(kind, data), lang)
        assert _bad(line, lang) == [], (kind, line)


#: refusals whose list the engine joins itself with ``, `` (``lookup.parts_text``): an ASCII comma between
#: Japanese words, until the engine passes a list (``render.list_sep`` then joins it in the reader's words)
_ENGINE_JOINED = {"bt.unknown_part", "bt.part_required", "bt.unknown_effect"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_reads_as_words(lang: str) -> None:
    for key in REFUSALS:
        text = refusal_text(key, refusal_data(key), lang)
        found = [w for w in _bad(text, lang) if not (key in _ENGINE_JOINED and w == "ASCII comma")]
        assert found == [], (key, text)


#: event fields the engine may leave None (or empty), by kind (engine/battle/keys.py, the rules)
_ABSENT_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "bt.started": ("first", "title"),
    "bt.pc_added": ("owner",),
    "bt.monster_stats": ("weakness", "move", "fortitude", "willpower", "level", "core"),
    "bt.knowledge": ("roll", "weakness_text"),
    "bt.revealed": ("weakness_text",),
    "bt.initiative": ("roll",),
    "bt.first_decided": ("enemy_best",),
    "bt.damaged": ("part", "by", "element", "roll"),
    "bt.damaged_rough": ("part", "by", "element", "roll"),
    "bt.healed": ("part", "by", "roll"),
    "bt.healed_rough": ("part", "by", "roll"),
    "bt.mp": ("part",),
    "bt.effect_added": ("part", "by", "replaced", "text"),
    "bt.effect_ended": ("part", "by", "text"),
    "bt.effect_extended": ("part", "by", "text"),
    "bt.gm_set": ("before", "value"),
    "bt.ended": ("title", "pcs", "monsters"),
    "bt.turn_started": ("ended", "to_act"),
    "bt.turn_ended": ("not_acted",),
    "bt.acted": ("not_acted",),
}
_UNKNOWN = {
    "numbers": False,
    "weakness": False,
    "reputation": None,
    "weakness_value": None,
    "weakness_text": None,
}
_DOWN_PC = {"name": "ガルド", "hp": -3, "max_hp": 35, "down": True}
_DOWN_MONSTER = {"name": "ゴブリンA", "down": True, "parts": [{"name": "", "state": "dying"}]}
#: the absences that come together (what the table does not know; how the first side was decided)
_ABSENT_TOGETHER: list[tuple[str, dict[str, Any]]] = [
    ("bt.knowledge", {**_UNKNOWN, "learned": [], "roll": None}),
    ("bt.knowledge", {"weakness": False, "weakness_text": None, "learned": ["numbers"]}),
    ("bt.knowledge", {"learned": []}),
    ("bt.revealed", _UNKNOWN),
    ("bt.revealed", {"weakness": False, "weakness_text": None}),
    ("bt.revealed", {**_UNKNOWN, "weakness": True, "weakness_text": "炎属性ダメージ+3"}),
    ("bt.first_decided", {"how": "gm", "pc_best": None, "pc_name": None, "enemy_best": None}),
    (
        "bt.first_decided",
        {"how": "no_monsters", **dict.fromkeys(("pc_best", "pc_name", "enemy_best", "enemy_name"))},
    ),
    ("bt.first_decided", {"how": "initiative", "first": "enemy", "enemy_best": None}),
    ("bt.effect_added", {"rounds": None, "left": None, "until_end": True, "mods": [], "by": None}),
    ("bt.effect_ended", {"rounds": None, "left": None, "until_end": True}),
    ("bt.healed", {"gained": 3, "amount": 10}),
    ("bt.mp", {"delta": 5, "capped": True}),
    ("bt.acted", {"acted": False}),
    ("bt.part_destroyed", {"monster_down": True}),
    ("bt.effect_extended", {"delta": -1, "left": 1}),
    ("bt.damaged", {"resisted": "none", "halved": 0, "final": 0, "mod": -1, "weakness": 0, "defense": 0}),
    ("bt.damaged", {"roll": {**event_data("bt.damaged")["roll"], "fumble": True, "damage": 0}, "amount": 0}),
    ("bt.damaged_rough", {"before": "light", "after": "light", "resisted": "full"}),
    ("bt.ended", {"round": 0, "pcs": [_DOWN_PC], "monsters": [_DOWN_MONSTER]}),
]
#: refusal fields that may be None or empty
_ABSENT_REFUSAL_FIELDS: dict[str, tuple[str, ...]] = {
    "bt.battle_over": ("title",),
    "bt.already_running": ("title",),
    "bt.command_invalid": ("type", "field"),
    "bt.name_invalid": ("name",),
    "bt.not_your_turn": ("name",),
    "bt.initiative_needed": ("enemy",),
    "bt.unknown_effect": ("effects",),
}


def _empty(field: str) -> Any:
    if field in ("title", "text", "effects", "name"):
        return ""
    return [] if field in ("ended", "to_act", "not_acted", "pcs", "monsters") else None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_absent_value_is_left_out_of_the_sentence(lang: str) -> None:
    """Each field that may be absent, absent (and all of a kind's at once), and the absences that come
    together: no gap, no ``-``, no ``None``."""
    bad = []
    scenarios = [
        (kind, {f: _empty(f) for f in absent})
        for kind, fields in _ABSENT_EVENT_FIELDS.items()
        for absent in [*((f,) for f in fields), fields]
    ]
    for kind, changed in [*scenarios, *_ABSENT_TOGETHER]:
        line = event_line(Event(kind, {**event_data(kind), **changed}), lang)
        if _bad(line, lang) or "  " in line:
            bad.append((kind, changed, line))
    for key, fields in _ABSENT_REFUSAL_FIELDS.items():
        for absent in [*((f,) for f in fields), fields]:
            text = refusal_text(key, {**refusal_data(key), **{f: _empty(f) for f in absent}}, lang)
            if _bad(text, lang) or "  " in text or "()" in text or "「」" in text:
                bad.append((key, absent, text))
    assert bad == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_of_a_whole_battle_reads_as_words(lang: str) -> None:
    events = every_event().all_events
    assert {e.kind for e in events} == set(EVENTS)
    for event, line in zip(events, lines(events, lang), strict=True):
        derived = EVENT_VALUES[event.kind](event.data, lang) if event.kind in EVENT_VALUES else {}
        names = placeholders(catalogue(lang)[event.kind])
        assert names <= set(event.data) | set(derived), event.kind
        assert _bad(line, lang) == [], (event.kind, line)


def test_a_refusal_without_a_value_reads_as_its_variant() -> None:
    values = {"name": None, "turn": "enemy", "round": 2}
    assert refusal_text("bt.not_your_turn", values, "ja") == (
        "いまは第2ラウンドの敵側の手番なので、PC側は行動できません"
        "(回避・抵抗・受けたダメージはいつでも扱えます)。"
    )
    assert refusal_text("bt.not_your_turn", values, "en") == (
        "It is round 2, the enemy side's turn: the PC side cannot act now (evasion, resistance and damage "
        "taken belong to any turn)."
    )
    assert refusal_text("bt.unknown_effect", {"target": "ガルド", "name": "ブレス", "effects": ""}, "ja") == (
        "ガルドには効果がかかっていません(「ブレス」もありません)。"
    )
    shown = refusal_text("bt.import_invalid", {"place": "monsters.0.parts.1.hp", "reason": "not_int"}, "ja")
    assert shown == "読み込めない戦闘データです。1番目の魔物の2番目の部位のHP: 整数ではありません。"
    shown = refusal_text(
        "bt.import_invalid", {"place": "effects.0.left", "reason": "until_end_mismatch"}, "en"
    )
    assert shown == (
        "The battle document cannot be imported (the rounds left of the 1st effect): only one of the rounds "
        "and the rounds left is empty (an effect until the end has neither)."
    )


def test_every_sentence_the_renderer_and_binding_use_exists() -> None:
    """Each ``bt.*`` key written in ``events.py``, ``text.py`` and ``discord.py`` has an entry (the keys
    made from a word, ``bt.text.side.`` + side, are checked by the renders above)."""
    keys: set[str] = set()
    for name in ("events.py", "text.py", "discord.py"):
        tree = ast.parse((ROOT / "bot/rulesets/battle" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("bt.")
            ):
                keys.add(node.value)
    keys = {k for k in keys if not k.endswith(".")}
    assert len(keys) > 100
    for lang in LANGUAGES:
        assert sorted(k for k in keys if k not in catalogue(lang)) == [], lang
