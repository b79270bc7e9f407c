"""``/unit list`` and ``/unit advance preview:true`` as Discord slash commands: the Japanese names Discord
shows, the roster's embed, a preview that writes nothing."""

from __future__ import annotations

from discord_harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Harness

from bot.discord.text import md
from bot.discord.translator import CatalogueTranslator
from bot.service import Actor, Invocation, Where
from bot.views import LogView

WHERE = Where(str(GUILD_ID), str(CHANNEL_ID))


async def _log(h: Harness) -> list[int]:
    view = await h.bot.service.execute(WHERE, Actor(str(GM.id)), Invocation("fort log", {"last": 50}))
    assert isinstance(view, LogView)
    return [entry.seq for entry in view.entries]


async def _battle(h: Harness, *, fallen: bool = False) -> None:
    steps: tuple[tuple[str, dict[str, object]], ...] = (
        ("fort start", {"rounds": 2}),
        ("unit add", {"name": "ゴブリン", "type": "normal", "area": "A1", "hp": 20, "fort_damage": 10}),
        (
            "unit add",
            {"name": "増援", "type": "normal", "area": "B2", "hp": 9, "fort_damage": 2, "arrive_round": 2},
        ),
        ("commander add", {"name": "隊長", "hp": 10, "area": "A2"}),
        *((("commander hp", {"name": "隊長", "delta": -12}),) if fallen else ()),
        ("fort next", {}),
    )
    for path, options in steps:
        result = await h.run(GM, path, **options)
        assert not result.ephemeral, result.text()


async def test_the_commands_carry_japanese_names(harness: Harness) -> None:
    tree = harness.bot.tree
    translator = tree.translator
    assert isinstance(translator, CatalogueTranslator)
    unit = tree.get_command("unit")
    assert unit is not None
    payload = await unit.get_translated_payload(tree, translator)
    subs = {o["name"]: o for o in payload["options"]}
    assert subs["list"]["name_localizations"] == {"ja": "一覧"}
    (area,) = subs["list"]["options"]
    assert area["name_localizations"] == {"ja": "エリア"}
    assert area["description_localizations"] == {"ja": "このエリアのユニットと指揮官だけ(A2 A1 F0 B1 B2)"}
    preview = next(o for o in subs["advance"]["options"] if o["name"] == "preview")
    assert preview["name_localizations"] == {"ja": "プレビュー"} and preview["type"] == 5  # a boolean


async def test_unit_list_shows_the_roster_to_anyone(harness: Harness) -> None:
    await _battle(harness, fallen=True)
    result = await harness.run(BOB, "unit list")
    assert not result.ephemeral
    assert result.embeds[0]["description"].splitlines() == [
        "ユニット一覧(第1/2ラウンド 敵側の手番)",
        "ゴブリン(通常・敵側) A1 HP 20/20",
        "　　砦ダメージ 10、防護点 0、移動 残り10m/10m",
        "　　この手番: まだ行動も移動もしていません",
        "増援(通常・敵側) 第2ラウンドにB2へ到着予定 HP 9/9",
        "　　砦ダメージ 2、防護点 0、移動 10m",
        "指揮官 隊長 A2 倒れています",
    ]


async def test_a_preview_writes_nothing(harness: Harness) -> None:
    await _battle(harness)
    before = await _log(harness)
    result = await harness.run(GM, "unit advance", preview=True)
    lines = result.embeds[0]["description"].splitlines()
    assert lines == [
        "自動前進のプレビュー(まだ何も変わっていません):",
        "　ゴブリンが移動: A1 → F0(10m)。",
        "　ゴブリンがF0に侵入: 砦に10ダメージ(HP 300→290)。",
        "　自動前進: 1体が移動(ゴブリン)。",
        "これは見込みです。地雷などのダイスは見本で、実際の /ユニット 前進 で改めて振ります。",
    ]
    assert await _log(harness) == before
    refused = await harness.run(BOB, "unit advance", preview=True)
    assert refused.ephemeral and "はGMだけが使えます(この戦闘のGM: <@400000000000000001>)。" in refused.text()


async def test_help_in_discord_in_the_users_language(harness: Harness) -> None:
    """``/help`` (``/ヘルプ``): every command with its description, for one group its options; only the
    asker sees it, and it needs no battle."""
    result = await harness.run(BOB, "help")
    assert result.ephemeral
    text = "\n".join(e["description"] for e in result.embeds)
    assert text.splitlines()[0].startswith("コマンド一覧([ ]は省略可)。")
    assert (
        "　/ユニット 一覧 — ユニットの一覧: HP、砦ダメージ、打撃点、防護点、残りの移動、"
        "この手番の行動、増援" in text
    )
    group = await harness.run(BOB, "help", command="砦")
    lines = "\n".join(e["description"] for e in group.embeds).splitlines()
    japanese = (
        "/砦 開始 ラウンド数:<1〜99> [砦hp:<整数>] [大砲の数:<0〜10>] "
        "[先攻:<PC側・敵側>] [タイトル:<テキスト>]"
    )
    assert japanese in lines
    group = await harness.run(ALICE, "help", command="fort")  # an English client
    lines = "\n".join(e["description"] for e in group.embeds).splitlines()
    # Discord''s markdown is escaped: fort_hp would otherwise start italics
    start = "/fort start rounds:<1-99> [fort_hp:<int>] [cannons:<0-10>] [first:<pc|enemy>] [title:<text>]"
    assert md(start) in lines and "fort\\_hp" in md(start)
    unknown = await harness.run(BOB, "help", command="zz")
    assert unknown.ephemeral and unknown.text().startswith("⚠ 「zz」というグループもコマンドもありません。")
