"""The log as views, and the round and final summaries built from it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.rulesets import RulesetBinding
from bot.storage import repository as repo
from bot.storage.models import ACTION, LIVE, NOTE
from bot.views import LogEntry, Summary
from engine.fort.report import Action, Undo
from engine.ruleset import Event

#: how far back a round summary looks for the previous round's end
_PAGE = 100


def events_of(row: repo.EventRow) -> tuple[Event, ...]:
    return tuple(Event.from_json(e) for e in row.events)


def entry(row: repo.EventRow) -> LogEntry:
    return LogEntry(
        seq=row.seq,
        actor=row.actor,
        text=row.command_text,
        kind=row.kind,
        status=row.status,
        events=events_of(row),
        at=row.created_at,
    )


async def summaries(
    engine: AsyncEngine,
    binding: RulesetBinding,
    battle_id: int,
    seq: int,
    events: tuple[Event, ...],
    document: dict[str, Any],
) -> tuple[Summary, ...]:
    """The summaries ``events`` close: a round summary when a round ended, the final one at the end."""
    kinds = {e.kind for e in events}
    keep = binding.in_summary or (lambda kind: True)
    out: list[Summary] = []
    ends = [i for i, e in enumerate(events) if e.kind in binding.round_end_kinds]
    closes = bool(ends) or bool(kinds & binding.battle_end_kinds)
    earlier, log = await _round_so_far(engine, binding, battle_id, seq) if closes else ([], ())
    if ends:
        round_end = events[ends[0]]
        number = round_end.data.get("round")
        number = int(number) if isinstance(number, int) else None
        mine = events[: ends[0] + 1]
        out.append(
            Summary(
                kind="round",
                round=number,
                events=tuple(e for e in (*earlier, *mine) if keep(e.kind)),
                document=document,
                report=_report(binding, log, seq, mine, "round", number, document),
                after=ends[0] + 1,
            )
        )
    if kinds & binding.battle_end_kinds:
        # what the round summary did not already list
        rest = events[ends[-1] + 1 :] if ends else events
        before = tuple(row for row in log if row.seq == seq) if ends else log
        out.append(
            Summary(
                kind="final",
                round=None,
                events=tuple(e for e in (*(() if ends else earlier), *rest) if keep(e.kind)),
                document=document,
                history=await _history(engine, battle_id),
                report=_report(binding, before, seq, rest, "final", None, document),
            )
        )
    return tuple(out)


def _report(
    binding: RulesetBinding,
    log: tuple[repo.EventRow, ...],
    seq: int,
    mine: tuple[Event, ...],
    kind: str,
    number: int | None,
    document: dict[str, Any],
) -> Any:
    """The rule set's report of the round: ``log`` (its earlier rows) and this action's ``mine``."""
    if binding.report is None:
        return None
    texts = {row.seq: row.command_text for row in log}
    entries: list[Action | Undo] = []
    current = None
    for row in log:
        if row.seq == seq:
            current = row
        elif row.kind == ACTION and row.status == LIVE:
            entries.append(Action(row.seq, row.actor, row.command_text, events_of(row)))
        elif row.kind == NOTE:
            for note in events_of(row):
                if note.kind in ("service.undone", "service.redone"):
                    seqs = tuple(int(n) for n in note.data.get("seqs", ()))
                    texts_of = tuple(texts[n] for n in seqs if n in texts)
                    entries.append(Undo(row.seq, row.actor, note.kind == "service.redone", seqs, texts_of))
    if current is not None:
        entries.append(Action(seq, current.actor, current.command_text, mine))
    return binding.report(entries, kind, number, document)

async def _history(engine: AsyncEngine, battle_id: int) -> tuple[Event, ...]:
    """Every event of the battle's live actions, oldest first (the battle has just been stored)."""
    async with engine.connect() as conn:
        return tuple(Event.from_json(e) for e in await repo.live_events(conn, battle_id))


async def _round_so_far(
    engine: AsyncEngine, binding: RulesetBinding, battle_id: int, seq: int
) -> tuple[list[Event], tuple[repo.EventRow, ...]]:
    """Events of live actions before ``seq`` back to the previous round's end (not included); and the
    log's rows of that stretch up to ``seq`` (undone actions and the GM's undos too), oldest first."""
    async with engine.connect() as conn:
        rows = await repo.log(conn, battle_id, _PAGE + 1)
    collected: list[Event] = []
    stretch: list[repo.EventRow] = []
    for row in reversed(rows):  # newest first
        if row.seq > seq:
            continue
        if row.seq == seq:
            stretch.append(row)
            continue
        live = row.kind == ACTION and row.status == LIVE
        row_events = events_of(row) if live else ()
        ends = [i for i, e in enumerate(row_events) if e.kind in binding.round_end_kinds]
        if ends:
            collected[:0] = row_events[ends[-1] + 1 :]
            if ends[-1] + 1 < len(row_events):
                stretch.append(replace(row, events=row.events[ends[-1] + 1 :]))
            break
        collected[:0] = row_events
        stretch.append(row)
    return collected, tuple(reversed(stretch))
