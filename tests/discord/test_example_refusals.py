"""What running every example (tests/test_every_example.py) found refused in words a reader could not
use: a sheet given by name where Discord's ``sheet:`` takes a URL was called ``file:`` (in English, in a
Japanese reply), and ``/battle start from:fort`` in a channel that had no fort battle showed its message
key (B-VIEW-2)."""

from __future__ import annotations

from discord_harness import ALICE, GM, Dice, Harness


async def test_a_sheet_that_is_no_url_is_named_as_the_option_it_was_given_by(harness: Harness) -> None:
    assert not (await harness.run(GM, "fort start", rounds=3)).ephemeral
    assert not (await harness.run(GM, "pc add", name="アリス")).ephemeral
    refused = await harness.run(GM, "pc sheet", name="アリス", sheet="alice.json")
    assert refused.ephemeral
    assert refused.embeds[0]["description"] == (
        "⚠ シート: に書かれたものはJSONのシートではありません。ゆとシートⅡのシートのURLか、"
        "そのJSON出力のファイル(ファイル:)を指定してください。"
    )
    assert not (await harness.run(ALICE, "pc add", name="Alice")).ephemeral
    refused = await harness.run(ALICE, "pc sheet", name="Alice", sheet="alice.json")
    assert refused.embeds[0]["description"] == (
        "⚠ What sheet: gives is not a JSON sheet. Give a ゆとシートⅡ sheet's URL, or a file of its JSON"
        " output (file:)."
    )


async def test_from_fort_without_a_fort_battle_says_what_it_needs(harness: Harness, dice: Dice) -> None:
    """B-VIEW-2: ``from:fort`` follows a fort battle that ended in this channel."""
    refused = await harness.run(GM, "battle start", **{"from": "fort"})
    assert refused.ephemeral
    assert refused.embeds[0]["description"] == (
        "⚠ このチャンネルの前の戦闘は砦防衛戦ではありません。「起点:砦防衛戦の続き」は、"
        "このチャンネルで砦防衛戦を /砦 終了 で終えたあと、立っている指揮官を魔物として戦闘を始めます。"
    )
    assert not (await harness.run(GM, "fort start", rounds=3)).ephemeral
    assert not (await harness.run(GM, "fort end")).ephemeral
    refused = await harness.run(ALICE, "battle start", **{"from": "fort"})
    assert refused.embeds[0]["description"] == (
        "⚠ No commander of the last fort battle is still standing. from:fort starts a battle against those"
        " standing; to start one without them, leave from: out."
    )
