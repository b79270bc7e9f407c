"""What a front-end hands the service (where, who, which command) and a channel's live battle."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.rulesets import RulesetBinding
from bot.storage import repository as repo


@dataclass(frozen=True, slots=True)
class Where:
    guild: str
    channel: str


@dataclass(frozen=True, slots=True)
class Actor:
    """Who runs the command. ``manage_channels`` and ``roles`` come from Discord (GM rights)."""

    id: str
    manage_channels: bool = False
    roles: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Invocation:
    """A command as the front-end received it: path (``unit add``), raw options, the text as typed."""

    path: str
    options: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""


@dataclass(slots=True)
class Live:
    """A channel's running battle as this process last saw it."""

    head: repo.BattleHead
    binding: RulesetBinding
    state: Any
    document: dict[str, Any]
    #: are there undone actions (that a new action discards)?
    has_redo: bool = False
