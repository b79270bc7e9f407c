"""One structured log line per command and button press, without what users typed."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from discord_harness import BOB, CHANNEL_ID, GM, GUILD_ID, Harness

from bot.discord.buttons import NEXT

FIELDS = {"guild", "channel", "command", "via", "latency_ms", "deferred", "outcome", "reason", "rule"}


def lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "toride.commands"]


async def test_each_command_logs_where_what_how_long_and_how_it_ended(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="toride.commands")
    await harness.run(GM, "fort start", rounds=2, title="秘密の作戦名")
    await harness.run(BOB, "pc add", name="ボブの秘密のPC")
    await harness.run(BOB, "fort next")  # GM only: refused
    await harness.run(GM, "unit add", name="鬼", type="normal", area="F0", hp=5, fort_damage=1)  # F-MAP-7
    await harness.press(GM, NEXT)
    await harness.complete(GM, "pc move", "name", name="ボ")  # autocomplete is not a command
    logged = lines(caplog)
    assert [(x["command"], x["via"], x["outcome"], x["reason"]) for x in logged] == [
        ("fort start", "command", "ok", None),
        ("pc add", "command", "ok", None),
        ("fort next", "command", "refused", "service.gm_only"),
        ("unit add", "command", "refused", "fort.enemy_at_f0"),
        ("button next", "button", "ok", None),
    ]
    # the rule behind a refusal is the GM's detail here, never in the players' text
    assert [x["rule"] for x in logged] == [None, None, None, "F-MAP-7", None]
    for line in logged:
        assert set(line) == FIELDS
        assert (line["guild"], line["channel"]) == (str(GUILD_ID), str(CHANNEL_ID))
        assert isinstance(line["latency_ms"], float) and line["latency_ms"] >= 0
        assert line["deferred"] is False
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "toride.commands")
    assert "秘密" not in text and "token" not in text  # no option values, no interaction token


async def test_a_failure_is_logged_with_its_type_only(
    harness: Harness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("password=hunter2")

    monkeypatch.setattr(harness.bot.service, "execute", broken)
    caplog.set_level(logging.INFO, logger="toride.commands")
    await harness.run(GM, "fort start", rounds=2)
    (line,) = lines(caplog)
    assert (line["outcome"], line["reason"]) == ("error", "RuntimeError")
    assert "hunter2" not in json.dumps(line)
