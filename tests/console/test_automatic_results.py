"""Issue 23, item 6: 1ゾロ and 6ゾロ named wherever the bot judges a 2D6 check, through ``toride console``.

The checks the bot judges against a target number:
- the fort's one 2D6 check is the cannon load's strength check (F-CAN-2, against 15/18/21/24/27):
  1ゾロ fails whatever its total, 6ゾロ loads at least one shell, and the reply names which;
- 千幻抄's checks are N D6 pools (S-CORE-4: success when the total reaches the target) with no
  automatic result, two dice included: nothing is named;
- a plain comparison (``2D6>=12``) prints BCDice's own text (自動的成功, 自動的失敗), byte for byte.

Every BCDice text below is what BCDice 4 from npm prints for these dice (checked with its
``SwordWorld2.5`` game system and a scripted randomizer).
"""

# ruff: noqa: E501  (the expected replies are kept whole, one per line)
from __future__ import annotations

from pathlib import Path

from console_run import console

#: F-CAN-2: a 1ゾロ whose total (22) would load, 6ゾロ under 15 and over it, plain rolls either side of 15,
#: and a check given as a number (no dice, nothing to name)
LOADS = (
    "/fort start rounds:2 cannons:3\n/pc add name:アリス position:top hp:60\n"
    "/cannon load cannon:1 bonus:20 by:アリス\n/cannon load cannon:1 by:アリス\n"
    "/cannon load cannon:2 bonus:5 by:アリス\n/cannon load cannon:3 bonus:8 by:アリス\n"
    "/cannon load cannon:3 by:アリス\n/cannon load cannon:2 check:12 by:アリス\n"
)
#: each check's 2D6, then each failed load's K40+12@10 for the loader
DICE = "1,1,3,3,6,6,6,6,3,4,3,4,2,2,5,4"


def test_f_can_2_loads_in_japanese_name_1zoro_and_6zoro_and_nothing_else(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", LOADS, "--dice", DICE, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[3:] == [
        "大砲1の装填失敗(筋力判定 22(1ゾロ: 自動的失敗)): 砲弾を落としました。 《(2D6+20) ＞ 2[1,1]+20 ＞ 22》",
        "アリスに19ダメージ(HP 60→41)。 《KeyNo.40c[10]+12 ＞ 2D:[3,3]=6 ＞ 7+12 ＞ 19》",
        "大砲1に装填: 筋力判定 12(6ゾロ: 自動的成功)、1発装填(砲弾 0→1)。 《(2D6) ＞ 12[6,6] ＞ 12》",
        "大砲2に装填: 筋力判定 17(6ゾロ: 自動的成功)、1発装填(砲弾 0→1)。 《(2D6+5) ＞ 12[6,6]+5 ＞ 17》",
        "大砲3に装填: 筋力判定 15、1発装填(砲弾 0→1)。 《(2D6+8) ＞ 7[3,4]+8 ＞ 15》",
        "大砲3の装填失敗(筋力判定 7): 砲弾を落としました。 《(2D6) ＞ 7[3,4] ＞ 7》",
        "アリスに17ダメージ(HP 41→24)。 《KeyNo.40c[10]+12 ＞ 2D:[2,2]=4 ＞ 5+12 ＞ 17》",
        "大砲2の装填失敗(筋力判定 12): 砲弾を落としました。",
        "アリスに23ダメージ(HP 24→1)。 《KeyNo.40c[10]+12 ＞ 2D:[5,4]=9 ＞ 11+12 ＞ 23》",
    ]
    assert done.stderr == ""


def test_f_can_2_loads_in_english_in_the_cannon_loads_words(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", LOADS, "--dice", DICE, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[3:] == [
        "Loading cannon 1 failed (strength check 22 (double 1s: an automatic failure)): the shell is dropped. 《(2D6+20) ＞ 2[1,1]+20 ＞ 22》",
        "アリス takes 19 damage (HP 60 → 41). 《KeyNo.40c[10]+12 ＞ 2D:[3,3]=6 ＞ 7+12 ＞ 19》",
        "Cannon 1 loaded: strength check 12 (double 6s: an automatic success), 1 shell (0 → 1). 《(2D6) ＞ 12[6,6] ＞ 12》",
        "Cannon 2 loaded: strength check 17 (double 6s: an automatic success), 1 shell (0 → 1). 《(2D6+5) ＞ 12[6,6]+5 ＞ 17》",
        "Cannon 3 loaded: strength check 15, 1 shell (0 → 1). 《(2D6+8) ＞ 7[3,4]+8 ＞ 15》",
        "Loading cannon 3 failed (strength check 7): the shell is dropped. 《(2D6) ＞ 7[3,4] ＞ 7》",
        "アリス takes 17 damage (HP 41 → 24). 《KeyNo.40c[10]+12 ＞ 2D:[2,2]=4 ＞ 5+12 ＞ 17》",
        "Loading cannon 2 failed (strength check 12): the shell is dropped.",
        "アリス takes 23 damage (HP 24 → 1). 《KeyNo.40c[10]+12 ＞ 2D:[5,4]=9 ＞ 11+12 ＞ 23》",
    ]


SG = (
    "/sg start\n/sg join name:霊夢 body:3 endurance:3 intellect:3 sense:3 will:3\n/sg turn\n"
    "/sg roll name:霊夢 base:5 dice:2 target:7\n/sg roll name:霊夢 base:0 dice:2 target:13\n"
    "/sg roll name:霊夢 base:5 dice:2 target:13\n"
)


def test_s_core_4_a_two_dice_check_has_no_automatic_result(tmp_path: Path) -> None:
    """S-CORE-4: a 千幻抄 check succeeds when its total reaches the target, whatever its dice: [1,1]
    reaching it succeeds, [6,6] short of it fails, and no ゾロ is named."""
    done = console(tmp_path / "b.db", SG, "--dice", "1,1,6,6,3,4", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[3:] == [
        "霊夢の判定: 5+2D[1,1] = 7(目標値7: 成功) 【DP −2 → 残り17/19 [█████████░]】 (出目 1,1)",
        "霊夢の判定: 0+2D[6,6] = 12(目標値13: 失敗) 【DP −2 → 残り15/19 [████████░░]】 (出目 6,6)",
        "霊夢の判定: 5+2D[3,4] = 12(目標値13: 失敗) 【DP −2 → 残り13/19 [███████░░░]】 (出目 3,4)",
    ]
    done = console(tmp_path / "c.db", SG, "--dice", "1,1,6,6,3,4", "--lang", "en")
    assert done.stdout.splitlines()[3:5] == [
        "霊夢, check: 5+2D[1,1] = 7 (target 7: success) [DP −2 → 17/19 left [█████████░]] (dice 1,1)",
        "霊夢, check: 0+2D[6,6] = 12 (target 13: failure) [DP −2 → 15/19 left [████████░░]] (dice 6,6)",
    ]


def test_a_plain_comparison_prints_bcdices_own_automatic_results(tmp_path: Path) -> None:
    """SW2.5 2D6 comparisons: BCDice's text (its 自動的成功/自動的失敗), in either language, nothing added."""
    script = "/roll expr:2D6>=13\n/roll expr:2D6+20>=15\n/roll expr:2D6>=7\n"
    for lang in ("ja", "en"):
        done = console(tmp_path / f"{lang}.db", script, "--dice", "6,6,1,1,3,4", "--lang", lang)
        assert done.stdout.splitlines() == [
            "gm: (2D6>=13) ＞ 12[6,6] ＞ 12 ＞ 自動的成功",
            "gm: (2D6+20>=15) ＞ 2[1,1]+20 ＞ 22 ＞ 自動的失敗",
            "gm: (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
        ]
