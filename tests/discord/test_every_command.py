"""Every registered command, of every rule set, goes through Discord and gets an answer: a result, or a
refusal shown only to the user; never an internal error, never silence."""

from __future__ import annotations

import json
from typing import Any

import pytest
from discord_harness import ALICE, GM, Attachment, Dice, Harness, snowflake, user_payload
from test_tree import builtin_specs

from bot.commands import WITHIN, CommandSpec, Kind, Option, OptType
from bot.i18n import t
from bot.registry import commands, rulesets

INTERNAL = "⚠ " + t("discord.internal_error", "ja")


def value(opt: Option) -> Any:
    if opt.type is OptType.INT:
        return opt.min if opt.min is not None else 1
    if opt.type is OptType.BOOL:
        return False
    if opt.type is OptType.CHOICE:
        return opt.choices[0]
    if opt.type is OptType.DAMAGE:
        return "5"
    if opt.type is OptType.USER:
        return ALICE
    if opt.type is OptType.FILE:
        return Attachment("scenario.json", json.dumps({"format": "none"}).encode())
    return "x"


def starter(spec: CommandSpec) -> str:
    """The start command of the spec's rule set (the fort's for generic ones): it meets a running battle."""
    binding = rulesets().get(spec.ruleset or "fort")
    assert binding is not None
    return f"{binding.group} start"


@pytest.mark.parametrize(
    # those Discord reads as another's words (``/roll secrets``): tests/discord/test_secret_rolls_discord.py
    # and test_palette_anywhere.py
    "spec", [s for s in builtin_specs() if WITHIN not in s.extra], ids=lambda s: s.path
)
async def test_every_command_answers(harness: Harness, dice: Dice, spec: CommandSpec) -> None:
    dice.feed(*([3] * 40))
    if spec.kind is not Kind.START:
        start = commands()[starter(spec)]
        opened = await harness.run(GM, start.path, **{o.name: value(o) for o in start.options if o.required})
        assert not opened.ephemeral, opened.text()
    options = {o.name: value(o) for o in spec.options if o.required}
    result = await harness.run(GM, spec.path, **options)
    answer = result.response
    if spec.kind is Kind.PLAN:  # the planner defers at once ("thinking ..."), then edits the answer in
        assert answer.type == 5
        answer = next(r for r in result.requests if r.method == "PATCH")
    else:
        assert answer.type == 4
    assert answer.data["allowed_mentions"] == {"parse": []}
    assert answer.embeds, result.requests
    assert INTERNAL not in answer.text()
    if answer.ephemeral and spec.kind is not Kind.HELP:  # /help is for the asker's eyes only
        assert answer.embeds[0]["description"].startswith("⚠ ")


async def test_roll_in_a_direct_message(harness: Harness, dice: Dice) -> None:
    dice.feed(2, 5)
    payload = harness._base(ALICE, 2, harness.command_data("roll", {"expr": "2d6"}))
    for key in ("guild_id", "member", "guild_locale", "channel"):
        payload.pop(key)
    payload["user"] = user_payload(ALICE.id, ALICE.name)
    payload["channel"] = {
        "id": str(snowflake()),
        "type": 1,
        "recipients": [user_payload(ALICE.id, ALICE.name)],
    }
    payload["context"] = 1
    result = await harness.dispatch(payload)
    assert not result.ephemeral
    assert result.embeds[0]["description"] == "(2D6) ＞ 7[2,5] ＞ 7"
    assert result.embeds[0]["title"] == "🎲 Roll"
