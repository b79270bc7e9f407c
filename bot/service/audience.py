"""A view for an audience: what each reader may see of a battle.

An engine event with an ``audience`` (``engine.ruleset.Event``) is for the GM and the users it names
only (the owner of a hidden character, S-HIDE-1); a rule set's binding says what of its document is
secret (``RuleSet.visible``). Here the service turns each reply into the part the whole table
may read (for the channel, the live status, the public log) and, beside it (``View.private``), what
only its invoker may read. Nothing here knows a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.ruleset import RuleSet
from bot.service import history
from bot.storage.interface import Reads
from bot.views import SECRET_TEXT, EventsView, LogEntry, UndoView
from engine.ruleset import Event


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads: a user (None: the whole table) and whether that user is a GM of the battle."""

    user: str | None = None
    gm: bool = False


#: the whole table: what a public message, the live status and the public log may say
TABLE = Viewer()


def sees(viewer: Viewer, event: Event) -> bool:
    audience = event.audience
    return audience is None or viewer.gm or (viewer.user is not None and viewer.user in audience)


def document(binding: RuleSet, doc: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The battle's document as ``viewer`` may read it."""
    if binding.visible is None or viewer.gm:
        return doc
    return binding.visible(doc, viewer.user)


def text_is_secret(
    binding: RuleSet, before: Any, after: Any, command: Any, events: tuple[Event, ...]
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


#: the undo and redo notes, whose actions are listed by number
_NOTES = ("service.undone", "service.redone")


def _shown(entry: LogEntry, viewer: Viewer) -> tuple[tuple[Event, ...], bool]:
    """The events of ``entry`` the reader may see (marks and notes aside), and whether its text is secret."""
    hidden_text = any(e.kind == SECRET_TEXT and not sees(viewer, e) for e in entry.events)
    return tuple(e for e in entry.events if e.kind != SECRET_TEXT and sees(viewer, e)), hidden_text


def readable(entry: LogEntry, viewer: Viewer) -> bool:
    """S-HIDE-1: does the reader see anything of this log entry (an action wholly secret leaves no trace)?"""
    if viewer.gm:
        return True
    shown, hidden_text = _shown(entry, viewer)
    if any(e.kind in _NOTES for e in shown):
        return True  # a note counts only the actions the reader sees (``_note``), checked apart
    return bool(shown) or (not entry.events and not hidden_text)


def numbers(log: tuple[LogEntry, ...], viewer: Viewer) -> dict[int, int]:
    """Each log entry's number as ``viewer`` reads it (the table counts only what it sees): seq → number.

    ``log`` is the battle's whole log, oldest first. A note (undo, redo) is read where an action it
    names is; the GM reads the real numbers."""
    out: dict[int, int] = {}
    for entry in log:
        if viewer.gm:
            out[entry.seq] = entry.seq
        elif readable(entry, viewer) and _note(entry, viewer, out) is not False:
            out[entry.seq] = len(out) + 1
    return out


def _note(entry: LogEntry, viewer: Viewer, numbered: dict[int, int]) -> LogEntry | bool | None:
    """An undo or redo note as the reader may read it: the actions it names that they see, by their
    numbers (False: none of them; None: the entry is no note)."""
    notes = [e for e in entry.events if e.kind in _NOTES]
    if not notes or viewer.gm:
        return None
    events = []
    text = entry.text
    for e in entry.events:
        if e.kind in _NOTES:
            named = e.data.get("seqs") or []
            seqs = [numbered[s] for s in named if s in numbered]
            if not seqs:
                continue
            e = replace(e, data={**e.data, "steps": len(seqs), "seqs": seqs})
            if len(seqs) != len(named):
                # the command as the table would have typed it for what it saw (its ``steps:`` counted
                # the secret actions too: ``/gm undo steps:2`` that took back one it saw tells of another)
                path = "/gm redo" if e.kind == "service.redone" else "/gm undo"
                text = path if len(seqs) == 1 else f"{path} steps:{len(seqs)}"
        events.append(e)
    if not any(e.kind in _NOTES for e in events):
        return False
    return replace(entry, events=tuple(events), text=text)


def entries(
    log: tuple[LogEntry, ...], viewer: Viewer, numbered: dict[int, int] | None = None
) -> tuple[LogEntry, ...]:
    """Log entries as ``viewer`` may read them: only the events the reader may see, and the command's
    text and actor withheld (``redacted``) where they would name what is secret.

    S-HIDE-1: an entry with nothing the reader may see is left out, and (with ``numbered``, the
    battle's numbers as ``numbers`` gives them) the others carry the reader's numbers, so that no gap
    tells that a secret action happened."""
    out = []
    for entry in log:
        if numbered is not None and entry.seq not in numbered:
            continue
        shown, hidden_text = _shown(entry, viewer)
        if shown == entry.events and not hidden_text:
            read = entry
        else:
            read = replace(entry, events=shown, redacted=hidden_text)
        if numbered is not None:
            note = _note(read, viewer, numbered)
            read = replace(note if isinstance(note, LogEntry) else read, seq=numbered[entry.seq])
        out.append(read)
    return tuple(out)


class TableNumbers:
    """S-HIDE-1: the number a command's public reply shows, as the table counts the log (``numbers``).

    Counted on from the previous reply of the battle this process gave; read from the whole log when
    rows came in between that it did not see (another process, an undo)."""

    #: battles remembered at most
    SIZE = 1000

    def __init__(self) -> None:
        self._last: dict[int, tuple[int, int]] = {}

    async def number(self, reads: Reads, battle_id: int, seq: int, public: bool) -> int:
        """The table's number for the row ``seq`` just stored (its count so far when not ``public``)."""
        last = self._last.get(battle_id)
        if last is not None and last[0] == seq - 1:
            count = last[1] + (1 if public else 0)
        else:
            numbered = numbers(await history.whole_log(reads, battle_id), TABLE)
            count = numbered.get(seq, len(numbered))
        if len(self._last) >= self.SIZE:
            self._last.clear()
        self._last[battle_id] = (seq, count)
        return count


def events_view(view: EventsView, binding: RuleSet, invoker: Viewer, secret_text: bool) -> EventsView:
    """A command's reply: the public events for the channel (without the command's text where it names
    what is secret), and beside them the secrets its invoker may read. All secret: the private part."""
    summaries = tuple(
        replace(
            s,
            events=tuple(e for e in s.events if e.audience is None),
            document=document(binding, s.document, TABLE),
        )
        for s in view.summaries
    )
    if all(e.audience is None for e in view.events) and not secret_text:
        # the round's summary lists earlier commands' events too: the table reads its own of them
        return view if summaries == view.summaries else replace(view, summaries=summaries)
    shown = tuple(e for e in view.events if e.audience is None)
    mine = tuple(e for e in view.events if e.audience is not None and sees(invoker, e))
    private = replace(view, events=mine, summaries=(), ephemeral=True) if mine else None
    if not shown:
        return private if private is not None else replace(view, events=(), summaries=(), ephemeral=True)
    command = "" if secret_text else view.command
    return replace(view, command=command, events=shown, summaries=summaries, private=private)


def undo_view(view: UndoView, binding: RuleSet, log: tuple[LogEntry, ...] | None = None) -> UndoView:
    """An undo or redo (the GM's): the table reads which of its actions, by its numbers (``log``, the
    battle's whole log, gives them); the GM, all, to them only. Only secret actions: the GM's alone."""
    full = replace(view, entries=entries(view.entries, Viewer(gm=True)))
    numbered = numbers(log, TABLE) if log is not None else None
    public = replace(
        full,
        entries=entries(view.entries, TABLE, numbered),
        document=document(binding, view.document, TABLE),
    )
    if public.entries == full.entries:
        return public
    if not public.entries:
        return replace(full, ephemeral=True)
    return replace(public, requested=len(public.entries), private=replace(full, ephemeral=True))
