"""Every /sg command through Discord: the response payload (embeds, ephemeral flag), as for the fort.

Each action's embed must show exactly the events the battle log holds for it, rendered from the
catalogue (read back from the service); the numbers that matter (DP, totals, HP) are asserted too.
The script is the one of tests/sengensho/test_sg_service.py, so the two front doors agree.
"""

from __future__ import annotations

import json
from typing import Any

from discord_harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Attachment, Dice, Harness, Member, Result

from bot.discord.text import event_line, md
from bot.i18n import t
from bot.render.command_line import shown as in_words
from bot.service import Actor, Invocation, Where
from bot.views import LogView, StatusView

WHERE = Where(str(GUILD_ID), str(CHANNEL_ID))


async def logged(h: Harness) -> list[Any]:
    view = await h.bot.service.execute(
        WHERE, Actor(str(GM.id)), Invocation("sg log", {"last": 1, "gm": True})
    )
    assert isinstance(view, LogView)
    return list(view.entries[-1].events)


async def action(h: Harness, member: Member, path: str, text: str, seq: int, **options: Any) -> list[Any]:
    """Run a command that must succeed; its public embed shows the logged events; returns them."""
    result = await h.run(member, path, **options)
    response = result.response
    assert response.type == 4 and not response.ephemeral, result.text()
    assert response.data["allowed_mentions"] == {"parse": []}
    first = response.embeds[0]
    lang = "en" if member.locale.startswith("en") else "ja"
    assert first["title"] == md(in_words(text, lang))  # the logged command in the member's words
    assert first["author"] == {"name": member.name}
    assert first["footer"] == {"text": f"#{seq}"}
    events = await logged(h)
    public = [e for e in events if e.audience is None and e.kind != "service.secret_text"]
    assert first["description"] == "\n".join(event_line(e, lang) for e in public)
    secret = [e for e in events if e.audience is not None and e.kind != "service.secret_text"]
    if secret and member is GM:  # S-HIDE-1: what only the GM may read, to the GM alone
        (aside,) = result.followups
        assert aside.ephemeral and aside.embeds[0]["description"] == "\n".join(
            event_line(e, lang) for e in secret
        )
    else:
        assert result.followups == []
    return [e for e in events if e.kind != "service.secret_text"]


async def refused(h: Harness, member: Member, path: str, key: str, lang: str, **options: Any) -> Result:
    """Run a command that must be refused: one ephemeral embed with the catalogue's sentence."""
    result = await h.run(member, path, **options)
    assert result.response.type == 4 and result.ephemeral
    (embed,) = result.embeds
    assert embed["description"].startswith("⚠ ")
    assert t(key, lang).split("{")[0] in embed["description"], embed["description"]
    assert result.followups == [] and result.channel == []
    return result


async def document(h: Harness) -> dict[str, Any]:
    view = await h.bot.service.status(WHERE, Actor(str(GM.id)))  # the GM's: what is hidden too
    assert isinstance(view, StatusView)
    return view.document


def dp(doc: dict[str, Any]) -> dict[str, int]:
    return {c["name"]: c["dp"] for c in doc["characters"]}


async def test_every_sg_command_through_discord(harness: Harness, dice: Dice) -> None:
    h = harness
    (started,) = await action(h, GM, "sg start", "/sg start title:庭 ambush:true", 1, title="庭", ambush=True)
    assert started.data == {"title": "庭", "opening": "ambush", "gm_fixed": "off"}
    (joined,) = await action(
        h,
        ALICE,
        "sg join",
        "/sg join name:霊夢 body:3 endurance:2 intellect:4 sense:5 will:3 hp:20",
        2,
        name="霊夢",
        body=3,
        endurance=2,
        intellect=4,
        sense=5,
        will=3,
        hp=20,
    )
    # S-CORE-1: DP max 10 + 3 + 2 + 3 = 18, recovery ⌈(4 + 5) / 3⌉ = 3
    assert (joined.data["dp_max"], joined.data["recovery"]) == (18, 3)
    await action(
        h,
        GM,
        "sg join",
        "/sg join name:妖精 hp:8 dp_max:12 recovery:3 side:enemy",
        3,
        name="妖精",
        hp=8,
        dp_max=12,
        recovery=3,
        side="enemy",
    )
    await action(
        h, GM, "sg join", "/sg join name:小傘 dp_max:14 recovery:3", 4, name="小傘", dp_max=14, recovery=3
    )
    dice.feed(4)
    hide = await h.run(GM, "sg hide", name="妖精", base=6, dice=1)  # S-HIDE-1: the GM's only
    assert hide.ephemeral and hide.channel == []
    (hidden,) = await logged(h)
    assert (hidden.data["total"], hidden.dice, hidden.audience) == (10, ((6, 4),), (str(GM.id),))
    assert hide.embeds[0]["description"] == event_line(hidden, "ja")
    await action(
        h,
        GM,
        "sg spellcard",
        "/sg spellcard name:霊夢 declare:霊符「夢想封印」、夢符「封魔陣」",
        5,
        name="霊夢",
        declare="霊符「夢想封印」、夢符「封魔陣」",
    )
    await action(h, GM, "sg turn", "/sg turn", 6)
    assert dp(await document(h)) == {"霊夢": 18, "妖精": 11, "小傘": 14}  # ambush: spent DP stays spent
    dice.feed(5)
    search = await h.run(ALICE, "sg search", name="霊夢", base=5, dice=1)  # against every hidden foe
    assert not search.ephemeral and search.embeds[0]["title"] == "/sg search name:霊夢 dice:1 base:5"
    rolled_search, searched = await logged(h)
    assert (rolled_search.kind, searched.kind, searched.audience) == (
        "sg.search_rolled",
        "sg.searched",
        (str(GM.id),),
    )
    assert searched.data["found"] is False  # 5 + 5 = 10, a tie: the hider stays hidden
    assert search.embeds[0]["description"] == event_line(rolled_search, "en") and "妖精" not in search.text()
    assert search.followups == []  # the outcome is the GM's, and Alice is not the GM
    dice.feed(6, 3)
    (rolled,) = await action(
        h,
        ALICE,
        "sg roll",
        "/sg roll name:霊夢 dice:2 base:7 kind:attack label:射撃",
        8,
        name="霊夢",
        base=7,
        dice=2,
        label="射撃",
        kind="attack",
    )
    assert (rolled.data["total"], rolled.dice) == (16, ((6, 6), (6, 3)))
    await action(h, GM, "sg declare", "/sg declare name:小傘 dp:10", 9, name="小傘", dp=10)
    await action(h, GM, "sg item", "/sg item name:小傘 holder:霊夢", 10, name="小傘", holder="霊夢")
    await action(h, GM, "sg state", "/sg state name:霊夢 unable:true", 11, name="霊夢", unable=True)
    # S-SUR-5: named before its attack, the hidden attacker's surprise is the GM's alone
    named = await h.run(GM, "sg surprise", attacker="妖精", target="霊夢", distance=50)
    assert named.ephemeral and named.channel == []
    dice.feed(2, 3)
    revealed, step, struck, attack = await action(
        h,
        GM,
        "sg roll",
        "/sg roll name:妖精 dice:2 base:6 kind:attack",
        12,
        name="妖精",
        base=6,
        dice=2,
        kind="attack",
    )
    assert revealed.kind == "sg.revealed"  # S-HIDE-1: undiscovered until its attack
    assert struck.kind == "sg.surprise_struck"  # the surprise told as it strikes
    assert (step.kind, step.data["dp"], attack.data["total"]) == ("sg.step", 11, 11)  # 霊夢 acted at 18
    # S-SUR-1: a complete surprise from outside 30 m cannot be evaded — only the player sees why
    await refused(
        h, ALICE, "sg roll", "sg.evasion_refused", "en", name="霊夢", base=8, dice=2, kind="evasion"
    )
    await action(h, GM, "sg damage", "/sg damage name:霊夢 amount:6", 13, name="霊夢", amount=6)
    knocked = await action(
        h, GM, "sg damage", "/sg damage name:妖精 amount:9 mercy:hp1", 14, name="妖精", amount=9, mercy="hp1"
    )
    assert knocked[1].data == {"name": "妖精", "mercy": "hp1", "hp": 1}  # S-MERCY-1
    await action(h, GM, "sg item", "/sg item name:小傘 release:true", 15, name="小傘", release=True)
    doc = await document(h)
    # 霊夢 paid 1 die to search and 2 to shoot; 小傘, held as an item, was cut to half of 14
    assert dp(doc) == {"霊夢": 18 - 1 - 2, "妖精": 9, "小傘": 7}
    assert (doc["characters"][0]["hp"], doc["characters"][0]["unable"]) == (14, True)

    # reads: status, log, export — public, for everyone
    status = await h.run(BOB, "sg status")
    assert not status.ephemeral and status.embeds[0]["title"].startswith("【庭】")
    log = await h.run(BOB, "sg log", last=2)
    (embed,) = log.embeds
    assert embed["title"] == "直近 2件の記録:"
    # S-HIDE-1: the table counts only what it saw (the hiding and the surprise named were secret)
    first = embed["description"].split("\n")[0]
    assert first == f"#14 <@{GM.id}>: /千幻抄 ダメージ 名前:妖精 量:9 手加減:HP1で戦闘不能"
    exported = await h.run(BOB, "sg export")
    ((filename, content),) = exported.response.files
    assert filename == f"sengensho-{CHANNEL_ID}-1.json"
    assert json.loads(content) == doc

    # a player cannot end it; the GM can, and a battle exported before comes back by import
    await refused(h, BOB, "sg end", "service.gm_only", "ja")
    (ended,) = await action(h, GM, "sg end", "/sg end", 16)
    assert ended.kind == "sg.ended"
    await action(h, GM, "sg import", "/sg import file:s.json", 1, file=Attachment("s.json", content))
    assert dp(await document(h)) == dp(doc)
    await refused(h, GM, "sg import", "service.battle_running", "ja", file=Attachment("s.json", content))


async def test_spell_cards_and_aims_complete_from_the_battle(harness: Harness) -> None:
    h = harness
    await h.run(GM, "sg start", title="札")
    await h.run(ALICE, "sg join", name="魔理沙", dp_max=16, recovery=4)
    await h.run(
        ALICE,
        "sg spellcard",
        name="魔理沙",
        declare="恋符「マスタースパーク」, 魔符「スターダストレヴァリエ」",
    )
    await h.run(ALICE, "sg spellcard", name="魔理沙", use="魔符「スターダストレヴァリエ」")
    assert await h.complete(ALICE, "sg spellcard", "use", name="魔理沙", use="") == [
        "恋符「マスタースパーク」"
    ]
    assert await h.complete(ALICE, "sg spellcard", "card", name="魔理沙", card="") == []  # no take_from yet
    assert await h.complete(ALICE, "sg roll", "at", name="魔理沙", dice=1, at="") == ["魔理沙"]
