"""Every ``sg.*`` event and refusal has a sentence in ja and en, and every placeholder is filled in."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sg_helpers import Run, battle, enemy, pc

from bot.i18n import LANGUAGES, catalogue, placeholders
from bot.render.common import EVENT_VALUES, event_line
from bot.rulesets import sengensho as binding
from engine.sengensho.commands import (
    Damage,
    Declare,
    End,
    GMSet,
    Hide,
    Item,
    Join,
    NextTurn,
    Roll,
    Search,
    SetState,
    SpellCard,
    Surprise,
)
from engine.sengensho.keys import EVENTS, REFUSALS

ROOT = Path(__file__).resolve().parents[2]


def every_event() -> Run:
    """A battle that emits every event kind at least once."""
    run = battle(pc("A", dp=20), enemy("B", dp=20, hp=10), pc("H", dp=20), gm_fixed=True)
    run(Hide("B", 5, 1))
    run(SpellCard("A", declare=2, use=1))
    run(NextTurn())
    run(Declare("A", 15))
    run(Search("A", 9, 1, "B"), 6)
    run(Surprise("A", "B", distance=50))
    run(Surprise("A", "B", distance=5, ability=True))
    run(Roll("A", 5, 2, target=10, label="射撃", kind="attack"), 3, 4)
    run(Roll("B", 5, 2, kind="resist", against="A"))
    run(Join("R", dp_max=10, recovery=2))
    run(SpellCard("R", take_from="A"))
    run(Item("H", holder="A"))
    run(Roll("H", 5, 1, kind="attack"), 2)
    run(Item("H", release=True))
    run(SetState("A", unable=True))
    run(GMSet("A.dp", "3"))
    run(Damage("B", 12, mercy="unconscious"))
    run(End())
    return run


def test_every_event_kind_and_refusal_has_a_sentence_in_each_language() -> None:
    for lang in LANGUAGES:
        missing = sorted(k for k in (*EVENTS, *REFUSALS, "sg.enemy_gm_only") if k not in catalogue(lang))
        assert missing == [], (lang, missing)


def test_every_placeholder_of_a_refusal_is_a_field_of_it() -> None:
    for lang in LANGUAGES:
        for key, fields in REFUSALS.items():
            assert placeholders(catalogue(lang)[key]) <= set(fields), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_sentence_is_filled_in(lang: str) -> None:
    events = every_event().all_events
    assert {e.kind for e in events} == set(EVENTS)
    for event in events:
        derived = EVENT_VALUES[event.kind](event.data, lang) if event.kind in EVENT_VALUES else {}
        names = placeholders(catalogue(lang)[event.kind])
        assert names <= set(event.data) | set(derived), (event.kind, names - set(event.data) - set(derived))
        line = event_line(event, lang)
        assert "{" not in line and "sg." not in line, line


def test_roll_lines_show_dice_paid_and_dp_left() -> None:
    run = every_event()
    rolled = [e for e in run.all_events if e.kind == "sg.rolled"]
    assert event_line(rolled[0], "ja") == (
        "[射撃] A の攻撃: 5+2D[3,4] = 12(目標値10: 成功) 【DP −2 → 残り 17/20 [████████░░]】 (出目 3,4)"
    )
    assert event_line(rolled[1], "en") == (
        "B, resistance: 5+2D (fixed 7) = 12 (against A 12: won) [DP −2 → 18/20 left [█████████░]]"
    )


def test_every_sentence_the_renderer_and_binding_use_exists() -> None:
    keys: set[str] = set()
    for path in (ROOT / "bot/render/sengensho_text.py", Path(binding.__file__)):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("sg.")
            ):
                keys.add(node.value)
    keys = {k for k in keys if not k.endswith(".")}
    assert keys
    for lang in LANGUAGES:
        assert sorted(k for k in keys if k not in catalogue(lang)) == [], lang
