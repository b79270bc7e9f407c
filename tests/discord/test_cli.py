"""``toride run`` / ``toride sync`` / plain ``toride``: the token decides between the bot and the console."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.console.app
import bot.discord.cli
import bot.discord.runner
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

    monkeypatch.setattr(bot.discord.runner, "serve", refuse)
    monkeypatch.setattr(bot.discord.cli, "_sync", refuse)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
    monkeypatch.setenv("DISCORD_TOKEN", "bad")
    assert main(["run"]) == 1
    assert main(["sync", "--guild", "5"]) == 1
    assert capsys.readouterr().err.count("Discord refused the token in DISCORD_TOKEN") == 2


def _options(monkeypatch: pytest.MonkeyPatch, argv: list[str], **environ: str) -> Any:
    for name in ("TORIDE_SHARD_COUNT", "TORIDE_SHARDS", "TORIDE_HEALTH_PORT", "TORIDE_HEALTH_HOST"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    parser = argparse.ArgumentParser()
    bot.discord.cli.add_parser(parser.add_subparsers())
    return bot.discord.cli.run_options(parser.parse_args(["run", *argv]))


def test_run_takes_its_shards_and_health_endpoint_from_options_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = _options(monkeypatch, [])
    assert (plain.shard_count, plain.shard_ids, plain.health) == (None, None, None)
    given = _options(monkeypatch, ["--shard-count", "4", "--shards", "0-1", "--health-port", "8080"])
    assert (given.shard_count, given.shard_ids, given.health) == (4, [0, 1], ("127.0.0.1", 8080))
    environ = _options(
        monkeypatch,
        [],
        TORIDE_SHARD_COUNT="6",
        TORIDE_SHARDS="0,2,4-5",
        TORIDE_HEALTH_PORT="9000",
        TORIDE_HEALTH_HOST="0.0.0.0",
    )
    assert (environ.shard_count, environ.shard_ids, environ.health) == (6, [0, 2, 4, 5], ("0.0.0.0", 9000))
    # an option wins over the environment
    both = _options(monkeypatch, ["--shards", "3"], TORIDE_SHARD_COUNT="6", TORIDE_SHARDS="0-1")
    assert (both.shard_count, both.shard_ids) == (6, [3])
    # a count alone: this process runs every shard of it
    assert _options(monkeypatch, ["--shard-count", "2"]).shard_ids is None


@pytest.mark.parametrize(
    ("argv", "environ", "message"),
    [
        (["--shards", "0-1"], {}, "give the shard count too"),
        (["--shard-count", "2", "--shards", "0-2"], {}, "2 is not below the shard count 2"),
        (["--shard-count", "4", "--shards", "3-1"], {}, "runs backwards"),
        (["--shard-count", "4", "--shards", "0,0"], {}, "names a shard twice"),
        (["--shard-count", "4", "--shards", "a"], {}, "is not a list of shard ids"),
        (["--shard-count", "0"], {}, "is not at least 1"),
        ([], {"TORIDE_SHARD_COUNT": "two"}, "TORIDE_SHARD_COUNT: 'two' is not a whole number"),
        (["--health-port", "70000"], {}, "is not a port number"),
    ],
)
def test_wrong_shards_or_ports_are_refused_before_anything_starts(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    environ: dict[str, str],
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        _options(monkeypatch, argv, **environ)
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    assert main(["run", *argv]) == 2
    assert message in capsys.readouterr().err
