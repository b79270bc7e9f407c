"""The service: one call per command, front-end → service → engine (see ARCHITECTURE.md)."""

from bot.service.battles import BattleService
from bot.service.types import Actor, Invocation, Where

__all__ = ["Actor", "BattleService", "Invocation", "Where"]
