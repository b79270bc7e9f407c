"""The fort's HP by round, and what moved it, from a battle's events: pure, for the final chart.

It reads the events the fort engine emits (``engine/fort/keys.py``): ``battle.started`` (the HP
it starts with), ``battle.turn_started`` and ``battle.round_summary`` (which round it is, and the
HP at each round's end), and every change of the fort's HP: ``fort.damaged`` (a unit entering or
standing in F0, F-FORT-4; the final round's end; a siege effect, F-FORT-5), ``fort.healed``,
``fort.repaired`` (F-FORT-2, F-FORT-3) and the GM's ``/gm set fort.hp``. An imported battle
starts where its first change started.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.fort.report import fort_hp_change
from engine.ruleset import Event


@dataclass(frozen=True, slots=True)
class Cause:
    """One reason the fort's HP changed in a round, all its changes added up (damage is negative).

    ``kind``: ``unit`` (``name`` the unit), ``siege`` (``name`` the effect: mattock, meteor, titanfoot,
    fixed), ``repair`` (``name`` who repaired), ``heal`` or ``gm``."""

    kind: str
    name: str | None
    amount: int


@dataclass(frozen=True, slots=True)
class RoundHP:
    round: int
    start: int
    end: int
    #: biggest change first (then in the order they happened)
    causes: tuple[Cause, ...] = ()

    def main(self, count: int = 2) -> tuple[Cause, ...]:
        """The round's main causes: its ``count`` biggest changes."""
        return self.causes[:count]


@dataclass(frozen=True, slots=True)
class FortTimeline:
    start: int
    max_hp: int
    rounds: tuple[RoundHP, ...] = ()

    @property
    def end(self) -> int:
        return self.rounds[-1].end if self.rounds else self.start


@dataclass
class _Round:
    changes: dict[tuple[str, str | None], int] = field(default_factory=dict)
    end: int | None = None


def _name(value: Any) -> str | None:
    return str(value) if value is not None else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def fort_timeline(events: Iterable[Event], document: Mapping[str, Any]) -> FortTimeline:
    """Fort HP at the start and at each round's end, with each round's causes. ``document`` (the
    battle as it ended) gives what the events do not: the HP of a battle with no change at all."""
    fort = document.get("fort") or {}
    start: int | None = None
    max_hp = _int(fort.get("max_hp")) or 0
    current: int | None = None
    rounds: dict[int, _Round] = {}
    pending = _Round()  # changes before any round is known (an imported battle)

    def here() -> _Round:
        return pending if current is None else rounds.setdefault(current, _Round())

    def at(number: Any) -> None:
        nonlocal current, pending
        if isinstance(number, int) and not isinstance(number, bool):
            if current is None and pending.changes:
                rounds.setdefault(number, _Round()).changes.update(pending.changes)
                rounds[number].end = pending.end
                pending = _Round()
            current = number
            rounds.setdefault(number, _Round())

    for event in events:
        data = event.data
        if event.kind == "battle.started":
            start = _int(data.get("fort_hp"))
            max_hp = max(max_hp, start or 0)
            at(1)
        elif event.kind == "battle.turn_started":
            at(data.get("round"))
        elif (change := fort_hp_change(event)) is not None:
            # the summary's reading of every change of the fort's HP (``engine.fort.report``)
            cause, name, before, after = change
            if start is None:
                start = before
            max_hp = max(max_hp, before, after)
            key = ("unit", name) if cause in ("enter", "turn_start", "end") else (cause, name)
            round_ = here()
            round_.changes[key] = round_.changes.get(key, 0) + after - before
            round_.end = after
        elif event.kind == "battle.gm_set" and data.get("target") == "fort.max_hp":
            max_hp = max(max_hp, _int(data.get("after")) or 0)
        elif event.kind in ("battle.round_summary", "battle.ended"):
            at(data.get("round"))
            end = _int(data.get("fort_hp"))
            if end is not None:
                here().end = end
                if start is None:
                    start = end
    if start is None:
        start = _int(fort.get("hp")) or 0
    return FortTimeline(start, max(max_hp, start), _rounds(rounds, start))


def _rounds(rounds: Mapping[int, _Round], start: int) -> tuple[RoundHP, ...]:
    """Every round from the first to the last reached (a quiet round keeps the HP it had)."""
    if not rounds:
        return ()
    out: list[RoundHP] = []
    hp = start
    for number in range(min(rounds), max(rounds) + 1):
        round_ = rounds.get(number, _Round())
        end = round_.end if round_.end is not None else hp
        ordered = sorted(round_.changes.items(), key=lambda kv: -abs(kv[1]))  # stable: ties keep order
        causes = tuple(Cause(kind, name, amount) for (kind, name), amount in ordered if amount)
        out.append(RoundHP(number, hp, end, causes))
        hp = end
    return tuple(out)
