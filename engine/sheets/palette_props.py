"""The definitions ゆとシートⅡ writes after a chat palette (``palette-sub.pl``'s ``paletteProperties``), and
which of them its BCDice palette keeps (``filterByUsedOnly``): those the palette's lines name, directly or
through another definition kept; headings and blank lines always.

Where ゆとシート writes a formula, the sheet keeps it as read (``PCSheet.formulas``); a value without one (set
by the GM, or a sheet stored before formulas were kept) is written as its number.
"""

from __future__ import annotations

import re

from engine.sheets.classes import ABILITIES, CLASSES, PACKAGES
from engine.sheets.model import PCSheet

#: the ability scores' names: score (器用度), short (器用), English (DEX)
ABILITY_NAMES = tuple((score, short, english) for _, _, score, short, english in ABILITIES)
_SHORT = ("器用", "敏捷", "筋力", "生命", "知力", "精神")
_ENGLISH = ("DEX", "AGI", "STR", "VIT", "INT", "MND")
_FIXED = (
    "### ■代入パラメータ",
    "//器用={器用度}", "//敏捷={敏捷度}", "//生命={生命力}", "//精神={精神力}",
    "//器用増強={器用度増強}", "//敏捷増強={敏捷度増強}",
    "//生命増強={生命力増強}", "//精神増強={精神力増強}",
    *(f"//{s}B=(({{{s}}}+{{{s}増強}})/6)" for s in _SHORT),
    *(f"//{e}={{{s}}}+{{{s}増強}}" for e, s in zip(_ENGLISH, _SHORT, strict=True)),
    *(f"//{e.lower()}B={{{s}B}}" for e, s in zip(_ENGLISH, _SHORT, strict=True)),
)  # fmt: skip


def _text(value: int | str | None) -> str:
    return "" if value is None else str(value)


def _defined(sheet: PCSheet, name: str, number: int | None) -> str:
    formula = sheet.formula(name)
    return f"//{name}={formula if formula is not None else _text(number)}"


def properties(sheet: PCSheet, max_hp: int | None = None) -> list[str]:
    """Every definition ゆとシート writes for this sheet, with its headings and blank lines, in its order."""
    out = ["### ■能力値"]
    out += [f"//{score}={_text(sheet.value(score))}" for score, _, _ in ABILITY_NAMES]
    out += [f"//{score}増強={sheet.value(score + '増強') or 0}" for score, _, _ in ABILITY_NAMES]
    out += ["### ■技能レベル", f"//冒険者レベル={_text(sheet.level)}"]
    classes = [c for c in CLASSES if sheet.value(c.name)]
    out += [f"//{c.name}={sheet.value(c.name)}" for c in classes]
    out += [f"//{c.name}={_text(c.level)}" for c in sheet.data.common]
    out += ["", *_FIXED, *(f"//{c.id.upper()}={{{c.name}}}" for c in classes), ""]
    for name, key in (("生命抵抗", sheet.vit_resist), ("精神抵抗", sheet.mnd_resist)):
        out.append(_defined(sheet, name, key))
    out += [f"//最大HP={_text(max_hp)}", f"//最大MP={_text(sheet.max_mp)}", ""]
    out += ["//冒険者={冒険者レベル}", "//LV={冒険者}", ""]
    for sw_class in classes:
        for pack in PACKAGES.get(sw_class.name, ()):
            out.append(_defined(sheet, sw_class.name + pack.name, None))
    out.append("")
    for sw_class in classes:
        if sw_class.magic is not None:
            power = sw_class.power_name or ""
            out.append(_defined(sheet, power, sheet.value(power)))
    out.append("")
    for n, weapon in enumerate(sheet.weapons, 1):
        row = weapon.row or n
        out += [f"//武器{row}={weapon.name}", _defined(sheet, f"命中{row}", weapon.acc)]
        out += [f"//威力{row}={_text(weapon.rate)}", f"//C値{row}={_text(weapon.crit)}"]
        out += [_defined(sheet, f"追加D{row}", weapon.dmg), ""]
    for i, defence in enumerate(sheet.defences, 1):
        if defence.evasion is None or not defence.listed:
            continue
        row = defence.row or i
        out += [_defined(sheet, f"回避{row}", defence.evasion), f"//防護{row}={defence.defense or 0}"]
    return out


_DEFINITION = re.compile(r"^//(.+?)=")


def used_only(palette: str, props: list[str]) -> list[str]:
    """The definitions of ``props`` that ``palette`` uses, directly or through one kept, and every line of
    ``props`` that is no definition (ゆとシート's ``filterByUsedOnly``)."""
    names = [(line, found.group(1)) for line in props if (found := _DEFINITION.match(line))]
    text = palette
    added: set[str] = set()
    changed = True
    while changed:
        changed = False
        for line, name in names:
            if name in added or text.startswith(f"//{name}="):
                continue
            if "{" + name + "}" in text:
                text += line + "\n"
                added.add(name)
                changed = True
    out = []
    for line in props:
        found = _DEFINITION.match(line)
        if found is None or "{" + found.group(1) + "}" in text:
            out.append(line)
    return out
