"""How a rule set's battle looks in Discord (``Presenter``): its status embed, its summaries, its live
status message, the replies to its own views, its colours, the command of the "next turn" button.

A rule set's presenter (``RuleSet.discord``) reads the rule set's export document (the documented
format, COMMANDS.md) and the catalogues; it holds no rule. ``bot.discord.presenters`` finds a battle's
presenter, or makes the generic one for a rule set without its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.commands.model import CommandSpec, Option
from bot.discord.live_layout import LiveMessage
from bot.discord.reply import Reply
from bot.views import StatusView, Summary, View

#: embed colours that mean something
GOOD = 0x2ECC71
WARN = 0xF1C40F
DANGER = 0xE67E22
CRITICAL = 0xE74C3C
COLLAPSED = 0x7B1E1E
NEUTRAL = 0x5865F2
ENDED = 0x95A5A6
REFUSED = 0xED4245
SECRET = 0x2C2F33
ROLL = 0x3498DB

StatusEmbeds = Callable[[StatusView, str], list[discord.Embed]]
SummaryFields = Callable[[Summary, str], list[tuple[str, str, bool]]]
CompletionKind = Callable[[CommandSpec, Option], str | None]
Candidates = Callable[[Mapping[str, Any], str, CommandSpec, Mapping[str, Any]], list[str]]
Colour = Callable[[Mapping[str, Any]], int]
LiveEmbeds = Callable[[StatusView, str], LiveMessage]


@dataclass(frozen=True)
class Presenter:
    ruleset: str
    status: StatusEmbeds
    #: fields a round or final summary adds after its events (fort HP, outcome ...)
    summary_fields: SummaryFields = lambda summary, lang: []
    #: the colour of a battle's embeds by its document (fort HP low, collapse ...)
    colour: Colour = lambda document: NEUTRAL
    #: the command of the status message's "next turn" button
    next_path: str | None = None
    #: the live status message (one message: the full status or a compact form); None: the first
    #: message of the full status (``live_layout.first_message``)
    live: LiveEmbeds | None = None
    #: a summary's report (``Summary.report``) as the title and lines of its embed; None: its events
    report: Callable[[Any, str], tuple[str, list[str]]] | None = None
    #: the replies to the rule set's own views (``/unit list``'s roster ...), by view type
    views: Mapping[type[View], Callable[[Any, str], Reply]] = field(default_factory=dict)
    #: what a reply to one of its views needs drawn first, off the event loop (a chart), before the
    #: reply is built
    prepare: Callable[[View, str], Awaitable[None]] | None = None
