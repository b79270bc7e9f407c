"""The chat palette ゆとシートⅡ makes for a character sheet, for BCDice (``?id=…&mode=palette&tool=bcdice``).

Line for line what ytsheet2's generator writes (``_core/lib/palette.pl`` and ``sw2/palette-sub.pl``'s
``palettePreset``) with variables and buffs on (``paletteUseVar``, ``paletteUseBuff``): 非戦闘系 (the
判定パッケージ of each class, 魔物知識 and 先制 with their bonuses), 一般技能, 宣言特技, 魔法系 (casting,
damage, halved damage and healing of each magic and craft with a power), 武器攻撃系 (命中力 and ダメージ of
each weapon row, bullets for guns) and 抵抗回避, with the player's own inserts (``chatPaletteInsert{n}``) at
their positions; then the sheet's own palette before, after or instead of it (``paletteInsertType``),
then the definitions (engine/sheets/palette_props.py). Not generated, as ゆとシート's palette-editing rows
are not read: its extra buff rows (``paletteAttack{n}``, ``paletteMagic{n}``), 部位 of a 魔物化 PC, and
〈薬草〉〈ポーション〉 lines (its item list is free text).

``sheet_variables`` gives the values a palette may name that its definitions leave out: the PC's HP,
MP and 移動力 as they are now, and the sheet's numbers for palettes written by hand.
"""

from __future__ import annotations

import re

from engine.sheets.classes import CLASSES, CRAFT_HEALS, CRAFT_POWERS, HEALS, PACKAGES, POWERS, SwClass
from engine.sheets.model import PCSheet, Weapon
from engine.sheets.palette_props import ABILITY_NAMES, properties, used_only

#: ytsheet's gun bullets: (level of マギテック, 威力, C値 change, usage needed)
_BULLETS = ((1, 20, "", ""), (2, 20, "-1", ""), (6, 30, "", ""), (7, 10, "", ""), (9, 30, "-1", ""),
            (12, 40, "", "2H"), (15, 70, "", "2H"))  # fmt: skip
_GUN_HEALS = ((2, 0, ""), (10, 30, ""), (13, 20, "2H"))
_DRUID = (("ウルフバイト", "0,3,6", 1), ("ソーンバッシュ", "4,7,13", 3), ("コングスマッシュ", "12,15,18", 7),
          ("ボアラッシュ", "13,16,19", 9), ("マルサーヴラプレス", "18,21,24", 10),
          ("ルナアタック", "18,21,36", 13),
          ("ダブルストンプ", "24,27,30", 15))  # fmt: skip
_ABYSS = "雷 純エネルギー 衝撃 断空 毒 呪い"


def _level(sheet: PCSheet, class_name: str) -> int:
    return sheet.value(class_name) or 0


def _mod(sheet: PCSheet, name: str) -> int:
    return next((v for k, v in sheet.data.mods if k == name), 0)


def _insert(sheet: PCSheet, position: str) -> str:
    return "".join(text + "\n" for where, text in sheet.data.inserts if where == position)


def _general(sheet: PCSheet) -> str:
    text = "### ■非戦闘系\n"
    text += "".join(f"2d+{{冒険者}}+{{{s}B}} 冒険者＋{s}\n" for s in ("器用", "敏捷", "筋力", "知力"))
    for sw_class in CLASSES:
        if not _level(sheet, sw_class.name):
            continue
        for pack in PACKAGES.get(sw_class.name, ()):
            name = sw_class.name + pack.name
            text += f"2d+{{{name}}} {name}\n"
            if pack.lore and sheet.data.lore_add:
                text += f"2d+{{{name}}}+{sheet.data.lore_add} 魔物知識\n"
            if pack.initiative and sheet.data.initiative_add:
                text += f"2d+{{{name}}}+{sheet.data.initiative_add} 先制\n"
    text += "\n" + _insert(sheet, "general")
    for common in sheet.data.common:
        text += "".join(f"2d+{{{common.name}}}+{{{s}B}} {common.name}＋{s}\n" for s in common.checks)
    text += "\n" + _insert(sheet, "common")
    if sheet.data.feats:
        text += "\n### ■宣言特技\n" + "".join(line + "\n" for line in sheet.data.feats) + "\n"
    return text + _insert(sheet, "feats")


def _powers_learned(sheet: PCSheet, names: str) -> bool:
    return any(re.fullmatch(f"(?:{names})", craft) for craft in sheet.data.crafts)


def _wanted(sheet: PCSheet, sw_class: SwClass, need: int) -> bool:
    level = _level(sheet, sw_class.name)
    if sw_class.id == "Fai":
        return need <= sheet.data.fairy_rank
    if need > level:
        return False
    return not (
        sw_class.id == "Wiz" and need > min(_level(sheet, "ソーサラー"), _level(sheet, "コンジャラー"))
    )


def _damage(sheet: PCSheet, sw_class: SwClass, power: str) -> str:
    """The damage, halved and healing lines of one magic (its ``dmgTexts``)."""
    assert sw_class.magic is not None
    magic, level, add = sw_class.magic, _level(sheet, sw_class.name), _mod(sheet, f"魔法D{sw_class.id}")
    add_text = f"+{add}" if add > 0 else str(add) if add < 0 else ""
    text = half = ""
    powers: list[int] = []
    for rate, need in POWERS.get(magic, ()):
        if _wanted(sheet, sw_class, need) and not (sw_class.id == "Fai" and rate == 80 and level < 15):
            powers.append(rate)
    for rate, names in CRAFT_POWERS.get(magic, ()):
        if _powers_learned(sheet, names):
            powers.append(rate + (_mod(sheet, "終律増強") if sw_class.id == "Bar" else 0))
    for rate in sorted(powers):
        text += f"k{rate}[{{魔法C}}]+{power}{add_text}+{{魔法D修正}} ダメージ\n"
        if sw_class.id == "Sor" and rate == 30 and level >= 12:
            text += f"k{rate}[10]+{power}{add_text}+{{物理魔法D修正}} 物理ダメージ\n"
        if sw_class.id == "Fai" and sheet.data.fairy_earth and rate in (10, 50):
            text += f"k{rate}[12]+{power}{add_text}+{{物理魔法D修正}} 物理ダメージ\n"
        half += f"k{rate}[13]+{power}h+({add or ''}+{{魔法D修正}}) 半減\n"
    text += half
    if sw_class.id == "Dru":
        for name, table, need in _DRUID:
            if level >= need:
                text += f"Dru[{table}]+{power}+{{物理魔法D修正}} 物理ダメージ／【{name}】\n"
    if sw_class.id == "Aby" and level >= 7:
        text += f"choice {_ABYSS}\nx2 choice {_ABYSS}\n"
    heals = [rate for rate, need in HEALS.get(magic, ()) if level >= need]
    heals += [rate for rate, names in CRAFT_HEALS.get(magic, ()) if _powers_learned(sheet, names)]
    for rate in sorted(heals):
        text += f"k{rate}[13]+{power}+{{回復量修正}} 回復量\n"
    return re.sub(r"^(k[0-9]+)\[(.+?)\]", r"\1[(\2)]", text, flags=re.MULTILINE)


def _magic(sheet: PCSheet) -> str:
    casters = [c for c in CLASSES if c.magic is not None and _level(sheet, c.name)]
    if not casters:
        return _insert(sheet, "magic")
    text = "### ■魔法系\n"
    text += f"//魔力修正={_mod(sheet, '魔力修正')}\n//行使修正={_mod(sheet, '行使修正')}\n//魔法C=10\n"
    text += f"//魔法D修正={_mod(sheet, '魔法D修正')}\n"
    if (_level(sheet, "ドルイド") or _level(sheet, "ソーサラー") >= 12
            or (_level(sheet, "フェアリーテイマー") and sheet.data.fairy_earth)):  # fmt: skip
        text += f"//物理魔法D修正={_mod(sheet, '物理魔法D修正')}\n"
    if any(
        _level(sheet, n) for n in ("コンジャラー", "プリースト", "アビスゲイザー", "グリモワール", "バード")
    ) or (_level(sheet, "マギテック") >= 2):
        text += "//回復量修正=0\n"
    for sw_class in casters:
        name = sw_class.magic
        assert name is not None
        power = f"{{{sw_class.power_name}}}"
        if "魔" in name:
            text += f"2d+{power}+{{行使修正}} {name}行使\n"
        elif "歌" in name:
            text += f"2d+{power} 呪歌演奏\n"
        else:
            text += f"2d+{power} {name}\n"
        text += re.sub(r"(ダメージ|半減)(\n|／)", rf"\1／{name}\2", _damage(sheet, sw_class, power)) + "\n"
    return text + _insert(sheet, "magic")


def _beheads(weapon: Weapon) -> bool:
    """〈首切り刀〉 and its kind: BCDice's ``r5`` (the key number rises by 5 on each critical)."""
    return "首切" in weapon.name or "首切" in weapon.note


def _weapon_lines(sheet: PCSheet, n: int, weapon: Weapon) -> str:
    label = f"{weapon.name}{weapon.usage}"
    crit = "" if weapon.crit is None else str(weapon.crit)
    damage = ""
    if weapon.category == "ガン":
        magitech = _level(sheet, "マギテック")
        for level, rate, change, usage in sorted(_BULLETS, key=lambda b: b[1]):
            if magitech >= level and usage in weapon.usage:
                damage += f"k{rate}[({crit}{change})]+{{追加D{n}}}+{{ガン追加D修正}} ダメージ\n"
        for level, rate, usage in sorted(_GUN_HEALS, key=lambda b: b[1]):
            if magitech >= level and usage in weapon.usage:
                damage += f"k{rate}[13]+{{追加D{n}}}+{{回復量修正}} 回復量\n"
    elif weapon.rate is not None:
        tail = "r5" if _beheads(weapon) else ""
        damage = f"k{weapon.rate}[({crit}+{{C修正}})]+{{追加D{n}}}+{{追加D修正}}{{出目修正}}{tail}"
        damage += f" ダメージ／{label}\n"
    return f"2d+{{命中{n}}}+{{命中修正}} 命中力／{label}\n{damage}\n"


def _weapons(sheet: PCSheet) -> str:
    text = ""
    if sheet.weapons:
        text += "### ■武器攻撃系\n//命中修正=0\n//C修正=0\n//追加D修正=0\n//必殺効果=0\n//クリレイ=0\n"
        if any(w.category == "ガン" for w in sheet.weapons):
            text += "//ガン追加D修正=0\n"
        text += "".join(_weapon_lines(sheet, w.row or n, w) for n, w in enumerate(sheet.weapons, 1))
        text += "//出目修正=$+{クリレイ}#{必殺効果}\n"
    return text + _insert(sheet, "attack")


def _defence(sheet: PCSheet) -> str:
    text = "### ■抵抗回避\n//生命抵抗修正=0\n//精神抵抗修正=0\n//回避修正=0\n"
    text += "2d+{生命抵抗}+{生命抵抗修正} 生命抵抗力\n2d+{精神抵抗}+{精神抵抗修正} 精神抵抗力\n"
    for i, defence in enumerate(sheet.defences, 1):
        if defence.listed:
            note = f"／{defence.note}" if defence.note else ""
            text += f"2d+{{回避{defence.row or i}}}+{{回避修正}} 回避力{note}\n"
    return text + _insert(sheet, "defense")


def generate_palette(sheet: PCSheet) -> str:
    """ゆとシート's preset for this sheet (its palette lines, without the definitions)."""
    return _insert(sheet, "") + _general(sheet) + _magic(sheet) + _weapons(sheet) + _defence(sheet)


def ytsheet_palette(
    sheet: PCSheet | None, custom: str | None, max_hp: int | None = None, *, all_properties: bool = False
) -> str:
    """The palette as ゆとシート serves it for BCDice: the sheet's own palette and/or the preset, as
    ``paletteInsertType`` puts them, then the definitions they use (``all_properties``: every one)."""
    if sheet is None:
        return custom or ""
    preset = generate_palette(sheet)
    if sheet.palette_insert == "begin":
        palette = f"{custom or ''}\n{preset}"
    elif sheet.palette_insert == "end":
        palette = f"{preset}\n{custom or ''}"
    else:
        palette = custom or preset
    props = properties(sheet, max_hp)
    lines = props if all_properties else used_only(palette, props)
    return palette + "\n\n" + "\n".join(lines).rstrip("\n") + "\n"


def combined_palette(sheet: PCSheet | None, custom: str | None, max_hp: int | None = None) -> str:
    """What a PC rolls from: ゆとシート's palette for its sheet and its own palette (``ytsheet_palette``)."""
    return ytsheet_palette(sheet, custom, max_hp)


def _put(out: dict[str, str], name: str, value: int | str | None) -> None:
    if value is not None:
        out[name] = str(value)


def sheet_variables(
    sheet: PCSheet | None, hp: int | None = None, max_hp: int | None = None, move: int | None = None
) -> dict[str, str]:
    """Every name a palette may use for this PC → its value as text (ゆとシート's names, and ココフォリア's
    ``HP``/``MP`` for the current values)."""
    out: dict[str, str] = {}
    _put(out, "HP", hp)
    _put(out, "最大HP", max_hp)
    _put(out, "移動力", move)
    if sheet is None:
        return out
    _put(out, "MP", sheet.mp)
    _put(out, "最大MP", sheet.max_mp)
    _put(out, "防護", sheet.defense)
    for name in ("冒険者レベル", "冒険者", "LV"):
        _put(out, name, sheet.level)
    for score, short, english in ABILITY_NAMES:
        number = sheet.value(score)
        if number is None:
            continue
        increase = sheet.value(score + "増強") or 0
        _put(out, score, number)
        _put(out, score + "増強", increase)
        _put(out, short, number)
        _put(out, short + "増強", increase)
        _put(out, short + "B", (number + increase) // 6)
        _put(out, english, number + increase)
        _put(out, english.lower() + "B", (number + increase) // 6)
    for sw_class in CLASSES:
        level = sheet.value(sw_class.name)
        if level:
            _put(out, sw_class.name, level)
            _put(out, sw_class.id.upper(), level)
        if sw_class.magic is not None and level:
            _put(out, sw_class.magic, sheet.value(sw_class.magic))
    _put(out, "生命抵抗", sheet.vit_resist)
    _put(out, "精神抵抗", sheet.mnd_resist)
    _put(out, "先制力", sheet.initiative)
    _put(out, "魔物知識", sheet.monster_lore)
    for n, weapon in enumerate(sheet.weapons, 1):
        row = weapon.row or n
        _put(out, f"武器{row}", weapon.name)
        _put(out, f"命中{row}", weapon.acc)
        _put(out, f"威力{row}", weapon.rate)
        _put(out, f"C値{row}", weapon.crit)
        _put(out, f"追加D{row}", weapon.dmg)
    for i, defence in enumerate(sheet.defences, 1):
        _put(out, f"回避{defence.row or i}", defence.evasion)
        _put(out, f"防護{defence.row or i}", defence.defense)
    return out
