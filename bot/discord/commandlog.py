"""One structured log line per command or button press: where, what, how long, how it ended.

The line is a JSON object on the ``toride.commands`` logger: ``guild``, ``channel``, ``command`` (the
command's path, or ``button next`` ...), ``via``, ``latency_ms`` (from the handler's start to the
answer sent), ``deferred``, ``outcome`` (``ok``, ``refused``, ``undelivered`` when Discord did not
take the answer, ``error``), ``reason`` (a refusal's message key, or the error's type) and ``rule`` (the
rule id behind a refusal, ``F-MAP-7``, from its rule set's ``RuleSet.rule_ids``: the GM's detail, kept
out of the players' text). Never the options typed, a message's text or a token.

The same entry is counted for ``/metrics`` (``CommandMetrics``): ``toride_commands_total`` by rule set,
command and result (the outcome above), and the reply latency in ``toride_reply_latency_seconds`` by
rule set. The rule set is the command's (the command table's), or for a shared command (``/gm undo``,
a button) the one of the battle its reply shows; ``none`` for neither (``/roll``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

import discord
from prometheus_client import Counter, Histogram
from prometheus_client.registry import Collector

from bot.commands import Kind
from bot.metrics import REPLY_BUCKETS
from bot.registry import rulesets
from bot.service import Where
from bot.views import ErrorView, MapView, View

log = logging.getLogger("toride.commands")
#: the rule set label of a command that has none (``/roll``, ``/help``)
NO_RULESET = "none"
#: the command label of a path the command table does not have (never a user's text)
OTHER = "other"
#: a chat dice message's command label (``bot.discord.chat``: no slash command, no path of the table)
CHAT = "chat"


class CommandLog:
    def __init__(self, where: Where, command: str, via: str, started: float | None = None) -> None:
        self.where = where
        self.command = command
        self.via = via
        self.started = time.monotonic() if started is None else started
        self.deferred = False
        self.outcome = "ok"
        self.reason: str | None = None
        #: the rule set of the battle the reply shows ("": none)
        self.shown = ""

    def view(self, view: View) -> None:
        if isinstance(view, ErrorView):
            self.refused(view.key)
        shows = view.status if isinstance(view, MapView) else view
        self.shown = str(getattr(shows, "ruleset", "") or "")

    def refused(self, key: str) -> None:
        self.outcome, self.reason = "refused", key

    def failed(self, error: BaseException) -> None:
        if isinstance(error, discord.HTTPException):
            self.outcome = "undelivered"
        elif isinstance(error, asyncio.CancelledError):
            self.outcome = "cancelled"
        else:
            self.outcome = "error"
        self.reason = type(error).__name__

    def ruleset(self) -> str:
        """The rule set label: the command's, else the shown battle's, else ``NO_RULESET``."""
        spec = rulesets().commands.get(self.command)
        name = spec.ruleset if spec is not None and spec.ruleset else self.shown
        return name if name and rulesets().get(name) is not None else NO_RULESET

    def fields(self, seconds: float | None = None) -> dict[str, object]:
        if seconds is None:
            seconds = time.monotonic() - self.started
        return {
            "guild": self.where.guild,
            "channel": self.where.channel,
            "command": self.command,
            "via": self.via,
            "latency_ms": round(seconds * 1000, 1),
            "deferred": self.deferred,
            "outcome": self.outcome,
            "reason": self.reason,
            "rule": rulesets().rule_ids.get(self.reason or ""),
        }

    def write(self, metrics: CommandMetrics | None = None) -> None:
        """The log line, and the entry counted in ``metrics``."""
        seconds = time.monotonic() - self.started
        log.info("%s", json.dumps(self.fields(seconds), ensure_ascii=False))
        if metrics is not None:
            metrics.count(self, seconds)


class CommandMetrics:
    """The commands and button presses answered, and how long their replies took (``/metrics``)."""

    def __init__(self) -> None:
        self.commands = Counter(
            "toride_commands",
            "Commands and button presses answered, by rule set, command path and result",
            ("ruleset", "command", "result"),
            registry=None,
        )
        self.latency = Histogram(
            "toride_reply_latency_seconds",
            "From a command's interaction to its answer sent, by rule set (the planner's commands, "
            "deferred at once by design, left out)",
            ("ruleset",),
            buckets=REPLY_BUCKETS,
            registry=None,
        )

    def collectors(self) -> tuple[Collector, ...]:
        return self.commands, self.latency

    def chat(self, result: str, seconds: float) -> None:
        """A chat dice message answered (``bot.discord.chat``): the command ``chat``, of no rule set."""
        self.commands.labels(NO_RULESET, CHAT, result).inc()
        self.latency.labels(NO_RULESET).observe(seconds)

    def count(self, entry: CommandLog, seconds: float) -> None:
        ruleset = entry.ruleset()
        spec = rulesets().commands.get(entry.command)
        # a button's path is one of the front-end's own (``button next``), never a user's text
        known = spec is not None or entry.command.startswith("button ")
        self.commands.labels(ruleset, entry.command if known else OTHER, entry.outcome).inc()
        if spec is None or spec.kind is not Kind.PLAN:
            self.latency.labels(ruleset).observe(seconds)
