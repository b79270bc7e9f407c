"""Issue 36 through the service: the ordinary battle's commands as a table types them, with scripted dice
and exact numbers, cited by B- ids; sheets as ytsheet2 made them (tests/sheets/fixtures/ytsheet2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.commands import SheetSource
from bot.render.text import render as render_text
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage
from bot.views import ErrorView, EventsView, ExportView, PaletteRollView, StatusView, View
from engine.dice import ScriptedDice

FIXTURES = Path(__file__).resolve().parents[2] / "sheets" / "fixtures" / "ytsheet2"
HERE = Where("g", "c")
GM = Actor("gm")
HANAKO = Actor("hanako")
TARO = Actor("taro")


def sheet(name: str) -> SheetSource:
    path = FIXTURES / f"{name}.json"
    return SheetSource(path.read_text(encoding="utf-8"), path.name)


class Dice(ScriptedDice):
    """Scripted dice fed as the table goes (the service gives back the dice of a refused command)."""

    def feed(self, *values: int) -> None:
        self._values.extend(values)


class Table:
    def __init__(self, service: BattleService, dice: Dice) -> None:
        self.service = service
        self.dice = dice

    async def run(self, actor: Actor, path: str, *dice: int, **options: Any) -> View:
        self.dice.feed(*dice)
        return await self.service.execute(HERE, actor, Invocation(path, options))

    async def ok(self, actor: Actor, path: str, *dice: int, **options: Any) -> EventsView:
        view = await self.run(actor, path, *dice, **options)
        assert isinstance(view, EventsView), (path, options, view)
        return view

    async def refused(self, actor: Actor, path: str, key: str, *dice: int, **options: Any) -> ErrorView:
        view = await self.run(actor, path, *dice, **options)
        assert isinstance(view, ErrorView) and view.key == key, (path, options, view)
        return view

    async def document(self, actor: Actor = GM, gm: bool = True) -> dict[str, Any]:
        view = await self.run(actor, "battle status", gm=gm)
        assert isinstance(view, StatusView)
        return view.document


@pytest.fixture
async def table(storage: Storage) -> Table:
    dice = Dice([])
    return Table(BattleService(storage, dice), dice)


def event(view: EventsView, kind: str) -> dict[str, Any]:
    found = [dict(e.data) for e in view.events if e.kind == kind]
    assert len(found) == 1, [e.kind for e in view.events]
    return found[0]


async def test_b_char_1_a_pc_from_a_ytsheet2_sheet_owned_by_who_added_it(table: Table) -> None:
    await table.ok(GM, "battle start", title="街道の戦い")
    await table.ok(HANAKO, "battle pc", sheet=sheet("fighter"))
    (pc,) = (await table.document())["pcs"]
    assert {k: pc[k] for k in ("name", "owner", "hp", "max_hp", "mp", "max_mp", "defense", "evasion")} == {
        "name": "ガルド", "owner": "hanako", "hp": 35, "max_hp": 35, "mp": 12, "max_mp": 12, "defense": 8,
        "evasion": 7,
    }  # fmt: skip
    # another owner is the GM's to give
    await table.refused(TARO, "battle pc", "service.owner_gm_only", name="X", hp=10, owner="hanako")


async def test_b_char_2_every_part_and_the_core_from_ytsheet2_monster_sheets(table: Table) -> None:
    await table.ok(GM, "battle start")
    await table.ok(GM, "battle monster", sheet=sheet("monsters/griffon"))
    await table.ok(GM, "battle monster", sheet=sheet("monsters/manticore"))
    await table.ok(GM, "battle monster", sheet=sheet("monsters/goblin"), count=3)
    await table.ok(GM, "battle monster", sheet=sheet("monsters/boggard"))
    monsters = {m["name"]: m for m in (await table.document())["monsters"]}
    assert list(monsters) == ["グリフォン", "マンティコア", "ゴブリンA", "ゴブリンB", "ゴブリンC", "ボガード"]
    griffon = monsters["グリフォン"]
    parts = [(p["name"], p["hp"], p["defense"]) for p in griffon["parts"]]
    assert parts == [("頭部", 48, 7), ("胴体", 62, 8)]
    assert griffon["core"] == 0 and griffon["reputation"] == 14 and griffon["weakness_value"] == 19
    manticore = monsters["マンティコア"]
    assert [p["name"] for p in manticore["parts"]] == ["頭部", "胴体", "尻尾"] and manticore["core"] == 1
    assert monsters["ゴブリンB"]["weakness"] == "命中力+1" and monsters["ボガード"]["weakness"] is None
    assert [p["hp"] for p in monsters["ゴブリンC"]["parts"]] == [16]


async def gm_step(table: Table) -> dict[str, Any]:
    """The last damage's steps as the GM's log has them."""
    view = await table.run(GM, "battle log", last=1, gm=True)
    (entry,) = view.entries  # type: ignore[attr-defined]
    return next(dict(e.data) for e in entry.events if e.kind == "bt.damaged")


async def goblins(table: Table) -> None:
    await table.ok(GM, "battle start", title="ゴブリン退治")
    await table.ok(HANAKO, "battle pc", name="ガルド", hp=35, defense=8, evasion=7)
    await table.ok(
        GM, "battle monster", name="ゴブリン", hp=16, defense=2, reputation=5, weakness_value=11,
        weakness="物理ダメージ+2点", initiative=11, count=2,
    )  # fmt: skip


async def test_b_dmg_2_defence_and_halving_each_step_weakness_only_once_known(table: Table) -> None:
    await goblins(table)
    # unknown weakness: 2d+5 (3,4) = 12, − 防護点 2 = 10, half rounded up 5
    hit = await table.ok(
        HANAKO, "battle damage", 3, 4, targets="ゴブリンA", amount="2d+5", by="ガルド", resisted="half"
    )
    # B-KNOW-1: the player reads the rough state only; the GM's log has each step
    assert [e.kind for e in hit.events] == ["bt.damaged_rough"]
    assert dict(hit.events[0].data)["after"] == "light"
    step = await gm_step(table)
    assert {k: step[k] for k in ("amount", "weakness", "defense", "after_defense", "halved", "final")} == {
        "amount": 12, "weakness": 0, "defense": 2, "after_defense": 10, "halved": 5, "final": 5,
    }  # fmt: skip
    assert (step["hp_before"], step["hp_after"]) == (16, 11)
    # the party reaches 弱点値 11: the weakness counts, before defence (B-KNOW-2)
    await table.ok(HANAKO, "battle knowledge", 5, 6, name="ガルド", monster="ゴブリン", check="2d")
    dealt = await table.ok(GM, "battle damage", 3, 4, targets="ゴブリンB", amount="2d+5", by="ガルド")
    again = event(dealt, "bt.damaged")
    assert (again["amount"], again["weakness"], again["defense"], again["final"]) == (12, 2, 2, 12)


async def test_b_init_2_a_player_is_refused_in_the_enemy_turn_and_the_gm_allowed(table: Table) -> None:
    await goblins(table)
    await table.ok(GM, "gm set", target="first", value="enemy")
    await table.ok(GM, "battle next")  # round 1, the enemy side's turn
    hit = {"targets": "ゴブリンA", "amount": "5", "by": "ガルド"}
    await table.refused(HANAKO, "battle damage", "bt.not_your_turn", **hit)
    await table.ok(GM, "battle damage", targets="ゴブリンA", amount="5", by="ガルド")
    # a reaction belongs to any turn: healing without a healer named
    await table.ok(HANAKO, "battle heal", targets="ガルド", amount="1")


async def test_b_dmg_4_mp_refused_below_zero_saying_what_is_left(table: Table) -> None:
    await table.ok(GM, "battle start")
    await table.ok(HANAKO, "battle pc", name="リーネ", hp=20, mp=5)
    refused = await table.refused(HANAKO, "battle mp", "bt.mp_short", name="リーネ", delta=-6)
    assert (refused.values["mp"], refused.values["cost"]) == (5, 6)
    await table.refused(TARO, "battle mp", "bt.not_your_pc", name="リーネ", delta=-1)


async def test_a_damage_line_rolled_at_a_target_is_offered_and_applied(table: Table) -> None:
    await table.ok(GM, "battle start")
    await table.ok(HANAKO, "battle pc", sheet=sheet("fighter"))
    await table.ok(GM, "battle monster", sheet=sheet("monsters/goblin"))
    line = "命中力／バスタードソード1H"
    rolled = await table.run(HANAKO, "pc roll", 3, 4, name="ガルド", line=line, target="ゴブリン")
    assert isinstance(rolled, PaletteRollView) and rolled.text.endswith("＞ 14")
    physical, magic = rolled.offers
    assert (physical.path, dict(physical.options)) == (
        "battle damage", {"targets": "ゴブリン", "amount": "14", "kind": "physical", "by": "ガルド"},
    )  # fmt: skip
    assert magic.options["kind"] == "magic"
    # as the button runs it: the presser's rights decide (another player is refused)
    await table.refused(TARO, "battle damage", "bt.not_your_pc", **physical.options)
    await table.ok(HANAKO, "battle damage", **physical.options)
    dealt = await gm_step(table)
    assert (dealt["amount"], dealt["defense"], dealt["final"], dealt["hp_after"]) == (14, 2, 12, 4)


async def test_export_and_import_round_trip(table: Table, storage: Storage) -> None:
    await goblins(table)
    exported = await table.run(GM, "battle export")
    assert isinstance(exported, ExportView) and exported.document["format"] == "toride.battle/1"
    await table.ok(GM, "battle end")
    await table.ok(GM, "battle import", file=exported.document)
    assert (await table.document())["monsters"] == exported.document["monsters"]


async def test_b_view_2_the_boss_fight_after_a_fort_battle(table: Table) -> None:
    await table.ok(GM, "fort start", rounds=1)
    await table.ok(HANAKO, "pc add", sheet=sheet("fighter"))
    await table.ok(GM, "commander add", name="ボガードの首領", hp=40, horn="鼓咆")
    await table.ok(GM, "gm set", target="pc.ガルド.hp", value="20")
    await table.refused(GM, "battle start", "service.battle_running", **{"from": "fort"})
    await table.ok(GM, "fort end")
    started = await table.ok(GM, "battle start", title="首領戦", **{"from": "fort"})
    assert [e.kind for e in started.events][:2] == ["bt.started", "bt.pc_added"]
    doc = await table.document()
    (pc,) = doc["pcs"]
    assert (pc["name"], pc["owner"], pc["hp"], pc["max_hp"], pc["defense"]) == ("ガルド", "hanako", 20, 35, 8)
    (boss,) = doc["monsters"]
    assert (boss["name"], boss["parts"][0]["hp"]) == ("ボガードの首領", 40)
    (horn,) = doc["effects"]
    assert (horn["name"], horn["target"], horn["rounds"]) == ("鼓咆", "ボガードの首領", None)
    # no fort battle before it: said so
    await table.ok(GM, "battle end")
    await table.refused(GM, "battle start", "bt.from_no_fort", **{"from": "fort"})


async def test_b_char_2_a_number_by_hand_beside_a_sheet_of_several_parts_is_refused(table: Table) -> None:
    await table.ok(GM, "battle start")
    refused = await table.refused(
        GM, "battle monster", "bt.hand_with_parts", sheet=sheet("monsters/griffon"), hp=10
    )
    assert str(refused.values["options"]) == "hp"
    # of one part: the number by hand wins over the sheet's
    await table.ok(GM, "battle monster", sheet=sheet("monsters/goblin"), hp=20)
    (goblin,) = (await table.document())["monsters"]
    assert [p["hp"] for p in goblin["parts"]] == [20]


async def test_b_view_1_the_round_summary_adds_up_damage_dealt_and_taken(table: Table) -> None:
    await goblins(table)
    await table.ok(GM, "battle reveal", monster="ゴブリン")  # the table knows its numbers
    await table.ok(GM, "gm set", target="first", value="pc")
    await table.ok(GM, "battle next")
    await table.ok(HANAKO, "battle damage", 3, 4, targets="ゴブリンA", amount="2d+5", by="ガルド")  # 12 − 2
    await table.ok(GM, "battle next")
    await table.ok(GM, "battle damage", 5, 5, targets="ガルド", amount="2d+3", by="ゴブリンA")  # 13 − 8
    await table.ok(GM, "battle damage", 1, 1, targets="ガルド", amount="2d+3", by="ゴブリンB")  # 5 − 8: 0
    ended = await table.ok(GM, "battle next")
    (summary,) = ended.summaries
    lines = render_text(ended, "ja").splitlines()
    assert [line for line in lines if "ダメージ: " in line] == [
        "  与えたダメージ: ガルド 10点、ゴブリンA 5点、ゴブリンB 0点",
        "  受けたダメージ: ゴブリンA 10点、ガルド 5点",
    ]
    assert summary.kind == "round" and summary.round == 1


async def test_gm_undo_and_redo_take_back_a_damage_and_its_dice(table: Table) -> None:
    await goblins(table)
    await table.ok(GM, "battle damage", 3, 4, targets="ゴブリンA", amount="2d+5", by="ガルド")
    hp = [p["hp"] for p in (await table.document())["monsters"][0]["parts"]]
    assert hp == [6]
    await table.run(GM, "gm undo")
    assert [p["hp"] for p in (await table.document())["monsters"][0]["parts"]] == [16]
    await table.run(GM, "gm redo")
    assert [p["hp"] for p in (await table.document())["monsters"][0]["parts"]] == [6]
    await table.refused(HANAKO, "gm undo", "service.gm_only")
