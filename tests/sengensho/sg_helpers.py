"""A harness for the 千幻抄 engine tests: apply commands with exactly the scripted dice, read the state.

Every event is checked against ``engine.sengensho.keys.EVENTS`` and every refusal against
``REFUSALS``, and every command is logged so that a test can replay the whole battle.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import limits
from engine.dice import ScriptedDice
from engine.ruleset import Event, RuleError
from engine.sengensho import SENGENSHO, SengenshoCommand, SengenshoState, dice_values, replay
from engine.sengensho.commands import Join, Start
from engine.sengensho.keys import EVENTS, REFUSALS
from engine.sengensho.state import Character


def check_event(event: Event) -> None:
    assert event.kind in EVENTS, event.kind
    assert set(event.data) == set(EVENTS[event.kind]), (event.kind, set(event.data) ^ set(EVENTS[event.kind]))


def check_refusal(error: RuleError) -> None:
    if error.key in limits.REFUSALS:  # COMMANDS.md's limits, shared by rule sets
        assert set(error.values) <= set(limits.REFUSALS[error.key]), (error.key, error.values)
        return
    assert error.key in REFUSALS, error.key
    assert set(error.values) <= set(REFUSALS[error.key]), (error.key, error.values)


class Run:
    """A battle under test. ``run(cmd, 3, 4)`` applies ``cmd`` with exactly the dice 3, 4."""

    def __init__(self, state: SengenshoState | None = None) -> None:
        self.state = state
        self.initial = state
        self.events: list[Event] = []
        self.all_events: list[Event] = []
        self.log: list[tuple[SengenshoCommand, list[int]]] = []

    def __call__(self, command: SengenshoCommand, *dice: int) -> list[Event]:
        source = ScriptedDice(dice)
        outcome = SENGENSHO.apply(self.state, command, source)
        assert source.remaining == 0, f"{source.remaining} scripted dice were not used"
        for event in outcome.events:
            check_event(event)
        assert dice_values(outcome.events) == list(dice)
        self.state = outcome.state
        self.events = list(outcome.events)
        self.all_events += self.events
        self.log.append((command, list(dice)))
        return self.events

    def refused(self, command: SengenshoCommand, key: str, *dice: int) -> RuleError:
        before = self.state
        with pytest.raises(RuleError) as caught:
            SENGENSHO.apply(self.state, command, ScriptedDice(dice))
        assert caught.value.key == key, caught.value
        check_refusal(caught.value)
        assert self.state is before
        return caught.value

    @property
    def s(self) -> SengenshoState:
        assert self.state is not None
        return self.state

    def c(self, name: str) -> Character:
        return next(c for c in self.s.characters if c.name == name)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def event(self, kind: str, index: int = 0) -> dict[str, Any]:
        return dict([e for e in self.events if e.kind == kind][index].data)

    def secret(self) -> list[tuple[str, tuple[str, ...]]]:
        """The last command's secret events (S-HIDE-1): kind and audience."""
        return [(e.kind, e.audience) for e in self.events if e.audience is not None]

    def replayed(self) -> SengenshoState | None:
        return replay(self.initial, self.log)


def battle(*joins: Join, opening: str = "full", gm_fixed: str = "off") -> Run:
    """A started battle (turn 0) with these characters."""
    run = Run()
    run(Start("test", opening=opening, gm_fixed=gm_fixed))
    for join in joins:
        run(join)
    return run


def pc(name: str, dp: int = 20, recovery: int = 4, hp: int | None = 30, **more: Any) -> Join:
    return Join(name, dp_max=dp, recovery=recovery, hp=hp, **more)


def enemy(name: str, dp: int = 20, recovery: int = 4, hp: int | None = 30, **more: Any) -> Join:
    return Join(name, dp_max=dp, recovery=recovery, hp=hp, side="enemy", **more)
