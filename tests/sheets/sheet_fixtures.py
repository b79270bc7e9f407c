"""The ゆとシートⅡ fixtures of tests/sheets/fixtures/ytsheet2: sheets made by ytsheet2's own code.

ytsheet2 (github: yutorize/ytsheet2, commit 28d369527f5bc0963e28c37724a958cb2e41d062, 1.26.100) ran
unmodified as CGI on 127.0.0.1; each sheet was filled in through its edit form and read back as the site
serves it (see ``../shared/reference/ytsheet2/README.md``, where ``fighter``, ``caster``,
``fighter_custom`` and ``monster`` come from):

* ``<name>.json``: ``?id=<id>&mode=json``, what Toride imports;
* ``<name>.palette.bcdice.txt``: ``?id=<id>&mode=palette&tool=bcdice``, the palette ytsheet makes;
* ``<name>.palette.bcdice.all.txt``: the same with ``&propertiesall=1``;
* ``<name>.ccfolia.ytsheet.txt``: ytsheet's own ``generateCcfoliaJson`` (its ココフォリア button).

The sheets: ``fighter`` (ガルド: ファイター5/スカウト3/エンハンサー2, a sword 1H and 2H), ``caster``
(|蒼月《そうげつ》: ソーサラー5/プリースト3/セージ3), ``fighter_custom`` (ミナ: its own palette, begin),
``monster`` (グリフォン: 2 parts, ``20（飛行40）``, 弱点 命中力+1), ``ranger_inserts`` (リオ: シューター5/
レンジャー3/セージ2/フェアリーテイマー3 with 4 contracts, a 一般技能, かばうⅠ, its own palette after the
generated one (end), inserts first and after 武器攻撃系), ``escapes`` (ジャック"&<ロ>: texts with ``&``,
``<``, ``"``, its own palette instead of the generated one), ``escapes_generated`` (the same without its
own palette, an insert after 非戦闘系), ``monster_slow`` (トレント: 移動速度 5, 弱点 炎属性ダメージ+3点).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.sheets.ytsheet import CharacterRead, read_sheet

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ytsheet2"
#: the character sheets, and those without a palette of their own
CHARACTERS = ("fighter", "caster", "fighter_custom", "ranger_inserts", "escapes", "escapes_generated")
GENERATED = ("fighter", "caster", "escapes_generated")
MONSTERS = ("monster", "monster_slow")


def fixture(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(fixture_text(name))
    return document


def fixture_text(name: str, suffix: str = "json") -> str:
    return (FIXTURES / f"{name}.{suffix}").read_text(encoding="utf-8")


def character(name: str) -> CharacterRead:
    """The fixture ``name`` read as a character sheet."""
    read = read_sheet(fixture(name))
    assert isinstance(read, CharacterRead)
    return read
