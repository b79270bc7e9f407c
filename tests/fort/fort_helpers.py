"""A small harness for the fort engine tests: apply commands with scripted dice, read the state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import limits
from engine.dice import ScriptedDice
from engine.fort import FORT, AddPC, FortCommand, FortState, StartBattle, dice_values
from engine.fort.keys import COMMON_FIELDS, EVENTS, REFUSALS, fields
from engine.fort.state import PC, Commander, Unit
from engine.ruleset import Event, RuleError


def check_catalogued(events: list[Event] | None = None, error: RuleError | None = None) -> None:
    """Every event kind and refusal key is in engine/fort/keys.py, with no field outside its list."""
    for event in events or []:
        assert event.kind in EVENTS, event.kind
        assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event  # JSON-ready, both ways
        assert set(event.data) <= fields(EVENTS[event.kind]) | COMMON_FIELDS, (event.kind, set(event.data))
    if error is not None and error.key in limits.REFUSALS:  # COMMANDS.md's limits, shared by rule sets
        assert set(error.values) <= set(limits.REFUSALS[error.key]), (error.key, set(error.values))
    elif error is not None:
        assert error.key in REFUSALS, error.key
        assert set(error.values) <= fields(REFUSALS[error.key]), (error.key, set(error.values))
        json.dumps(error.values)


class Run:
    """A battle under test. ``run(cmd, 3, 4)`` applies ``cmd`` with exactly the dice 3, 4."""

    def __init__(self, state: FortState | None = None) -> None:
        self.state = state
        self.initial = state
        self.events: list[Event] = []
        self.all_events: list[Event] = []
        self.log: list[tuple[FortCommand, list[int]]] = []

    def __call__(self, command: FortCommand, *dice: int) -> list[Event]:
        source = ScriptedDice(dice)
        outcome = FORT.apply(self.state, command, source)
        assert source.remaining == 0, f"{source.remaining} scripted dice were not used"
        self.state = outcome.state
        self.events = list(outcome.events)
        check_catalogued(self.events)
        self.all_events += self.events
        self.log.append((command, dice_values(outcome.events)))
        return self.events

    def refused(self, command: FortCommand, key: str, *dice: int) -> RuleError:
        before = self.state
        snapshot = None if before is None else FORT.export(before)
        with pytest.raises(RuleError) as caught:
            FORT.apply(self.state, command, ScriptedDice(dice))
        assert caught.value.key == key, caught.value
        assert self.state is before  # the harness keeps it; the export shows nothing inside changed
        assert snapshot == (None if before is None else FORT.export(before))
        check_catalogued(error=caught.value)
        return caught.value

    @property
    def s(self) -> FortState:
        assert self.state is not None
        return self.state

    def unit(self, name: str) -> Unit:
        return next(u for u in self.s.units if u.name == name)

    def pc(self, name: str) -> PC:
        return next(p for p in self.s.pcs if p.name == name)

    def commander(self, name: str) -> Commander:
        return next(c for c in self.s.commanders if c.name == name)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def event(self, kind: str, index: int = 0) -> dict[str, Any]:
        return dict([e for e in self.events if e.kind == kind][index].data)

    def all_of(self, kind: str) -> list[dict[str, Any]]:
        return [dict(e.data) for e in self.events if e.kind == kind]


def battle(rounds: int = 3, *, alice: bool = True, **options: Any) -> Run:
    """A started battle; with ``alice``, the PC Alice (owner u1, HP 40, move 20) at the fort top."""
    run = Run()
    run(StartBattle(rounds=rounds, **options))
    if alice:
        run(AddPC(name="Alice", hp=40, move=20, invoker="u1"))
    run.initial = run.state
    run.log.clear()
    return run
