"""Reading a ゆとシートⅡ Sword World 2.5 sheet in its JSON output (``?id=…&mode=json``).

The JSON is the sheet's saved fields plus what ゆとシート's JSON output adds (``result``, ``gameVersion``,
``sheetURL`` ...); how its values are read (escaping, limits) is engine/sheets/fields.py. A character
(``type`` empty) is read by engine/sheets/ytsheet_pc.py; a monster (``type`` ``m``, ytsheet2's
``edit-mons.pl`` form) here: ``monsterName``, ``characterName``, ``lv``, ``mobility`` (移動速度),
``weakness`` (弱点, absent when none is given), ``reputation`` / ``reputation+`` (知名度／弱点値),
``initiative`` (先制値), ``vitResist`` / ``mndResist`` (生命／精神抵抗力; their ``…Fix`` is 7 more),
``partsNum`` / ``parts`` (部位数 and its breakdown, ``頭部／胴体``), ``coreParts`` (コア部位), and the
status table: ``statusNum`` rows of ``status{n}Style`` (攻撃方法（部位）), ``Accuracy`` (命中力),
``Damage`` (打撃点), ``Evasion`` (回避力), ``Defense`` (防護点), ``Hp``, ``Mp``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from engine import limits
from engine.ruleset import RuleError
from engine.sheets.fields import Fields
from engine.sheets.model import MonsterPart, MonsterSheet
from engine.sheets.ytsheet_pc import CharacterRead, read_character

__all__ = ["CharacterRead", "mobility_metres", "read_character", "read_monster", "read_sheet"]

GAME_VERSIONS = ("2.5", "2.0")


def read_sheet(doc: Mapping[str, Any], source: str = "") -> CharacterRead | MonsterSheet:
    """A character or a monster, as ``doc``'s ``type`` says; refusals are ``sheet.*`` keys."""
    f = Fields(doc)
    result = f.raw("result")
    if "result" in doc and result != "OK":
        raise RuleError("sheet.site_error", message=limits.shown_safely(result[:200]) or "?")
    version = f.raw("gameVersion")
    if version and version not in GAME_VERSIONS:
        raise RuleError("sheet.not_sword_world", version=limits.shown_safely(version[:20]))
    kind = f.raw("type")
    if kind == "m":
        return read_monster(doc, source)
    if kind:
        raise RuleError("sheet.unsupported_type", type=limits.shown_safely(kind[:20]))
    return read_character(dict(doc), source)


_FLYING = re.compile(r"飛行\s*[:：]?\s*(\d+)")
_FIRST_NUMBER = re.compile(r"\d+")
_PART = re.compile(r"^(.*?)[(（]([^()（）]+)[)）]$")
_DAMAGE = re.compile(r"[0-9dDＤ+\-*/()]+")
#: the longest 部位 breakdown read (``頭部／胴体／翼×2``)
_PARTS_MAX = 3 * limits.TEXT_MAX


def _damage(f: Fields, key: str) -> str | None:
    text = unicodedata.normalize("NFKC", f.text(key, "strike")).replace(" ", "")
    if not text:
        return None
    if len(text) > 40 or not _DAMAGE.fullmatch(text):
        raise RuleError("sheet.strike_invalid", value=limits.shown_safely(text[:40]))
    return text


def read_monster(doc: Mapping[str, Any], source: str = "") -> MonsterSheet:
    f = Fields(doc)
    name = f.name("characterName", "name") or f.name("monsterName", "name")
    if not name and "statusNum" not in doc:
        raise RuleError("sheet.not_a_monster")
    parts = []
    for n in range(1, f.count("statusNum", "status{}Style") + 1):
        style = f.name(f"status{n}Style", "part")
        found = _PART.match(unicodedata.normalize("NFKC", style))
        parts.append(
            MonsterPart(
                style=style,
                part=found.group(2).strip() if found else style,
                hp=f.int_(f"status{n}Hp", "hp", 1, limits.MAX_HP),
                mp=f.int_(f"status{n}Mp", "mp", 0, limits.MAX_NUMBER),
                defense=f.int_(f"status{n}Defense", "defense", 0, limits.MAX_NUMBER),
                damage=_damage(f, f"status{n}Damage"),
                accuracy=f.int_(f"status{n}Accuracy", "accuracy"),
                evasion=f.int_(f"status{n}Evasion", "evasion"),
            )
        )
    if not parts:
        raise RuleError("sheet.no_parts", name=name or "?")
    return MonsterSheet(
        name=name,
        level=f.int_("lv", "level", 0, 1000),
        parts=tuple(parts),
        mobility=unicodedata.normalize("NFKC", f.text("mobility", "mobility")),
        weakness=f.text("weakness", "weakness"),
        source=source or f.text("sheetURL", "url", 300),
        # what a 魔物知識 check is rolled against: 知名度 / 弱点値 (``―``: none, read as None)
        reputation=f.int_("reputation", "monster_lore", 0, limits.MAX_NUMBER),
        weakness_value=f.int_("reputation+", "monster_lore", 0, limits.MAX_NUMBER),
        initiative=f.int_("initiative", "initiative"),
        vit_resist=f.int_("vitResist", "vit_resist"),
        mnd_resist=f.int_("mndResist", "mnd_resist"),
        core_part=f.name("coreParts", "part"),
        parts_count=f.int_("partsNum", "part", 0, limits.MAX_NUMBER),
        parts_text=f.text("parts", "part", _PARTS_MAX),
    )


def mobility_metres(mobility: str, flying: bool) -> int | None:
    """The move of ``20（飛行40）``: 20 on the ground, 40 for a flying unit; None when no number is given.
    (Not rounded: a move that is not a multiple of 10 m is the fort's to round, and say so.)"""
    if flying:
        found = _FLYING.search(mobility)
        if found:
            return min(int(found.group(1)[:7]), limits.MAX_NUMBER)
    first = _FIRST_NUMBER.search(mobility)
    return min(int(first.group(0)[:7]), limits.MAX_NUMBER) if first else None
