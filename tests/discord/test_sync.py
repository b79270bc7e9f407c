"""Registering the commands with Discord: the development guild at start, ``toride sync`` by hand."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord_harness import APPLICATION_ID, BOT_ID, Harness, Recorder, RecordingHTTP, user_payload

from bot.cli import main
from bot.commands import groups
from bot.discord.client import TorideBot
from bot.registry import commands

DEV_GUILD = 555000000000000001


def top_level_names() -> set[str]:
    return {g if g is not None else s.name for g, specs in groups(commands().values()).items() for s in specs}


async def test_the_development_guild_gets_every_command_at_start(harness: Harness) -> None:
    harness.bot.dev_guild = DEV_GUILD
    await harness.bot.setup_hook()
    assert harness.bot.dev_sync is not None  # beside the gateway's connection, not before it
    await harness.bot.dev_sync
    (put,) = [r for r in harness.recorder.requests if r.method == "PUT"]
    assert put.path == f"/applications/{APPLICATION_ID}/guilds/{DEV_GUILD}/commands"
    sent = {c["name"]: c for c in put.payload}  # type: ignore[union-attr]
    assert set(sent) == top_level_names()
    assert sent["fort"]["name_localizations"] == {"ja": "砦"}
    assert sent["roll"]["description_localizations"]["ja"].startswith("ソード・ワールド2.5のダイス")


@pytest.mark.parametrize(
    ("argv", "path", "count"),
    [
        (["sync"], f"/applications/{APPLICATION_ID}/commands", None),
        (
            ["sync", "--guild", str(DEV_GUILD)],
            f"/applications/{APPLICATION_ID}/guilds/{DEV_GUILD}/commands",
            None,
        ),
        (
            ["sync", "--guild", str(DEV_GUILD), "--clear"],
            f"/applications/{APPLICATION_ID}/guilds/{DEV_GUILD}/commands",
            0,
        ),
    ],
)
def test_toride_sync(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    path: str,
    count: Any,
) -> None:
    recorder = Recorder()

    async def login(self: TorideBot, token: str) -> None:
        """What discord.py's login does, with the recorder for Discord's REST API."""
        assert token == "tok"
        http = RecordingHTTP(recorder, asyncio.get_running_loop())
        self.http = http
        self._connection.http = http
        self.tree._http = http
        self._connection.application_id = APPLICATION_ID
        self._connection.user = discord.ClientUser(
            state=self._connection, data={**user_payload(BOT_ID, "Toride"), "bot": True}
        )
        await self.setup_hook()

    monkeypatch.setattr(TorideBot, "login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.delenv("TORIDE_DEV_GUILD", raising=False)
    assert main(argv) == 0
    puts = [r for r in recorder.requests if r.method == "PUT"]
    assert [r.path for r in puts][-1] == path
    expected = 0 if count == 0 else len(top_level_names())
    assert len(puts[-1].payload or []) == expected
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert out.startswith(("cleared" if count == 0 else "synced") + f" {expected} commands")
