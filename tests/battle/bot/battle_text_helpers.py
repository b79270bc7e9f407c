"""Helpers of the ordinary battle's text tests: the engine tests' harness (``battle_helpers``: commands
applied with scripted dice, every event checked against ``engine.battle.keys``), events as lines, the
status screen as the GM and as a player read it, and sample data built from ``engine.battle.keys``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

_TESTS = Path(__file__).resolve().parents[2]
for _folder in (_TESTS / "battle" / "engine", _TESTS):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from battle_helpers import GM, Run, battle, pc  # noqa: E402

from bot.render.common import event_line  # noqa: E402
from bot.rulesets.battle.text import status  # noqa: E402
from bot.views import StatusView  # noqa: E402
from engine.battle import BATTLE  # noqa: E402
from engine.battle.commands import AddMonster, PartSpec  # noqa: E402
from engine.battle.keys import EFFECT, EVENTS, REFUSALS  # noqa: E402
from engine.battle.visibility import visible  # noqa: E402
from engine.ruleset import Event  # noqa: E402

__all__ = [
    "EVENTS",
    "GM",
    "REFUSALS",
    "Run",
    "battle",
    "event_data",
    "gm_status",
    "goblins",
    "griffon",
    "lines",
    "pc",
    "refusal_data",
    "table_lines",
    "table_status",
]


def goblins(count: int = 2, weakness: str = "物理ダメージ+2", defense: int = 3, hp: int = 18) -> AddMonster:
    """ゴブリン (知名度5, 弱点値11), ``count`` of them."""
    part = PartSpec(hp=hp, defense=defense, hit=10, strike="2d+3", evasion=10)
    return AddMonster(
        "ゴブリン",
        parts=(part,),
        count=count,
        reputation=5,
        weakness_value=11,
        weakness=weakness,
        initiative=11,
    )


def griffon() -> AddMonster:
    """グリフォン of two parts (頭部, the core 胴体), 知名度15, 弱点値20."""
    head = PartSpec(hp=30, name="頭部", defense=4, hit=12, strike="2d+6", evasion=11)
    body = PartSpec(hp=40, name="胴体", defense=5, evasion=10)
    return AddMonster(
        "グリフォン",
        parts=(head, body),
        core=1,
        reputation=15,
        weakness_value=20,
        weakness="物理ダメージ+2",
        initiative=14,
        move="20/40",
    )


def lines(events: list[Event], lang: str) -> list[str]:
    """Every event (the GM's too) as its line."""
    return [event_line(e, lang) for e in events]


def table_lines(events: list[Event], lang: str) -> list[str]:
    """The events the table reads (``audience`` None), as lines."""
    return [event_line(e, lang) for e in events if e.audience is None]


def gm_status(run: Run, lang: str, gms: tuple[str, ...] = ("GM太郎",)) -> str:
    return status(StatusView(ruleset="battle", document=BATTLE.export(run.s), gms=gms), lang)


def table_status(run: Run, lang: str) -> str:
    """The status as a player reads it (``RuleSet.visible``: B-KNOW-1)."""
    document = visible(BATTLE.export(run.s), "u1")
    return status(StatusView(ruleset="battle", document=document, gms=("GM太郎",)), lang)


# --- sample data from the field lists of engine.battle.keys --------------------------------------

_ROLL = {
    "command": "2D6+5",
    "text": "(2D6+5) ＞ 7[3,4]+5 ＞ 12",
    "total": 12,
    "damage": 12,
    "critical": False,
    "fumble": False,
}
_EFFECT = {
    "id": 3,
    "name": "プロテクション",
    "target": "ガルド",
    "part": None,
    "text": "守りの光",
    "rounds": 3,
    "left": 2,
    "until_end": False,
    "side": "pc",
    "made_round": 1,
    "by": "リナ",
    "mods": [{"stat": "defense", "delta": 1}, {"stat": "evasion", "delta": -1}],
}
_PART = {
    "name": "頭部",
    "hp": 30,
    "max_hp": 30,
    "mp": 0,
    "max_mp": 0,
    "defense": 4,
    "hit": 12,
    "strike": "2d+6",
    "evasion": 11,
}
#: a value for each field name (shapes as the engine gives them)
_FIELDS: dict[str, Any] = {
    "title": "街道の戦い",
    "first": "pc",
    "name": "ガルド",
    "owner": "u1",
    "sheet": True,
    "palette": True,
    "names": ["ゴブリンA", "ゴブリンB"],
    "kind": "physical",
    "parts": ["頭部", "胴体"],
    "known": False,
    "monster": "ゴブリン",
    "roll": _ROLL,
    "numbers": True,
    "weakness": 2,
    "weakness_text": "物理ダメージ+2",
    "learned": ["numbers", "weakness"],
    "best_name": "ガルド",
    "how": "initiative",
    "pc_name": "ガルド",
    "enemy_name": "グリフォン",
    "side": "pc",
    "ended": [_EFFECT],
    "to_act": ["ガルド", "リナ"],
    "not_acted": ["リナ"],
    "acted": True,
    "target": "ゴブリンA",
    "part": "頭部",
    "by": "ガルド",
    "element": "fire",
    "resisted": "half",
    "dealer_side": "pc",
    "down": False,
    "destroyed": False,
    "before": "unhurt",
    "after": "light",
    "monster_down": False,
    "capped": False,
    "text": "守りの光",
    "until_end": False,
    "mods": _EFFECT["mods"],
    "replaced": 2,
    "reason": "ended",
    "value": "12",
    "pcs": [{"name": "ガルド", "hp": 20, "max_hp": 35, "down": False}],
    "monsters": [{"name": "グリフォン", "down": False, "parts": [{"name": "頭部", "state": "heavy"}]}],
    "move": "20/40",
    "core": 1,
    "hidden_stats": False,
    "reputation": 5,
    "weakness_value": 11,
    "delta": -3,
    "made_round": 1,
}
#: fields whose value differs by kind
_KIND_FIELDS: dict[str, dict[str, Any]] = {
    "bt.monster_added": {"kind": "グリフォン"},
    "bt.monster_stats": {
        "kind": "グリフォン",
        "weakness": "物理ダメージ+2",
        "parts": [_PART, {**_PART, "name": "胴体"}],
    },
    "bt.knowledge": {"weakness": True},
    "bt.revealed": {"monster": "グリフォン", "weakness": True},
    "bt.healed_rough": {"before": "heavy", "after": "light"},
    "bt.gm_set": {"target": "ゴブリンA.hp", "before": 18, "value": 12},
    "bt.effect_added": {**_EFFECT},
    "bt.effect_ended": {**_EFFECT},
    "bt.effect_extended": {**_EFFECT, "delta": 2},
    "bt.mp": {"delta": -3, "part": None},
}
#: fields of refusals whose value differs by key
_REFUSAL_FIELDS: dict[str, dict[str, Any]] = {
    "bt.command_invalid": {"reason": "missing", "type": "Damage", "field": "targets"},
    "bt.import_invalid": {"place": "monsters.0.parts.1.hp", "reason": "not_int", "detail": {}},
    "bt.dice_invalid": {"expression": "2d6>=7", "reason": "not_damage"},
    "bt.not_your_turn": {"turn": "enemy"},
    "bt.side_invalid": {"side": "敵軍", "allowed": "pc, enemy"},
    "bt.kind_invalid": {"kind": "斬撃", "allowed": "physical, magic, fixed"},
    "bt.element_invalid": {"element": "光", "allowed": "fire, water"},
    "bt.resisted_invalid": {"resisted": "全部", "allowed": "full, half, none"},
    "bt.mod_invalid": {"mod": "筋力+2", "allowed": "防護点, 回避力, 命中力, ダメージ"},
    "bt.duration_invalid": {"rounds": "永遠"},
    "bt.value_invalid": {"field": "amount", "value": -5},
    "bt.set_value_invalid": {"target": "ガルド.hp", "value": "abc", "reason": "not_an_integer", "detail": {}},
    "bt.set_target_invalid": {"target": "ガルド.str", "fields": "round, turn, first, title, hp"},
    "bt.unknown_effect": {"target": "ガルド", "name": "ブレス", "effects": "プロテクション"},
    "bt.effect_which": {"target": "ガルド", "name": "プロテクション", "ids": [3, 5]},
    "bt.extend_invalid": {"name": "プロテクション", "left": 2, "rounds": -5, "max": 999},
    "bt.unknown_part": {"name": "グリフォン", "part": "尾", "parts": "頭部, 胴体"},
    "bt.part_required": {"name": "グリフォン", "parts": "頭部, 胴体"},
    "bt.turn_not_done": {"names": ["リナ"], "round": 2},
    "bt.resisted_count": {"targets": 2, "given": 3},
    "bt.mp_short": {"name": "ガルド", "mp": 2, "cost": 5},
    "bt.core_invalid": {"core": 3, "parts": 2},
    "bt.initiative_needed": {"enemy": "グリフォン"},
}


def _sample(field: str) -> Any:
    if field in _FIELDS:
        return _FIELDS[field]
    return 12 if field not in ("name", "target") else "ガルド"


def event_data(kind: str) -> dict[str, Any]:
    """Data of event ``kind``: exactly its fields of ``engine.battle.keys.EVENTS``."""
    overrides = _KIND_FIELDS.get(kind, {})
    data = {f: overrides[f] if f in overrides else _sample(f) for f in EVENTS[kind]}
    assert set(data) == set(EVENTS[kind])
    return data


def refusal_data(key: str) -> dict[str, Any]:
    """Values of refusal ``key``: its fields of ``engine.battle.keys.REFUSALS``."""
    overrides = _REFUSAL_FIELDS.get(key, {})
    return {f: overrides[f] if f in overrides else _sample(f) for f in REFUSALS[key]}


#: an effect's fields as events carry them
EFFECT_FIELDS = EFFECT
