"""Each user reads the bot in their client's language; others get the guild's (Japanese by default)."""

from __future__ import annotations

from discord_harness import ALICE, BOB, GM, GUILD_ID, Dice, Harness, Member

from bot.i18n import t
from bot.i18n.names import CommandName

#: the GM of the battles these tests start, as a refusal names them
GM_MENTION = "<@400000000000000001>"


def header(lang: str, round_: int, rounds: int) -> str:
    return t(
        "fort.status.header",
        lang,
        title=t("fort.status.untitled", lang),
        round=round_,
        rounds=rounds,
        turn=t("fort.status.turn.pc", lang),
    )


async def test_a_japanese_and_an_english_user_each_get_their_language(harness: Harness, dice: Dice) -> None:
    await harness.run(GM, "fort start", rounds=2)
    ja = await harness.run(BOB, "fort next")
    en = await harness.run(ALICE, "fort next")
    assert ja.embeds[0]["description"] == "⚠ " + t(
        "service.gm_only", "ja", command=CommandName("fort next"), gms=GM_MENTION
    )
    assert "はGMだけが使えます(この戦闘のGM: <@400000000000000001>)。" in ja.embeds[0]["description"]
    assert en.embeds[0]["description"] == "⚠ " + t(
        "service.gm_only", "en", command=CommandName("fort next"), gms=GM_MENTION
    )
    assert "for the GMs only" in en.embeds[0]["description"]
    assert (await harness.run(BOB, "fort status")).embeds[0][
        "title"
    ] == "【砦防衛戦】 第1/2ラウンド PC側の手番"
    assert (await harness.run(ALICE, "fort status")).embeds[0]["title"] == header("en", 1, 2)
    dice.feed(1, 2, 3, 4)
    assert (await harness.run(BOB, "roll", expr="2d6")).embeds[0]["title"] == "🎲 ダイス"
    assert (await harness.run(ALICE, "roll", expr="2d6")).embeds[0]["title"] == "🎲 Roll"


async def test_other_locales_read_the_guild_language(harness: Harness) -> None:
    french = Member(400000000000000009, "Amélie", locale="fr")
    result = await harness.run(french, "fort status")
    assert result.embeds[0]["description"] == "⚠ " + t("service.no_battle", "ja")
    assert "戦闘" in result.embeds[0]["description"]
    await harness.bot.service.set_language(str(GUILD_ID), "en")
    result = await harness.run(french, "fort status")
    assert result.embeds[0]["description"] == "⚠ " + t("service.no_battle", "en")
    assert "battle" in result.embeds[0]["description"]
    # the status message follows the guild's language too
    start = await harness.run(GM, "fort start", rounds=1)
    assert start.embeds[0]["footer"] == {"text": "#1"}
    (post,) = start.channel
    assert post.embeds[0]["title"] == header("en", 1, 1)
    assert [b["label"] for b in post.payload["components"][0]["components"]] == [
        "Next ▶",
        "Undo",
        "Refresh",
    ]  # type: ignore[index]
