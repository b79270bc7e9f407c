"""``toride run`` (the Discord bot) and ``toride sync`` (register the slash commands by hand)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from bot.cpu import ENV_ODDS_WORKERS
from bot.discord.settings import (
    AUTO_SHARDS,
    DEFAULT_HEALTH_HOST,
    ENV_API_BASE,
    ENV_HEALTH_HOST,
    ENV_HEALTH_PORT,
    ENV_IDENTIFY_SPACING,
    ENV_SHARD_COUNT,
    ENV_SHARD_LEASE,
    ENV_SHARD_RENEW,
    ENV_SHARD_SETTLE,
    ENV_SHARDS,
    ENV_TOKEN,
    dev_guild_from_env,
    env,
    localized_names_from_env,
    parse_shards,
    seconds_from_env,
    token_from_env,
)

if TYPE_CHECKING:
    from bot.discord.runner import RunOptions

NO_TOKEN = (
    f"{ENV_TOKEN} is not set: the Discord bot needs its bot token (README, section 'Discord').\n"
    "To play without Discord, run: toride console"
)
#: the shard coordination's timings (seconds; ``bot.discord.shards``)
TIMINGS = (ENV_IDENTIFY_SPACING, ENV_SHARD_LEASE, ENV_SHARD_RENEW, ENV_SHARD_SETTLE)
BAD_TOKEN = f"Discord refused the token in {ENV_TOKEN} (README, section 'Discord')."


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser("run", help=f"run the Discord bot (token from {ENV_TOKEN})")
    run.add_argument("--db", help="database file or URL (default: TORIDE_DATABASE_URL, else ./toride.db)")
    run.add_argument(
        "--dev-guild",
        type=int,
        default=None,
        help="sync the commands to this guild at start (TORIDE_DEV_GUILD)",
    )
    run.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help=f"how many shards the bot has in all, across its processes ({ENV_SHARD_COUNT}; "
        "default: the count Discord recommends, all run here)",
    )
    run.add_argument(
        "--shards",
        default=None,
        help=f"the shards this process runs, e.g. 0-1 or 0,2,4-5 ({ENV_SHARDS}; needs --shard-count; "
        f"default: all), or {AUTO_SHARDS}: the count Discord recommends, shared with the other processes "
        "on the same PostgreSQL database",
    )
    run.add_argument(
        "--health-port",
        type=int,
        default=None,
        help=f"answer GET /health on this port: gateway connected, database reachable ({ENV_HEALTH_PORT})",
    )
    run.add_argument(
        "--health-host",
        default=None,
        help=f"the health endpoint's address ({ENV_HEALTH_HOST}; default {DEFAULT_HEALTH_HOST})",
    )
    run.add_argument(
        "--lang",
        choices=["ja", "en"],
        default="ja",
        help="language of what toride run says when it cannot start (the database, Discord unreachable)",
    )
    run.set_defaults(func=run_bot)
    sync = sub.add_parser("sync", help="register the slash commands with Discord (globally, or in one guild)")
    sync.add_argument("--guild", type=int, default=None, help="only this guild (shows at once; for testing)")
    sync.add_argument("--clear", action="store_true", help="remove the bot's commands from --guild instead")
    sync.set_defaults(func=run_sync)


def _number(given: int | None, name: str) -> int | None:
    """An option's number, else its environment variable's (ValueError: not a number)."""
    if given is not None:
        return given
    value = env(name)
    if value is None:
        return None
    if not value.isdigit():
        raise ValueError(f"{name}: {value!r} is not a whole number")
    return int(value)


def run_options(args: argparse.Namespace) -> RunOptions:
    """The options of ``toride run`` from its arguments, else the environment (ValueError: wrong)."""
    from bot.discord.runner import RunOptions

    count = _number(args.shard_count, ENV_SHARD_COUNT)
    shards_text = args.shards if args.shards is not None else env(ENV_SHARDS)
    if count is not None and count < 1:
        raise ValueError(f"shard count: {count} is not at least 1")
    shard_ids = None
    auto = shards_text is not None and shards_text.strip().casefold() == AUTO_SHARDS
    if auto:
        if count is not None:
            raise ValueError(f"shards: {AUTO_SHARDS} takes the count Discord recommends: give no shard count")
    elif shards_text is not None:
        if count is None:
            raise ValueError("shards: give the shard count too (--shard-count or TORIDE_SHARD_COUNT)")
        shard_ids = parse_shards(shards_text, count)
    for name in TIMINGS:
        seconds_from_env(name, 1.0)  # ValueError: not a number of seconds
    workers = _number(None, ENV_ODDS_WORKERS)
    if workers is not None and workers < 1:
        raise ValueError(f"{ENV_ODDS_WORKERS}: {workers} is not at least 1")
    port = _number(args.health_port, ENV_HEALTH_PORT)
    if port is not None and not 0 < port < 65536:
        raise ValueError(f"health port: {port} is not a port number (1-65535)")
    host = args.health_host or env(ENV_HEALTH_HOST) or DEFAULT_HEALTH_HOST
    return RunOptions(
        db=args.db,
        dev_guild=args.dev_guild or dev_guild_from_env(),
        localized_names=localized_names_from_env(),
        shard_count=count,
        shard_ids=shard_ids,
        auto_shards=auto,
        health=(host, port) if port is not None else None,
        lang=args.lang,
    )


def use_api_base() -> None:
    """Talk to Discord's REST API through ``TORIDE_DISCORD_API_BASE``: a REST proxy shared by the bot's
    processes (nirn-proxy), or a local stand-in in tests."""
    base = env(ENV_API_BASE)
    if base is not None:
        from discord.http import Route

        Route.BASE = base.rstrip("/")


def run_bot(args: argparse.Namespace) -> int:
    token = token_from_env()
    if token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:
        options = run_options(args)
    except ValueError as error:
        print(f"toride run: {error}", file=sys.stderr)
        return 2
    import aiohttp
    import discord

    from bot.discord.runner import DatabaseUnavailable, serve
    from bot.i18n import t
    from bot.rulesets.builtin import ensure_builtin
    from bot.storage.url import SecretFilter

    ensure_builtin()
    discord.utils.setup_logging(level=logging.INFO)
    for handler in logging.getLogger().handlers:
        handler.addFilter(SecretFilter(options.db))
    use_api_base()
    try:
        asyncio.run(serve(token, options))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except DatabaseUnavailable as error:
        print(f"toride run: {error}", file=sys.stderr)
        return 1
    except discord.DiscordServerError as error:
        print(f"toride run: {t('run.discord_error', options.lang, status=error.status)}", file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, OSError, TimeoutError) as error:
        print(f"toride run: {unreachable(error, options.lang)}", file=sys.stderr)
        return 1
    return 0


def unreachable_why(error: BaseException) -> str:
    """Why Discord could not be reached, as a word of ``value.reach.*``."""
    import aiohttp

    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return "dns"
    if isinstance(error, TimeoutError | aiohttp.ServerTimeoutError):
        return "timeout"
    if isinstance(getattr(error, "os_error", error), ConnectionRefusedError):
        return "refused"
    return "other"


def unreachable(error: BaseException, lang: str) -> str:
    """The line saying Discord (its REST API at start, or its gateway) could not be reached."""
    from discord.http import Route

    from bot.i18n import t
    from bot.render.common import value_text

    host = getattr(error, "host", None)
    port = getattr(error, "port", None)
    address = f"{host}:{port}" if host is not None else Route.BASE
    why = value_text(unreachable_why(error), lang, "reach")
    return t("run.discord_unreachable", lang, address=address, why=why)


def run_sync(args: argparse.Namespace) -> int:
    token = token_from_env()
    if token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    import aiohttp
    import discord

    from bot.i18n import DEFAULT_LANG
    from bot.rulesets.builtin import ensure_builtin

    ensure_builtin()
    use_api_base()
    try:
        count = asyncio.run(_sync(token, args.guild, args.clear))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, OSError, TimeoutError) as error:
        print(f"toride sync: {unreachable(error, DEFAULT_LANG)}", file=sys.stderr)
        return 1
    where = f"guild {args.guild}" if args.guild else "all guilds (global)"
    print(f"{'cleared' if args.clear else 'synced'} {count} commands: {where}")
    return 0


async def _sync(token: str, guild_id: int | None, clear: bool) -> int:
    import discord

    from bot.discord.client import TorideBot
    from bot.service import BattleService
    from bot.storage import open_storage

    storage = await open_storage(
        migrate=False
    )  # never connected: syncing needs the commands, not the battles
    try:
        bot = TorideBot(BattleService(storage), localized_names=localized_names_from_env())
        async with bot:
            await bot.login(token)
            guild = discord.Object(id=guild_id) if guild_id else None
            if guild is not None and clear:
                bot.tree.clear_commands(guild=guild)
                await bot.tree.sync(guild=guild)
                return 0
            if guild is not None:
                bot.tree.copy_global_to(guild=guild)
            return len(await bot.tree.sync(guild=guild))
    finally:
        await storage.close()
