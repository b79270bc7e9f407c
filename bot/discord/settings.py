"""The bot's environment settings (kept free of heavy imports: ``toride --help`` reads them)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import discord

ENV_TOKEN = "DISCORD_TOKEN"
ENV_DEV_GUILD = "TORIDE_DEV_GUILD"
#: set to 0 to keep every command and option name English (descriptions are still translated)
ENV_LOCALIZED_NAMES = "TORIDE_LOCALIZED_NAMES"
#: how many shards the bot has in all, and which of them this process runs (``0-3``, ``0,2,4-5``;
#: ``auto``: the count Discord recommends, shared with the other processes on the same PostgreSQL
#: database through shard leases, ``bot.discord.shards``)
ENV_SHARD_COUNT = "TORIDE_SHARD_COUNT"
ENV_SHARDS = "TORIDE_SHARDS"
AUTO_SHARDS = "auto"
#: seconds between two IDENTIFYs of one ``max_concurrency`` bucket (Discord's 5), and the shard
#: leases' length, renewal and start-up wait (``bot.discord.shards``; tests shorten them)
ENV_IDENTIFY_SPACING = "TORIDE_IDENTIFY_SPACING"
ENV_SHARD_LEASE = "TORIDE_SHARD_LEASE"
ENV_SHARD_RENEW = "TORIDE_SHARD_RENEW"
ENV_SHARD_SETTLE = "TORIDE_SHARD_SETTLE"
#: the health endpoint's port (unset: no endpoint) and address
ENV_HEALTH_PORT = "TORIDE_HEALTH_PORT"
ENV_HEALTH_HOST = "TORIDE_HEALTH_HOST"
DEFAULT_HEALTH_HOST = "127.0.0.1"
#: the base URL of Discord's REST API (default Discord's own, ``https://discord.com/api/v10``): a REST
#: proxy in front of Discord shared by all the bot's processes (nirn-proxy: one rate limiter, the
#: global 50 requests/s and the invalid-request limit counted once for the whole bot), or a local
#: stand-in in tests; the gateway's address then comes from that API's GET /gateway/bot, as from Discord's
ENV_API_BASE = "TORIDE_DISCORD_API_BASE"
#: set to 1 to roll chat messages that begin with a dice command (``/settings chat_dice:``): the bot
#: then asks for the Message Content intent, which the Developer Portal must allow
ENV_CHAT_DICE = "TORIDE_CHAT_DICE"


def token_from_env() -> str | None:
    return os.environ.get(ENV_TOKEN, "").strip() or None


def dev_guild_from_env() -> int | None:
    value = os.environ.get(ENV_DEV_GUILD, "").strip()
    return int(value) if value.isdigit() else None


def localized_names_from_env() -> bool:
    return os.environ.get(ENV_LOCALIZED_NAMES, "1").strip().casefold() not in ("0", "false", "no", "off")


def chat_dice_from_env() -> bool:
    return os.environ.get(ENV_CHAT_DICE, "").strip().casefold() in ("1", "true", "yes", "on")


def intents(chat_dice: bool) -> discord.Intents:
    """What the bot asks the gateway for: its guilds; with chat dice, their messages and their text
    (Message Content, a privileged intent)."""
    import discord

    if chat_dice:
        return discord.Intents(guilds=True, guild_messages=True, message_content=True)
    return discord.Intents(guilds=True)


def env(name: str) -> str | None:
    return os.environ.get(name, "").strip() or None


def seconds_from_env(name: str, default: float) -> float:
    """A positive number of seconds from the environment, else ``default`` (ValueError: not one)."""
    value = env(name)
    if value is None:
        return default
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"{name}: {value!r} is not a number of seconds above 0")
    return seconds


def parse_shards(text: str, shard_count: int) -> list[int]:
    """``0-3`` or ``0,2,4-5``: the shard ids, each below ``shard_count`` (ValueError says what is wrong)."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"shards: {text!r} is not a list of shard ids or ranges such as 0-3 or 0,2,4-5")
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ValueError(f"shards: the range {part} runs backwards")
        ids += range(low, high + 1)
    wrong = [i for i in ids if i >= shard_count]
    if wrong:
        raise ValueError(f"shards: {wrong[0]} is not below the shard count {shard_count} (ids start at 0)")
    if len(set(ids)) != len(ids):
        raise ValueError(f"shards: {text!r} names a shard twice")
    return sorted(ids)
