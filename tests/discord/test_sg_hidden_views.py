"""S-HIDE-1 through Discord, from another player's chair: a skirmish with a hidden enemy, a hidden
reinforcement that takes over a spell card and a player's hidden PC, and everything a third player
(ボブ) could read — public replies, follow-ups and the live status message, and their own replies,
status, log, export, help, autocomplete and refusals — never holds a hidden name, a count that
includes what is hidden, or a mark that something is hidden.
"""

from __future__ import annotations

import json
from typing import Any

from discord_harness import ALICE, BOB, GM, Dice, Harness, Member, Request

#: the hidden enemy, the hidden reinforcement, the player's hidden PC
HIDDEN = ("ルーミア", "大妖精", "射命丸文")
#: what would tell that something is hidden (the help's own words about hiding aside)
MARKS = ("潜伏", "秘匿", "🔒", "secret", "(2)")
CAROL = Member(400000000000000005, "Carol", locale="ja")

#: (who, command, options, the player's dice)
SCRIPT: list[tuple[Member, str, dict[str, Any], tuple[int, ...]]] = [
    (GM, "sg start", {"title": "紅魔館", "gm_fixed": "checks"}, ()),
    (ALICE, "sg join", {"name": "霊夢", "dp_max": 18, "recovery": 3, "hp": 20}, ()),
    (BOB, "sg join", {"name": "魔理沙", "dp_max": 16, "recovery": 3, "hp": 18}, ()),
    (CAROL, "sg join", {"name": "射命丸文", "dp_max": 15, "recovery": 3, "hidden": True}, ()),
    (GM, "sg join", {"name": "妖精", "dp_max": 12, "recovery": 3, "side": "enemy"}, ()),
    (GM, "sg join", {"name": "ルーミア", "dp_max": 16, "recovery": 4, "side": "enemy", "hidden": True}, ()),
    (GM, "sg hide", {"name": "ルーミア", "base": 6, "dice": 2}, ()),
    (CAROL, "sg hide", {"name": "射命丸文", "base": 7, "dice": 1}, (4,)),
    (ALICE, "sg spellcard", {"name": "霊夢", "declare": "霊符「夢想封印」"}, ()),
    (GM, "sg spellcard", {"name": "妖精", "declare": "凍符「パーフェクトフリーズ」"}, ()),
    (GM, "sg turn", {}, ()),
    (GM, "sg join", {"name": "大妖精", "dp_max": 12, "recovery": 3, "side": "enemy", "hidden": True}, ()),
    (GM, "sg spellcard", {"name": "大妖精", "take_from": "妖精"}, ()),
    (GM, "sg surprise", {"attacker": "ルーミア", "target": "霊夢", "distance": 50}, ()),
    (GM, "sg roll", {"name": "大妖精", "base": 5, "dice": 2, "kind": "ability", "at": "霊夢"}, ()),
    (ALICE, "sg roll", {"name": "霊夢", "base": 6, "dice": 1, "kind": "resist"}, (3,)),
    (CAROL, "sg declare", {"name": "射命丸文", "dp": 10}, ()),
    (BOB, "sg search", {"name": "魔理沙", "base": 5, "dice": 1}, (2,)),
    (GM, "gm set", {"target": "ルーミア.note", "value": "待ち伏せ"}, ()),
    (GM, "gm undo", {"steps": 1}, ()),
]


def public(requests: list[Request]) -> list[str]:
    """What the channel reads among these requests."""
    return [r.text() for r in requests if r.method in ("POST", "PATCH") and not r.ephemeral and r.embeds]


def clean(text: str, *, help_text: bool = False) -> None:
    for name in HIDDEN:
        assert name not in text, (name, text)
    for mark in MARKS:
        if not (help_text and mark == "潜伏"):
            assert mark not in text, (mark, text)


async def test_s_hide_1_another_players_view_holds_nothing_hidden(harness: Harness, dice: Dice) -> None:
    h = harness
    seen: list[str] = []  # everything ボブ reads
    for member, path, options, rolled in SCRIPT:
        dice.feed(*rolled)
        result = await h.run(member, path, **options)
        assert not result.response.embeds[0].get("description", "").startswith("⚠"), (path, result.text())
        seen += public(result.requests) + public(await h.flush_live())
        if member is BOB:
            seen += [r.text() for r in result.requests if r.embeds]
    assert dice.remaining == 0

    # ボブ's own reads
    status = await h.run(BOB, "sg status")
    assert not status.ephemeral
    assert "スペルカード: PC側 1枚(残り1)、敵側 1枚(残り1)" in status.text()  # what the table saw
    assert "凍符「パーフェクトフリーズ」" in status.text()  # still with 妖精, as far as the table knows
    mine = await h.run(BOB, "sg status", gm=True)  # a player's own view: nothing hidden is theirs
    log = await h.run(BOB, "sg log", last=50)
    numbers = [line.split(" ")[0] for line in log.text().split("\n") if line.startswith("#")]
    assert numbers == [f"#{n}" for n in range(1, len(numbers) + 1)]  # the table's count, no gap
    assert len(numbers) == 9  # of the 20 actions, what the table saw (the undo of a secret one too)
    own_log = await h.run(BOB, "sg log", last=50, gm=True)
    export = await h.run(BOB, "sg export")
    ((_, content),) = export.response.files
    document = json.loads(content)
    assert [c["name"] for c in document["characters"]] == ["霊夢", "魔理沙", "妖精"]
    assert (document["spell_cards"]["pc"], document["spell_cards"]["enemy"]) == (1, 1)
    seen += [status.text(), mine.text(), log.text(), own_log.text(), content.decode("utf-8")]
    for result in (await h.run(BOB, "help"), await h.run(BOB, "help", command="sg")):
        clean(result.text(), help_text=True)
    for path, focused, options in (
        ("sg roll", "against", {"name": "魔理沙", "dice": 1, "against": ""}),
        ("sg roll", "name", {"name": "", "dice": 1}),
        ("sg roll", "at", {"name": "魔理沙", "dice": 1, "kind": "attack", "at": ""}),
        ("sg search", "target", {"name": "魔理沙", "dice": 1, "target": ""}),
        ("sg spellcard", "take_from", {"name": "魔理沙", "take_from": ""}),
        ("sg surprise", "target", {"attacker": "魔理沙", "target": "", "distance": 10}),
    ):
        choices = await h.complete(BOB, path, focused, **options)
        assert choices and not set(choices) & set(HIDDEN), (path, focused, choices)

    # naming a hidden character gets what naming no one gets
    for path, options, field in (
        ("sg roll", {"name": "魔理沙", "base": 5, "dice": 1, "kind": "evasion", "against": "{}"}, "against"),
        ("sg damage", {"name": "{}", "amount": 3}, "name"),
        ("sg search", {"name": "魔理沙", "base": 5, "dice": 1, "target": "{}"}, "target"),
        ("sg spellcard", {"name": "魔理沙", "take_from": "{}"}, "take_from"),
        ("sg surprise", {"attacker": "魔理沙", "target": "{}", "distance": 10}, "target"),
        ("sg declare", {"name": "{}", "dp": 3}, "name"),
    ):
        for name in HIDDEN:
            probe = await h.run(BOB, path, **{**options, field: name})
            nobody = await h.run(BOB, path, **{**options, field: "名無し"})
            assert probe.ephemeral and nobody.ephemeral, (path, name)
            assert probe.text().replace(name, "名無し") == nobody.text(), (path, name)
    for text in seen:
        clean(text)

    # ボブ takes the hidden enemy's name: a join like any other; the GM reads the clash, alone
    joined = await h.run(BOB, "sg join", name="ルーミア", dp_max=10, recovery=2)
    assert not joined.ephemeral and joined.followups == []
    assert "⚠" not in joined.text() and "(2)" not in joined.text()
    gm_log = await h.run(GM, "sg log", last=1, gm=True)
    assert "ルーミア(2)" in gm_log.text() and gm_log.ephemeral
    table = await h.run(BOB, "sg status")
    assert table.text().count("ルーミア") == 1 and "(2)" not in table.text()
