"""A round's summary as a GM would write it, from the round's actions and their events: pure.

``round_report(entries, kind=..., round_=...)`` takes the round's log in order — each action with who ran
it, its text and its events (with their dice), and each undo or redo of the GM — and answers the data of
the summary: the actions in order, then a table: the fort's HP at the start and the end with every change
by its cause (damage as a unit enters F0 or stands there at the turn's start (F-FORT-4), at the final
round's end, siege effects (F-FORT-5), emergency repair (F-FORT-3), heal (F-FORT-2), the GM's
``/gm set``), units destroyed, arrivals, traps spent, commanders fallen.

The changes add up: ``start + sum(change.amount) == end``. Every event that moves the fort's HP carries
its ``before`` and ``after`` (a ``/gm set fort.max_hp`` that lowers the HP too, ``fort_hp_before`` and
``fort_hp_after``), so the HP at the start is the ``before`` of the round's first change, and when the
round has none it is the HP the round ends with.

The log's entries (``Action``, ``Undo``) are every rule set's: ``engine.report`` (imported here too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.common import fold
from engine.report import Action as Action
from engine.report import Entry as Entry
from engine.report import Undo as Undo
from engine.ruleset import Event

#: events whose line the summary's table says better (the round's end, repeated in the reply)
_NOT_LISTED = frozenset({"battle.round_summary"})

#: the causes of a change of the fort's HP, in the order the table lists them
CAUSES = ("enter", "turn_start", "end", "siege", "repair", "heal", "gm")


@dataclass(frozen=True, slots=True)
class HPChange:
    """Every change of the fort's HP with one cause in the round, added up (damage is negative).

    ``name``: the unit (``enter``, ``turn_start``, ``end``), the effect (``siege``: mattock, meteor,
    titanfoot, fixed), who repaired (``repair``); None for ``heal`` and ``gm``."""

    cause: str
    name: str | None
    amount: int
    #: how many events it adds up
    count: int = 1


@dataclass(frozen=True, slots=True)
class TrapSpent:
    kind: str
    edge: str
    spent: int
    left: int


@dataclass(frozen=True, slots=True)
class Arrival:
    unit: str
    area: str


@dataclass(frozen=True, slots=True)
class RoundReport:
    #: ``round`` or ``final``
    kind: str
    round: int | None
    #: the round's actions and undos, in order; each action's events without those the table says
    entries: tuple[Entry, ...]
    fort_start: int | None
    fort_end: int | None
    fort_max: int | None
    changes: tuple[HPChange, ...]
    destroyed: tuple[str, ...] = ()
    arrivals: tuple[Arrival, ...] = ()
    traps: tuple[TrapSpent, ...] = ()
    commanders_down: tuple[str, ...] = ()
    outcome: str | None = None

    @property
    def fort_change(self) -> int:
        return sum(change.amount for change in self.changes)

    @property
    def adds_up(self) -> bool:
        if self.fort_start is None or self.fort_end is None:
            return not self.changes
        return self.fort_start + self.fort_change == self.fort_end


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def fort_hp_change(event: Event) -> tuple[str, str | None, int, int] | None:
    """(cause, name, before, after) of an event that moves the fort's HP; None for any other."""
    data = event.data
    if event.kind == "battle.gm_set":
        if fold(str(data.get("target"))) == "fort.hp":  # as the GM typed it: ``Fort.HP`` too
            before, after = _int(data.get("before")), _int(data.get("after"))
        else:
            before, after = _int(data.get("fort_hp_before")), _int(data.get("fort_hp_after"))
        return None if before is None or after is None else ("gm", None, before, after)
    if event.kind not in ("fort.damaged", "fort.healed", "fort.repaired"):
        return None
    before, after = _int(data.get("before")), _int(data.get("after"))
    if before is None or after is None:
        return None
    if event.kind == "fort.healed":
        return "heal", None, before, after
    if event.kind == "fort.repaired":
        return "repair", _name(data.get("by")), before, after
    source = str(data.get("source"))
    if source == "siege":
        return "siege", _name(data.get("effect")), before, after
    cause = source if source in ("enter", "turn_start", "end") else "enter"
    return cause, _name(data.get("unit")), before, after


def _name(value: Any) -> str | None:
    return None if value is None else str(value)


def listed(event: Event) -> bool:
    """Does the summary list this event under its action (rather than only in the table)?"""
    return event.kind not in _NOT_LISTED


def round_report(
    entries: Sequence[Entry],
    *,
    kind: str = "round",
    round_: int | None = None,
    fort_max: int | None = None,
    fort_now: int | None = None,
) -> RoundReport:
    """The summary of ``entries`` (the round's log, oldest first). ``fort_now``: the fort's HP after them,
    for a round with no change and no round-end event (a final summary right after a round's end)."""
    changes: dict[tuple[str, str | None], list[int]] = {}
    start: int | None = None
    end: int | None = None
    destroyed: list[str] = []
    arrivals: list[Arrival] = []
    traps: dict[tuple[str, str], list[int]] = {}
    down: list[str] = []
    outcome: str | None = None
    shown: list[Entry] = []
    number = round_
    for entry in entries:
        if isinstance(entry, Undo):
            shown.append(entry)
            continue
        for event in entry.events:
            data = event.data
            change = fort_hp_change(event)
            if change is not None:
                cause, name, before, after = change
                if start is None:
                    start = before
                end = after
                if after != before:
                    total = changes.setdefault((cause, name), [0, 0])
                    total[0] += after - before
                    total[1] += 1
            if event.kind in ("battle.round_summary", "battle.ended"):
                number = _int(data.get("round")) if number is None else number
                end = _int(data.get("fort_hp")) if _int(data.get("fort_hp")) is not None else end
                fort_max = _int(data.get("fort_max_hp")) or fort_max
                if event.kind == "battle.ended":
                    outcome = _name(data.get("outcome"))
            elif event.kind == "battle.outcome_set":
                outcome = _name(data.get("after"))
            elif event.kind == "unit.destroyed":
                destroyed.append(str(data.get("unit")))
            elif event.kind == "unit.revived" and str(data.get("unit")) in destroyed:
                destroyed.remove(str(data.get("unit")))
            elif event.kind == "unit.arrived":
                arrivals.append(Arrival(str(data.get("unit")), str(data.get("area"))))
            elif event.kind in ("trap.mine", "trap.barricade", "trap.rammed"):
                _spend(traps, event)
            elif event.kind == "commander.hp_changed":
                _commander(down, data)
        shown.append(Action(entry.seq, entry.actor, entry.text, tuple(e for e in entry.events if listed(e))))
    if end is None:
        end = fort_now
    if start is None:
        start = end
    return RoundReport(
        kind=kind,
        round=number,
        entries=tuple(shown),
        fort_start=start,
        fort_end=end,
        fort_max=fort_max,
        changes=_ordered(changes),
        destroyed=tuple(destroyed),
        arrivals=tuple(arrivals),
        traps=tuple(TrapSpent(k, e, used[0], used[1]) for (k, e), used in traps.items()),
        commanders_down=tuple(down),
        outcome=outcome,
    )


def _spend(traps: dict[tuple[str, str], list[int]], event: Event) -> None:
    data = event.data
    before, after = _int(data.get("uses_before")), _int(data.get("uses_after"))
    if before is None or after is None:
        return
    kind = event.kind.removeprefix("trap.")
    kind = "barricade" if kind == "rammed" else kind
    used = traps.setdefault((kind, str(data.get("edge"))), [0, after])
    used[0] += before - after
    used[1] = after


def _commander(down: list[str], data: Mapping[str, Any]) -> None:
    name = str(data.get("commander"))
    before, after = _int(data.get("before")), _int(data.get("after"))
    if before is None or after is None:
        return
    if before > 0 >= after and name not in down:
        down.append(name)
    elif after > 0 and name in down:
        down.remove(name)


def _ordered(changes: Mapping[tuple[str, str | None], list[int]]) -> tuple[HPChange, ...]:
    """By cause in the order of ``CAUSES``, then in the order they happened."""
    rank = {cause: i for i, cause in enumerate(CAUSES)}
    items = sorted(enumerate(changes.items()), key=lambda item: (rank.get(item[1][0][0], len(rank)), item[0]))
    return tuple(HPChange(cause, name, total, count) for _, ((cause, name), (total, count)) in items)
