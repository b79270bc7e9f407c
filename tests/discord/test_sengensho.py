"""The second rule set (/sg) through Discord with no Discord code of its own beyond a small presenter."""

from __future__ import annotations

from discord_harness import ALICE, BOB, GM, Dice, Harness

from bot.discord.buttons import NEXT
from bot.i18n import t


async def test_a_sengensho_battle_through_discord(harness: Harness, dice: Dice) -> None:
    h = harness
    start = await h.run(GM, "sg start", title="千の夜")
    assert not start.ephemeral and start.embeds[0]["title"] == "/千幻抄 開始 タイトル:千の夜"
    (post,) = start.channel
    assert post.embeds[0]["title"].startswith("【千の夜】")
    joined = await h.run(
        ALICE, "sg join", name="Alice", body=3, endurance=3, intellect=3, sense=3, will=3, hp=20
    )
    assert not joined.ephemeral, joined.text()
    await h.run(GM, "sg join", name="*影*", side="enemy", hp=15, dp_max=12, recovery=3)
    assert await h.complete(BOB, "sg declare", "name", name="") == ["Alice", "*影*"]
    join = h._command("sg join")
    assert join.get_parameter("name").autocomplete is False  # type: ignore[union-attr]  # a new name
    # players cannot start a turn; the GM can, with the status message's button
    assert (await h.run(BOB, "sg turn")).ephemeral
    (edit,) = await h.flush_live()
    message_id = int(edit.path.rsplit("/", 1)[1])
    turn = await h.press(GM, NEXT, message_id)
    assert not turn.ephemeral and turn.embeds[0]["title"] == "/千幻抄 ターン"
    dice.feed(6, 5)
    rolled = await h.run(ALICE, "sg roll", name="Alice", base=5, dice=2, target=10)
    assert not rolled.ephemeral, rolled.text()
    status = await h.run(BOB, "sg status")
    (embed,) = status.embeds
    assert embed["title"].startswith("【千の夜】")
    assert "\\*影\\*" in embed["description"] and "*影*" not in embed["description"].replace("\\*", "")
    # the GM as a mention (an embed shows the member's name), not a bare Discord id
    assert embed["description"].splitlines()[-1] == f"GM: <@{GM.id}>"
    # a fort command in a 千幻抄 battle is refused, in the user's language
    refused = await h.run(ALICE, "fort next")
    assert refused.ephemeral
    assert refused.embeds[0]["description"] == "⚠ " + t(
        "service.wrong_ruleset", "en", command="/fort next", running="/sg"
    )
