"""The skirmish of tests/data/sg_skirmish.toml through Discord (INTERACTION_CREATE payloads, the real
discord.py client): which replies are ephemeral, and that no public message — replies, follow-ups,
the live status message — names the hidden ambusher before it strikes (S-HIDE-1)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from discord_harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Dice, Harness, Member, Request

from bot.service import Actor, Where
from bot.views import StatusView

SCRIPT = Path(__file__).resolve().parents[1] / "data" / "sg_skirmish.toml"
AMBUSHER = "ルーミア"
CAROL = Member(400000000000000005, "Carol", locale="ja")
MEMBERS = {"gm": GM, "u1": ALICE, "u2": BOB, "u3": CAROL}
#: the replies only their invoker reads: the hidden ambusher's join, hiding and surprise named before
#: its attack (the GM's, S-SUR-5)
EPHEMERAL = {"ルーミア joins unseen", "ルーミア hides", "ルーミア strikes from hiding"}
#: the replies with an ephemeral aside for the GM: the contests due at a new turn
ASIDE = {"turn 1"}
#: the step at which the ambusher appears: its attack
STRIKE = "ルーミア attacks"


def script() -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = tomllib.loads(SCRIPT.read_text(encoding="utf-8"))["step"]
    return steps


def public(requests: list[Request]) -> list[str]:
    """Every text the channel reads among these requests (ephemeral ones left out)."""
    return [r.text() for r in requests if r.method in ("POST", "PATCH") and not r.ephemeral and r.embeds]


async def test_the_skirmish_through_discord_keeps_the_ambusher_hidden(harness: Harness, dice: Dice) -> None:
    h = harness
    seen_before_strike: list[str] = []
    seen_after: list[str] = []
    struck = False
    for step in script():
        dice.feed(*step.get("dice", []))
        member = MEMBERS[step["who"]]
        result = await h.run(member, step["path"], **step.get("options", {}))
        live = await h.flush_live()  # the live status message's posts and edits
        label = step["label"]
        response = result.response
        if "refused" in step:
            assert response.ephemeral and response.embeds[0]["description"].startswith("⚠ "), label
        elif label in EPHEMERAL:
            assert response.ephemeral and result.followups == [], label
            assert AMBUSHER in response.text(), label  # the GM reads it, whole
        else:
            assert not response.ephemeral, (label, response.text())
            asides = [r for r in result.followups if r.ephemeral]
            assert len(asides) == (1 if label in ASIDE else 0), label
            assert all(f.ephemeral for f in result.followups), label
        if label in ASIDE:
            (aside,) = result.followups
            assert aside.embeds[0]["description"] == (
                "(秘匿)潜伏中のルーミア: DP回復 ルーミア 16→18、隠密 13。このターンの知覚判定: 霊夢、小傘"
            )
        struck = struck or label == STRIKE
        texts = public(result.requests) + public(live)
        (seen_after if struck else seen_before_strike).extend(texts)
        if label == "霊夢 searches":  # the table reads the roll, not whom it was against
            assert result.response.embeds[0]["title"] == "/sg search name:霊夢 dice:2"
            assert result.followups == []
        if label == "cards":
            # the table's status: no ambusher; the GM's, with it, to the GM only
            table = await h.run(BOB, "sg status")
            assert not table.ephemeral and AMBUSHER not in table.text()
            seen_before_strike.append(table.text())
            mine = await h.run(GM, "sg status", gm=True)
            assert mine.ephemeral and "[潜伏中 隠密13]" in mine.text()
            theirs = await h.run(ALICE, "sg status", gm=True)  # a player's own view: nothing hidden of theirs
            assert theirs.ephemeral and AMBUSHER not in theirs.text()
            assert await h.complete(BOB, "sg roll", "against", name="霊夢", dice=1, against="") == [
                "霊夢",
                "小傘",
                "妖精",
            ]
            assert AMBUSHER in await h.complete(GM, "sg roll", "against", name="妖精", dice=1, against="")
            log = await h.run(ALICE, "sg log", last=10)
            assert not log.ephemeral and AMBUSHER not in log.text() and "secret" not in log.text()
            assert [line.split(" ")[0] for line in log.text().split("\n") if line.startswith("#")] == [
                f"#{n}" for n in range(1, 8)
            ]  # S-HIDE-1: the table's numbers, no gap where the ambusher joined and hid
            seen_before_strike.append(log.text())
    assert seen_before_strike and all(AMBUSHER not in text for text in seen_before_strike)
    assert any(AMBUSHER in text for text in seen_after)  # once it strikes, the table reads of it

    # the battle stands as the engine's skirmish left it
    view = await h.bot.service.status(Where(str(GUILD_ID), str(CHANNEL_ID)), Actor(str(GM.id)))
    assert isinstance(view, StatusView)
    assert {c["name"]: (c["hp"], c["dp"], c["down"]) for c in view.document["characters"]} == {
        "霊夢": (14, 11, None),
        "小傘": (9, 8, None),
        "妖精": (1, 9, "hp1"),
        "ルーミア": (0, 8, "unconscious"),
        "咲夜": (11, 11, None),
    }
    assert dice.remaining == 0
