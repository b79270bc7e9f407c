"""The README's console sessions run as written: no refusal, no dice left, the status at the end."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from console_run import ROOT, console

SESSION = re.compile(r"^\$ toride console ([^\n]*) <<'EOF'\n(.*?)^EOF$", re.M | re.S)


def sessions() -> list[tuple[list[str], str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return [(shlex.split(args), script) for args, script in SESSION.findall(readme)]


def test_the_readme_has_a_fort_a_sengensho_and_an_ordinary_battles_session() -> None:
    scripts = [script for _, script in sessions()]
    assert len(scripts) == 3
    assert scripts[0].startswith("/fort start") and scripts[1].startswith("/sg start")
    assert scripts[2].startswith("/戦闘 開始")


def test_the_readme_fort_session_runs(tmp_path: Path) -> None:
    args, script = sessions()[0]
    done = console(tmp_path / "readme.db", script, *args)
    assert done.returncode == 0 and done.stderr == ""
    assert "⚠" not in done.stdout
    assert "Cannon: ゴブリン隊 takes 23 damage (HP 40 → 17)." in done.stdout
    assert done.stdout.splitlines()[-1] == "GM: gm"


def test_the_readme_sengensho_session_runs(tmp_path: Path) -> None:
    args, script = sessions()[1]
    done = console(tmp_path / "readme.db", script, *args)
    assert done.returncode == 0 and done.stderr == ""
    assert "⚠" not in done.stdout
    # S-CORE-1: DP max 10 + 3 + 2 + 3 = 18; the attack takes 感覚5 + 射撃4 from the sheet and pays
    # 2 dice: 9 + 6 + 3 = 18; the search (感覚5 + 感知2 + 8 = 15) beats the hidden 6 + fixed 7 = 13
    out = done.stdout
    attack = "[射撃] 霊夢の攻撃: 9(感覚+射撃)+2D[6,3] = 18 【DP −2 → 残り16/18 [█████████░]】 (出目 6,3)"
    assert attack in out
    assert "🔒 あなたにだけ見えています:\n(秘匿)霊夢の知覚 15 対 ルーミアの隠密 13 → 発見!" in out
    assert "▶ 手番の全員が行動しました。次はイニシアティブ 16 — ルーミア" in out
    assert out.splitlines()[-1] == "GM: gm"


def test_the_readme_ordinary_battle_session_runs(tmp_path: Path) -> None:
    """Issue 36: B-KNOW-1 (14 reaches 知名度 5 and 弱点値 11), B-INIT-1 (15 against 11: the PC side first),
    B-DMG-2 (11 − 2 = 9, halved rounded up: 5)."""
    args, script = sessions()[2]
    done = console(tmp_path / "readme.db", script, *args)
    assert done.returncode == 0 and done.stderr == ""
    assert "⚠" not in done.stdout
    out = done.stdout
    assert "ガルドの魔物知識判定(ゴブリン): 14。知名度5に届き" in out
    assert "▶ PC側が先攻です。" in out
    assert "ゴブリンAへの物理ダメージ(ガルドから): 11(2D+5) −2(防護点) = 9 → 半減 5、HP 16→11/16" in out
