"""Every ``sg.*`` event and refusal has a sentence in ja and en, and every placeholder is filled in."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sg_helpers import Run, battle, enemy, pc

from bot.i18n import LANGUAGES, catalogue, placeholders
from bot.registry import rulesets
from bot.render.common import event_line
from bot.rulesets.sengensho.text import status
from bot.views import StatusView
from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Answer,
    Attack,
    Damage,
    Declare,
    End,
    GMSet,
    Hide,
    Item,
    Join,
    NextStep,
    NextTurn,
    Profile,
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
    run = battle(pc("A", dp=20), enemy("B", dp=20, hp=10), pc("H", dp=20), gm_fixed="checks")
    run(Hide("B", 5, 1))
    run(Join("L", dp_max=10, recovery=2, side="enemy", hidden=True))
    run(SpellCard("A", declare="霊符「夢想封印」, 夢符「封魔陣」", use="霊符「夢想封印」"))
    run(NextTurn())
    run(Declare("A", 15))
    run(Search("A", 9, 1, "B"), 6)
    run(Surprise("L", "A", distance=5, ability=True))
    run(Roll("L", 3, 1, kind="ability", at="A", gm=True))  # S-SUR-6: a hidden caster's ability
    run(Roll("A", 2, 1, kind="resist"), 5)  # resisted without naming the caster
    run(Surprise("A", "B", distance=50))
    run(Roll("A", 5, 2, target=10, label="射撃", kind="attack", gm=True), 3, 4)  # out of step, marked
    run(Roll("B", 5, 2, kind="resist", against="A"))
    run(Join("R", dp_max=10, recovery=2))
    run(Surprise("R", "B", distance=40))
    run(Surprise("R", "B", distance=60))  # S-SUR-5: it replaces R's own, the GM is told
    run(Roll("R", 0, 0, kind="stealth"))
    run(Roll("B", 10, 0, kind="perception", against="R"))  # S-SUR-5: B has found R: it lapses
    run(Surprise("R", "B", distance=50))  # S-SUR-5: never made, it lapses when the turn moves on
    run(SpellCard("R", take_from="A"))
    run(Item("H", holder="A"))
    run(Roll("H", 5, 1, kind="attack"), 2)
    run(Item("H", release=True))
    run(NextStep())
    run(NextTurn())
    run(SetState("A", unable=True))
    run(GMSet("A.dp", "3"))
    run(Damage("H", 40, mercy="none"))
    run(Damage("B", 12, mercy="unconscious"))
    run(Join("L", dp_max=10, recovery=2, invoker="u9"))  # S-HIDE-1: a player's name the hidden L has
    # /sg attack: the GM side answers by itself (S-GM-1), a player is asked, takes it, mercy is awaited
    run(Join("P", dp_max=10, recovery=2, hp=10))
    run(Profile("P", attack="5", evasion="3", damage="1d+1"))
    run(Join("E", dp_max=10, recovery=2, hp=5, side="enemy"))
    run(Profile("E", evasion="2", answer="evasion:1"))
    run(Attack(target="E", dice=0, name="P", gm=True))  # 5 against 2 + 3 (fixed): missed
    run(Attack(target="P", dice=0, name="E", base=4, damage="1d", gm=True))
    run(Answer(exchange=2, defence="take"), 6)
    run(Profile("E", answer="take"))
    run(Attack(target="E", dice=0, name="P", gm=True), 6)  # E takes it by itself: 7 ≥ 5, mercy awaited
    run(Answer(exchange=3, mercy="unconscious"))
    run(End(reveal=True))  # S-HIDE-1: the GM reveals the hidden L as the battle ends
    return run


def test_every_event_kind_and_refusal_has_a_sentence_in_each_language() -> None:
    for lang in LANGUAGES:
        extra = ("sg.enemy_gm_only", "sg.initiative_gm_only", "sg.holder_knows_gm_only")
        missing = sorted(k for k in (*EVENTS, *REFUSALS, *extra) if k not in catalogue(lang))
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
        parts = rulesets().event_values
        derived = parts[event.kind](event.data, lang) if event.kind in parts else {}
        names = placeholders(catalogue(lang)[event.kind])
        assert names <= set(event.data) | set(derived), (event.kind, names - set(event.data) - set(derived))
        line = event_line(event, lang)
        assert "{" not in line and "sg." not in line, line


def test_roll_lines_show_dice_paid_and_dp_left() -> None:
    run = every_event()
    rolled = [e for e in run.all_events if e.kind == "sg.rolled"][2:]  # after the S-SUR-6 pair
    assert event_line(rolled[0], "ja") == (
        "[射撃] Aの攻撃: 5+2D[3,4] = 12(目標値10: 成功) 【DP −2 → 残り16/20 [████████░░]】"
        " ※手番外(いまはイニシアティブ 20のB・Hの手番) (出目 3,4)"
    )
    assert event_line(rolled[1], "en") == (
        "B, resistance: 5+2D (fixed 7) = 12 (against A 12: won) [DP −2 → 18/20 left [█████████░]]"
    )


def test_s_core_4_dp_0_a_roll_of_0d_reads_as_its_base_alone() -> None:
    """Defect: a 0D roll read ``6+0D[] = 6``."""
    run = battle(pc("A", dp=10))
    run(NextTurn())
    run(GMSet("A.dp", "0"))
    run(Roll("A", 6, 0, kind="check"))
    assert event_line(run.events[0], "ja") == "Aの判定: 6+0D = 6 【DP 消費なし → 残り0/10 [░░░░░░░░░░]】"


def test_a_roll_from_the_sheet_aimed_and_out_of_step_reads_so() -> None:
    run = battle(Join("A", body=3, endurance=2, intellect=4, sense=5, will=3, skills="射撃4"), enemy("B"))
    run(NextTurn())  # B at 20, A at 18
    run(Roll("A", None, 2, check="感覚+〈射撃〉", kind="attack", at="B", gm=True), 3, 3)
    assert event_line(run.events[0], "ja") == (
        "Aの攻撃(Bへ): 9(感覚+〈射撃〉)+2D[3,3] = 15 【DP −2 → 残り16/18 [█████████░]】"
        " ※手番外(いまはイニシアティブ 20のBの手番) (出目 3,3)"
    )
    run(Roll("A", None, 1, check="sense+shooting-2", kind="damage"), 6)
    assert event_line(run.events[0], "en") == (
        "A, damage: 7 (sense+shooting-2)+1D[6] = 13 [DP not paid → 16/18 left [█████████░]] (dice 6)"
    )


def test_the_english_status_header_has_its_space() -> None:
    """Defect: the English status header read "turn 1(from an ambush"."""
    run = battle(pc("A"), opening="ambush")
    run(NextTurn())
    view = StatusView(ruleset="sengensho", document=SENGENSHO.export(run.s))
    assert status(view, "en").splitlines()[0] == (
        "[test] 千幻抄 turn 1 (from an ambush: DP spent stays spent, no recovery in turn 1)"
    )


def test_every_sentence_the_renderer_and_binding_use_exists() -> None:
    keys: set[str] = set()
    for path in sorted((ROOT / "bot/rulesets/sengensho").glob("*.py")):
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
