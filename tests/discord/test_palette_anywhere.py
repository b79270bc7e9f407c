"""Issue 35, item 4: palettes anywhere (COMMANDS.md, ``/palette``), through Discord's payloads.

A player registers a ゆとシートⅡ sheet as ytsheet2 serves it (a URL on the local HTTPS stand-in, or a
file), rolls its lines in any channel of the server with ``/パレット``, autocompleted in the sheet's
order; in a battle's channel their own PC's palette comes first; chat dice fill a pasted line's
``{変数}`` from the registered sheet; a secret line is kept for the GM."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from chat_payloads import chat_message
from discord_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GM,
    MEMBER_PERMISSIONS,
    Attachment,
    Dice,
    Harness,
    Member,
    Request,
)

from bot.i18n import t

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sheets"))
from sheet_fixtures import fixture_text
from sheet_server import sheet_server

OTHER_CHANNEL = CHANNEL_ID + 11
ADMIN = Member(400000000000000051, "Admin", permissions=MEMBER_PERMISSIONS | (1 << 5))
#: ytsheet2's own palette for ガルド (fighter.palette.bcdice.txt): its lines in the sheet's order
GARD_LINES = [
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


def sheet(name: str) -> Attachment:
    return Attachment(f"{name}.json", fixture_text(name).encode("utf-8"))


async def test_a_sheet_registered_by_url_is_rolled_in_any_channel(harness: Harness, dice: Dice) -> None:
    h = harness
    async with sheet_server() as server:
        h.bot.frontend.fetch_policy = server.policy
        done = await h.run(BOB, "palette", line="登録", sheet=server.url("/ytsheet/sw2.5/?id=fighter"))
    assert done.response.ephemeral
    assert done.response.text() == t("palette.registered", "ja", name="ガルド", lines=15)
    # in Discord's autocomplete: the lines in the sheet's order, and narrowed by what is typed
    assert await h.complete(BOB, "palette", "line", line="") == GARD_LINES
    assert await h.complete(BOB, "palette", "line", line="2h") == GARD_LINES[10:12]
    assert await h.complete(BOB, "palette", "name", name="") == ["ガルド"]
    dice.feed(3, 4)
    rolled = await h.run(BOB, "palette", channel_id=OTHER_CHANNEL, line="命中力／バスタードソード1H")
    assert not rolled.response.ephemeral
    (embed,) = rolled.response.embeds
    assert embed["title"] == "ガルド: 命中力／バスタードソード1H"
    assert embed["description"] == (
        "`2d+(5+(16+0)/6+0)+0`\n(2D6+(5+(16+0)/6+0)+0) ＞ 7[3,4]+(5+(16+0)/6+0)+0 ＞ 14"
    )
    # another player has none of it
    none = await h.run(ALICE, "palette", line="1")
    assert none.response.ephemeral
    assert none.response.text() == "⚠ " + t("palette.none_of_yours", "en")


async def test_in_a_battle_the_players_own_pc_comes_first(harness: Harness, dice: Dice) -> None:
    h = harness
    registered = await h.run(ALICE, "palette", line="register", file=sheet("caster"))
    assert registered.response.text() == t("palette.registered", "en", name="蒼月", lines=21)
    await h.run(GM, "fort start", rounds=3)
    added = await h.run(ALICE, "pc add", file=sheet("fighter"))  # Alice's own PC, ガルド
    assert not added.response.ephemeral, added.text()
    assert await h.complete(ALICE, "palette", "name", name="") == ["ガルド", "蒼月"]
    dice.feed(6, 6)
    rolled = await h.run(ALICE, "palette", line="1")
    assert rolled.response.embeds[0]["title"] == "ガルド: 冒険者＋器用"
    dice.feed(1, 2)
    other = await h.run(ALICE, "palette", line="1", name="蒼月")
    assert other.response.embeds[0]["title"] == "蒼月: 冒険者＋器用"
    # in another channel, with two registered sheets and no battle, Alice says which
    await h.run(ALICE, "palette", line="register", file=sheet("fighter_custom"))
    which = await h.run(ALICE, "palette", channel_id=OTHER_CHANNEL, line="1")
    assert which.response.ephemeral
    assert which.response.text().startswith("⚠ You have several palettes: ")


async def test_forget_and_refusals_in_words(harness: Harness) -> None:
    h = harness
    await h.run(BOB, "palette", line="登録", file=sheet("fighter"))
    cases = [
        ({"line": "登録"}, t("palette.register_where", "ja")),
        ({"line": "1", "file": sheet("fighter")}, t("palette.sheet_without_register", "ja")),
        ({"line": "登録", "file": sheet("monster")}, t("sheet.monster_for_pc", "ja", name="グリフォン")),
        ({"line": "登録解除", "name": "ミナ"}, None),
        ({"line": "なにか"}, t("palette.line_unknown", "ja", line="なにか", count=15)),
    ]
    for options, said in cases:
        result = await h.run(BOB, "palette", **options)
        assert result.response.ephemeral, options
        if said is not None:
            assert result.response.text() == "⚠ " + said, (options, result.text())
    assert "ガルド" in (await h.run(BOB, "palette", line="登録解除", name="ミナ")).response.text()
    gone = await h.run(BOB, "palette", line="登録解除", name="ガルド")
    assert gone.response.text() == t("palette.forgotten", "ja", name="ガルド")
    assert (await h.run(BOB, "palette", line="1")).response.text() == "⚠ " + t("palette.none_of_yours", "ja")


async def post(h: Harness, text: str, member: Member = BOB) -> list[Request]:
    start = len(h.recorder.requests)
    before = asyncio.all_tasks()
    h.bot._connection.parse_message_create(chat_message(member, text, h.guild_id, CHANNEL_ID))  # type: ignore[arg-type]
    await h.settle(before)
    return [r for r in h.recorder.requests[start:] if r.path == f"/channels/{CHANNEL_ID}/messages"]


async def test_chat_dice_fill_a_pasted_lines_variables_from_the_registered_sheet(
    storage: object, dice: Dice
) -> None:
    from bot.service import BattleService

    h = await Harness.create(BattleService(storage, dice), defer_after=None, chat_dice=True)  # type: ignore[arg-type]
    try:
        assert not (await h.run(ADMIN, "settings", chat_dice=True)).response.ephemeral
        # not registered yet: a line with variables is no dice command, and nothing is answered
        assert await post(h, "2d+{冒険者}+{器用B} 隠密") == []
        await h.run(BOB, "palette", line="登録", file=sheet("fighter"))
        dice.feed(2, 5)
        (reply,) = await post(h, "2d+{冒険者}+{器用B} 隠密")
        # {器用B} as the palette defines it (//器用B=((16+0)/6)), as ココフォリア fills it in
        assert "(2D6+5+((16+0)/6)) ＞ 7[2,5]+5+((16+0)/6) ＞ 14" in reply.text()
        assert reply.data["message_reference"]["message_id"]
        # a name the sheet lacks stays as written: no command, no answer
        assert await post(h, "2d+{ないもの} 隠密") == []
        # another user's message is not filled from ボブ's sheet
        assert await post(h, "2d+{冒険者}", member=ALICE) == []
    finally:
        await h.bot.coalescer.close()


async def test_a_secret_palette_line_is_kept_for_the_gm(harness: Harness, dice: Dice) -> None:
    h = harness
    await h.run(GM, "fort start", rounds=3)
    await h.run(BOB, "palette", line="登録", file=sheet("fighter"))
    dice.feed(4, 4)
    rolled = await h.run(BOB, "palette", line="回避力", secret=True)
    assert rolled.response.ephemeral
    (note,) = rolled.followups
    assert note.text() == t("palette.secret_notice", "ja", actor="ボブ", pc="ガルド")
    listed = await h.run(GM, "roll", expr="秘密一覧")
    assert "ガルド「回避力」" in listed.response.text() and "＞ 8[4,4]" in listed.response.text()
