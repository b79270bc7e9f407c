"""Issue 36 through Discord's payloads, in Japanese: a player sees a monster's numbers only once the
party's 魔物知識判定 reaches its 知名度 (B-KNOW-1); the public replies, the live status message and the
log never show what the players do not know; the GM's ``状況 gm:true`` shows all, to the GM only; a
damage line rolled at a target offers a button that deals it (the roller's or a GM's press)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord_harness import BOB, CHANNEL_ID, GM, Attachment, Dice, Harness, Member, Result, message_payload

FIXTURES = Path(__file__).resolve().parents[2] / "sheets" / "fixtures" / "ytsheet2"
CAROL = Member(400000000000000061, "キャロル", locale="ja")


def sheet(name: str) -> Attachment:
    path = FIXTURES / f"{name}.json"
    return Attachment(path.name, path.read_bytes())


def public(h: Harness, start: int) -> str:
    """The text of every message the channel can read that the bot sent since ``start`` (its embeds)."""
    sent = h.recorder.requests[start:]
    return "\n".join(r.text() for r in sent if r.payload is not None and not r.ephemeral)


async def press(h: Harness, member: Member, body: dict[str, Any], custom_id: str, message_id: int) -> Result:
    """A button of the bot's message ``body`` pressed, the message as Discord sends it with the press."""
    payload = h._base(member, 3, {"custom_id": custom_id, "component_type": 2})
    payload["message"] = message_payload(message_id, CHANNEL_ID, body)
    return await h.dispatch(payload)


async def started(h: Harness) -> None:
    assert not (await h.run(GM, "battle start", title="グリフォン狩り")).response.ephemeral
    added = await h.run(BOB, "battle pc", file=sheet("fighter"))
    assert not added.response.ephemeral, added.text()
    monster = await h.run(GM, "battle monster", file=sheet("monsters/griffon"))
    assert not monster.response.ephemeral, monster.text()


async def test_b_know_1_numbers_only_after_the_knowledge_check(harness: Harness, dice: Dice) -> None:
    h = harness
    start = len(h.recorder.requests)
    await started(h)
    await h.settle()
    status = await h.run(CAROL, "battle status")
    text = status.response.text()
    enemy = text.split("敵側", 1)[1]  # the monsters' part of the status
    assert "グリフォン 頭部 無傷・胴体 無傷" in enemy
    for secret in ("48", "62", "防護", "回避", "命中"):
        assert secret not in enemy, (secret, text)
    # the GM's view: all of it, to the GM only
    gm = await h.run(GM, "battle status", gm=True)
    assert gm.response.ephemeral and "48" in gm.response.text() and "62" in gm.response.text()
    # damage to it while unknown: the channel reads the rough state only
    dice.feed(3, 4)
    hit = await h.run(GM, "battle damage", targets="グリフォン:胴体", amount="2d+5", by="ガルド")
    assert not hit.response.ephemeral
    assert "62" not in hit.response.text() and "防護点" not in hit.response.text()
    log = await h.run(CAROL, "battle log")
    about = [line for line in log.response.text().splitlines() if "グリフォン" in line]
    assert about and any("無傷のまま" in line for line in about)
    for secret in ("62", "58", "防護点", "14"):
        assert not any(secret in line.split("《")[0] for line in about), (secret, about)
    # the round ends: its summary, posted to the channel, lists the damage as the table read it
    assert not (await h.run(GM, "gm set", target="first", value="pc")).response.ephemeral
    for _ in range(3):
        turn = await h.run(GM, "battle next")
        assert not turn.response.ephemeral, turn.text()
    assert "第1ラウンドのまとめ" in public(h, start)
    channel = public(h, start)
    assert "グリフォン" in channel
    for secret in ("48", "62"):
        assert secret not in channel.replace(str(GM.id), ""), secret
    # the knowledge check reaches 知名度 14: now the players read its numbers
    dice.feed(6, 6)
    known = await h.run(BOB, "battle knowledge", name="ガルド", monster="グリフォン", check="2d+3")
    assert not known.response.ephemeral
    after = (await h.run(CAROL, "battle status")).response.text().split("敵側", 1)[1]
    assert "48" in after and "62" in after


async def test_a_damage_line_at_a_target_offers_a_button_the_roller_presses(
    harness: Harness, dice: Dice
) -> None:
    h = harness
    await started(h)
    dice.feed(3, 4)
    line = "ダメージ／バスタードソード1H"
    rolled = await h.run(BOB, "pc roll", name="ガルド", line=line, target="グリフォン:胴体")
    payload = rolled.response.payload
    assert payload is not None
    body = payload["data"]
    buttons = body["components"][0]["components"]
    assert [b["label"] for b in buttons] == [
        "グリフォン:胴体に物理ダメージ15点",
        "グリフォン:胴体に魔法ダメージ15点",
    ]
    physical = buttons[0]["custom_id"]
    assert len(physical) <= 100 and physical.startswith("toride:offer:")
    # another player's press is refused in words, as the command typed would be
    refused = await press(h, CAROL, body, physical, 777)
    assert refused.response.ephemeral and "ガルド" in refused.response.text()
    # the roller's press deals it once; a second press is told it was used
    dealt = await press(h, BOB, body, physical, 777)
    assert not dealt.response.ephemeral, dealt.text()
    again = await press(h, BOB, body, physical, 777)
    assert again.response.ephemeral and "もう使われました" in again.response.text()
    gm = (await h.run(GM, "battle status", gm=True)).response.text()
    assert "胴体" in gm


async def _player_reads(storage: Any, dice: Dice, hp: int, defense: int) -> list[str]:
    """Everything a player reads of a battle whose unknown monster has ``hp`` and ``defense``."""
    from bot.service import BattleService

    h = await Harness.create(BattleService(storage, dice), defer_after=None)
    try:
        start = len(h.recorder.requests)
        await h.run(GM, "battle start", title="二つの世界")
        await h.run(BOB, "battle pc", name="ガルド", hp=35)
        await h.run(GM, "battle monster", name="ヒドラ", hp=hp, defense=defense, reputation=30)
        await h.run(GM, "gm set", target="first", value="pc")
        await h.run(GM, "battle next")
        dice.feed(3, 4)
        await h.run(BOB, "battle damage", targets="ヒドラ", amount="2d+5", by="ガルド")
        reads = [public(h, start)]
        for path in ("battle status", "battle log"):
            reads.append((await h.run(CAROL, path)).response.text())
        return reads
    finally:
        await h.bot.coalescer.close()


async def test_b_know_1_two_worlds_differing_only_in_the_unknown_numbers_read_the_same(
    tmp_path: Path, dice: Dice
) -> None:
    """B-KNOW-1: a player's every reply, the public channel, the status and the log read byte for byte
    the same whether the unknown monster has HP 60 and 防護点 3 or HP 64 and 防護点 5 (the 12 damage
    leaves it 無傷 in both)."""
    from bot.storage import open_storage

    worlds = []
    for n, (hp, defense) in enumerate(((60, 3), (64, 5))):
        storage = await open_storage(str(tmp_path / f"world{n}.db"))
        try:
            worlds.append(await _player_reads(storage, dice, hp, defense))
        finally:
            await storage.close()
    assert worlds[0] == worlds[1]
    assert "ヒドラ" in worlds[0][1] and "60" not in worlds[0][1] and "64" not in worlds[1][1]
