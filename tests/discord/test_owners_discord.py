"""Issue 34, item 4, in Discord: a battle imported from a file gives each PC to its player (a user id,
or a name as the prep page saves one, matched to the member's username or display name: the bot has
no member list to look it up by), another member is refused in words and only they see it, and
``/pc claim`` is answered in the channel, its player shown as a mention."""

from __future__ import annotations

import json

from discord_harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Attachment, Harness

from bot.service import Where

WHERE = Where(str(GUILD_ID), str(CHANNEL_ID))
DOC = {
    "format": "toride.fort/1",
    "rounds": 3,
    "pcs": [
        {"name": "Alice", "area": "F0", "position": "top", "hp": 30, "owner": str(ALICE.id)},
        {"name": "ボブ丸", "area": "F0", "position": "top", "hp": 25, "owner": BOB.name},
        {"name": "ボス", "area": "F0", "position": "inside", "hp": 50, "owner": "GM"},
        {"name": "ノラ", "area": "F0", "position": "outside", "hp": 20},
    ],
}


def refusal(result: object) -> str:
    response = result.response  # type: ignore[attr-defined]
    assert response.type == 4 and response.ephemeral
    (embed,) = response.embeds
    return str(embed["description"])


def public(result: object) -> str:
    response = result.response  # type: ignore[attr-defined]
    assert response.type == 4 and not response.ephemeral
    return str(response.embeds[0]["description"])


async def test_imported_owners_claims_and_refusals_in_discord(harness: Harness) -> None:
    file = Attachment("fort.json", json.dumps(DOC, ensure_ascii=False).encode())
    assert public(await harness.run(GM, "fort import", file=file)) == "戦闘を読み込みました(toride.fort/1)。"
    view = await harness.bot.service.status(WHERE)
    assert view is not None
    assert [p["owner"] for p in view.document["pcs"]] == [str(ALICE.id), "ボブ", "GM", None]
    # Bob's client is Japanese, Alice's English
    assert refusal(await harness.run(BOB, "pc hp", name="Alice", delta=-5)) == (
        "⚠ Aliceは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。"
    )
    assert public(await harness.run(BOB, "pc hp", name="ボブ丸", delta=-5)) == "ボブ丸のHP: 25→20。"
    assert refusal(await harness.run(ALICE, "pc remove", name="ボブ丸")) == (
        "⚠ ボブ丸 is another player's PC. Only its owner or a GM may run it."
    )
    assert refusal(await harness.run(ALICE, "pc hp", name="ボス", delta=-1)) == (
        "⚠ ボス is the GM's character. Only a GM may run it."
    )
    assert public(await harness.run(ALICE, "pc hp", name="Alice", delta=-5)) == "Alice's HP: 30 → 25."
    # the claim is the channel's to see; a second one names the owner as a mention (no ping in an embed)
    assert public(await harness.run(ALICE, "pc claim", name="ノラ")) == f"<@{ALICE.id}> claims PC ノラ."
    assert refusal(await harness.run(BOB, "pc claim", name="ノラ")) == (
        f"⚠ PC ノラはすでに<@{ALICE.id}>のPCです。持ち主を変えられるのはGMだけです(/gm 上書き)。"
    )
    assert refusal(await harness.run(BOB, "pc claim", name="ボブ丸")) == (
        "⚠ PC ボブ丸はすでにボブのPCです。持ち主を変えられるのはGMだけです(/gm 上書き)。"
    )
