"""Issue 37: the 千幻抄 exchange in one step through Discord's payloads, in Japanese, two users and the
GM, scripted dice. ``/千幻抄 攻撃`` rolls the attack and asks the defender with buttons (回避 0–3D / 受ける,
what each costs); the GM side answers by itself under gm_fixed (S-GM-1); a hit rolls and deals the
damage; at 0 HP the attacker gets the mercy buttons (S-MERCY-1); an answer not given in 2 minutes is
asked again in the channel, never decided."""

from __future__ import annotations

import asyncio
from typing import Any

from discord_harness import BOB, CHANNEL_ID, GM, Dice, Harness, Member, Result, message_payload

from bot.discord.reminders import REMIND_AFTER

CAROL = Member(400000000000000071, "キャロル", locale="ja")


async def press(h: Harness, member: Member, body: dict[str, Any], custom_id: str, message_id: int) -> Result:
    payload = h._base(member, 3, {"custom_id": custom_id, "component_type": 2})
    payload["message"] = message_payload(message_id, CHANNEL_ID, body)
    return await h.dispatch(payload)


def buttons(result: Result) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    payload = result.response.payload
    assert payload is not None
    body = payload["data"]
    return body, [b for row in body.get("components") or [] for b in row["components"]]


def asked_again(h: Harness, start: int) -> list[Any]:
    """The messages the bot posted in the channel since ``start`` that ask again for an answer."""
    sent = h.recorder.requests[start:]
    return [r for r in sent if r.via == "http" and r.method == "POST" and "⏰" in r.text()]


async def started(h: Harness) -> None:
    await h.run(GM, "sg start", title="博麗神社", gm_fixed="all")
    joined = await h.run(
        BOB,
        "sg join",
        name="霊夢",
        body=3,
        endurance=2,
        intellect=2,
        sense=4,
        will=2,
        skills="射撃3 回避1",
        hp=10,
    )
    assert not joined.response.ephemeral, joined.text()
    await h.run(GM, "sg join", name="妖精", side="enemy", hp=8, dp_max=10, recovery=3, skills="回避2")
    stored = await h.run(BOB, "sg set", name="霊夢", attack="感覚+射撃", evasion="身体+回避", damage="2d+2")
    assert "霊夢の攻撃と応答: 攻撃 感覚+射撃、回避 身体+回避、ダメージ 2d+2" in stored.text(), repr(
        stored.text()
    )
    await h.run(GM, "sg set", name="妖精", evasion="2", damage="1d+1")
    await h.run(GM, "sg turn")


async def test_a_player_s_attack_one_command_the_gm_side_answers_by_itself_then_mercy_buttons(
    harness: Harness, dice: Dice
) -> None:
    h = harness
    await started(h)
    dice.feed(4, 3, 6, 1)  # the attack 7 + 7 = 14; the damage 2 + 7 = 9
    attack = await h.run(BOB, "sg attack", target="妖精", dice=2)
    text = attack.text()
    assert not attack.response.ephemeral
    assert "霊夢の攻撃(妖精へ): 7(感覚+射撃)+2D[4,3] = 14" in text, text
    assert "#1 妖精はGM固定値で自動応答: 回避2D" in text  # S-GM-1: 2 + 2 × 3.5 = 9
    assert "妖精の回避: 2(身体+回避)" not in text and "= 9(対抗 霊夢 14: 負け)" in text, text
    assert "#1 妖精のHPが0になります(9ダメージ)。霊夢の手加減を待っています" in text
    body, shown = buttons(attack)
    assert [b["label"] for b in shown] == ["気絶させる", "HP1で戦闘不能に", "どちらも選ばない(HP0)"]
    refused = await press(h, CAROL, body, shown[1]["custom_id"], 901)
    assert refused.response.ephemeral  # not CAROL's choice: the attacker's owner's, or the GM's
    chosen = await press(h, BOB, body, shown[1]["custom_id"], 901)
    assert "妖精に9 ダメージ: HP 8 → 1/8" in chosen.text() and "HP 1 で戦闘不能" in chosen.text(), (
        chosen.text()
    )


async def test_s_gm_1_one_command_for_the_gm_s_enemy_attack_then_one_click_by_the_player(
    harness: Harness, dice: Dice
) -> None:
    h = harness
    await started(h)
    before = len([r for r in h.recorder.requests if r.path.endswith("/callback")])
    attack = await h.run(GM, "sg attack", name="妖精", target="霊夢", dice=2, base=5)  # 5 + 7, fixed
    assert "#1 妖精の攻撃 12 → 霊夢の応答を待っています" in attack.text(), attack.text()
    body, shown = buttons(attack)
    assert [b["label"] for b in shown] == [
        "回避0D(DP消費なし)", "回避1D(DP−1)", "回避2D(DP−2)", "回避3D(DP−3)", "受ける",
    ]  # fmt: skip
    assert all(len(b["custom_id"]) <= 100 for b in shown)
    status = (await h.run(CAROL, "sg status")).text()
    assert "#1 妖精の攻撃 12 → 霊夢の応答待ち" in status, status
    dice.feed(2)  # 霊夢's evasion 4 + 2 = 6 < 12: hit; the damage 1d+1 fixed (gm_fixed:all): 1 + 3
    answered = await press(h, BOB, body, shown[1]["custom_id"], 902)
    assert "霊夢の回避: 4(身体+回避)+1D[2] = 6(対抗 妖精 12: 負け)" in answered.text(), answered.text()
    assert "霊夢に4 ダメージ: HP 10 → 6/10" in answered.text()
    # what the GM typed for the enemy's whole attack: one command
    typed = [r for r in h.recorder.requests if r.path.endswith("/callback")][before:]
    assert len([r for r in typed if r.type in (4, 5)]) == 3  # the attack, the status, the press
    assert dice.remaining == 0


async def test_an_answer_not_given_in_two_minutes_is_asked_again_never_decided(
    harness: Harness, dice: Dice
) -> None:
    h = harness
    await started(h)
    await h.run(GM, "sg attack", name="妖精", target="霊夢", dice=2, base=5)
    await h.flush_live()
    (seen,) = h.bot.live.reminders.since(str(CHANNEL_ID)).values()
    start = len(h.recorder.requests)
    h.clock.advance(seen + REMIND_AFTER - 1 - h.clock.now)
    await asyncio.sleep(0.01)
    assert not asked_again(h, start)  # not yet
    h.clock.advance(1)
    sent: list[Any] = []
    for _ in range(2000):  # the reminder's task: the status read, the message posted (10 s at most)
        sent = asked_again(h, start)
        if sent:
            break
        await asyncio.sleep(0.005)
    (asked,) = sent
    data = asked.data
    assert data["content"] == f"<@{BOB.id}>"
    assert data["allowed_mentions"] == {"parse": [], "users": [BOB.id]}
    assert "⏰ 霊夢の応答を待っています: #1 妖精の攻撃 12。" in asked.text(), asked.text()
    labels = [b["label"] for row in data["components"] for b in row["components"]]
    assert labels[-1] == "受ける" and len(labels) == 5
    # nothing was decided: 霊夢 still has its HP, the attack still waits
    status = (await h.run(BOB, "sg status")).text()
    assert "HP 10/10" in status and "#1 妖精の攻撃 12 → 霊夢の応答待ち" in status
    # asked once: another two minutes ask nothing more
    h.clock.advance(REMIND_AFTER)
    await asyncio.sleep(0.05)
    assert len(asked_again(h, start)) == 1
