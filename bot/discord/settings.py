"""The bot's environment settings (kept free of heavy imports: ``toride --help`` reads them)."""

from __future__ import annotations

import os

ENV_TOKEN = "DISCORD_TOKEN"
ENV_DEV_GUILD = "TORIDE_DEV_GUILD"
#: set to 0 to keep every command and option name English (descriptions are still translated)
ENV_LOCALIZED_NAMES = "TORIDE_LOCALIZED_NAMES"


def token_from_env() -> str | None:
    return os.environ.get(ENV_TOKEN, "").strip() or None


def dev_guild_from_env() -> int | None:
    value = os.environ.get(ENV_DEV_GUILD, "").strip()
    return int(value) if value.isdigit() else None


def localized_names_from_env() -> bool:
    return os.environ.get(ENV_LOCALIZED_NAMES, "1").strip().casefold() not in ("0", "false", "no", "off")
