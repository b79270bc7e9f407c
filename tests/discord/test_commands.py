"""Every command through Discord: the response payload (embeds, ephemeral flag) as the bot sends it.

Each action's embed must show exactly the events the battle log holds for it, rendered from the
catalogue: the expected lines are read back from the service, not typed in here.
"""

from __future__ import annotations

import json

import pytest
from discord_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GM,
    GUILD_ID,
    MOD,
    Attachment,
    Dice,
    Harness,
    Member,
    Result,
)

from bot.discord.text import event_line, md
from bot.i18n import t
from bot.render.command_line import shown as in_words
from bot.service import Actor, Invocation, Where
from bot.views import LogView, StatusView

WHERE = Where(str(GUILD_ID), str(CHANNEL_ID))
NONE = {"parse": []}


async def logged_lines(h: Harness, lang: str = "ja") -> list[str]:
    """The last action's events, rendered as the embed must show them."""
    view = await h.bot.service.execute(WHERE, Actor(str(GM.id)), Invocation("fort log", {"last": 1}))
    assert isinstance(view, LogView)
    return [event_line(e, lang) for e in view.entries[-1].events]


async def document(h: Harness) -> dict[str, object]:
    view = await h.bot.service.status(WHERE)
    assert isinstance(view, StatusView)
    return view.document


async def action(
    h: Harness, member: object, path: str, text: str, seq: int, lang: str = "ja", **options: object
) -> Result:
    """Run a command that must succeed; check the response embed against the log: its title is the
    logged command ``text`` in the member's words (issue 23, item 8)."""
    result = await h.run(member, path, **options)  # type: ignore[arg-type]
    response = result.response
    assert response.type == 4 and not response.ephemeral, result.text()
    assert response.data["allowed_mentions"] == NONE
    first = response.embeds[0]
    assert first["title"] == md(in_words(text, lang))
    assert first["author"] == {"name": member.name}  # type: ignore[attr-defined]
    assert first["footer"] == {"text": f"#{seq}"}
    lines = await logged_lines(h, lang)
    shown = first["description"].split("\n")
    if shown != lines:
        # a round's summary comes right after the round's end, the next round's first lines after it
        assert any("まとめ" in (e.get("title") or "") for e in response.embeds[1:-1]), response.embeds
        assert shown + response.embeds[-1]["description"].split("\n") == lines
    return result


async def refused(
    h: Harness, member: object, path: str, key: str, lang: str = "ja", **options: object
) -> Result:
    """Run a command that must be refused: one ephemeral embed with the catalogue's sentence."""
    result = await h.run(member, path, **options)  # type: ignore[arg-type]
    assert result.response.type == 4 and result.ephemeral
    (embed,) = result.embeds
    assert embed["color"] == 0xED4245
    assert embed["description"].startswith("⚠ ")
    assert t(key, lang).split("{")[0] in embed["description"], embed["description"]
    assert result.followups == [] and result.channel == []
    return result


@pytest.fixture
async def battle(harness: Harness, dice: Dice) -> Harness:
    """A battle: Alice (PC on top), Bob (PC outside), goblins at A1, a soldier unit, a commander."""
    started = await action(
        harness,
        GM,
        "fort start",
        "/fort start rounds:3 cannons:1 title:北の砦",
        1,
        rounds=3,
        cannons=1,
        title="北の砦",
    )
    # the GM's client is Japanese: the command the embed shows is in Japanese
    assert started.response.embeds[0]["title"] == "/砦 開始 ラウンド数:3 大砲の数:1 タイトル:北の砦"
    await action(
        harness,
        ALICE,
        "pc add",
        "/pc add name:Alice position:top hp:30",
        2,
        "en",
        name="Alice",
        position="top",
        hp=30,
    )
    await action(
        harness, BOB, "pc add", "/pc add name:Bob position:outside", 3, name="Bob", position="outside"
    )
    await action(
        harness,
        GM,
        "unit add",
        "/unit add name:ゴブリン隊 type:normal area:A1 hp:40 fort_damage:10 strike:2d+3 defense:2",
        4,
        name="ゴブリン隊",
        type="normal",
        area="A1",
        hp=40,
        fort_damage=10,
        strike="2d+3",
        defense=2,
    )
    await action(
        harness,
        GM,
        "unit add",
        "/unit add name:兵士隊 type:soldier area:F0 hp:20 fort_damage:0 strike:2d",
        5,
        name="兵士隊",
        type="soldier",
        area="F0",
        hp=20,
        fort_damage=0,
        strike="2d",
    )
    await action(
        harness,
        GM,
        "commander add",
        "/commander add name:隊長 hp:40 area:A2",
        6,
        name="隊長",
        hp=40,
        area="A2",
    )
    await harness.flush_live()
    return harness


# --- dice -------------------------------------------------------------------------------------


async def test_roll_public(harness: Harness, dice: Dice) -> None:
    dice.feed(3, 4)
    result = await harness.run(GM, "roll", expr="2d6+10 命中")
    assert result.response.type == 4 and not result.ephemeral
    assert result.embeds == [
        {
            "title": "🎲 ダイス",
            "description": "(2D6+10) ＞ 7[3,4]+10 ＞ 17",
            "author": {"name": "GM太郎"},
            "fields": [{"name": "コメント", "value": "命中", "inline": False}],
            "color": 0x3498DB,
            "type": "rich",
            "flags": 0,
        }
    ]
    assert result.followups == []


async def test_roll_secret_goes_to_the_roller_and_the_channel_sees_a_note(
    harness: Harness, dice: Dice
) -> None:
    dice.feed(6, 6)
    result = await harness.run(ALICE, "roll", expr="2d6", secret=True)
    assert result.ephemeral
    assert result.embeds[0]["title"] == "🎲 Secret roll (only you see this)"
    kept = t("roll.secret_kept", "en", number=1)
    assert result.embeds[0]["description"] == "(2D6) ＞ 12[6,6] ＞ 12\n" + kept
    (note,) = result.followups
    assert not note.ephemeral and note.data["allowed_mentions"] == NONE
    assert note.embeds[0]["description"] == "Alice made secret roll #1."
    assert "12" not in note.text()


async def test_roll_refused(harness: Harness) -> None:
    await refused(harness, GM, "roll", "dice.unknown_command", expr="xyz")


# --- battle lifecycle -------------------------------------------------------------------------


async def test_fort_start_posts_the_live_status_and_refuses_a_second_battle(harness: Harness) -> None:
    result = await action(harness, GM, "fort start", "/fort start rounds:2", 1, rounds=2)
    (post,) = result.channel
    assert (post.method, post.path) == ("POST", f"/channels/{CHANNEL_ID}/messages")
    assert post.payload is not None and post.payload["allowed_mentions"] == NONE
    assert post.embeds[0]["title"] == "【砦防衛戦】 第1/2ラウンド PC側の手番"
    buttons = post.payload["components"][0]["components"]
    assert [(b["custom_id"], b["label"]) for b in buttons] == [
        ("toride:status:next", "次へ ▶"),
        ("toride:status:undo", "取り消し"),
        ("toride:status:refresh", "更新"),
    ]
    await refused(harness, BOB, "fort start", "service.battle_running", rounds=3)


async def test_fort_status(battle: Harness) -> None:
    result = await battle.run(BOB, "fort status")
    assert result.response.type == 4 and not result.ephemeral
    (embed,) = result.embeds
    assert embed["title"] == "【北の砦】 第1/3ラウンド PC側の手番"
    assert embed["color"] == 0x2ECC71
    # the map as the console draws it: each crossing's corner under its area's name
    assert embed["description"] == (
        "砦HP `[████████████████████]` 300/300\n```\n"
        "A2 ── A1 ── F0 ── B1 ── B2\n"
        "│      └──────────┘      │\n"
        "└────────────────────────┘\n```"
    )
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["A2", "A1", "F0", "B1", "B2", "設備", "GM"]
    assert fields["A2"] == "★ 隊長 HP 40/40 [指揮官]"
    assert fields["A1"] == "• ゴブリン隊 HP 40/40 砦ダメージ10"
    assert fields["F0"] == (
        f"**砦上部**: Alice HP 30/30 (<@{ALICE.id}>)、兵士隊 HP 20/20 [兵士] 砦ダメージ0\n"  # F-MAP-4
        f"**砦外部**: Bob (<@{BOB.id}>)"
    )
    assert fields["B1"] == fields["B2"] == "—"
    assert fields["設備"] == "罠: —\n大砲: #1 砲弾0\nバリスタ: 未装填"
    assert fields["GM"] == f"<@{GM.id}>"


async def test_fort_next_by_the_gm_and_refused_to_a_player(battle: Harness) -> None:
    before = await document(battle)
    await refused(battle, ALICE, "fort next", "service.gm_only", "en")
    await refused(battle, BOB, "fort next", "service.gm_only")
    assert await document(battle) == before
    assert await battle.flush_live() == []
    await action(battle, GM, "fort next", "/fort next", 7)
    assert (await document(battle))["turn"] == "enemy"
    # a member with Manage Channels is refused too, until they take the battle over (seen by all)
    await refused(battle, MOD, "fort next", "service.gm_only")
    took = await battle.run(MOD, "gm takeover")
    assert not took.response.ephemeral
    assert took.response.text() == t("gm.took_over", "ja", user=f"<@{MOD.id}>")
    result = await action(battle, MOD, "fort next", "/fort next", 9)
    summary = result.embeds[1]
    assert summary["title"] == "第1ラウンドのまとめ"
    assert summary["fields"] == [
        {"name": "砦", "value": "砦HP `[████████████████████]` 300/300", "inline": False}
    ]


async def test_fort_end_posts_the_final_summary_and_drops_the_buttons(battle: Harness) -> None:
    result = await action(battle, GM, "fort end", "/fort end outcome:retreat", 7, outcome="retreat")
    final = result.embeds[1]
    assert final["title"] == "戦闘の結果"
    assert final["color"] == 0x95A5A6
    assert final["fields"][0]["value"].split("\n")[1:] == [
        "**撤退**",
        "指揮官 隊長が健在: ボス戦は鼓咆の効果を受けた敵と始まります。",
    ]
    (edit,) = await battle.flush_live()
    assert edit.method == "PATCH" and edit.payload is not None and edit.payload["components"] == []
    assert edit.embeds[0]["title"] == "【北の砦】 第1/3ラウンド 戦闘終了 撤退"
    await refused(battle, GM, "fort next", "fort.battle_over")


async def test_fort_log(battle: Harness) -> None:
    result = await battle.run(BOB, "fort log", last=2)
    assert not result.ephemeral
    (embed,) = result.embeds
    assert embed["title"] == "直近 2件の記録:"
    lines = embed["description"].split("\n")
    assert (
        lines[0]
        == f"#5 <@{GM.id}>: /ユニット 追加 名前:兵士隊 タイプ:兵士 エリア:F0 hp:20 砦ダメージ:0 打撃点:2d"
    )
    assert lines[-2] == f"#6 <@{GM.id}>: /指揮官 追加 名前:隊長 hp:40 エリア:A2"
    assert lines[-1] == "　" + (await logged_lines(battle))[0]


async def test_fort_export_and_import(battle: Harness) -> None:
    result = await battle.run(BOB, "fort export")
    assert not result.ephemeral
    ((filename, content),) = result.response.files
    assert filename == f"fort-{CHANNEL_ID}-1.json"
    assert result.embeds[0]["description"] == f"戦闘をfort-{CHANNEL_ID}-1.jsonに書き出しました。"
    exported = json.loads(content)
    assert exported["format"] == "toride.fort/1" and exported["title"] == "北の砦"
    await refused(battle, GM, "fort import", "service.battle_running", file=Attachment("b.json", content))
    await action(battle, GM, "fort end", "/fort end", 7)
    await action(battle, GM, "fort import", "/fort import file:b.json", 1, file=Attachment("b.json", content))
    assert (await document(battle))["units"] == exported["units"]
    await action(battle, GM, "fort end", "/fort end", 2)
    not_json = Attachment("x.json", b"{not json")
    bad = await refused(battle, GM, "fort import", "command.bad_json", file=not_json)
    assert bad.embeds[0]["description"] == (
        "⚠ 「ファイル:」のJSONが読めません(1行目 2文字目で書き方が崩れています)。"
        "/砦 書き出し か /千幻抄 書き出し で書き出したファイルを指定してください。"
    )
    listed = await refused(
        battle, ALICE, "fort import", "command.json_not_object", "en", file=Attachment("x.json", b"[1, 2]")
    )
    assert listed.embeds[0]["description"] == (
        "⚠ The JSON of file: is not a battle (a JSON object). "
        "Give a file written by /fort export or /sg export."
    )
    await refused(
        battle, GM, "fort import", "service.import_no_format", file=Attachment("x.json", b'{"rounds": 3}')
    )
    await refused(
        battle, GM, "fort import", "discord.file_not_text", file=Attachment("x.json", b"\xff\xfe\x00")
    )
    await refused(
        battle, GM, "fort import", "discord.file_too_large", file=Attachment("x.json", b" " * 1_000_001)
    )


async def test_fort_repair_heal_siege(battle: Harness) -> None:
    await action(battle, GM, "fort siege", "/fort siege effect:fixed amount:40", 7, effect="fixed", amount=40)
    await action(battle, ALICE, "fort repair", "/fort repair", 8, "en")
    await refused(battle, ALICE, "fort repair", "fort.repair_used", "en")
    await action(battle, BOB, "fort heal", "/fort heal amount:12", 9, amount=12)
    assert (await document(battle))["fort"] == {"hp": 275, "max_hp": 300, "repaired_round": 1}
    await refused(battle, ALICE, "fort siege", "service.gm_only", "en", effect="titanfoot")


# --- PCs, units, commanders -------------------------------------------------------------------


async def test_pc_commands(battle: Harness) -> None:
    await action(
        battle,
        ALICE,
        "pc move",
        "/pc move name:Alice position:inside",
        7,
        "en",
        name="Alice",
        position="inside",
    )
    await action(battle, ALICE, "pc hp", "/pc hp name:Alice delta:-5", 8, "en", name="Alice", delta=-5)
    await refused(battle, BOB, "pc hp", "service.not_your_pc", name="Alice", set=1)
    await refused(battle, BOB, "pc add", "service.owner_gm_only", name="Carol", owner=ALICE)
    carol = await action(
        battle, GM, "pc add", f"/pc add name:Carol owner:<@{ALICE.id}>", 9, name="Carol", owner=ALICE
    )
    # the owner is a mention (an embed shows it as the member's name), not a bare Discord id
    assert carol.embeds[0]["description"] == (f"PC Carolが参加しました(持ち主 <@{ALICE.id}>、位置 砦上部)。")
    await action(battle, BOB, "pc remove", "/pc remove name:Bob", 10, name="Bob")
    pcs = {p["name"]: p for p in (await document(battle))["pcs"]}  # type: ignore[attr-defined]
    assert set(pcs) == {"Alice", "Carol"}
    assert (pcs["Alice"]["position"], pcs["Alice"]["hp"], pcs["Carol"]["owner"]) == (
        "inside",
        25,
        str(ALICE.id),
    )


async def test_unit_commands(battle: Harness, dice: Dice) -> None:
    await refused(
        battle, BOB, "unit add", "service.gm_only", name="X", type="normal", area="A2", hp=1, fort_damage=1
    )
    await action(battle, GM, "unit hp", "/unit hp unit:ゴブリン隊 delta:-4", 7, unit="ゴブリン隊", delta=-4)
    await refused(
        battle, BOB, "unit attack", "service.enemy_unit_gm_only", attacker="ゴブリン隊", target="兵士隊"
    )
    await action(battle, GM, "fort next", "/fort next", 8)
    await action(battle, GM, "unit move", "/unit move unit:ゴブリン隊 to:F0", 9, unit="ゴブリン隊", to="F0")
    await action(
        battle,
        GM,
        "unit add",
        "/unit add name:狼 type:normal area:B2 hp:10 fort_damage:3",
        10,
        name="狼",
        type="normal",
        area="B2",
        hp=10,
        fort_damage=3,
    )
    await action(battle, GM, "unit advance", "/unit advance unit:狼", 11, unit="狼")
    await action(battle, GM, "unit remove", "/unit remove unit:狼", 12, unit="狼")
    dice.feed(*([3] * 12))
    await action(battle, GM, "unit barrage", "/unit barrage unit:ゴブリン隊", 13, unit="ゴブリン隊")
    # F-TURN-3: a player's soldier acts in the PC side's turn; F-MAP-4: it melees from outside
    args = {"attacker": "兵士隊", "target": "ゴブリン隊", "hit": True}
    await refused(battle, BOB, "unit attack", "fort.not_your_turn", **args)  # type: ignore[arg-type]
    await action(battle, GM, "fort next", "/fort next", 14)
    await action(
        battle,
        GM,
        "unit move",
        "/unit move unit:兵士隊 to:F0 position:outside",
        15,
        unit="兵士隊",
        to="F0",
        position="outside",
    )
    dice.feed(5, 5)
    await action(
        battle,
        BOB,
        "unit attack",
        "/unit attack attacker:兵士隊 target:ゴブリン隊 hit:true",
        16,
        **args,  # type: ignore[arg-type]
    )
    units = {u["name"]: u for u in (await document(battle))["units"]}  # type: ignore[attr-defined]
    assert set(units) == {"ゴブリン隊", "兵士隊"}
    assert units["ゴブリン隊"]["area"] == "F0"


async def test_commander_commands(battle: Harness) -> None:
    await refused(battle, BOB, "commander add", "service.gm_only", name="副長", hp=10)
    await action(battle, BOB, "commander hp", "/commander hp name:隊長 delta:-40", 7, name="隊長", delta=-40)
    assert (await document(battle))["commanders"][0]["hp"] == 0  # type: ignore[index]


# --- attacks, traps, equipment ----------------------------------------------------------------


async def test_attacks(battle: Harness, dice: Dice) -> None:
    await action(
        battle,
        ALICE,
        "attack single",
        "/attack single unit:ゴブリン隊 bodies:2",
        7,
        "en",
        unit="ゴブリン隊",
        bodies=2,
    )
    dice.feed(4, 4)
    await action(
        battle,
        ALICE,
        "attack area",
        "/attack area unit:ゴブリン隊 damage:2d+5 radius:3 kind:magic",
        8,
        "en",
        unit="ゴブリン隊",
        damage="2d+5",
        radius=3,
        kind="magic",
    )
    await action(
        battle,
        BOB,
        "attack pierce",
        "/attack pierce from:F0 to:A2 damage:10 kind:fixed",
        9,
        **{"from": "F0", "to": "A2", "damage": "10", "kind": "fixed"},
    )
    await refused(battle, BOB, "attack single", "fort.actor_unknown", unit="ゴブリン隊", bodies=1, by="Z9")
    units = {u["name"]: u for u in (await document(battle))["units"]}  # type: ignore[attr-defined]
    assert units["ゴブリン隊"]["hp"] == 40 - 10 - 13 - 5


async def test_traps(battle: Harness) -> None:
    await action(
        battle, BOB, "trap set", "/trap set kind:mine edge:F0-A1 uses:2", 7, kind="mine", edge="F0-A1", uses=2
    )
    assert (await document(battle))["traps"] == [{"kind": "mine", "edge": "A1-F0", "uses": 2}]
    await refused(battle, BOB, "trap set", "fort.edge_not_adjacent", kind="mine", edge="A2-F0", uses=1)
    await action(
        battle, BOB, "trap remove", "/trap remove kind:mine edge:A1-F0", 8, kind="mine", edge="A1-F0"
    )
    assert (await document(battle))["traps"] == []


async def test_cannon_and_ballista(battle: Harness, dice: Dice) -> None:
    dice.feed(6, 6)
    await action(battle, ALICE, "cannon load", "/cannon load cannon:1", 7, "en", cannon=1)
    dice.feed(3, 4)
    await action(
        battle,
        ALICE,
        "cannon fire",
        "/cannon fire cannon:1 unit:ゴブリン隊",
        8,
        "en",
        cannon=1,
        unit="ゴブリン隊",
    )
    await refused(battle, BOB, "cannon load", "fort.equipment_not_at_top", cannon=1, check=12)
    await action(battle, ALICE, "ballista load", "/ballista load", 9, "en")
    dice.feed(2, 3)
    await action(
        battle,
        ALICE,
        "ballista fire",
        "/ballista fire unit:ゴブリン隊 hit:true",
        10,
        "en",
        unit="ゴブリン隊",
        hit=True,
    )
    doc = await document(battle)
    assert doc["cannons"] == [{"shells": 0}]
    assert doc["ballista"]["loaded"] is False  # type: ignore[index]


# --- GM ---------------------------------------------------------------------------------------


async def test_gm_set_undo_redo(battle: Harness) -> None:
    await action(battle, GM, "gm set", "/gm set target:fort.hp value:250", 7, target="fort.hp", value="250")
    await refused(battle, BOB, "gm set", "service.gm_only", target="fort.hp", value="1")
    result = await battle.run(GM, "gm undo")
    assert not result.ephemeral
    (embed,) = result.embeds
    assert embed["title"] == "1件の操作を取り消しました。"
    assert embed["description"] == f"#7 <@{GM.id}>: /gm 上書き 対象:fort.hp 値:250"
    assert (await document(battle))["fort"]["hp"] == 300  # type: ignore[index]
    result = await battle.run(GM, "gm redo", steps=1)
    assert result.embeds[0]["title"] == "1件の操作をやり直しました。"
    assert result.embeds[0]["description"] == f"#7 <@{GM.id}>: /gm 上書き 対象:fort.hp 値:250"
    assert (await document(battle))["fort"]["hp"] == 250  # type: ignore[index]
    await refused(battle, ALICE, "gm undo", "service.gm_only", "en")
    assert len(await battle.flush_live()) == 1  # the three changes, one coalesced edit


async def test_undo_further_than_there_is_says_how_far_it_went(battle: Harness) -> None:
    result = await battle.run(GM, "gm undo", steps=50)
    (embed,) = result.embeds
    assert embed["title"] == (
        "5件の操作を取り消しました"
        "(回数:50のうち、取り消せるのはここまでです。戦闘の開始は取り消せません)。"
    )
    assert embed["description"].splitlines()[0] == (f"#6 <@{GM.id}>: /指揮官 追加 名前:隊長 hp:40 エリア:A2")
    refused_again = await refused(battle, GM, "gm undo", "service.nothing_to_undo")
    (nothing,) = refused_again.embeds
    assert nothing["description"] == "⚠ 取り消せる操作がありません(戦闘の開始は取り消せません)。"
    gm_in_english = Member(GM.id, GM.name, locale="en-US")
    redone = await battle.run(gm_in_english, "gm redo", steps=9)
    assert redone.embeds[0]["title"] == "Put back 5 actions: of steps:9, that is all there was."


async def test_gm_add_and_remove(battle: Harness) -> None:
    await refused(battle, BOB, "fort next", "service.gm_only")
    result = await battle.run(GM, "gm add", user=BOB)
    assert not result.ephemeral
    assert result.embeds[0]["description"] == f"<@{BOB.id}>を共同GMにしました。"
    assert result.response.data["allowed_mentions"] == NONE
    await refused(battle, GM, "gm add", "gm.already", user=BOB)
    await action(battle, BOB, "fort next", "/fort next", 7)
    result = await battle.run(ALICE, "gm remove", user=BOB)
    assert result.ephemeral
    result = await battle.run(GM, "gm remove", user=BOB)
    assert result.embeds[0]["description"] == f"<@{BOB.id}>を共同GMから外しました。"
    await refused(battle, BOB, "fort next", "service.gm_only")


async def test_a_collapse_is_dark_red(battle: Harness) -> None:
    result = await action(
        battle, GM, "fort siege", "/fort siege effect:fixed amount:300", 7, effect="fixed", amount=300
    )
    final = result.embeds[-1]
    assert final["title"] == "戦闘の結果" and final["color"] == 0x7B1E1E
    assert "**砦崩壊(防衛失敗)**" in final["fields"][0]["value"]
    (edit,) = await battle.flush_live()
    assert (
        edit.embeds[0]["color"] == 0x7B1E1E and edit.payload is not None and edit.payload["components"] == []
    )


async def test_fort_hp_colours(battle: Harness) -> None:
    colours = []
    for amount in (100, 60, 80, 40):  # 200, 140, 60, 20 of 300
        await battle.run(GM, "fort siege", effect="fixed", amount=amount)
        colours.append((await battle.run(BOB, "fort status")).embeds[0]["color"])
    assert colours == [0x2ECC71, 0xF1C40F, 0xE67E22, 0xE74C3C]
