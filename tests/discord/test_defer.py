"""A slow database never costs a reply: the bot answers or defers within ``DEFER_AFTER`` of the
interaction, whatever part of the work waits (the guild's language, the battle, the command).

Discord drops an interaction that has no answer 3 seconds after it was sent; the answer also has
to travel. The deadline covers everything the handler awaits, so the tests hold the database back
(a gate on one service call), see the deferral arrive while it is held, then let it go and see the
answer come as an edit of the deferred message.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord_harness import (
    APPLICATION_ID,
    GM,
    Gate,
    Harness,
    Member,
    Request,
    Result,
    message_payload,
    snowflake,
)

from bot.discord.buttons import NEXT, REFRESH
from bot.discord.client import TorideBot
from bot.discord.frontend import DEFER_AFTER

#: a client whose locale has no catalogue: its language is the guild's, read from the database
FRENCH_GM = Member(GM.id, GM.name, locale="fr")
#: the deadline in these tests: short, so that they are quick (the default is checked apart)
SHORT = 0.05


def test_the_deadline_leaves_most_of_discords_three_seconds_to_the_network() -> None:
    assert DEFER_AFTER <= 1.5
    assert TorideBot.__init__.__kwdefaults__["defer_after"] == DEFER_AFTER


async def _held_back(harness: Harness, gate: Gate, payload: dict[str, Any]) -> tuple[Request, Result]:
    """Send ``payload`` while the gate holds the database; the first answer, then all requests."""
    start = len(harness.recorder.requests)
    before = asyncio.all_tasks()
    harness.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    for _ in range(400):  # bounded: 2 s at most
        sent = harness.recorder.requests[start:]
        if sent:
            break
        await asyncio.sleep(0.005)
    assert sent, "no answer while the database was held"
    first = sent[0]
    assert gate.held >= 1 and not gate.opened.is_set()
    gate.opened.set()
    await harness.settle(before)
    await harness.live_quiet()
    return first, Result(harness.recorder.requests[start:])


@pytest.mark.parametrize("slow", ["execute", "language"])
async def test_a_command_is_deferred_while_the_database_is_slow(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, slow: str
) -> None:
    await harness.run(GM, "fort start", rounds=2)
    harness.bot.frontend.defer_after = SHORT
    gate = Gate()
    service = harness.bot.service
    monkeypatch.setattr(service, slow, gate.hold(getattr(service, slow)))
    payload = harness._base(FRENCH_GM, 2, harness.command_data("pc add", {"name": "Alice"}))
    first, result = await _held_back(harness, gate, payload)
    assert first.path.endswith("/callback") and first.type == 5 and not first.ephemeral  # "thinking ..."
    edit = [r for r in result.requests if r.via == "webhook"][-1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    assert edit.embeds[0]["title"] == "/pc 追加 名前:Alice"


async def test_a_refusal_held_back_still_ends_ephemeral(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.bot.frontend.defer_after = SHORT
    gate = Gate()
    monkeypatch.setattr(harness.bot.service, "execute", gate.hold(harness.bot.service.execute))
    payload = harness._base(GM, 2, harness.command_data("fort next", {}))
    first, result = await _held_back(harness, gate, payload)
    assert first.type == 5
    _, deleted, refusal = [r for r in result.requests if r.via == "webhook"]
    assert deleted.method == "DELETE" and refusal.ephemeral
    assert "戦闘" in refusal.text()


async def test_the_next_button_is_deferred_while_the_battle_is_read(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await harness.run(GM, "fort start", rounds=2)
    harness.bot.frontend.defer_after = SHORT
    gate = Gate()
    monkeypatch.setattr(harness.bot.service, "status", gate.hold(harness.bot.service.status))
    payload = _with_message(harness._base(GM, 3, {"custom_id": NEXT, "component_type": 2}))
    first, result = await _held_back(harness, gate, payload)
    assert first.type == 5
    edit = [r for r in result.requests if r.via == "webhook"][-1]
    assert edit.method == "PATCH" and edit.embeds[0]["title"] == "/砦 次へ"


async def test_a_refresh_held_back_edits_the_status_message_afterwards(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await harness.run(GM, "fort start", rounds=2, title="北の砦")
    harness.bot.frontend.defer_after = SHORT
    gate = Gate()
    monkeypatch.setattr(harness.bot.service, "status", gate.hold(harness.bot.service.status))
    payload = _with_message(harness._base(GM, 3, {"custom_id": REFRESH, "component_type": 2}))
    first, result = await _held_back(harness, gate, payload)
    assert first.type == 6  # a deferred update: no new message, the pressed one is edited later
    (edit,) = [r for r in result.requests if r.via == "webhook" and r.method == "PATCH"]
    assert edit.path == f"/webhooks/{APPLICATION_ID}/{payload['token']}/messages/@original"
    assert "北の砦" in edit.embeds[0]["title"]
    assert [b["custom_id"] for row in edit.payload["components"] for b in row["components"]][-1] == REFRESH  # type: ignore[index]


def _with_message(payload: dict[str, Any]) -> dict[str, Any]:
    payload["message"] = message_payload(snowflake(), int(payload["channel_id"]), {})
    return payload


async def test_an_interaction_answered_in_time_is_not_deferred(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline counts from the handler's start: a deferral is only for what is still waiting."""
    harness.bot.frontend.defer_after = 60.0
    calls: list[str] = []
    original = discord.InteractionResponse.defer

    async def defer(self: discord.InteractionResponse, **kwargs: Any) -> None:  # type: ignore[type-arg]
        calls.append("defer")
        await original(self, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "defer", defer)
    result = await harness.run(GM, "fort start", rounds=2)
    assert result.response.type == 4 and calls == []
