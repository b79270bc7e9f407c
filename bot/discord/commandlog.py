"""One structured log line per command or button press: where, what, how long, how it ended.

The line is a JSON object on the ``toride.commands`` logger: ``guild``, ``channel``, ``command`` (the
command's path, or ``button next`` ...), ``via``, ``latency_ms`` (from the handler's start to the
answer sent), ``deferred``, ``outcome`` (``ok``, ``refused``, ``undelivered`` when Discord did not
take the answer, ``error``), ``reason`` (a refusal's message key, or the error's type) and ``rule`` (the
rule id behind a refusal, ``F-MAP-7``, from its rule set's ``RuleSet.rule_ids``: the GM's detail, kept
out of the players' text). Never the options typed, a message's text or a token.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

import discord

from bot.registry import rulesets
from bot.service import Where
from bot.views import ErrorView, View

log = logging.getLogger("toride.commands")


class CommandLog:
    def __init__(self, where: Where, command: str, via: str, started: float | None = None) -> None:
        self.where = where
        self.command = command
        self.via = via
        self.started = time.monotonic() if started is None else started
        self.deferred = False
        self.outcome = "ok"
        self.reason: str | None = None

    def view(self, view: View) -> None:
        if isinstance(view, ErrorView):
            self.refused(view.key)

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

    def fields(self) -> dict[str, object]:
        return {
            "guild": self.where.guild,
            "channel": self.where.channel,
            "command": self.command,
            "via": self.via,
            "latency_ms": round((time.monotonic() - self.started) * 1000, 1),
            "deferred": self.deferred,
            "outcome": self.outcome,
            "reason": self.reason,
            "rule": rulesets().rule_ids.get(self.reason or ""),
        }

    def write(self) -> None:
        log.info("%s", json.dumps(self.fields(), ensure_ascii=False))
