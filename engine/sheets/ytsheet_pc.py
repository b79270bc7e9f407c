"""Reading a ゆとシートⅡ SW2.5 character sheet (``?id=…&mode=json``, ``type`` empty) into a ``PCSheet``.

Field names are ytsheet2's (``_core/lib/sw2/edit-chara.pl`` and the totals of ``calc-chara.pl``):
``characterName``, ``level``, ``hpTotal``, ``mpTotal``, ``defenseNum``, ``defenseTotal{i}Eva``/``Def``/
``Note``, ``evasionClass{i}``, ``defTotal{i}CheckArmour{j}``, ``armour{j}Eva``/``Category``/``Own``,
``vitResistTotal``/``AddTotal``, ``mndResist...``, ``initiative``, ``monsterLore``, ``mobilityTotal``,
``weaponNum``, ``weapon{n}Name``/``Usage``/``Acc``/``AccTotal``/``Rate``/``Crit``/``Dmg``/``DmgTotal``/
``Class``/``Category``/``Own``/``Note``, ``mastery{Category}``, ``stt{Dex..Mnd}``, ``sttAdd{A..F}``,
``sttEquip{A..F}``, ``lv{ClassId}``, ``magicPower{ClassId}``, ``pack{ClassId}{PackId}Add``/``Auto``,
``commonClass{n}``, ``lvCommon{n}``, ``paletteCommonClass{n}{Dex..}``, ``combatFeatsLv{n}``,
``mysticArts{n}``, ``chatPalette``, ``chatPaletteInsert{n}`` and ``...Position``, ``paletteInsertType``.

Where ytsheet's palette writes a value as a formula (``//命中1=({ファイター}+({器用}+{器用増強})/6+0)``),
the formula is built here as its generator builds it (``palette-sub.pl``'s ``paletteProperties``),
from the sheet's own numbers only, so no text of the sheet reaches a formula.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine import limits
from engine.palette import MAX_CHARS
from engine.ruleset import RuleError
from engine.sheets.classes import (
    ABILITIES,
    CLASSES,
    CRAFT_FIELDS,
    CRAFT_IDS,
    DECLARED,
    FEAT_LEVELS,
    MASTERY,
    PACKAGES,
    find_class,
)
from engine.sheets.fields import Fields, refuse_number
from engine.sheets.model import CommonClass, Defence, PaletteData, PCSheet, Weapon

_INTEGER = re.compile(r"[+-]?\d+")
#: ゆとシート writes C値 as ⑩ too (its normalizeCrit)
_CIRCLED = str.maketrans({"⑦": "7", "➆": "7", "⑧": "8", "➇": "8", "⑨": "9", "➈": "9", "⑩": "10", "➉": "10",
                          "⑪": "11", "⑫": "12", "⑬": "13"})  # fmt: skip
_CHECKS = (
    ("Dex", "器用"),
    ("Agi", "敏捷"),
    ("Str", "筋力"),
    ("Vit", "生命"),
    ("Int", "知力"),
    ("Mnd", "精神"),
)
_CONTRACTS = ("Earth", "Water", "Fire", "Wind", "Light", "Dark")
#: 妖精魔法's rank by the number of elements contracted (4, 3 or 6) and the class level (ytsheet's fairyRank)
_FAIRY_RANK = {
    4: tuple(range(16)),
    3: (0, 0, 0, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15),
    6: (0, 0, 0, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 10),
}
_NO_CLASS = "自動計算しない"
#: the most crafts of one kind read
MAXCRAFT_IDS = 30


@dataclass(frozen=True, slots=True)
class CharacterRead:
    """A character sheet read: its name, HP and 移動力 (kept on the PC), the sheet, its own palette."""

    name: str | None
    hp: int | None
    move: int | None
    sheet: PCSheet
    palette: str | None


def add_num(number: int) -> str:
    """ytsheet's addNum: ``+3``, ``-2``, or nothing for 0."""
    return f"+{number}" if number > 0 else str(number) if number < 0 else ""


def read_character(doc: dict[str, object] | object, source: str = "") -> CharacterRead:
    assert isinstance(doc, dict)
    f = Fields(doc)
    if not any(key in doc for key in ("hpTotal", "characterName", "weaponNum")):
        raise RuleError("sheet.not_a_character")
    insert = f.raw("paletteInsertType")
    mp = f.int_("mpTotal", "mp", 0, limits.MAX_NUMBER)
    sheet = PCSheet(
        source=source or f.text("sheetURL", "url", 300),
        level=f.int_("level", "level", 0, 1000),
        mp=mp,
        max_mp=mp,
        defences=_defences(f),
        vit_resist=f.int_("vitResistTotal", "vit_resist"),
        mnd_resist=f.int_("mndResistTotal", "mnd_resist"),
        initiative=f.int_("initiative", "initiative"),
        monster_lore=f.int_("monsterLore", "monster_lore"),
        weapons=_weapons(f),
        values=_values(f),
        palette_insert=insert if insert in ("begin", "end") else None,
        formulas=_formulas(f),
        data=_palette_data(f),
    )
    return CharacterRead(
        name=f.name("characterName", "name") or f.name("aka", "name") or None,
        hp=f.int_("hpTotal", "hp", 1, limits.MAX_HP),
        move=f.int_("mobilityTotal", "move", 0, limits.MAX_NUMBER),
        sheet=sheet,
        palette=f.text("chatPalette", "palette", MAX_CHARS, lines=True) or None,
    )


def _listed(f: Fields, i: int, armours: int) -> bool:
    """ゆとシート gives a defence column a palette line when it uses armour or an evasion class."""
    return bool(f.raw(f"evasionClass{i}")) or any(
        f.flag(f"defTotal{i}CheckArmour{j}") for j in range(1, armours + 1)
    )


def _defences(f: Fields) -> tuple[Defence, ...]:
    out = []
    armours = f.count("armourNum", "armour{}Name")
    for i in range(1, f.count("defenseNum", "defenseTotal{}Eva") + 1):
        evasion, defense = f.int_(f"defenseTotal{i}Eva", "evasion"), f.int_(f"defenseTotal{i}Def", "defense")
        if evasion is None and defense is None:
            continue
        out.append(
            Defence(evasion, defense, f.text(f"defenseTotal{i}Note", "note"), _listed(f, i, armours), i)
        )
    return tuple(out)


def _crit(f: Fields, key: str) -> int | None:
    value = unicodedata.normalize("NFKC", f.text(key, "crit").translate(_CIRCLED)).strip()
    if not value:
        return None
    number = limits.parse_int(value)
    if number is None or not -limits.MAX_NUMBER <= number <= limits.MAX_NUMBER:
        raise refuse_number("weapon_crit", value, -limits.MAX_NUMBER, limits.MAX_NUMBER)
    return number


_WEAPON_KEYS = ("Name", "Usage", "Acc", "Rate", "Crit", "Dmg", "Class", "Category")


def _weapons(f: Fields) -> tuple[Weapon, ...]:
    out: list[Weapon] = []
    previous: dict[str, str] = {}
    for n in range(1, f.count("weaponNum", "weapon{}Name", "weapon{}Rate", "weapon{}Acc") + 1):
        raw = {k: f.text(f"weapon{n}{k}", "weapon_" + k.lower()) for k in _WEAPON_KEYS}
        if not (raw["Acc"] or raw["Rate"] or raw["Crit"] or raw["Dmg"]):
            continue
        if raw == previous:  # ゆとシート skips a row that repeats the one above
            continue
        # a row without a name is another way to wield the weapon above (1H and 2H)
        name = f.name(f"weapon{n}Name", "weapon_name") or (out[-1].name if out else "")
        note = f.text(f"weapon{n}Note", "weapon_note") or (
            out[-1].note if out and out[-1].name == name else ""
        )
        previous = raw
        out.append(
            Weapon(
                name=name,
                usage=raw["Usage"],
                acc=f.int_(f"weapon{n}AccTotal", "weapon_acc"),
                rate=f.int_(f"weapon{n}Rate", "weapon_rate"),
                crit=_crit(f, f"weapon{n}Crit"),
                dmg=f.int_(f"weapon{n}DmgTotal", "weapon_dmg"),
                category=raw["Category"],
                note=note,
                row=n,
            )
        )
    return tuple(out)


def _values(f: Fields) -> tuple[tuple[str, int], ...]:
    """The numbers ゆとシート's palette names: ability scores and their increases, class levels, magic."""
    values: list[tuple[str, int]] = []
    for field, letter, score, _, _ in ABILITIES:
        number = f.int_(field, "ability")
        if number is not None:
            values.append((score, number))
            add = (f.int_(f"sttAdd{letter}", "ability") or 0) + (f.int_(f"sttEquip{letter}", "ability") or 0)
            values.append((score + "増強", add))
    for sw_class in CLASSES:
        level = f.int_(f"lv{sw_class.id}", "class_level", 0, 1000)
        if level:
            values.append((sw_class.name, level))
    for sw_class in CLASSES:
        power = f.int_(f"magicPower{sw_class.id}", "magic_power")
        level = f.int_(f"lv{sw_class.id}", "class_level")
        if sw_class.magic is not None and sw_class.id not in CRAFT_IDS and level and power is not None:
            values.append((sw_class.magic, power))
    return tuple(values)


def _class_of(f: Fields, key: str) -> str:
    """A class a row names (``weapon1Class``, ``evasionClass1``): one of the classes, or none."""
    name = f.text(key, "class")
    return name if find_class(name) is not None else ""


def _formulas(f: Fields) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for name, key, bonus in (("生命抵抗", "vitResist", "生命B"), ("精神抵抗", "mndResist", "精神B")):
        add = f.int_(f"{key}AddTotal", "resist") or 0
        out.append((name, f"({{冒険者}}+{{{bonus}}})" + (f"+{add}" if add else "")))
    for sw_class in CLASSES:
        if not f.int_(f"lv{sw_class.id}", "class_level"):
            continue
        for pack in PACKAGES.get(sw_class.name, ()):
            add = sum(f.int_(f"pack{sw_class.id}{pack.id}{k}", "package") or 0 for k in ("Add", "Auto"))
            out.append((sw_class.name + pack.name, f"{{{sw_class.name}}}+{{{pack.stat}B}}{add_num(add)}"))
    for sw_class in CLASSES:
        if sw_class.magic is None or not f.int_(f"lv{sw_class.id}", "class_level"):
            continue
        own = "+2" if f.flag(f"magicPowerOwn{sw_class.id}") else ""
        adds = ""
        if sw_class.id not in CRAFT_IDS:
            for key in ("magicPowerEnhance", f"magicPowerAdd{sw_class.id}", "raceAbilityMagicPower",
                        f"raceAbilityMagicPower{sw_class.id}"):  # fmt: skip
                adds += add_num(f.int_(key, "magic_power") or 0)
            adds += "+{魔力修正}"
        elif sw_class.id == "Alc":
            adds = add_num(f.int_("alchemyEnhance", "magic_power") or 0)
        stat = sw_class.stat
        formula = f"({{{sw_class.name}}}+({{{stat}}}+{{{stat}増強}}{own})/6){adds}"
        out.append((sw_class.power_name or "", formula))
    out += _weapon_formulas(f)
    out += _evasion_formulas(f)
    return tuple(out)


def _weapon_formulas(f: Fields) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for n in range(1, f.count("weaponNum", "weapon{}Name", "weapon{}Rate", "weapon{}Acc") + 1):
        sw_class = _class_of(f, f"weapon{n}Class")
        category = f.text(f"weapon{n}Category", "weapon_category")
        acc = f.int_(f"weapon{n}Acc", "weapon_acc")
        dmg = f.int_(f"weapon{n}Dmg", "weapon_dmg")
        if not sw_class or sw_class == _NO_CLASS:
            out.append((f"命中{n}", "" if acc is None else str(acc)))
            out.append((f"追加D{n}", "" if dmg is None else str(dmg)))
            continue
        acc_mod = (acc or 0) + (f.int_("accuracyEnhance", "weapon_acc") or 0)
        acc_mod += 1 if f.flag("throwing") and category == "投擲" else 0
        own = "+2" if f.flag(f"weapon{n}Own") else ""
        if sw_class == "ダークハンター":
            out.append((f"命中{n}", f"({{理力}}+{acc_mod})"))
        else:
            out.append((f"命中{n}", f"({{{sw_class}}}+({{器用}}+{{器用増強}}{own})/6+{acc_mod})"))
        mod = f.int_("mastery" + MASTERY.get(category, "None"), "weapon_dmg") or 0
        if category == "ガン（物理）":
            mod += f.int_("masteryGun", "weapon_dmg") or 0
        if "〈魔器〉" in f.raw(f"weapon{n}Note"):
            mod += f.int_("masteryArtisan", "weapon_dmg") or 0
        if category == "クロスボウ":
            base = f"{{{sw_class}}}"
        elif category == "ガン":
            base = "{魔動機術}"
        elif sw_class in ("デーモンルーラー", "ダークハンター"):
            base = "{召異魔法}" if sw_class == "デーモンルーラー" else "{理力}"
        else:
            base = f"{{{sw_class}}}+({{筋力}}+{{筋力増強}})/6"
        out.append((f"追加D{n}", f"({base}{add_num(mod)}+{dmg or 0})"))
    return out


def _evasion_formulas(f: Fields) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    armours = f.count("armourNum", "armour{}Name")
    for i in range(1, f.count("defenseNum", "defenseTotal{}Eva") + 1):
        sw_class = _class_of(f, f"evasionClass{i}")
        found = find_class(sw_class)
        mod, own = 0, ""
        for j in range(1, armours + 1):
            if f.flag(f"defTotal{i}CheckArmour{j}"):
                mod += f.int_(f"armour{j}Eva", "evasion") or 0
                own = "+2" if f.raw(f"armour{j}Category") == "盾" and f.flag(f"armour{j}Own") else own
        maneuver = f.int_("evasiveManeuver", "evasion") or 0
        eye = f.int_("mindsEye", "evasion") or 0
        mod += maneuver + eye
        class_id = found.id if found else ""
        mod -= 1 if maneuver == 2 and class_id not in ("Fen", "Bat") else 0
        mod -= eye if eye and class_id != "Fen" else 0
        head = f"{{{sw_class}}}+({{敏捷}}+{{敏捷増強}}{own})/6+" if sw_class else ""
        out.append((f"回避{i}", f"({head}{mod})"))
    return out


def _feats(f: Fields, level: int) -> tuple[str, ...]:
    lines: list[str] = []
    for at in FEAT_LEVELS:
        if int(at.removesuffix("bat")) > level:
            break
        name = f.text(f"combatFeatsLv{at}", "feat")
        if name in DECLARED:
            lines.append(("[宣][準]" if DECLARED[name] else "[宣]") + f"《{name}》")
    for n in range(1, f.count("mysticArtsNum", "mysticArts{}") + 1):
        name = f.text(f"mysticArts{n}", "feat")
        marks = "".join(re.findall(r"\[.\]", name))
        name = re.sub(r"\[.\]", "", name)
        if name and ("宣" in marks or "準" in marks):
            lines.append(f"{marks}《{name}》")
    return tuple(lines)


def _palette_data(f: Fields) -> PaletteData:
    inserts = []
    for n in range(1, f.count("chatPaletteInsertNum", "chatPaletteInsert{}") + 1):
        text = f.text(f"chatPaletteInsert{n}", "palette_insert", MAX_CHARS, lines=True)
        if text:
            inserts.append((f.text(f"chatPaletteInsert{n}Position", "palette_insert", 20), text))
    common = []
    for n in range(1, f.count("commonClassNum", "commonClass{}") + 1):
        name = re.sub(r"[(（].+?[）)]$", "", f.text(f"commonClass{n}", "common_class"))
        if name:
            checks = tuple(word for key, word in _CHECKS if f.flag(f"paletteCommonClass{n}{key}"))
            common.append(CommonClass(name, f.int_(f"lvCommon{n}", "class_level", 0, 1000), checks))
    fai = f.int_("lvFai", "class_level", 0, 1000) or 0
    contracts = sum(1 for e in _CONTRACTS if f.flag(f"fairyContract{e}"))
    rank = _FAIRY_RANK.get(contracts, ())
    crafts: list[str] = []
    for sw_class in CLASSES:
        field = CRAFT_FIELDS.get(sw_class.magic or "")
        if field is None:
            continue
        level = f.int_(f"lv{sw_class.id}", "class_level", 0, 1000) or 0
        extra = f.int_(f"{field}Addition", "class_level", 0, 100) or 0
        for n in range(1, min(level + extra, MAXCRAFT_IDS) + 1):
            crafts.append(f.text(f"craft{field[0].upper()}{field[1:]}{n}", "craft"))
    keys = ("magicPowerAdd", "magicPowerEquip", "magicCastAdd", "magicCastEquip", "magicDamageAdd",
            "magicDamageEquip")  # fmt: skip
    mod = {k: f.int_(k, "magic_power") or 0 for k in keys}
    mods = [
        ("魔力修正", mod["magicPowerAdd"] + mod["magicPowerEquip"]),
        ("行使修正", mod["magicCastAdd"] + mod["magicCastEquip"]),
        ("魔法D修正", mod["magicDamageAdd"] + mod["magicDamageEquip"]),
        ("物理魔法D修正", mod["magicDamageAdd"]),
        ("終律増強", f.int_("finaleEnhance", "magic_power") or 0),
    ]
    mods += [
        (f"魔法D{c.id}", f.int_(f"magicDamageAdd{c.id}", "magic_power") or 0) for c in CLASSES if c.magic
    ]
    return PaletteData(
        inserts=tuple(inserts),
        common=tuple(common),
        feats=_feats(f, f.int_("level", "level", 0, 1000) or 0),
        lore_add=f.int_("monsterLoreAdd", "monster_lore") or 0,
        initiative_add=f.int_("initiativeAdd", "initiative") or 0,
        mods=tuple((k, v) for k, v in mods if v),
        fairy_rank=rank[fai] if fai < len(rank) else 0,
        fairy_earth=f.flag("fairyContractEarth"),
        crafts=tuple(c for c in crafts if c),
    )
