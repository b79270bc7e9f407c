"""A whole fort battle played through Discord: commands, status buttons, live status, summaries."""

from __future__ import annotations

from discord_harness import ALICE, BOB, CHANNEL_ID, GM, Dice, Harness, Request

from bot.discord.buttons import NEXT, REFRESH, UNDO
from bot.service import Where
from bot.views import StatusView

WHERE = Where("100000000000000001", str(CHANNEL_ID))


async def fort(h: Harness) -> dict[str, int]:
    view = await h.bot.service.status(WHERE)
    assert isinstance(view, StatusView)
    return dict(view.document["fort"])


def titles(requests: list[Request]) -> list[str]:
    return [e.get("title", "") for r in requests for e in r.embeds]


async def test_a_whole_battle(harness: Harness, dice: Dice) -> None:
    h = harness
    start = await h.run(GM, "fort start", rounds=2, fort_hp=100, title="北の砦")
    (post,) = start.channel
    status_path = f"/channels/{CHANNEL_ID}/messages/"
    await h.run(ALICE, "pc add", name="Alice", position="top")
    await h.run(BOB, "pc add", name="Bob", position="outside")
    await h.run(
        GM, "unit add", name="ゴブリン隊", type="normal", area="A1", hp=30, fort_damage=10, strike="2d+3"
    )
    await h.run(GM, "unit add", name="狼", type="normal", area="B2", hp=10, fort_damage=5)
    await h.run(GM, "unit add", name="増援", type="flying", area="A2", hp=20, fort_damage=5, arrive_round=1)
    await h.run(GM, "commander add", name="隊長", hp=30, area="A2")
    await h.run(BOB, "trap set", kind="barricade", edge="F0-B1", uses=1)
    loaded = await h.run(ALICE, "cannon load", cannon=1, check=15)
    assert loaded.embeds[0].get("title") == "/cannon load cannon:1 check:15", loaded.text()
    dice.feed(4, 5)
    fired = await h.run(ALICE, "cannon fire", cannon=1, unit="ゴブリン隊")
    assert not fired.ephemeral
    destroyed = await h.run(BOB, "attack single", unit="狼", bodies=2)
    assert not destroyed.ephemeral

    # the first live edit: everything above in one edit
    (edit,) = await h.flush_live()
    assert edit.method == "PATCH" and edit.path.startswith(status_path)
    message_id = int(edit.path.rsplit("/", 1)[1])
    fields = {f["name"]: f["value"] for f in edit.embeds[0]["fields"]}
    assert fields["増援"] == "増援(第1ラウンド、A2)"
    assert fields["撃破"] == "狼"

    # a player may not end the turn, neither by command nor by button
    refused = await h.press(BOB, NEXT, message_id)
    assert refused.ephemeral and "はGMだけが使えます(この戦闘のGM: <@400000000000000001>)。" in refused.text()
    assert await h.flush_live() == []

    # the GM ends the PC turn with the button; the enemy moves; the GM ends the enemy turn
    pressed = await h.press(GM, NEXT, message_id)
    assert not pressed.ephemeral and pressed.embeds[0]["title"] == "/砦 次へ"
    moved = await h.run(GM, "unit move", unit="ゴブリン隊", to="F0")
    assert (await fort(h))["hp"] == 90
    round_end = await h.run(GM, "fort next")
    # the summary right after the round's end, the next round's first line after it
    assert titles([round_end.response]) == ["/砦 次へ", "第1ラウンドのまとめ", ""]
    assert round_end.embeds[0]["description"].splitlines()[-1].startswith("第1ラウンド終了時: 砦HP 90/100")
    assert round_end.embeds[2]["description"] == "第2ラウンド、PC側の手番です。"
    summary = round_end.embeds[1]
    assert summary["fields"] == [
        {"name": "砦", "value": "砦HP `[██████████████████░░]` 90/100", "inline": False}
    ]
    # every action of the round under its command, with who ran it
    text = summary["description"]
    assert "#3 <@" in text and ": /ユニット 移動 ユニット:ゴブリン隊 移動先:F0" in text
    for line in moved.embeds[0]["description"].splitlines():
        assert "　　" + line in summary["description"].splitlines()

    # undo the end of the round with the button, and redo it with the command
    undone = await h.press(GM, UNDO, message_id)
    assert undone.embeds[0]["title"] == "1件の操作を取り消しました。"
    assert (await h.bot.service.status(WHERE)).document["turn"] == "enemy"  # type: ignore[union-attr]
    redone = await h.run(GM, "gm redo")
    assert redone.embeds[0]["title"] == "1件の操作をやり直しました。"

    # refresh: the pressed message itself is updated (type 7), for anyone
    refreshed = await h.press(BOB, REFRESH, message_id)
    assert refreshed.response.type == 7
    assert refreshed.embeds[0]["title"] == "【北の砦】 第2/2ラウンド PC側の手番"
    assert [b["custom_id"] for b in refreshed.response.data["components"][0]["components"]] == [
        NEXT,
        UNDO,
        REFRESH,
    ]

    # round 2: a repair, the enemy turn (the goblins at F0 hit the fort), the end of the battle
    await h.run(ALICE, "fort repair")
    assert (await fort(h))["hp"] == 100
    await h.run(GM, "fort next")
    assert (await fort(h))["hp"] == 90
    final = await h.run(GM, "fort next")
    # the round summary after the round's end, the battle's end after it, then the final summary
    assert titles([final.response]) == ["/砦 次へ", "第2ラウンドのまとめ", "", "戦闘の結果"]
    assert final.embeds[2]["description"].splitlines()[-1].startswith("戦闘終了")
    result = final.embeds[3]
    hp = (await fort(h))["hp"]
    assert 0 < hp < 90
    fort_line, outcome = result["fields"][0]["value"].split("\n")[:2]
    assert fort_line.startswith("砦HP `[") and f"]` {hp}/100" in fort_line
    assert outcome == "**防衛成功**"

    # the live message: posted once, then only edited; the last edit shows the end without buttons
    edits = await h.flush_live()
    requests = list(h.channel_requests())
    assert requests[0] is post and all(r.method == "PATCH" for r in requests[1:])
    assert {r.path for r in requests[1:]} == {f"{status_path}{message_id}"}
    assert edits[-1].payload is not None and edits[-1].payload["components"] == []
    assert edits[-1].embeds[0]["title"] == "【北の砦】 第2/2ラウンド 戦闘終了 防衛成功"
    assert edits[-1].embeds[0]["color"] == 0x95A5A6

    # the finished battle stays readable; a new one gets a new status message
    assert not (await h.run(BOB, "fort status")).ephemeral
    assert (await h.run(BOB, "fort log", last=1)).embeds[0]["title"] == "直近 1件の記録:"
    again = await h.run(GM, "fort start", rounds=1)
    assert again.channel == []  # within 2 s of the last edit: it waits its turn
    assert [(r.method, r.path) for r in await h.flush_live()] == [
        ("POST", f"/channels/{CHANNEL_ID}/messages")
    ]
