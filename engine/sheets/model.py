"""What the bot keeps of a character sheet, and its JSON form (in commands, and in the fort export).

A ``PCSheet`` holds the numbers a battle and a palette use, read from a ゆとシートⅡ sheet
(engine/sheets/ytsheet.py) or written by hand; HP and movement live on the PC itself. ``values`` keeps
the other numbers a palette may name, under ゆとシート's own names (``器用度``, ``ファイター``,
``真語魔法``). A ``MonsterSheet`` is a monster's parts (one row of its status table each), with its
知名度/弱点値, 弱点, 先制値, 移動速度, 抵抗力 and コア部位.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from engine import limits
from engine.common import JsonDoc, JsonStyle
from engine.palette import MAX_CHARS as MAX_PALETTE_CHARS

#: the largest number a sheet value may hold
MAX_VALUE = limits.MAX_NUMBER
#: the most rows of a table and the longest formula a sheet may hold (as engine/sheets/fields.py reads them)
_ROWS = 50
FORMULA_MAX = 200


@dataclass(frozen=True, slots=True)
class Weapon:
    """One row of the weapon table: 命中 (``weapon{n}AccTotal``), 威力, C値, 追加D (``weapon{n}DmgTotal``)."""

    name: str
    usage: str = ""
    acc: int | None = None
    rate: int | None = None
    crit: int | None = None
    dmg: int | None = None
    category: str = ""
    note: str = ""
    #: its row in the sheet's table (``weapon{row}...``), which names it in the palette (``{命中1}``)
    row: int = 0


@dataclass(frozen=True, slots=True)
class Defence:
    """One defence column (``defenseTotal{i}Eva`` / ``Def``); ``listed``: ゆとシート gives it a palette
    line."""

    evasion: int | None = None
    defense: int | None = None
    note: str = ""
    listed: bool = True
    #: its column in the sheet (``defenseTotal{row}Eva``), which names it in the palette (``{回避1}``)
    row: int = 0


@dataclass(frozen=True, slots=True)
class CommonClass:
    """A 一般技能 with its level and the abilities its palette lines add (``器用``, ``知力`` ...)."""

    name: str
    level: int | None = None
    checks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PaletteData:
    """What ゆとシート's palette preset takes from a sheet beyond its numbers: the player's own inserts
    (``chatPaletteInsert{n}`` at ``Position``: ``""`` first, ``general``, ``common``, ``feats``, ``magic``,
    ``attack``, ``defense``), the 一般技能, the declared feats' lines (``[宣]《全力攻撃Ⅰ》``), the modifiers
    it writes (``魔力修正`` ...), and the 妖精魔法 rank and learned crafts its magic lines need."""

    inserts: tuple[tuple[str, str], ...] = ()
    common: tuple[CommonClass, ...] = ()
    feats: tuple[str, ...] = ()
    lore_add: int = 0
    initiative_add: int = 0
    mods: tuple[tuple[str, int], ...] = ()
    fairy_rank: int = 0
    fairy_earth: bool = False
    crafts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PCSheet:
    """A PC's sheet values. ``palette_insert`` is ゆとシート's ``paletteInsertType``: with a custom palette,
    ``begin`` puts it before the generated one and ``end`` after it; None: the custom palette alone."""

    source: str = ""
    level: int | None = None
    mp: int | None = None
    max_mp: int | None = None
    defences: tuple[Defence, ...] = ()
    vit_resist: int | None = None
    mnd_resist: int | None = None
    initiative: int | None = None
    monster_lore: int | None = None
    weapons: tuple[Weapon, ...] = ()
    values: tuple[tuple[str, int], ...] = ()
    palette_insert: str | None = None
    #: ゆとシート's own definitions of the values it writes as formulas (``生命抵抗``, ``命中1``,
    #: ``スカウト技巧``, ``真語魔法`` ...); a value set by the GM loses its formula
    formulas: tuple[tuple[str, str], ...] = ()
    data: PaletteData = PaletteData()

    def formula(self, name: str) -> str | None:
        for key, text in self.formulas:
            if key == name:
                return text
        return None

    @property
    def evasion(self) -> int | None:
        return self.defences[0].evasion if self.defences else None

    @property
    def defense(self) -> int | None:
        return self.defences[0].defense if self.defences else None

    def value(self, name: str) -> int | None:
        for key, number in self.values:
            if key == name:
                return number
        return None


@dataclass(frozen=True, slots=True)
class MonsterPart:
    """One row of a monster's status table (``status{n}...``): 攻撃方法（部位）, HP, 防護点, the strike."""

    style: str
    part: str
    hp: int | None = None
    mp: int | None = None
    defense: int | None = None
    damage: str | None = None
    accuracy: int | None = None
    evasion: int | None = None


#: a 弱点 or a コア部位 written as none (ytsheet's own list offers ``なし``; 弱点値 ``―``)
NONE_WORDS = frozenset({"なし", "無し", "-", "―", "ー", "－", "none"})
#: ``脚（すべて）``: each part of that name (ytsheet's list of core parts offers it for ``脚×2``)
_ALL_OF = "(すべて)"


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().casefold()


@dataclass(frozen=True, slots=True)
class MonsterSheet:
    """A monster: its parts (one row of the status table each), and what its sheet says of it whole.

    The fields after ``source`` are not compared (``==``): a sheet equals one written with the fields
    before them alone. ``weakness`` is the 弱点 as written (``""`` when none is given); ``stated_weakness``
    is None for one written as none too."""

    name: str
    level: int | None
    parts: tuple[MonsterPart, ...]
    #: 移動速度 as written (``20（飛行40）``)
    mobility: str = ""
    weakness: str = ""
    source: str = ""
    #: 知名度 and 弱点値 (``reputation``, ``reputation+``): a 魔物知識判定 against them names it and
    #: tells its weakness; None when not given or not a number (弱点値 ``―``)
    reputation: int | None = field(default=None, compare=False)
    weakness_value: int | None = field(default=None, compare=False)
    #: 先制値 (``initiative``)
    initiative: int | None = field(default=None, compare=False)
    #: 生命抵抗力 and 精神抵抗力 (``vitResist``, ``mndResist``; the fixed values are 7 more)
    vit_resist: int | None = field(default=None, compare=False)
    mnd_resist: int | None = field(default=None, compare=False)
    #: コア部位 as written (``coreParts``: ``頭部``, ``脚（すべて）``, ``なし``), ``""`` when not given
    core_part: str = field(default="", compare=False)
    #: 部位数 and its breakdown as written (``partsNum``, ``parts``: ``頭部／胴体``, ``脚×2／胴体``); a part
    #: may have several rows (two attacks of the 頭部), so it need not be the number of rows
    parts_count: int | None = field(default=None, compare=False)
    parts_text: str = field(default="", compare=False)

    @property
    def stated_weakness(self) -> str | None:
        """The 弱点, None when none is given or it is written as none (``なし``)."""
        text = self.weakness.strip()
        return text if text and _folded(text) not in NONE_WORDS else None

    def is_core(self, part: MonsterPart) -> bool:
        """Whether ``part`` is (one of) the core part: its 部位 is the コア部位 (``脚（すべて）``: each
        脚)."""
        core = _folded(self.core_part).removesuffix(_ALL_OF).strip()
        return bool(core) and core not in NONE_WORDS and _folded(part.part) == core

    @property
    def core(self) -> MonsterPart | None:
        """The first row of the core part, None when the sheet gives none (or no row is of it)."""
        return next((part for part in self.parts if self.is_core(part)), None)


# --- JSON ---------------------------------------------------------------------------------------


def sheet_to_json(sheet: PCSheet) -> dict[str, Any]:
    return {
        "source": sheet.source,
        "level": sheet.level,
        "mp": sheet.mp,
        "max_mp": sheet.max_mp,
        "vit_resist": sheet.vit_resist,
        "mnd_resist": sheet.mnd_resist,
        "initiative": sheet.initiative,
        "monster_lore": sheet.monster_lore,
        "defences": [
            {"evasion": d.evasion, "defense": d.defense, "note": d.note, "listed": d.listed, "row": d.row}
            for d in sheet.defences
        ],
        "weapons": [
            {
                "name": w.name,
                "usage": w.usage,
                "acc": w.acc,
                "rate": w.rate,
                "crit": w.crit,
                "dmg": w.dmg,
                "category": w.category,
                "note": w.note,
                "row": w.row,
            }
            for w in sheet.weapons
        ],
        "values": dict(sheet.values),
        "palette_insert": sheet.palette_insert,
        "formulas": dict(sheet.formulas),
        "data": _data_to_json(sheet.data),
    }


def _data_to_json(data: PaletteData) -> dict[str, Any]:
    return {
        "inserts": [{"position": p, "text": t} for p, t in data.inserts],
        "common": [{"name": c.name, "level": c.level, "checks": list(c.checks)} for c in data.common],
        "feats": list(data.feats),
        "lore_add": data.lore_add,
        "initiative_add": data.initiative_add,
        "mods": dict(data.mods),
        "fairy_rank": data.fairy_rank,
        "fairy_earth": data.fairy_earth,
        "crafts": list(data.crafts),
    }


_WRONG = {int: "not_an_integer", str: "not_a_string", bool: "not_a_boolean", list: "not_a_list",
          dict: "not_an_object"}  # fmt: skip
STYLE = JsonStyle(sep=".", end="", item="[{}]", wrong_type=_WRONG.__getitem__, null_is_missing=False)
_LIMIT = (-MAX_VALUE, MAX_VALUE)


def _number(d: JsonDoc, key: str) -> int | None:
    return d.int_(key, None, *_LIMIT)


def _text(d: JsonDoc, key: str, max_len: int = limits.TEXT_MAX, *, lines: bool = False) -> str:
    """A text of at most ``max_len`` characters, without control characters (but new lines, if ``lines``)."""
    text = d.get(key, str, "")
    body = text.replace("\n", "").replace("\t", "") if lines else text
    if len(text) > max_len:
        raise d.bad(key, "too_long", max=max_len)
    if limits.text_problem(body, max_len) is not None:
        raise d.bad(key, "control")
    return text


def _strings(d: JsonDoc, key: str) -> tuple[str, ...]:
    raw = d.get(key, list, [])
    if len(raw) > _ROWS or not all(isinstance(x, str) for x in raw):
        raise d.bad(key, "not_a_list")
    for x in raw:
        if limits.text_problem(x, limits.TEXT_MAX) is not None:
            raise d.bad(key, "control")
    return tuple(raw)


def _named(d: JsonDoc, key: str, max_len: int) -> list[tuple[str, Any]]:
    """An object of names (each a short text) to values."""
    doc = d.obj_or_empty(key)
    if len(doc.raw) > _ROWS * 4:
        raise d.bad(key, "too_long", max=_ROWS * 4)
    out = []
    for name, value in doc.raw.items():
        if not isinstance(name, str) or not name.strip() or limits.text_problem(name, 40) is not None:
            raise doc.bad(str(name)[:40], "not_a_name")
        out.append((name, value))
    return out


def _data_from_json(d: JsonDoc) -> PaletteData:
    inserts = tuple(
        (_text(x, "position", 20), _text(x, "text", MAX_PALETTE_CHARS, lines=True))
        for x in d.items("inserts")
    )
    common = tuple(
        CommonClass(_text(x, "name"), _number(x, "level"), _strings(x, "checks")) for x in d.items("common")
    )
    mods = d.obj_or_empty("mods")
    return PaletteData(
        inserts=inserts,
        common=common,
        feats=_strings(d, "feats"),
        lore_add=d.int_("lore_add", 0, *_LIMIT),
        initiative_add=d.int_("initiative_add", 0, *_LIMIT),
        mods=tuple((name, mods.int_(name, 0, *_LIMIT)) for name, _ in _named(d, "mods", 40)),
        fairy_rank=d.int_("fairy_rank", 0, 0, 100),
        fairy_earth=d.get("fairy_earth", bool, False),
        crafts=_strings(d, "crafts"),
    )


def sheet_from_json(raw: Any, path: str = "$") -> PCSheet:
    """The sheet a ``sheet_to_json`` dict describes; ``ImportInvalid`` (with where and why) if it is not."""
    d = JsonDoc(raw, path, STYLE)
    values_doc = d.obj_or_empty("values")
    values: list[tuple[str, int]] = []
    for name in values_doc.raw:
        if not isinstance(name, str) or not name.strip():
            raise values_doc.bad(str(name), "not_a_name")
        values.append((name, values_doc.int_(name, 0, *_LIMIT)))
    formulas = d.obj_or_empty("formulas")
    formula_list = [(name, _text(formulas, name, FORMULA_MAX)) for name, _ in _named(d, "formulas", 40)]
    if len(d.items("weapons")) > _ROWS or len(d.items("defences")) > _ROWS:
        raise d.bad("weapons", "too_long", max=_ROWS)
    insert = d.get("palette_insert", str, None)
    if insert not in (None, "begin", "end"):
        raise d.bad("palette_insert", "not_one_of", allowed=["begin", "end"])
    mp, max_mp = d.int_("mp", None, 0, limits.MAX_NUMBER), d.int_("max_mp", None, 0, limits.MAX_NUMBER)
    if mp is not None and max_mp is not None and mp > max_mp:
        raise d.bad("mp", "above_max")
    return PCSheet(
        source=_text(d, "source", 300),
        level=d.int_("level", None, 0, 1000),
        mp=mp,
        max_mp=max_mp,
        defences=tuple(
            Defence(
                _number(x, "evasion"),
                _number(x, "defense"),
                _text(x, "note"),
                x.get("listed", bool, True),
                x.int_("row", 0, 0, _ROWS),
            )
            for x in d.items("defences")
        ),
        vit_resist=_number(d, "vit_resist"),
        mnd_resist=_number(d, "mnd_resist"),
        initiative=_number(d, "initiative"),
        monster_lore=_number(d, "monster_lore"),
        weapons=tuple(
            Weapon(
                _text(w, "name"),
                _text(w, "usage"),
                _number(w, "acc"),
                _number(w, "rate"),
                _number(w, "crit"),
                _number(w, "dmg"),
                _text(w, "category"),
                _text(w, "note"),
                w.int_("row", 0, 0, _ROWS),
            )
            for w in d.items("weapons")
        ),
        values=tuple(values),
        palette_insert=insert,
        formulas=tuple(formula_list),
        data=_data_from_json(d.obj_or_empty("data")),
    )
