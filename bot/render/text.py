"""Console text from views. Every sentence comes from the catalogues (``bot.i18n``); what only a rule set
knows (its status screen, its summaries' reports, its own views) is its ``RuleSet.text``'s."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.i18n import t
from bot.i18n.words import say
from bot.registry import rulesets
from bot.render import command_line, help_text, secret_text, sheet_text
from bot.render.common import event_line, refusal_text, sentence, value_text
from bot.ruleset import TextBinding
from bot.views import (
    ErrorView,
    EventsView,
    ExportView,
    HelpView,
    LogEntry,
    LogView,
    NoticeView,
    Offer,
    PaletteRollView,
    PaletteView,
    RevealView,
    RollView,
    RulesetView,
    SecretsView,
    StatusView,
    Summary,
    UndoView,
    View,
)

#: a rule set's text when it has none of its own (or its battle's rule set is gone)
_NO_TEXT = TextBinding()


def text_of(ruleset: str) -> TextBinding:
    """How the rule set named ``ruleset`` reads as text."""
    found = rulesets().get(ruleset)
    return _NO_TEXT if found is None else found.text


def render(view: View, lang: str) -> str:
    """The view as console text; what only its reader may see (``view.private``) follows, marked."""
    text = _render(view, lang)
    if view.private is not None:
        text += "\n" + t("render.private", lang) + "\n" + _render(view.private, lang)
    return text


def _render(view: View, lang: str) -> str:
    if isinstance(view, ErrorView):
        return t("render.refused", lang, reason=refusal_text(view.key, view.values, lang))
    if isinstance(view, EventsView):
        return _events(view, lang)
    if isinstance(view, StatusView):
        renderer = text_of(view.ruleset).status
        if renderer is None:
            return json.dumps(view.document, ensure_ascii=False, indent=2)
        return renderer(view, lang)
    if isinstance(view, ExportView):
        if view.text is not None:
            return view.text
        return json.dumps(view.document, ensure_ascii=False, indent=2)
    if isinstance(view, PaletteRollView):
        offers = offer_lines(view.offers, lang)
        return "\n".join([sheet_text.roll_text(view, lang), *secret_text.kept_lines(view, lang), *offers])
    if isinstance(view, PaletteView):
        return sheet_text.palette_text(view, lang)
    if isinstance(view, LogView):
        if not view.entries:
            return t("render.log_empty", lang)
        lines = [say("render.log_header", lang, count=len(view.entries))]
        for entry in view.entries:
            lines.extend(_log_entry(entry, lang))
        return "\n".join(lines)
    if isinstance(view, UndoView):
        lines = [undo_title(view, lang)]
        for entry in view.entries:  # a redo's actions are shown as redone, not as undone
            lines.append("  " + _log_entry(entry, lang, redone=view.redo)[0])
        return "\n".join(lines)
    if isinstance(view, RollView):
        key = "roll.secret_result" if view.secret else "roll.result"
        text = f"{view.text}  {view.comment}" if view.comment else view.text
        return "\n".join([t(key, lang, actor=view.actor, text=text), *secret_text.kept_lines(view, lang)])
    if isinstance(view, SecretsView):
        return "\n".join(secret_text.list_lines(view, lang, secret_text.local_time))
    if isinstance(view, RevealView):
        return "\n".join(secret_text.reveal_lines(view, lang, secret_text.local_time))
    if isinstance(view, NoticeView):
        return sentence(view.key, lang, view.values)
    if isinstance(view, HelpView):
        return help_text.help_text(lang, view.topic)
    if isinstance(view, RulesetView):
        own = text_of(view.ruleset).views.get(type(view))
        if own is not None:
            return own(view, lang)
    raise TypeError(f"no text renderer for {type(view).__name__}")


def undo_title(view: UndoView, lang: str) -> str:
    """``8 件の操作を取り消しました。``, saying so when fewer than the steps asked for were possible."""
    key = "render.redone" if view.redo else "render.undone"
    if view.requested > len(view.entries):
        key += "_fewer"
    return say(key, lang, count=len(view.entries), requested=view.requested)


def _log_entry(entry: LogEntry, lang: str, *, redone: bool = False) -> list[str]:
    if entry.redacted:
        head = t("render.log_entry_secret", lang, seq=entry.seq)
    else:
        text = command_line.shown(entry.text, lang)
        head = t("render.log_entry", lang, seq=entry.seq, actor=entry.actor, text=text)
    if redone:
        head += " " + t("render.log_redone", lang)
    elif entry.status in ("undone", "discarded"):
        head += " " + t("render.log_undone", lang)
    return [head] + ["    " + event_line(e, lang) for e in entry.events]


def offer_lines(offers: Sequence[Offer], lang: str) -> list[str]:
    """What a reply offers, as the lines to type (Discord shows buttons)."""
    return [
        t(
            o.console, lang, offer=sentence(o.key, lang, o.values),
            command=command_line.shown(command_line.typed(o.path, o.options), lang),
        )
        for o in offers
    ]  # fmt: skip


def event_offers(view: EventsView) -> tuple[Offer, ...]:
    """What the events of a change offer to run next (``TextBinding.offers``), as its reader sees them."""
    make = text_of(view.ruleset).offers
    return make(view.events) if make is not None and view.events else ()


def _events(view: EventsView, lang: str) -> str:
    """The command's events, each summary right after the events it closes (a round's summary before the
    next round's first line)."""
    lines: list[str] = []
    shown = 0
    for summary in view.summaries:
        upto = len(view.events) if summary.after is None else max(shown, min(summary.after, len(view.events)))
        lines.extend(event_line(e, lang) for e in view.events[shown:upto])
        shown = upto
        lines.append("")
        lines.extend(summary_lines(view.ruleset, summary, lang))
    rest = [event_line(e, lang) for e in view.events[shown:]]
    if rest and view.summaries:
        lines.append("")
    lines.extend(rest)
    if not view.events:
        lines.insert(0, t("render.no_events", lang))
    lines.extend(offer_lines(event_offers(view), lang))
    return "\n".join(lines)


def summary_lines(ruleset: str, summary: Summary, lang: str) -> list[str]:
    text = text_of(ruleset)
    if text.report is not None and summary.report is not None:
        title, report = text.report(summary.report, lang)
        lines = [title, *("  " + line for line in report)]
    else:
        if summary.kind == "round":
            lines = [t("summary.round", lang, round=value_text(summary.round, lang))]
        else:
            lines = [t("summary.final", lang)]
        lines.extend("  " + event_line(e, lang) for e in summary.events)
    if text.summary_extra is not None:
        lines.extend(text.summary_extra(summary, lang))
    return lines
