"""How a rule set's battle looks in Discord: its status embed, its summaries, name completion, buttons.

A presenter reads the rule set's export document (the documented format, COMMANDS.md) and the
catalogues; it holds no rule. ``bot.discord.fort`` registers the fort's; a rule set without one
(a new ``/sg`` before its presenter lands) is shown by ``GENERIC``: every value of its document.
"""

from __future__ import annotations

import importlib
import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.commands import CommandSpec, Option, commands
from bot.discord import limits
from bot.discord.live_layout import LiveMessage, first_message
from bot.discord.text import escaped, md, who
from bot.i18n import t
from bot.views import StatusView, Summary

#: modules that register the built-in presenters
BUILTIN = ("bot.discord.fort", "bot.discord.sengensho")

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
    #: which list of names an option draws from (None: no autocomplete); static, for registration
    completion: CompletionKind = lambda spec, opt: None
    #: the names of that list in a battle's document, given the options typed so far
    candidates: Candidates = lambda document, kind, spec, typed: []
    #: the command of the status message's "next turn" button
    next_path: str | None = None
    #: the live status message (one message: the full status or a compact form); None: the first
    #: message of the full status (``live_layout.first_message``)
    live: LiveEmbeds | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: a summary's report (``Summary.report``) as the lines of its embed; None: its events, one a line
    report_lines: Callable[[Any, str], list[str]] | None = None


_PRESENTERS: dict[str, Presenter] = {}
_loaded = False


def register(presenter: Presenter) -> None:
    _PRESENTERS[presenter.ruleset] = presenter


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            importlib.import_module(module)


def presenter(ruleset: str) -> Presenter:
    _load()
    found = _PRESENTERS.get(ruleset)
    if found is not None:
        return found
    return Presenter(ruleset=ruleset, status=generic_status, next_path=_guess_next(ruleset))


def live_message(view: StatusView, lang: str) -> LiveMessage:
    """The battle's live status message: within one Discord message, the whole battle in it."""
    shown = presenter(view.ruleset)
    if shown.live is not None:
        return shown.live(view, lang)
    return first_message(shown.status(view, lang), t("live.compact.other", lang))


def all_presenters() -> list[Presenter]:
    _load()
    return list(_PRESENTERS.values())


def completion_kind(spec: CommandSpec, opt: Option) -> str | None:
    """The name list ``opt`` of ``spec`` completes from: its rule set's, or any (``/gm set``)."""
    _load()
    if spec.ruleset is not None:
        return presenter(spec.ruleset).completion(spec, opt)
    for one in _PRESENTERS.values():
        kind = one.completion(spec, opt)
        if kind is not None:
            return kind
    return None


def _guess_next(ruleset: str) -> str | None:
    from bot import rulesets

    binding = rulesets.get(ruleset)
    if binding is None:
        return None
    path = f"{binding.group} next"
    return path if path in commands() else None


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def filter_names(names: Iterable[str], current: str, limit: int = 25) -> list[str]:
    """Names containing what was typed (full-width and case folded), those starting with it first."""
    typed = fold(current.strip())
    seen: set[str] = set()
    starts: list[str] = []
    contains: list[str] = []
    for name in names:
        if not name or name in seen or len(name) > 100:
            continue
        seen.add(name)
        folded = fold(name)
        if folded.startswith(typed):
            starts.append(name)
        elif typed in folded:
            contains.append(name)
    return (starts + contains)[:limit]


def escaped_view(view: StatusView) -> StatusView:
    """``view`` for a text renderer whose lines go into an embed: user text escaped, GMs as mentions
    (an embed shows them as names, never pinging)."""
    return StatusView(
        ruleset=view.ruleset,
        document=escaped(view.document),
        gms=tuple(who(gm) for gm in view.gms),
        ended=view.ended,
    )


def generic_status(view: StatusView, lang: str) -> list[discord.Embed]:
    """A rule set without a presenter: the console's status text (user text escaped) in an embed, else
    every value of its document."""
    from bot.render.text import STATUS

    renderer = STATUS.get(view.ruleset)
    if renderer is not None:
        title, *lines = renderer(escaped_view(view), lang).split("\n")
        return limits.build(title=title, lines=lines, colour=ENDED if view.ended else NEUTRAL)
    fields = []
    for key, value in view.document.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        fields.append((md(str(key)), md(limits.shorten(text, limits.FIELD_VALUE - 50)), True))
    title = str(view.document.get("title") or view.ruleset)
    return limits.build(title=md(title), fields=fields, colour=ENDED if view.ended else NEUTRAL)
