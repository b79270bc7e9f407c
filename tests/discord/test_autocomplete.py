"""Autocomplete answers (type 8) from the channel's battle: units, PCs, commanders, actors, edges, areas."""

from __future__ import annotations

import pytest
from discord_harness import ALICE, BOB, GM, Harness


@pytest.fixture
async def battle(harness: Harness) -> Harness:
    h = harness
    await h.run(GM, "fort start", rounds=2)
    await h.run(ALICE, "pc add", name="Alice")
    await h.run(BOB, "pc add", name="ボブ", position="outside")
    for name, kind, area in (
        ("ゴブリン隊", "normal", "A1"),
        ("ゴーレム", "ram", "A2"),
        ("兵士隊", "soldier", "F0"),
    ):
        await h.run(GM, "unit add", name=name, type=kind, area=area, hp=10, fort_damage=1, strike="2d")
    await h.run(GM, "unit add", name="Ｇ騎兵", type="normal", area="B2", hp=10, fort_damage=1, arrive_round=2)
    await h.run(GM, "commander add", name="隊長", hp=30, area="A2")
    await h.run(GM, "trap set", kind="mine", edge="A1-F0", uses=1)
    await h.run(GM, "trap set", kind="barricade", edge="F0-B1", uses=1)
    return h


async def test_units_pcs_commanders_and_actors(battle: Harness) -> None:
    h = battle
    # names are stored NFKC-normalised (Ｇ騎兵 → G騎兵); reinforcements still to come are listed last
    assert await h.complete(GM, "attack single", "unit", unit="") == [
        "ゴブリン隊",
        "ゴーレム",
        "兵士隊",
        "G騎兵",
    ]
    assert await h.complete(GM, "attack single", "unit", unit="ゴ") == ["ゴブリン隊", "ゴーレム"]
    assert await h.complete(GM, "unit move", "unit", unit="隊") == ["ゴブリン隊", "兵士隊"]
    # what is typed is full-width and case folded too: "ｇ" finds "G騎兵"
    assert await h.complete(GM, "unit remove", "unit", unit="ｇ") == ["G騎兵"]
    assert await h.complete(ALICE, "unit attack", "target", attacker="兵士隊", target="") == [
        "ゴブリン隊",
        "ゴーレム",
        "兵士隊",
        "G騎兵",
    ]
    assert await h.complete(ALICE, "pc move", "name", name="") == ["Alice", "ボブ"]
    assert await h.complete(GM, "commander hp", "name", name="") == ["隊長"]
    assert await h.complete(ALICE, "attack area", "commander", commander="") == ["隊長"]  # F-UNIT-4
    assert await h.complete(GM, "commander move", "to", name="隊長", to="b") == ["B1", "B2"]
    assert await h.complete(ALICE, "fort repair", "by", by="") == ["Alice", "ボブ", "兵士隊"]


async def test_edges_areas_and_gm_targets(battle: Harness) -> None:
    h = battle
    assert await h.complete(BOB, "trap set", "edge", kind="mine", edge="f0") == ["F0-B1", "A1-F0"]
    assert await h.complete(BOB, "trap remove", "edge", kind="mine", edge="") == ["A1-F0"]
    assert await h.complete(BOB, "trap remove", "edge", edge="") == ["A1-F0", "F0-B1"]
    assert await h.complete(GM, "unit move", "to", unit="ゴブリン隊", to="") == ["A2", "A1", "F0", "B1", "B2"]
    assert await h.complete(GM, "attack pierce", "from", **{"from": "b"}) == ["B1", "B2"]
    targets = await h.complete(GM, "gm set", "target", target="unit.ゴブ")
    assert targets == [f"unit.ゴブリン隊.{attr}" for attr in ("hp", "area", "acted", "moved_m", "weakness")]
    assert "unit.兵士隊.position" in await h.complete(GM, "gm set", "target", target="unit.兵士隊")
    assert "commander.隊長.horn" in await h.complete(GM, "gm set", "target", target="commander")
    assert "cannon.2.shells" in await h.complete(GM, "gm set", "target", target="cannon")


async def test_gm_targets_in_the_readers_words(battle: Harness) -> None:
    """Issue 38, item 3: a Japanese client's autocomplete offers the targets in Japanese (砦 finds 砦HP,
    hiragana finds katakana), an English client's the paths; either takes what the other types."""
    h = battle
    assert await h.complete(GM, "gm set", "target", target="砦") == ["砦HP", "砦の最大HP", "砦の修理ラウンド"]
    assert await h.complete(GM, "gm set", "target", target="大砲") == ["大砲の数", "大砲1.砲弾", "大砲2.砲弾"]
    # the reader's words first, the paths (which contain the name too) after them
    assert await h.complete(GM, "gm set", "target", target="ごぶ") == [
        *(f"ゴブリン隊.{word}" for word in ("HP", "エリア", "行動済み", "移動距離", "弱点")),
        *(f"unit.ゴブリン隊.{attr}" for attr in ("hp", "area", "acted", "moved_m", "weakness")),
    ]
    assert await h.complete(GM, "gm set", "target", target="地雷") == ["地雷.A1-F0.残り回数"]
    # F-MAP-4: a soldier has a position, and a commander its 鼓咆
    assert "兵士隊.位置" in await h.complete(GM, "gm set", "target", target="兵士隊")
    assert await h.complete(GM, "gm set", "target", target="隊長") == [
        "隊長.HP", "隊長.エリア", "隊長.鼓咆",
        "commander.隊長.hp", "commander.隊長.area", "commander.隊長.horn",
    ]  # fmt: skip
    # an English client (Alice's en-US) reads the paths
    assert await h.complete(ALICE, "gm set", "target", target="fort") == [
        "fort.hp", "fort.max_hp", "fort.repaired_round",
    ]  # fmt: skip
    assert await h.complete(ALICE, "gm set", "target", target="ゴブ") == [
        f"unit.ゴブリン隊.{attr}" for attr in ("hp", "area", "acted", "moved_m", "weakness")
    ]


async def test_no_battle_no_names(harness: Harness) -> None:
    assert await harness.complete(GM, "attack single", "unit", unit="") == []
    assert await harness.complete(GM, "gm set", "target", target="") == []


async def test_at_most_25_names(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=1)
    for n in range(30):
        await harness.run(GM, "unit add", name=f"u{n:02}", type="normal", area="A2", hp=1, fort_damage=1)
    names = await harness.complete(GM, "unit hp", "unit", unit="u")
    assert names == [f"u{n:02}" for n in range(25)]
