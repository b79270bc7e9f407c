"""Sheets and palettes through Discord: a sheet as an attachment or a URL, palette lines offered by
autocomplete, a palette roll's embed (expanded command beside BCDice's text), a secret roll, and the
ココフォリア file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from discord_harness import ALICE, BOB, CHANNEL_ID, GM, Attachment, Dice, Harness

from bot.i18n import t

# the sheet fixtures and the local HTTPS server live with the sheet tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sheets"))
from sheet_fixtures import fixture_text
from sheet_server import sheet_server


def sheet(name: str) -> Attachment:
    return Attachment(f"{name}.json", fixture_text(name).encode("utf-8"))


async def started(h: Harness) -> None:
    await h.run(GM, "fort start", rounds=3)
    added = await h.run(ALICE, "pc add", file=sheet("fighter"))
    assert not added.ephemeral, added.text()


async def test_a_sheet_as_an_attachment_and_the_palette_rolled(harness: Harness, dice: Dice) -> None:
    h = harness
    await started(h)
    status = json.dumps((await h.run(GM, "fort status")).embeds[0], ensure_ascii=False)
    assert "ガルド HP 35/35 MP 12/12 防護8 回避7" in status  # GM reads Japanese, Alice English
    status = json.dumps((await h.run(ALICE, "fort status")).embeds[0], ensure_ascii=False)
    assert "ガルド HP 35/35 MP 12/12 def 8 eva 7" in status
    # autocomplete offers the palette's labels (a part typed narrows them): ytsheet's palette
    assert await h.complete(ALICE, "pc roll", "line", name="ガルド", line="") == [
        "冒険者＋器用",
        "冒険者＋敏捷",
        "冒険者＋筋力",
        "冒険者＋知力",
        "スカウト技巧",
        "スカウト運動",
        "スカウト観察",
        "[宣]《全力攻撃Ⅰ》",
        "命中力／バスタードソード1H",
        "ダメージ／バスタードソード1H",
        "命中力／バスタードソード2H",
        "ダメージ／バスタードソード2H",
        "生命抵抗力",
        "精神抵抗力",
        "回避力",
    ]
    assert await h.complete(ALICE, "pc roll", "line", name="ガルド", line="2h") == [
        "命中力／バスタードソード2H",
        "ダメージ／バスタードソード2H",
    ]
    assert await h.complete(ALICE, "pc roll", "line", name="誰か", line="") == []
    dice.feed(3, 4)
    rolled = await h.run(ALICE, "pc roll", name="ガルド", line="命中力／バスタードソード1H")
    assert not rolled.ephemeral
    (embed,) = rolled.embeds
    assert embed["title"] == "ガルド: 命中力／バスタードソード1H"
    assert embed["description"] == (
        "`2d+(5+(16+0)/6+0)+0`\n(2D6+(5+(16+0)/6+0)+0) ＞ 7[3,4]+(5+(16+0)/6+0)+0 ＞ 14"
    )
    assert embed["author"] == {"name": "Alice"}


async def test_a_secret_roll_and_refusals(harness: Harness, dice: Dice) -> None:
    h = harness
    await started(h)
    dice.feed(6, 6, 2, 2)
    rolled = await h.run(ALICE, "pc roll", name="ガルド", line="10", secret=True)
    assert rolled.ephemeral
    text, kept = rolled.embeds[0]["description"].rsplit("\n", 1)
    assert text.endswith("＞ 2D:[6,6 2,2]=12,4 ＞ 8,2+10 ＞ 1回転 ＞ 20")
    assert kept == t("roll.secret_kept", "en", number=1)
    (notice,) = rolled.followups
    assert notice.embeds[0]["description"] == "Alice made a secret roll from ガルド's palette."
    refused = await h.run(BOB, "pc roll", name="ガルド", line="1")
    assert refused.ephemeral
    not_yours = "⚠ ガルドは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。"
    assert refused.embeds[0]["description"] == not_yours


async def test_a_palette_from_a_file_and_shown(harness: Harness, dice: Dice) -> None:
    h = harness
    await started(h)
    palette = Attachment("palette.txt", "//a=2\n2d+{a}+{命中1} 命中\n".encode())
    set_ = await h.run(ALICE, "pc palette", name="ガルド", file=palette)
    assert not set_.ephemeral, set_.text()
    shown = await h.run(ALICE, "pc palette", name="ガルド")
    assert shown.ephemeral
    assert shown.embeds[0]["title"] == "ガルド's chat palette (its own, palette lines: 1):"
    dice.feed(1, 1)
    rolled = await h.run(ALICE, "pc roll", name="ガルド", line="命中")
    # its own palette instead of ytsheet's (exchange), with the definitions it uses from the sheet
    assert rolled.embeds[0]["description"] == (
        "`2d+2+(5+(16+0)/6+0)`\n(2D6+2+(5+(16+0)/6+0)) ＞ 2[1,1]+2+(5+(16+0)/6+0) ＞ 11"
    )


async def test_a_sheet_by_url(harness: Harness) -> None:
    h = harness
    await h.run(GM, "fort start", rounds=3)
    await h.run(GM, "pc add", name="ガルド")
    async with sheet_server() as server:
        h.bot.frontend.fetch_policy = server.policy
        read = await h.run(GM, "pc sheet", name="ガルド", sheet=server.url("/ytsheet/sw2.5/?id=fighter"))
        assert not read.ephemeral, read.text()
        assert "ガルドのシートを読みました: HP 35/35" in read.embeds[0]["description"]
        refused = await h.run(GM, "pc sheet", name="ガルド", sheet=server.url("/elsewhere"))
        assert refused.ephemeral
        assert refused.embeds[0]["description"] == (
            "⚠ シートのURLが別のサイト 127.0.0.1へ転送されたので読みませんでした。読めるサイト: localhost"
        )


async def test_the_ccfolia_export_is_a_file_with_how_to_paste(harness: Harness) -> None:
    h = harness
    await started(h)
    goblins = {"name": "ゴブリン隊", "type": "normal", "area": "A1", "hp": 20, "fort_damage": 5}
    await h.run(GM, "unit add", strike="2d+3", **goblins)
    await h.run(GM, "commander add", name="隊長", hp=40)
    result = await h.run(BOB, "fort export", format="ccfolia")
    assert not result.ephemeral
    ((filename, content),) = result.response.files
    assert filename == f"fort-{CHANNEL_ID}-1-ccfolia.txt"
    assert result.embeds[0]["description"] == (
        f"{filename}: ココフォリアのキャラクターです(1行に1体)。ファイルを開き、1行ずつコピーして"
        "ココフォリアの部屋の盤面に貼り付けてください(Ctrl+V / ⌘V)。"
    ).replace("_", "\\_")
    lines = content.decode("utf-8").split("\n")
    assert [json.loads(line)["data"]["name"] for line in lines] == ["ガルド", "ゴブリン隊", "隊長"]
    assert all(json.loads(line)["kind"] == "character" for line in lines)
