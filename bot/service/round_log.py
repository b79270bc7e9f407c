"""A round's stretch of the log, as a rule set's summary report reads it (``RuleSet.report``):
every row since the previous round's end — live actions with who ran them and their events, undone
ones, and the GM's undos and redos — up to the action that closes the round."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.ruleset import RuleSet
from bot.storage.interface import Reads
from bot.storage.models import ACTION, LIVE, NOTE
from bot.storage.records import EventRow
from engine.report import Action, Undo
from engine.ruleset import Event

#: how far back the stretch looks for the previous round's end (as ``history``'s round summary)
PAGE = 100


def _events(row: EventRow) -> tuple[Event, ...]:
    return tuple(Event.from_json(e) for e in row.events)


async def stretch(reads: Reads, binding: RuleSet, battle_id: int, seq: int) -> tuple[EventRow, ...]:
    """The log's rows after the previous round's end up to ``seq``, oldest first (the row that ended the
    previous round with only its events after the end)."""
    rows = await reads.log(battle_id, PAGE + 1)
    out: list[EventRow] = []
    for row in reversed(rows):  # newest first
        if row.seq > seq:
            continue
        live = row.kind == ACTION and row.status == LIVE
        events = _events(row) if live and row.seq != seq else ()
        ends = [i for i, e in enumerate(events) if e.kind in binding.round_end_kinds]
        if ends:
            if ends[-1] + 1 < len(events):
                out.append(replace(row, events=row.events[ends[-1] + 1 :]))
            break
        out.append(row)
    return tuple(reversed(out))


def earlier_events(rows: tuple[EventRow, ...], seq: int) -> list[Event]:
    """The events of the live actions of ``rows`` before ``seq``: what ``history`` reads for a round
    summary's events, from the same read."""
    return [
        event
        for row in rows
        if row.seq != seq and row.kind == ACTION and row.status == LIVE
        for event in _events(row)
    ]


def report(
    binding: RuleSet,
    rows: tuple[EventRow, ...],
    seq: int,
    mine: tuple[Event, ...],
    kind: str,
    number: int | None,
    document: dict[str, Any],
) -> Any:
    """The rule set's report of ``rows``, the action ``seq`` with its events ``mine`` (the part of its
    events the summary covers) last; None for a rule set without reports."""
    if binding.report is None:
        return None
    texts = {row.seq: row.command_text for row in rows}
    entries: list[Action | Undo] = []
    current = None
    for row in rows:
        if row.seq == seq:
            current = row
        elif row.kind == ACTION and row.status == LIVE:
            entries.append(Action(row.seq, row.actor, row.command_text, _events(row)))
        elif row.kind == NOTE:
            for note in _events(row):
                if note.kind in ("service.undone", "service.redone"):
                    seqs = tuple(int(n) for n in note.data.get("seqs", ()))
                    # a command older than the page read is named by its number only
                    undone = tuple(texts.get(n, "") for n in seqs)
                    entries.append(Undo(row.seq, row.actor, note.kind == "service.redone", seqs, undone))
    if current is not None:
        entries.append(Action(seq, current.actor, current.command_text, mine))
    return binding.report(entries, kind, number, document)
