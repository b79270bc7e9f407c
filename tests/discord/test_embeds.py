"""Discord's limits are kept by splitting and shortening; user text never formats or mentions."""

from __future__ import annotations

from typing import Any

import discord
from discord_harness import GM, Harness

from bot.discord import limits
from bot.discord.text import md
from bot.rulesets.fort.discord.presenter import status_embeds
from bot.views import StatusView


def check_message(embeds: list[dict[str, Any]] | list[discord.Embed]) -> None:
    dicts = [e.to_dict() if isinstance(e, discord.Embed) else e for e in embeds]
    assert 1 <= len(dicts) <= limits.EMBEDS
    total = 0
    for e in dicts:
        assert len(e.get("title", "")) <= limits.TITLE
        assert len(e.get("description", "")) <= limits.DESCRIPTION
        fields = e.get("fields", [])
        assert len(fields) <= limits.FIELDS
        for f in fields:
            assert 1 <= len(f["name"]) <= limits.FIELD_NAME and 1 <= len(f["value"]) <= limits.FIELD_VALUE
        total += len(discord.Embed.from_dict(e))
    assert total <= limits.TOTAL


def test_chunks_and_shorten() -> None:
    assert limits.chunks(["a" * 3, "b" * 3, "c" * 3], 7) == ["aaa\nbbb", "ccc"]
    assert limits.chunks(["x" * 10], 5) == ["xxxx…"]
    assert limits.shorten("abcdef", 4) == "abc…"
    assert limits.fields_of("F", ["y" * 600, "z" * 600]) == [
        ("F", "y" * 600, False),
        ("F (2)", "z" * 600, False),
    ]


def test_long_text_and_many_fields_are_split() -> None:
    lines = [f"{i:04} " + "あ" * 95 for i in range(120)]  # 12000 characters
    fields = [(f"field {i}", "v" * 1000, False) for i in range(40)]
    embeds = limits.build(title="T" * 300, lines=lines, fields=fields, author="A" * 300, footer="F" * 3000)
    assert embeds[0].title == "T" * 255 + "…"
    assert [len(e.description or "") for e in embeds[:3]] == [4039, 4039, 4039]
    assert "\n".join(e.description or "" for e in embeds[:3]) == "\n".join(lines)
    assert sum(len(e.fields) for e in embeds) == 40
    messages = limits.messages(embeds)
    assert [len(e.fields) for e in embeds] == [0, 0, 1, 5, 5, 5, 5, 5, 5, 5, 4]
    assert [len(m) for m in messages] == [1] * 11  # each embed is near 5000 characters: one a message
    for message in messages:
        check_message(message)
    small = [discord.Embed(description=f"{i}") for i in range(25)]
    assert [len(m) for m in limits.messages(small)] == [10, 10, 5]


def test_a_huge_status_fits() -> None:
    units = [
        {
            "name": f"ゴブリン{n:03}" + "長" * 40,
            "type": "normal",
            "area": ("A2", "A1", "F0", "B1", "B2")[n % 5],
            "hp": 10,
            "max_hp": 10,
            "fort_damage": 5,
        }
        for n in range(150)
    ]
    doc = {
        "title": "x" * 400,
        "round": 1,
        "rounds": 3,
        "turn": "pc",
        "fort": {"hp": 10, "max_hp": 300},
        "units": units,
        "pcs": [],
        "commanders": [],
        "traps": [],
        "cannons": [],
        "ballista": {},
    }
    embeds = status_embeds(StatusView(ruleset="fort", document=doc), "ja")
    for message in limits.messages(embeds):
        check_message(message)
    assert embeds[0].colour == discord.Colour(0xE74C3C)  # fort HP 10/300: red
    names = [f.name for e in embeds for f in e.fields]
    assert names[:3] == ["A2", "A2 (2)", "A1"]


async def test_user_text_is_escaped_everywhere(harness: Harness) -> None:
    evil = "*@everyone*<@12345678901234567>`"  # 32 characters: names are 1-32
    await harness.run(GM, "fort start", rounds=1, title="~~@here~~")
    result = await harness.run(GM, "unit add", name=evil, type="normal", area="A2", hp=5, fort_damage=1)
    assert result.response.data["allowed_mentions"] == {"parse": []}
    assert md(evil) == "\\*@\u200beveryone\\*<@\u200b12345678901234567>\\`"
    assert md(evil) in result.embeds[0]["description"]
    assert evil not in result.text()
    status = await harness.run(GM, "fort status")
    (embed,) = status.embeds
    assert embed["title"].startswith("【\\~\\~@\u200bhere\\~\\~】")
    assert embed["fields"][0]["value"] == f"• {md(evil)} HP 5/5 砦ダメージ1"
    log = await harness.run(GM, "fort log")
    assert evil not in log.text() and "@everyone" not in log.text()


async def test_a_long_log_is_sent_in_several_messages(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=1)
    for n in range(60):
        await harness.run(
            GM, "unit add", name=f"u{n:02}" + "名" * 29, type="normal", area="A2", hp=5, fort_damage=1
        )
    result = await harness.run(GM, "fort log", last=200)
    assert not result.ephemeral
    messages = [result.response.embeds] + [f.embeds for f in result.followups]
    assert len(messages) >= 2
    for embeds in messages:
        check_message(embeds)
    text = "\n".join(e["description"] for m in messages for e in m)
    assert text.count("/ユニット 追加") == 60  # each in the reader's words


def test_an_empty_field_holds_nothing_to_read() -> None:
    """Discord refuses an empty field value; the field holds a zero-width space, never a ``-``."""
    from bot.discord import limits

    assert limits.fields_of("units", []) == [("units", "\u200b", False)]
    (embed,) = limits.build(title="t", fields=[("", "", False)])
    assert (embed.fields[0].name, embed.fields[0].value) == ("\u200b", "\u200b")
