"""A view for an audience: what each reader may see of a battle.

An engine event with an ``audience`` (``engine.ruleset.Event``) is for the GM and the users it names
only (the owner of a hidden character, S-HIDE-1); a rule set's binding says what of its document is
secret (``RulesetBinding.visible``). Here the service turns each reply into the part the whole table
may read (for the channel, the live status, the public log) and, beside it (``View.private``), what
only its invoker may read. Nothing here knows a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.rulesets import RulesetBinding
from bot.views import EventsView, LogEntry, UndoView
from engine.ruleset import Event


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads: a user (None: the whole table) and whether that user is a GM of the battle."""

    user: str | None = None
    gm: bool = False


#: the whole table: what a public message, the live status and the public log may say
TABLE = Viewer()
#: the mark among a logged command's events that its text names what is secret (never shown itself)
SECRET_TEXT = "service.secret_text"


def sees(viewer: Viewer, event: Event) -> bool:
    audience = event.audience
    return audience is None or viewer.gm or (viewer.user is not None and viewer.user in audience)


def document(binding: RulesetBinding, doc: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The battle's document as ``viewer`` may read it."""
    if binding.visible is None or viewer.gm:
        return doc
    return binding.visible(doc, viewer.user)


def text_is_secret(
    binding: RulesetBinding, before: Any, after: Any, command: Any, events: tuple[Event, ...]
) -> bool:
    """Does the command's text name what is secret (the table then reads its events without it)?"""
    if binding.secret_text is not None:
        return bool(binding.secret_text(before, after, command))
    return any(e.audience is not None for e in events)


def logged(events: tuple[Event, ...], secret_text: bool) -> tuple[Event, ...]:
    """The events as the log keeps them: with the mark that the text is secret, for those who may
    read the secrets (so a hidden character's owner reads the commands about it in full)."""
    if not secret_text:
        return events
    owners = {user for e in events if e.audience is not None for user in e.audience}
    return (*events, Event(SECRET_TEXT, {}, (), tuple(sorted(owners))))


def entries(log: tuple[LogEntry, ...], viewer: Viewer) -> tuple[LogEntry, ...]:
    """Log entries as ``viewer`` may read them: only the events the reader may see, and the command's
    text and actor withheld (``redacted``) where they would name what is secret."""
    out = []
    for entry in log:
        hidden_text = any(e.kind == SECRET_TEXT and not sees(viewer, e) for e in entry.events)
        shown = tuple(e for e in entry.events if e.kind != SECRET_TEXT and sees(viewer, e))
        out.append(
            entry
            if (shown == entry.events and not hidden_text)
            else replace(entry, events=shown, redacted=hidden_text)
        )
    return tuple(out)


def events_view(view: EventsView, binding: RulesetBinding, invoker: Viewer, secret_text: bool) -> EventsView:
    """A command's reply: the public events for the channel (without the command's text where it names
    what is secret), and beside them the secrets its invoker may read. All secret: the private part."""
    if all(e.audience is None for e in view.events) and not secret_text:
        return view
    shown = tuple(e for e in view.events if e.audience is None)
    mine = tuple(e for e in view.events if e.audience is not None and sees(invoker, e))
    private = replace(view, events=mine, summaries=(), ephemeral=True) if mine else None
    if not shown:
        return private if private is not None else replace(view, events=(), summaries=(), ephemeral=True)
    summaries = tuple(
        replace(
            s,
            events=tuple(e for e in s.events if e.audience is None),
            document=document(binding, s.document, TABLE),
        )
        for s in view.summaries
    )
    command = "" if secret_text else view.command
    return replace(view, command=command, events=shown, summaries=summaries, private=private)


def undo_view(view: UndoView, binding: RulesetBinding) -> UndoView:
    """An undo or redo (the GM's): the table reads which actions, secret ones withheld; the GM, all."""
    full = replace(view, entries=entries(view.entries, Viewer(gm=True)))
    public = replace(
        full, entries=entries(view.entries, TABLE), document=document(binding, view.document, TABLE)
    )
    if public.entries == full.entries:
        return public
    return replace(public, private=replace(full, ephemeral=True))
