"""The log as views, and the round and final summaries built from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ruleset import RuleSet
from bot.service import round_log
from bot.storage.interface import Reads, Storage
from bot.storage.records import EventRow
from bot.views import SECRET_TEXT, LogEntry, Summary
from engine.ruleset import Event

#: how far back a round summary looks for the previous round's end
_PAGE = 100
#: a limit no battle's log reaches (``whole_log``)
_ALL = 1_000_000_000


def events_of(row: EventRow) -> tuple[Event, ...]:
    return tuple(Event.from_json(e) for e in row.events)


def entry(row: EventRow) -> LogEntry:
    return LogEntry(
        seq=row.seq,
        actor=row.actor,
        text=row.command_text,
        kind=row.kind,
        status=row.status,
        events=events_of(row),
        at=row.created_at,
    )


async def whole_log(reads: Reads, battle_id: int) -> tuple[LogEntry, ...]:
    """Every row of the battle's log, oldest first (to number what a reader sees, ``audience.numbers``)."""
    return tuple(entry(r) for r in await reads.log(battle_id, _ALL))


async def summaries(
    storage: Storage,
    binding: RuleSet,
    battle_id: int,
    seq: int,
    events: tuple[Event, ...],
    battle_document: Callable[[], dict[str, Any]],
) -> tuple[Summary, ...]:
    """The summaries ``events`` close: a round summary when a round ended, the final one at the end
    (with the battle's document, exported only then)."""
    kinds = {e.kind for e in events}
    listed = binding.in_summary or (lambda kind: True)

    def keep(kind: str) -> bool:  # the mark that a command's text is secret is never an event to list
        return kind != SECRET_TEXT and listed(kind)

    out: list[Summary] = []
    ends = [i for i, e in enumerate(events) if e.kind in binding.round_end_kinds]
    # the summary's report (the rule set's, ``round_log``): the round's log as it stands
    closes = binding.report is not None and (bool(ends) or bool(kinds & binding.battle_end_kinds))
    log = await round_log.stretch(storage, binding, battle_id, seq) if closes else ()
    document = battle_document() if ends or kinds & binding.battle_end_kinds else {}
    if ends:
        if closes:  # one read of the round's log for both
            earlier = round_log.earlier_events(log, seq)
        else:
            earlier = await _round_so_far(storage, binding, battle_id, seq)
        round_end = events[ends[0]]
        number = round_end.data.get("round")
        number = int(number) if isinstance(number, int) else None
        out.append(
            Summary(
                kind="round",
                round=number,
                events=tuple(e for e in (*earlier, *events[: ends[0] + 1]) if keep(e.kind)),
                document=document,
                report=round_log.report(binding, log, seq, events[: ends[0] + 1], "round", number, document),
                after=ends[0] + 1,
            )
        )
    if kinds & binding.battle_end_kinds:
        # what the round summary did not already list
        rest = events[ends[-1] + 1 :] if ends else events
        out.append(
            Summary(
                kind="final",
                round=None,
                events=tuple(e for e in rest if keep(e.kind)),
                document=document,
                history=await _history(storage, battle_id),
                report=round_log.report(
                    binding,
                    tuple(r for r in log if r.seq == seq) if ends else log,
                    seq,
                    rest,
                    "final",
                    None,
                    document,
                ),
            )
        )
    return tuple(out)


async def _history(storage: Storage, battle_id: int) -> tuple[Event, ...]:
    """Every event of the battle's live actions, oldest first (the battle has just been stored)."""
    return tuple(Event.from_json(e) for e in await storage.live_events(battle_id))


async def _round_so_far(storage: Storage, binding: RuleSet, battle_id: int, seq: int) -> list[Event]:
    """Events of live actions before ``seq`` back to the previous round's end (not included)."""
    rows = await storage.live_event_lists(battle_id, seq, _PAGE)
    collected: list[Event] = []
    for _, raw_events in rows:  # newest first
        row_events = tuple(Event.from_json(e) for e in raw_events)
        ends = [i for i, e in enumerate(row_events) if e.kind in binding.round_end_kinds]
        if ends:
            collected[:0] = row_events[ends[-1] + 1 :]
            break
        collected[:0] = row_events
    return collected
