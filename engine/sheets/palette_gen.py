"""The chat palette ゆとシートⅡ would generate for a sheet, and the sheet's values as palette variables.

The generated palette follows what ゆとシート writes for BCDice tools (ココフォリア, ユドナリウム) with
variables on (``paletteUseVar``): its sections 魔法系 (casting, damage and halved damage, healing for
each magic the PC casts), 武器攻撃系 (命中力 and ダメージ for each weapon row) and 抵抗回避 (生命/精神抵抗力,
回避力 for each listed defence column), each with its ``//修正=0`` lines, and the same names
(``{命中1}``, ``{追加D1}``, ``{回避1}``, ``{生命抵抗}``, ``{真語魔法}``). Its 非戦闘系 section, which needs
the packages of every class, is left out; in its place are 先制力 and 魔物知識 lines from the sheet's
totals. Not generated either: gun bullets, 部位 of a 魔物化 PC, and the sheet's extra buff rows.

``sheet_variables`` gives the values those names stand for: where ゆとシート writes a formula
(``//命中1=({ファイター}+({器用}+{器用増強})/6+1)``) this uses the sheet's own total, which is that
formula's value, so a ``/gm set`` of one number changes what the palette rolls.
"""

from __future__ import annotations

from engine.sheets.classes import ABILITIES, CLASSES, HEALS, POWERS
from engine.sheets.model import PCSheet, Weapon


def _magic_level(sheet: PCSheet, class_name: str) -> int:
    if class_name == "ウィザード":  # 深智魔法 spells need both ソーサラー and コンジャラー levels
        return min(sheet.value("ソーサラー") or 0, sheet.value("コンジャラー") or 0)
    return sheet.value(class_name) or 0


def _magic(sheet: PCSheet) -> list[str]:
    casters = [
        c for c in CLASSES if c.magic is not None and sheet.value(c.name) and sheet.value(c.magic) is not None
    ]
    if not casters:
        return []
    lines = ["### ■魔法系", "//魔力修正=0", "//行使修正=0", "//魔法C=10", "//魔法D修正=0"]
    if any(c.magic in HEALS for c in casters):
        lines.append("//回復量修正=0")
    for sw_class in casters:
        magic = sw_class.magic
        assert magic is not None
        level = _magic_level(sheet, sw_class.name)
        power = f"{{{magic}}}+{{魔力修正}}"
        lines.append(f"2d+{power}+{{行使修正}} {magic}行使")
        rates = [rate for rate, need in POWERS.get(magic, ()) if need <= level]
        lines += [f"k{rate}[({{魔法C}})]+{power}+{{魔法D修正}} ダメージ／{magic}" for rate in sorted(rates)]
        lines += [f"k{rate}[(13)]+{power}h+(+{{魔法D修正}}) 半減／{magic}" for rate in sorted(rates)]
        heals = [rate for rate, need in HEALS.get(magic, ()) if need <= level]
        lines += [f"k{rate}[(13)]+{power}+{{回復量修正}} 回復量" for rate in sorted(heals)]
        lines.append("")
    return lines


def _beheads(weapon: Weapon) -> bool:
    """〈首切り刀〉 and its kind: BCDice's ``r5`` (the key number rises by 5 on each critical)."""
    return "首切" in weapon.name or "首切" in weapon.note


def _weapons(sheet: PCSheet) -> list[str]:
    if not sheet.weapons:
        return []
    lines = ["### ■武器攻撃系", "//命中修正=0", "//C修正=0", "//追加D修正=0", "//必殺効果=0", "//クリレイ=0"]
    for n, weapon in enumerate(sheet.weapons, 1):
        label = f"{weapon.name}{weapon.usage}"
        lines.append(f"2d+{{命中{n}}}+{{命中修正}} 命中力／{label}")
        if weapon.rate is not None and weapon.crit is not None and weapon.category != "ガン":
            tail = "r5" if _beheads(weapon) else ""
            damage = f"k{weapon.rate}[({weapon.crit}+{{C修正}})]+{{追加D{n}}}+{{追加D修正}}{{出目修正}}{tail}"
            lines.append(f"{damage} ダメージ／{label}")
        lines.append("")
    lines.append("//出目修正=$+{クリレイ}#{必殺効果}")
    return lines


def _defence(sheet: PCSheet) -> list[str]:
    lines = ["### ■抵抗回避", "//生命抵抗修正=0", "//精神抵抗修正=0", "//回避修正=0"]
    if sheet.vit_resist is not None:
        lines.append("2d+{生命抵抗}+{生命抵抗修正} 生命抵抗力")
    if sheet.mnd_resist is not None:
        lines.append("2d+{精神抵抗}+{精神抵抗修正} 精神抵抗力")
    for i, defence in enumerate(sheet.defences, 1):
        if defence.listed and defence.evasion is not None:
            note = f"／{defence.note}" if defence.note else ""
            lines.append(f"2d+{{回避{i}}}+{{回避修正}} 回避力{note}")
    return lines


def _general(sheet: PCSheet) -> list[str]:
    lines = []
    if sheet.initiative is not None:
        lines.append("2d+{先制力} 先制力")
    if sheet.monster_lore is not None:
        lines.append("2d+{魔物知識} 魔物知識")
    return ["### ■非戦闘系", *lines, ""] if lines else []


def generate_palette(sheet: PCSheet) -> str:
    """The palette ゆとシート would give this sheet (as described above), one line each."""
    return "\n".join([*_general(sheet), *_magic(sheet), *_weapons(sheet), *_defence(sheet)])


def combined_palette(sheet: PCSheet | None, custom: str | None) -> str:
    """What a PC rolls from: its own palette, the generated one, or both as ゆとシート's
    ``paletteInsertType`` puts them (``begin``: its own first; ``end``: the generated one first)."""
    generated = generate_palette(sheet) if sheet is not None else ""
    if not custom:
        return generated
    if sheet is None or sheet.palette_insert is None:
        return custom
    return f"{custom}\n{generated}" if sheet.palette_insert == "begin" else f"{generated}\n{custom}"


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
    for _, _, score, short, english in ABILITIES:
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
        _put(out, f"武器{n}", weapon.name)
        _put(out, f"命中{n}", weapon.acc)
        _put(out, f"威力{n}", weapon.rate)
        _put(out, f"C値{n}", weapon.crit)
        _put(out, f"追加D{n}", weapon.dmg)
    for i, defence in enumerate(sheet.defences, 1):
        _put(out, f"回避{i}", defence.evasion)
        _put(out, f"防護{i}", defence.defense)
    return out
