"""Reading a ゆとシートⅡ Sword World 2.5 sheet in its JSON output (``?id=…&mode=json``).

The JSON is the sheet's saved fields plus what ゆとシート's JSON output adds (``result``, ``gameVersion``,
``sheetURL`` ...). Saved fields are strings (``"hpTotal": "35"``); a few that ゆとシート fills in while
updating an old sheet are numbers. Text is HTML-escaped, with ``<br>`` for new lines, and names may
carry ruby (``|漢字《かんじ》``). Field names, checked against the yutorize/ytsheet2 source:

* character (``type`` empty): ``characterName``, ``level``, ``hpTotal``, ``mpTotal``, ``defenseNum``,
  ``defenseTotal{i}Eva``/``Def``/``Note``, ``evasionClass{i}``, ``defTotal{i}CheckArmour{j}``,
  ``armourNum``, ``vitResistTotal``, ``mndResistTotal``, ``initiative``, ``monsterLore``,
  ``mobilityTotal``, ``weaponNum``, ``weapon{n}Name``/``Usage``/``Acc``/``AccTotal``/``Rate``/``Crit``/
  ``Dmg``/``DmgTotal``/``Category``/``Note``, ``stt{Dex..Mnd}``, ``sttAdd{A..F}``, ``sttEquip{A..F}``,
  ``lv{ClassId}``, ``magicPower{ClassId}``, ``chatPalette``, ``paletteInsertType``;
* monster (``type`` ``m``): ``monsterName``, ``characterName``, ``lv``, ``mobility``, ``weakness``,
  ``statusNum``, ``status{n}Style``/``Hp``/``Mp``/``Defense``/``Damage``/``Accuracy``/``Evasion``.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.ruleset import RuleError
from engine.sheets.classes import ABILITIES, CLASSES
from engine.sheets.model import MAX_VALUE, Defence, MonsterPart, MonsterSheet, PCSheet, Weapon

_INTEGER = re.compile(r"[+-]?\d+")
_RUBY = re.compile(r"[|｜]([^|｜]+?)《.+?》")
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
#: ゆとシート writes C値 as ⑩ too (its normalizeCrit)
_CIRCLED = str.maketrans({"⑦": "7", "➆": "7", "⑧": "8", "➇": "8", "⑨": "9", "➈": "9", "⑩": "10", "➉": "10",
                          "⑪": "11", "⑫": "12", "⑬": "13"})  # fmt: skip
#: the most rows of a table read (ゆとシート's forms stay well below)
MAX_ROWS = 50
GAME_VERSIONS = ("2.5", "2.0")


@dataclass(frozen=True, slots=True)
class CharacterRead:
    """A character sheet read: its name, HP and 移動力 (kept on the PC), the sheet, its own palette."""

    name: str | None
    hp: int | None
    move: int | None
    sheet: PCSheet
    palette: str | None


class _Fields:
    """Typed reads of ゆとシート's fields, each lenient: a value that is not what it should be is absent."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc

    def text(self, key: str) -> str:
        value = self.doc.get(key)
        if value is None or isinstance(value, bool):
            return ""
        if isinstance(value, int | float):
            return str(int(value)) if float(value).is_integer() else str(value)
        if not isinstance(value, str):
            return ""
        return html.unescape(_BR.sub("\n", value)).strip()

    def name(self, key: str) -> str:
        """A name without its ruby (``|蒼月《そうげつ》`` → ``蒼月``)."""
        return _RUBY.sub(r"\1", self.text(key)).strip()

    def int_(self, key: str) -> int | None:
        value = self.doc.get(key)
        if isinstance(value, bool):
            return None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int):
            return value if abs(value) <= MAX_VALUE else None
        text = unicodedata.normalize("NFKC", self.text(key)).replace("−", "-").replace(" ", "")
        if not _INTEGER.fullmatch(text):
            return None
        number = int(text)
        return number if abs(number) <= MAX_VALUE else None

    def count(self, key: str, probe: str) -> int:
        """``weaponNum``-style row counts; without one, the rows that have a ``probe.format(n)`` field."""
        given = self.int_(key)
        if given is not None:
            return max(0, min(MAX_ROWS, given))
        n = 0
        while n < MAX_ROWS and probe.format(n + 1) in self.doc:
            n += 1
        return n

    def flag(self, key: str) -> bool:
        return self.text(key) not in ("", "0")


def read_sheet(doc: Mapping[str, Any], source: str = "") -> CharacterRead | MonsterSheet:
    """A character or a monster, as ``doc``'s ``type`` says; refusals are ``sheet.*`` keys."""
    f = _Fields(doc)
    result = f.text("result")
    if "result" in doc and result != "OK":
        raise RuleError("sheet.site_error", message=result[:200] or "-")
    version = f.text("gameVersion")
    if version and version not in GAME_VERSIONS:
        raise RuleError("sheet.not_sword_world", version=version)
    kind = f.text("type")
    if kind == "m":
        return read_monster(doc, source)
    if kind:
        raise RuleError("sheet.unsupported_type", type=kind)
    return read_character(doc, source)


def read_character(doc: Mapping[str, Any], source: str = "") -> CharacterRead:
    f = _Fields(doc)
    if not any(key in doc for key in ("hpTotal", "characterName", "weaponNum")):
        raise RuleError("sheet.not_a_character")
    return CharacterRead(
        name=f.name("characterName") or f.name("aka") or None,
        hp=f.int_("hpTotal"),
        move=f.int_("mobilityTotal"),
        sheet=PCSheet(
            source=source or f.text("sheetURL"),
            level=f.int_("level"),
            mp=f.int_("mpTotal"),
            max_mp=f.int_("mpTotal"),
            defences=_defences(f),
            vit_resist=f.int_("vitResistTotal"),
            mnd_resist=f.int_("mndResistTotal"),
            initiative=f.int_("initiative"),
            monster_lore=f.int_("monsterLore"),
            weapons=_weapons(f),
            values=_values(f),
            palette_insert=_insert(f.text("paletteInsertType")),
        ),
        palette=f.text("chatPalette") or None,
    )


def _insert(text: str) -> str | None:
    return text if text in ("begin", "end") else None


def _defences(f: _Fields) -> tuple[Defence, ...]:
    out = []
    armours = f.count("armourNum", "armour{}Name")
    for i in range(1, f.count("defenseNum", "defenseTotal{}Eva") + 1):
        evasion, defense = f.int_(f"defenseTotal{i}Eva"), f.int_(f"defenseTotal{i}Def")
        if evasion is None and defense is None:
            continue
        # ゆとシート lists a column in the palette when it uses armour or an evasion class
        listed = bool(f.text(f"evasionClass{i}")) or any(
            f.flag(f"defTotal{i}CheckArmour{j}") for j in range(1, armours + 1)
        )
        out.append(Defence(evasion, defense, f.text(f"defenseTotal{i}Note"), listed))
    return tuple(out)


def _crit(text: str) -> int | None:
    value = unicodedata.normalize("NFKC", text.translate(_CIRCLED)).strip()
    return int(value) if _INTEGER.fullmatch(value) else None


def _weapons(f: _Fields) -> tuple[Weapon, ...]:
    out: list[Weapon] = []
    previous: dict[str, str] = {}
    for n in range(1, f.count("weaponNum", "weapon{}Name") + 1):
        raw = {k: f.text(f"weapon{n}{k}") for k in ("Name", "Usage", "Acc", "Rate", "Crit", "Dmg", "Class",
                                                     "Category")}  # fmt: skip
        if (
            not (raw["Acc"] or raw["Rate"] or raw["Crit"] or raw["Dmg"])
            and f.int_(f"weapon{n}AccTotal") is None
        ):
            continue
        if raw == previous:  # ゆとシート skips a row that repeats the one above
            continue
        # a row without a name is another way to wield the weapon above (1H and 2H)
        name = f.name(f"weapon{n}Name") or (out[-1].name if out else "")
        note = f.text(f"weapon{n}Note") or (out[-1].note if out and out[-1].name == name else "")
        previous = raw
        out.append(
            Weapon(
                name=name,
                usage=raw["Usage"],
                acc=f.int_(f"weapon{n}AccTotal"),
                rate=f.int_(f"weapon{n}Rate"),
                crit=_crit(raw["Crit"]),
                dmg=f.int_(f"weapon{n}DmgTotal"),
                category=raw["Category"],
                note=note,
            )
        )
    return tuple(out)


def _values(f: _Fields) -> tuple[tuple[str, int], ...]:
    """The numbers ゆとシート's palette names: ability scores and their increases, class levels, magic."""
    values: list[tuple[str, int]] = []
    for field, letter, score, _, _ in ABILITIES:
        number = f.int_(field)
        if number is not None:
            values.append((score, number))
            values.append(
                (score + "増強", (f.int_(f"sttAdd{letter}") or 0) + (f.int_(f"sttEquip{letter}") or 0))
            )
    for sw_class in CLASSES:
        level = f.int_(f"lv{sw_class.id}")
        if level:
            values.append((sw_class.name, level))
    for sw_class in CLASSES:
        power = f.int_(f"magicPower{sw_class.id}")
        if sw_class.magic is not None and f.int_(f"lv{sw_class.id}") and power is not None:
            values.append((sw_class.magic, power))
    return tuple(values)


_FLYING = re.compile(r"飛行\s*[:：]?\s*(\d+)")
_FIRST_NUMBER = re.compile(r"\d+")
_PART = re.compile(r"^(.*?)[(（]([^()（）]+)[)）]$")


def read_monster(doc: Mapping[str, Any], source: str = "") -> MonsterSheet:
    f = _Fields(doc)
    name = f.name("characterName") or f.name("monsterName")
    if not name and "statusNum" not in doc:
        raise RuleError("sheet.not_a_monster")
    parts = []
    for n in range(1, f.count("statusNum", "status{}Style") + 1):
        style = f.name(f"status{n}Style")
        found = _PART.match(unicodedata.normalize("NFKC", style))
        parts.append(
            MonsterPart(
                style=style,
                part=found.group(2).strip() if found else style,
                hp=f.int_(f"status{n}Hp"),
                mp=f.int_(f"status{n}Mp"),
                defense=f.int_(f"status{n}Defense"),
                damage=unicodedata.normalize("NFKC", f.text(f"status{n}Damage")).replace(" ", "") or None,
                accuracy=f.int_(f"status{n}Accuracy"),
                evasion=f.int_(f"status{n}Evasion"),
            )
        )
    if not parts:
        raise RuleError("sheet.no_parts", name=name or "-")
    return MonsterSheet(
        name=name,
        level=f.int_("lv"),
        parts=tuple(parts),
        mobility=unicodedata.normalize("NFKC", f.text("mobility")),
        weakness=f.text("weakness"),
        source=source or f.text("sheetURL"),
    )


def mobility_metres(mobility: str, flying: bool) -> int | None:
    """The move of ``20（飛行40）``: 20 on the ground, 40 for a flying unit; None when no number is given."""
    if flying:
        found = _FLYING.search(mobility)
        if found:
            return int(found.group(1))
    first = _FIRST_NUMBER.search(mobility)
    return int(first.group(0)) if first else None
