"""A harness for the ordinary battle engine's tests: apply commands with exactly the scripted dice, read
the state back, and check every event and refusal against ``engine.battle.keys``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import limits
from engine.battle import BATTLE, BattleCommand, BattleState, dice_values, replay
from engine.battle.commands import AddMonster, AddPC, PartSpec, Start
from engine.battle.keys import EVENTS, REFUSALS
from engine.battle.state import PC, Monster, Part
from engine.dice import ScriptedDice
from engine.ruleset import Event, RuleError

GM = "gm-user"


def check_event(event: Event) -> None:
    assert event.kind in EVENTS, event.kind
    assert set(event.data) == set(EVENTS[event.kind]), (event.kind, set(event.data) ^ set(EVENTS[event.kind]))
    assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event  # JSON-ready, both ways


def check_refusal(error: RuleError) -> None:
    if error.key in limits.REFUSALS:  # the limits every rule set shares
        assert set(error.values) <= set(limits.REFUSALS[error.key]), (error.key, error.values)
        return
    if error.key.startswith(("palette.", "dice.")):
        return
    assert error.key in REFUSALS, error.key
    assert set(error.values) <= set(REFUSALS[error.key]), (error.key, error.values)
    json.dumps(error.values)


class Run:
    """A battle under test. ``run(cmd, 3, 4)`` applies ``cmd`` with exactly the dice 3, 4."""

    def __init__(self, state: BattleState | None = None) -> None:
        self.state = state
        self.initial = state
        self.events: list[Event] = []
        self.all_events: list[Event] = []
        self.log: list[tuple[BattleCommand, list[int]]] = []

    def __call__(self, command: BattleCommand, *dice: int) -> list[Event]:
        source = ScriptedDice(dice)
        outcome = BATTLE.apply(self.state, command, source)
        assert source.remaining == 0, f"{source.remaining} scripted dice were not used"
        for event in outcome.events:
            check_event(event)
        assert dice_values(outcome.events) == list(dice)
        self.state = outcome.state
        self.events = list(outcome.events)
        self.all_events += self.events
        self.log.append((command, list(dice)))
        return self.events

    def refused(self, command: BattleCommand, key: str, *dice: int) -> RuleError:
        before = self.state
        snapshot = None if before is None else BATTLE.export(before)
        with pytest.raises(RuleError) as caught:
            BATTLE.apply(self.state, command, ScriptedDice(dice))
        assert caught.value.key == key, caught.value
        check_refusal(caught.value)
        assert self.state is before
        assert snapshot == (None if before is None else BATTLE.export(before))
        return caught.value

    @property
    def s(self) -> BattleState:
        assert self.state is not None
        return self.state

    def pc(self, name: str) -> PC:
        return next(p for p in self.s.pcs if p.name == name)

    def monster(self, name: str) -> Monster:
        return next(m for m in self.s.monsters if m.name == name)

    def part(self, name: str, part: str = "") -> Part:
        return next(p for p in self.monster(name).parts if p.name == part)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def event(self, kind: str, index: int = 0) -> dict[str, Any]:
        return dict([e for e in self.events if e.kind == kind][index].data)

    def only(self, kind: str, index: int = 0) -> Event:
        return [e for e in self.events if e.kind == kind][index]

    def replayed(self) -> BattleState | None:
        return replay(self.initial, self.log)


def pc(name: str, owner: str = "u1", hp: int = 30, **values: Any) -> AddPC:
    return AddPC(name, hp=hp, owner=owner, invoker=owner, **values)


def monster(name: str, hp: int = 20, defense: int = 0, **values: Any) -> AddMonster:
    return AddMonster(name, parts=(PartSpec(hp=hp, defense=defense),), **values)


def battle(*commands: BattleCommand, title: str = "街道の戦い", first: str | None = None) -> Run:
    """A battle started with ``commands`` applied (no dice)."""
    run = Run()
    run(Start(title, first=first))
    for command in commands:
        run(command)
    return run
