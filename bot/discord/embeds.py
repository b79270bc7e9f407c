"""Views as Discord messages: embeds (split to Discord's limits), the ephemeral flag, files.

``render(view, lang, user=...)`` is the one entry; ``user`` is the invoker's display name (who
rolled, who acted). Every sentence comes from the catalogues, every user text is escaped.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping

import discord

from bot.discord import limits, sheets
from bot.discord.offers import offer_view
from bot.discord.pictures import alt_text, attach
from bot.discord.presenter import NEUTRAL, REFUSED, ROLL, SECRET
from bot.discord.presenters import presenter
from bot.discord.reply import Reply
from bot.discord.secrets import secret_notice, secret_reply
from bot.discord.text import event_line, md, tr, who
from bot.i18n import t
from bot.i18n.words import say
from bot.render import command_line, help_text, secret_text
from bot.render.common import echo
from bot.render.picture.pictures import PictureCache, final_chart, pictures_of
from bot.render.text import event_offers, undo_title
from bot.views import (
    ErrorView,
    EventsView,
    ExportView,
    HelpView,
    LogEntry,
    LogView,
    MapView,
    NoticeView,
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

__all__ = ["Reply", "error_embeds", "events_embeds", "render", "status_embeds", "summary_embeds"]


def error_embeds(key: str, values: Mapping[str, object], lang: str) -> list[discord.Embed]:
    shown = {k: echo(v) for k, v in values.items()}
    owner = shown.pop("owner", None)  # whose a PC is: a user id as a mention
    text = tr(key, lang, **shown, **({"owner": "{owner}"} if owner is not None else {}))
    if owner is not None:
        text = text.replace("{owner}", who(str(owner)))
    return limits.build(lines=["⚠ " + text], colour=REFUSED)


def render(view: View, lang: str, *, user: str = "", pictures: PictureCache | None = None) -> Reply:
    reply = _reply(view, lang, user, pictures)
    if view.private is not None:
        reply.private = _reply(view.private, lang, user, pictures).messages
    return reply


def _reply(view: View, lang: str, user: str, pictures: PictureCache | None) -> Reply:
    if isinstance(view, ErrorView):
        return Reply(limits.messages(error_embeds(view.key, view.values, lang)), ephemeral=True)
    if isinstance(view, RollView):
        return _roll(view, lang, user)
    if isinstance(view, SecretsView | RevealView):
        return secret_reply(view, lang)
    if isinstance(view, EventsView):
        return _events(view, lang, user)
    if isinstance(view, StatusView):
        return Reply(limits.messages(status_embeds(view, lang)), view.ephemeral)
    if isinstance(view, MapView):
        return _map(view, lang, pictures if pictures is not None else PictureCache())
    if isinstance(view, LogView):
        return Reply(limits.messages(_log(view, lang)), view.ephemeral)
    if isinstance(view, UndoView):
        return Reply(limits.messages(_undo(view, lang)), view.ephemeral, changed=True)
    if isinstance(view, PaletteRollView | PaletteView) or (
        isinstance(view, ExportView) and view.text is not None
    ):
        if isinstance(view, PaletteRollView):
            return sheets.roll_reply(view, lang, user)
        if isinstance(view, PaletteView):
            return sheets.palette_reply(view, lang)
        return sheets.export_reply(view, lang)
    if isinstance(view, ExportView):
        data = json.dumps(view.document, ensure_ascii=False, indent=2).encode("utf-8")
        embeds = limits.build(
            lines=[t("discord.export.done", lang, filename=md(view.filename))], colour=NEUTRAL
        )
        return Reply([embeds], view.ephemeral, file=discord.File(io.BytesIO(data), filename=view.filename))
    if isinstance(view, NoticeView):
        embeds = limits.build(lines=[_notice(view, lang)], colour=NEUTRAL)
        return Reply([embeds], view.ephemeral, changed=True)
    if isinstance(view, HelpView):
        text = help_text.help_text(lang, view.topic, console=False)
        lines = [_indented(line) for line in text.splitlines()]
        return Reply(limits.messages(limits.build(lines=lines, colour=NEUTRAL)), view.ephemeral)
    if isinstance(view, RulesetView):
        own = presenter(view.ruleset).views.get(type(view))
        if own is not None:
            return own(view, lang)
    raise TypeError(f"no embed renderer for {type(view).__name__}")


def _indented(line: str) -> str:
    """A console line in an embed: escaped, its indent in full-width spaces (an embed drops leading
    spaces), a blank line kept as one."""
    if not line.strip():
        return "\u200b"
    rest = line.lstrip(" ")
    return "　" * ((len(line) - len(rest) + 1) // 2) + md(rest)


def _notice(view: NoticeView, lang: str) -> str:
    values = dict(view.values)
    user = values.pop("user", None)
    role = values.pop("role", None)
    text = tr(view.key, lang, **values, user="{user}", role="{role}")
    if user is not None:
        text = text.replace("{user}", who(str(user)))
    if role is not None:
        text = text.replace("{role}", f"<@&{role}>" if str(role).isdigit() else md(role))
    return text


def _roll(view: RollView, lang: str, user: str) -> Reply:
    name = user or view.actor
    fields = [(t("discord.roll.comment", lang), md(view.comment), False)] if view.comment else []
    embeds = limits.build(
        title=t("discord.roll.secret_title" if view.secret else "discord.roll.title", lang),
        lines=[md(view.text), *(md(line) for line in secret_text.kept_lines(view, lang))],
        fields=fields,
        colour=SECRET if view.secret else ROLL,
        author=name,
    )
    if not view.secret:
        return Reply([embeds], view.ephemeral)
    return Reply([embeds], ephemeral=True, notice=secret_notice(view, lang, name))


def _map(view: MapView, lang: str, pictures: PictureCache) -> Reply:
    """``/fort map``: the battle's title over its picture (drawn already, or drawn now)."""
    status = status_embeds(view.status, lang)[0]
    embeds = [discord.Embed(title=status.title, colour=status.colour)]
    png = pictures.status_map(view.status, lang)
    if png is None:
        return Reply([error_embeds("map.no_map", {}, lang)], ephemeral=True)
    file = attach(embeds, png, view.filename, alt_text(view.status, lang))
    return Reply([embeds], view.ephemeral, file=file)


def _events(view: EventsView, lang: str, user: str) -> Reply:
    """A change: its events and summaries; a final summary shows the fort HP chart as its image."""
    messages = limits.messages(events_embeds(view, lang, user))
    file = None
    for summary in view.summaries:
        chart = final_chart(view.ruleset, summary, lang)
        pictures = pictures_of(view.ruleset)
        if chart is not None and pictures is not None:
            file = attach(messages[-1], chart, pictures.chart_file)
    offers = event_offers(view)
    buttons = offer_view(offers, lang) if offers else None
    return Reply(messages, view.ephemeral, file=file, changed=True, view=buttons)


def events_embeds(view: EventsView, lang: str, user: str = "") -> list[discord.Embed]:
    shown = presenter(view.ruleset)
    # each summary right after the events it closes: a round's before the next round's first line
    cut = len(view.events)
    for summary in view.summaries:
        if summary.after is not None:
            cut = min(cut, summary.after)
    lines = [event_line(e, lang) for e in view.events[:cut]] or [t("render.no_events", lang)]
    embeds = limits.build(
        title=md(command_line.shown(view.command, lang)) if view.command else None,
        lines=lines,
        colour=NEUTRAL,
        author=user or None,
        footer=f"#{view.seq}" if view.seq else None,
    )
    rest = [event_line(e, lang) for e in view.events[cut:]]
    for summary in view.summaries:
        embeds += summary_embeds(view.ruleset, summary, lang)
        if rest and summary.after is not None:
            embeds += limits.build(lines=rest, colour=NEUTRAL)
            rest = []
    if rest:
        embeds += limits.build(lines=rest, colour=NEUTRAL)
    if view.summaries:
        embeds[0].colour = discord.Colour(shown.colour(view.summaries[-1].document))
    return embeds


def summary_embeds(ruleset: str, summary: Summary, lang: str) -> list[discord.Embed]:
    shown = presenter(ruleset)
    if summary.report is not None and shown.report is not None:
        title, lines = shown.report(summary.report, lang)
        return limits.build(
            title=title,
            lines=lines or [t("render.no_events", lang)],
            fields=shown.summary_fields(summary, lang),
            colour=shown.colour(summary.document),
        )
    if summary.kind == "round" and summary.round is not None:
        title = t("discord.summary.round", lang, round=summary.round)
    elif summary.kind == "round":
        title = t("report.title.round_unknown", lang).strip("━ ")
    else:
        title = t("discord.summary.final", lang)
    lines = [event_line(e, lang) for e in summary.events] or [t("render.no_events", lang)]
    return limits.build(
        title=title,
        lines=lines,
        fields=shown.summary_fields(summary, lang),
        colour=shown.colour(summary.document),
    )


def status_embeds(view: StatusView, lang: str) -> list[discord.Embed]:
    return presenter(view.ruleset).status(view, lang)


def _entry_lines(entry: LogEntry, lang: str, *, with_events: bool = True) -> list[str]:
    if entry.redacted:
        head = t("render.log_entry_secret", lang, seq=entry.seq)
    else:
        text = md(command_line.shown(entry.text, lang))
        head = t("render.log_entry", lang, seq=entry.seq, actor=who(entry.actor), text=text)
    if with_events and entry.status == "undone":
        head = f"~~{head}~~ " + t("render.log_undone", lang)
    lines = [head]
    if with_events:
        lines += ["　" + event_line(e, lang) for e in entry.events]
    return lines


def _log(view: LogView, lang: str) -> list[discord.Embed]:
    if not view.entries:
        return limits.build(lines=[t("render.log_empty", lang)], colour=NEUTRAL)
    lines = [line for entry in view.entries for line in _entry_lines(entry, lang)]
    return limits.build(
        title=say("render.log_header", lang, count=len(view.entries)), lines=lines, colour=NEUTRAL
    )


def _undo(view: UndoView, lang: str) -> list[discord.Embed]:
    lines = [line for entry in view.entries for line in _entry_lines(entry, lang, with_events=False)]
    colour = presenter(view.ruleset).colour(view.document) if view.ruleset else NEUTRAL
    return limits.build(title=undo_title(view, lang), lines=lines, colour=colour)
