"""``toride run`` / ``toride sync`` / plain ``toride``: the token decides between the bot and the console."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.console.app
import bot.discord.cli
from bot.cli import main
from bot.discord.client import TorideBot


def test_run_without_a_token_points_to_the_console(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "toride console" in err
    assert main(["sync"]) == 2


def test_plain_toride_runs_the_console_without_a_token_and_the_bot_with_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    called: list[str] = []

    def console(args: argparse.Namespace) -> int:
        called.append("console")
        return 0

    def run(args: argparse.Namespace) -> int:
        called.append(f"run db={args.db} dev_guild={args.dev_guild}")
        return 0

    monkeypatch.setattr(bot.console.app, "run_console", console)
    monkeypatch.setattr(bot.discord.cli, "run_bot", run)
    monkeypatch.setenv("DISCORD_TOKEN", "  ")
    assert main([]) == 0
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    assert main([]) == 0
    assert called == ["console", "run db=None dev_guild=None"]


def test_run_starts_the_bot_on_an_upgraded_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started: list[Any] = []

    async def start(self: TorideBot, token: str, *, reconnect: bool = True) -> None:
        started.append((token, self.dev_guild, self.localized_names, sorted(self.cogs)))

    monkeypatch.setattr(TorideBot, "start", start)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.setenv("TORIDE_DEV_GUILD", "123")
    monkeypatch.setenv("TORIDE_LOCALIZED_NAMES", "0")
    db = tmp_path / "bot.db"
    assert main(["run", "--db", str(db)]) == 0
    ((token, dev_guild, localized, cogs),) = started
    assert (token, dev_guild, localized, cogs) == ("tok", 123, False, [])  # cogs come in setup_hook, at login
    assert db.exists()


def test_a_refused_token(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    async def refuse(*args: Any) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(bot.discord.cli, "_run", refuse)
    monkeypatch.setattr(bot.discord.cli, "_sync", refuse)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
    monkeypatch.setenv("DISCORD_TOKEN", "bad")
    assert main(["run"]) == 1
    assert main(["sync", "--guild", "5"]) == 1
    assert capsys.readouterr().err.count("Discord refused the token in DISCORD_TOKEN") == 2
