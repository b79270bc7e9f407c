"""``toride run`` (the Discord bot) and ``toride sync`` (register the slash commands by hand)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.discord.settings import ENV_TOKEN, dev_guild_from_env, localized_names_from_env, token_from_env

NO_TOKEN = (
    f"{ENV_TOKEN} is not set: the Discord bot needs its bot token (README, section 'Discord').\n"
    "To play without Discord, run: toride console"
)
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
    run.set_defaults(func=run_bot)
    sync = sub.add_parser("sync", help="register the slash commands with Discord (globally, or in one guild)")
    sync.add_argument("--guild", type=int, default=None, help="only this guild (shows at once; for testing)")
    sync.add_argument("--clear", action="store_true", help="remove the bot's commands from --guild instead")
    sync.set_defaults(func=run_sync)


def run_bot(args: argparse.Namespace) -> int:
    token = token_from_env()
    if token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    import discord

    discord.utils.setup_logging(level=logging.INFO)
    try:
        asyncio.run(_run(token, args.db, args.dev_guild or dev_guild_from_env()))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def _run(token: str, db: str | None, dev_guild: int | None) -> None:
    from bot.discord.client import TorideBot
    from bot.service import BattleService
    from bot.storage import open_database

    engine = await open_database(db)
    try:
        bot = TorideBot(
            BattleService(engine), dev_guild=dev_guild, localized_names=localized_names_from_env()
        )
        async with bot:
            await bot.start(token)
    finally:
        await engine.dispose()


def run_sync(args: argparse.Namespace) -> int:
    token = token_from_env()
    if token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    import discord

    try:
        count = asyncio.run(_sync(token, args.guild, args.clear))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    where = f"guild {args.guild}" if args.guild else "all guilds (global)"
    print(f"{'cleared' if args.clear else 'synced'} {count} commands: {where}")
    return 0


async def _sync(token: str, guild_id: int | None, clear: bool) -> int:
    import discord

    from bot.discord.client import TorideBot
    from bot.service import BattleService
    from bot.storage import make_engine

    engine = make_engine()  # never connected: syncing needs the commands, not the battles
    try:
        bot = TorideBot(BattleService(engine), localized_names=localized_names_from_env())
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
        await engine.dispose()
