"""The Sword World 2.5 classes as ゆとシートⅡ names them, as a table: the class, its id in the sheet's
fields (``lvSor``, ``magicPowerSor``), and for a magic class its magic, which names its power (魔力) in
the palette (``{真語魔法}``). The order is ゆとシート's, so generated palettes list magic in its order.

``POWERS``/``HEALS``: for each magic, the 威力 of its damage and healing spells and the class level
each needs (the lowest-level spell of each power), as ゆとシート's generator lists them.
``PACKAGES``: each class's 判定パッケージ (スカウト技巧 ...), ``CRAFTS``: the classes whose craft has a
power of its own (呪歌's 奏力), ``DECLARED``: the combat feats that are declared (宣言特技, the ``[準]``
ones prepared too), ``MASTERY``: the weapon categories' 武器習熟 fields.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SwClass:
    name: str
    id: str
    #: the magic (or craft with a power) it casts, which names its power in the palette (``{真語魔法}``)
    magic: str | None = None
    #: the ability the power adds (magic: 知力), and the power's own name where it has one (奏力)
    stat: str = "知力"
    power: str | None = None

    @property
    def power_name(self) -> str | None:
        return self.power or self.magic


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
    SwClass("バード", "Bar", "呪歌", "精神力", "奏力"),
    SwClass("ライダー", "Rid"),
    SwClass("アルケミスト", "Alc", "賦術"),
    SwClass("ジオマンサー", "Geo"),
    SwClass("ウォーリーダー", "War"),
    SwClass("ダークハンター", "Dar", "操気", "精神力", "理力"),
    SwClass("フィジカルマスター", "Phy"),
    SwClass("ミスティック", "Mys", "占瞳"),
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
    "妖精魔法": ((10, 2), (20, 5), (30, 4), (40, 10), (50, 11), (60, 14), (80, 10)),
    "森羅魔法": ((10, 4), (20, 4), (30, 12), (50, 15)),
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


#: 呪歌 and 操気: their damage and healing are crafts the character must have learned (by name)
CRAFT_POWERS: dict[str, tuple[tuple[int, str], ...]] = {
    "呪歌": ((10, "終律：春の強風|終律：冬の寒風"), (20, "終律：獣の咆哮|終律：蛇穴の苦鳴"),
             (30, "終律：火竜の舞|終律：水竜の轟")),
    "操気": ((20, "破邪光弾"), (30, "破邪光槍"), (40, "破邪光弾"), (60, "破邪光槍")),
}  # fmt: skip
CRAFT_HEALS: dict[str, tuple[tuple[int, str], ...]] = {
    "呪歌": ((0, "終律：秋の実り"), (10, "終律：華の宴"), (20, "終律：夏の生命|終律：蒼月の光"),
             (30, "終律：草原の息吹"), (40, "終律：白日の暖")),
}  # fmt: skip
#: the fields that hold the crafts learned (``craftSong1`` ...) and the extra ones (``songAddition``)
CRAFT_FIELDS = {"呪歌": "song", "操気": "psychokinesis"}


@dataclass(frozen=True, slots=True)
class Package:
    """A 判定パッケージ: its name after the class's (技巧), the ability it adds, its field id
    (``packScoTec``), whether it is the class's 魔物知識 or 先制 check."""

    id: str
    name: str
    stat: str
    lore: bool = False
    initiative: bool = False


#: class → its packages, in ゆとシート's order (by ability: 器用 敏捷 筋力 生命 知力 精神)
PACKAGES: dict[str, tuple[Package, ...]] = {
    "スカウト": (Package("Tec", "技巧", "器用"), Package("Agi", "運動", "敏捷", initiative=True),
                 Package("Obs", "観察", "知力")),
    "レンジャー": (Package("Tec", "技巧", "器用"), Package("Agi", "運動", "敏捷"),
                   Package("Obs", "観察", "知力")),
    "セージ": (Package("Kno", "知識", "知力", lore=True),),
    "バード": (Package("Kno", "見識", "知力"),),
    "ライダー": (Package("Agi", "運動", "敏捷"), Package("Obs", "観察", "知力"),
                 Package("Kno", "知識", "知力", lore=True)),
    "アルケミスト": (Package("Kno", "知識", "知力"),),
    "ジオマンサー": (Package("Obs", "観察", "知力"),),
    "ウォーリーダー": (Package("Agi", "先制", "敏捷", initiative=True),
                       Package("Int", "先制(知)", "知力", initiative=True)),
    "ダークハンター": (Package("Int", "知識", "知力", lore=True),),
    "フィジカルマスター": (Package("Agi", "先制", "敏捷", initiative=True),
                           Package("Int", "魔物知識", "知力", lore=True)),
}  # fmt: skip

#: the declared combat feats (宣言特技) of SW2.5
_DECLARED_NAMES = (
    "インファイトⅠ インファイトⅡ 囮攻撃Ⅰ 囮攻撃Ⅱ カード軽減 楽素転換 影矢 カニングキャストⅠ "
    "カニングキャストⅡ 斬り返しⅠ 斬り返しⅡ 牙折り クイックキャスト クリティカルキャストⅠ "
    "クリティカルキャストⅡ 牽制攻撃Ⅰ 牽制攻撃Ⅱ 牽制攻撃Ⅲ 高度な柔軟性 シールドバッシュⅠ "
    "シールドバッシュⅡ シャドウステップⅠ シャドウステップⅡ シュアパフォーマー スキルフルプレイ "
    "捨て身攻撃Ⅰ 捨て身攻撃Ⅱ 捨て身攻撃Ⅲ 先陣の才覚 全力攻撃Ⅰ 全力攻撃Ⅱ 全力攻撃Ⅲ "
    "ダブルキャスト 挑発攻撃Ⅰ 挑発攻撃Ⅱ 露払い テイルスイングⅠ テイルスイングⅡ 薙ぎ払いⅠ "
    "薙ぎ払いⅡ バイオレントキャストⅠ バイオレントキャストⅡ 必殺攻撃Ⅰ 必殺攻撃Ⅱ 必殺攻撃Ⅲ "
    "魔法拡大／威力確実化 魔法拡大／確実化 魔法拡大／数 魔法拡大／距離 魔法拡大／時間 魔法拡大／範囲 "
    "魔法拡大すべて 魔法収束 魔法制御 魔力撃 マルチアクション 鎧貫きⅠ 鎧貫きⅡ 鎧貫きⅢ 乱撃Ⅰ "
    "乱撃Ⅱ 双占瞳 痛撃 跳躍攻撃 封印撃 ヒットアンドアウェイ 曲射 デュアルアクション "
)  # fmt: skip
#: each declared feat → whether it is prepared too (``[準]``)
DECLARED: dict[str, bool] = dict.fromkeys(_DECLARED_NAMES.split(), False) | {
    "かばうⅠ": True, "かばうⅡ": True, "ディフェンススタンス": True
}  # fmt: skip
#: the levels at which combat feats are learned (``combatFeatsLv{n}``; ``1bat``: バトルダンサー's own)
FEAT_LEVELS = ("1bat", "1", "3", "5", "7", "9", "11", "13", "15", "16", "17")

#: weapon category → the field of its 武器習熟 (``masterySword``)
MASTERY = {
    "ソード": "Sword", "アックス": "Axe", "スピア": "Spear", "メイス": "Mace", "スタッフ": "Staff",
    "フレイル": "Flail", "ウォーハンマー": "Hammer", "絡み": "Entangle", "格闘": "Grapple", "投擲": "Throw",
    "ボウ": "Bow", "クロスボウ": "Crossbow", "ブロウガン": "Blowgun", "ガン": "Gun",
}  # fmt: skip


#: the classes whose power is a craft's (呪歌, 賦術, 操気, 占瞳), not magic: 魔力 modifiers do not add to it
CRAFT_IDS = frozenset({"Bar", "Alc", "Dar", "Mys"})


def find_class(name: str) -> SwClass | None:
    return next((c for c in CLASSES if c.name == name), None)
