"""The Sword World 2.5 classes as ゆとシートⅡ names them, as a table: the class, its id in the sheet's
fields (``lvSor``, ``magicPowerSor``), and for a magic class its magic, which names its power (魔力) in
the palette (``{真語魔法}``). The order is ゆとシート's, so generated palettes list magic in its order.

``POWERS``/``HEALS``: for each magic, the 威力 of its damage and healing spells and the class level
each needs (the lowest-level spell of each power), as ゆとシート's generator lists them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SwClass:
    name: str
    id: str
    magic: str | None = None


CLASSES: tuple[SwClass, ...] = (
    SwClass("ファイター", "Fig"),
    SwClass("グラップラー", "Gra"),
    SwClass("バトルダンサー", "Bat"),
    SwClass("フェンサー", "Fen"),
    SwClass("シューター", "Sho"),
    SwClass("ソーサラー", "Sor", "真語魔法"),
    SwClass("コンジャラー", "Con", "操霊魔法"),
    SwClass("ウィザード", "Wiz", "深智魔法"),
    SwClass("プリースト", "Pri", "神聖魔法"),
    SwClass("マギテック", "Mag", "魔動機術"),
    SwClass("フェアリーテイマー", "Fai", "妖精魔法"),
    SwClass("ドルイド", "Dru", "森羅魔法"),
    SwClass("デーモンルーラー", "Dem", "召異魔法"),
    SwClass("アビスゲイザー", "Aby", "奈落魔法"),
    SwClass("グリモワール", "Gri", "秘奥魔法"),
    SwClass("スカウト", "Sco"),
    SwClass("レンジャー", "Ran"),
    SwClass("セージ", "Sag"),
    SwClass("エンハンサー", "Enh"),
    SwClass("バード", "Bar"),
    SwClass("ライダー", "Rid"),
    SwClass("アルケミスト", "Alc"),
    SwClass("ジオマンサー", "Geo"),
    SwClass("ウォーリーダー", "War"),
    SwClass("ダークハンター", "Dar"),
    SwClass("フィジカルマスター", "Phy"),
    SwClass("ミスティック", "Mys"),
    SwClass("アーティザン", "Art"),
    SwClass("アリストクラシー", "Ari"),
)

#: magic → ((威力, class level needed), ...): damage spells
POWERS: dict[str, tuple[tuple[int, int], ...]] = {
    "真語魔法": ((10, 1), (20, 3), (30, 5), (40, 8), (50, 11), (60, 14), (100, 15)),
    "操霊魔法": ((0, 1), (10, 7), (20, 8), (30, 9), (60, 15)),
    "深智魔法": ((10, 7), (20, 4), (30, 9), (70, 13)),
    "神聖魔法": ((10, 3), (20, 5), (30, 9), (50, 11)),
    "魔動機術": ((30, 5), (90, 15)),
    "召異魔法": ((10, 3), (20, 2), (30, 15), (40, 9), (70, 14)),
    "奈落魔法": ((0, 1), (10, 3), (20, 0), (30, 7), (40, 9), (50, 13), (60, 11), (70, 13)),
    "秘奥魔法": ((10, 1), (20, 1), (30, 4), (40, 7), (50, 7), (60, 10), (80, 13), (100, 13)),
}
#: magic → ((威力, class level needed), ...): healing spells
HEALS: dict[str, tuple[tuple[int, int], ...]] = {
    "操霊魔法": ((0, 2), (30, 11)),
    "神聖魔法": ((10, 2), (30, 5), (50, 10), (70, 13)),
    "奈落魔法": ((0, 2), (20, 6), (40, 6), (70, 10)),
    "秘奥魔法": ((20, 1), (40, 7), (100, 13)),
}

#: ability scores: the sheet's field, its increase letter (``sttAddA``, ``sttEquipA``), the palette's names
ABILITIES: tuple[tuple[str, str, str, str, str], ...] = (
    # field, letter, score name, short name, English
    ("sttDex", "A", "器用度", "器用", "DEX"),
    ("sttAgi", "B", "敏捷度", "敏捷", "AGI"),
    ("sttStr", "C", "筋力", "筋力", "STR"),
    ("sttVit", "D", "生命力", "生命", "VIT"),
    ("sttInt", "E", "知力", "知力", "INT"),
    ("sttMnd", "F", "精神力", "精神", "MND"),
)


def magic_classes() -> tuple[SwClass, ...]:
    return tuple(c for c in CLASSES if c.magic is not None)
