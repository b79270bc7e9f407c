"""Refusals and failures: ephemeral, in the user's language, never a trace; slow answers are deferred."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord_harness import ALICE, APPLICATION_ID, BOB, GM, Attachment, Harness

from bot.discord.buttons import REFRESH


def raising(error: Exception) -> Any:
    async def execute(*args: Any, **kwargs: Any) -> Any:
        raise error

    return execute


async def test_a_failure_inside_is_reported_without_a_trace(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        harness.bot.service, "execute", raising(RuntimeError("database exploded at 0xdeadbeef"))
    )
    for member, text in (
        (BOB, "⚠ ボットの内部で問題が起きました。/砦 状況 で戦闘の状態を確かめてください。"),
        (ALICE, "⚠ Something went wrong inside the bot. Check the battle with /fort status."),
    ):
        result = await harness.run(member, "fort status")
        assert result.ephemeral
        assert result.embeds[0]["description"] == text
        assert "exploded" not in result.text() and "Traceback" not in result.text()


async def test_a_failing_button_is_reported_too(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness.bot.service, "status", raising(RuntimeError("boom")))
    result = await harness.press(ALICE, REFRESH)
    assert result.ephemeral
    assert result.embeds[0]["description"].startswith("⚠ Something went wrong inside the bot.")


async def test_a_command_discord_knows_but_the_bot_does_not(harness: Harness) -> None:
    payload = harness._base(BOB, 2, {"id": "1", "name": "oldcommand", "type": 1, "options": []})
    result = await harness.dispatch(payload)
    assert result.ephemeral
    assert result.embeds[0]["description"] == (
        "⚠ このコマンドの定義が古くなっています。"
        "少し待ってからもう一度どうぞ(管理者は「toride sync」で更新できます)。"
    )


async def test_a_slow_answer_is_deferred_then_edited(harness: Harness) -> None:
    harness.bot.frontend.defer_after = 0  # the service never answers before the deadline
    result = await harness.run(GM, "fort start", rounds=2)
    first, edit = [r for r in result.requests if r.via == "webhook"]
    assert first.type == 5 and not first.ephemeral  # "thinking ..."
    assert (edit.method, edit.path) == (
        "PATCH",
        f"/webhooks/{APPLICATION_ID}/{edit.path.split('/')[3]}/messages/@original",
    )
    assert edit.embeds[0]["title"] == "/砦 開始 ラウンド数:2"
    assert edit.payload is not None and edit.payload["allowed_mentions"] == {"parse": []}


async def test_a_slow_refusal_replaces_the_public_thinking_message_with_an_ephemeral_one(
    harness: Harness,
) -> None:
    await harness.run(GM, "fort start", rounds=2)
    harness.bot.frontend.defer_after = 0
    result = await harness.run(BOB, "fort next")
    deferred, deleted, followup = [r for r in result.requests if r.via == "webhook"]
    assert deferred.type == 5
    assert (deleted.method, deleted.path.endswith("/messages/@original")) == ("DELETE", True)
    assert followup.method == "POST" and followup.ephemeral
    assert "はGMだけが使えます(この戦闘のGM: <@400000000000000001>)。" in followup.text()


async def test_an_export_deferred_keeps_its_file(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=2, title="北")
    harness.bot.frontend.defer_after = 0
    result = await harness.run(BOB, "fort export")
    edit = result.requests[-1]
    assert edit.method == "PATCH" and [name for name, _ in edit.files] == [
        f"fort-{harness.channel_id}-1.json"
    ]


async def test_an_attachment_that_cannot_be_fetched(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def gone(url: str) -> bytes:
        raise discord.NotFound(type("R", (), {"status": 404, "reason": "gone"})(), "gone")  # type: ignore[arg-type]

    monkeypatch.setattr(harness.http, "get_from_cdn", gone)
    result = await harness.run(ALICE, "fort import", file=Attachment("s.json", b"{}"))
    assert result.ephemeral
    assert result.embeds[0]["description"] == "⚠ Could not read s.json. Please attach it again."


async def test_an_expired_interaction_still_updates_the_status_message(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=2)
    harness.clock.advance(10)
    assert harness.adapter is not None
    harness.adapter.expired = True
    result = await harness.run(GM, "pc add", name="Alice")
    callbacks = [r for r in result.requests if r.path.endswith("/callback")]
    assert len(callbacks) == 2  # the answer, then the error report: both refused by Discord
    (edit,) = result.channel
    assert edit.method == "PATCH"
    assert "Alice" in edit.embeds[0]["fields"][2]["value"]
