"""The fast runs against the engine: the dice a fast run used, replayed through the engine's own
commands (``reference.play``: /unit advance, /unit attack, /fort next, /fort repair, /cannon fire and
load, /ballista fire and load, the attacks as /commander hp and /unit hp), give the same end state,
field by field, and the same fort damage per unit;
every die is used, none is left over. Random battles cover every rule the planner plays."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from random_battles import random_battle, random_request

from engine.dice import ScriptedDice
from engine.fort.export import export_state
from engine.fort.planner.fast import FastBattle
from engine.fort.planner.reference import play
from engine.fort.planner.rolls import PlannerDice, RecordingPlannerDice

BATTLES = 240
RUNS_EACH = 4
#: what the random battles must have made the engine do at least once (else the test proves less)
MUST_HAPPEN = {
    "trap.barricade", "trap.passed", "trap.rammed", "trap.mine", "unit.destroyed", "unit.arrived",
    "cannon.fired", "cannon.loaded", "fort.repaired", "battle.confusion_ended", "unit.hp_changed",
    "fort.damaged:enter", "fort.damaged:turn_start", "fort.damaged:end", "stopped:blocked",
    "ballista.loaded", "ballista.fired", "magic_bolt", "commander.hp_changed", "battle.confused",
    "unit.attacked:enemy", "unit.attacked:soldier", "unit.destroyed:soldier",
    "stopped:barricade", "stopped:destroyed", "outcome:success", "outcome:collapse",
}  # fmt: skip


def _happened(events: tuple) -> set[str]:  # type: ignore[type-arg]
    seen = set()
    for event in events:
        seen.add(event.kind)
        if event.kind == "fort.damaged":
            seen.add(f"fort.damaged:{event.data['source']}")
        if event.kind == "unit.moved" and event.data["stopped"]:
            seen.add(f"stopped:{event.data['stopped']}")
        if event.kind == "ballista.loaded" and event.data["magic_bolt"]:
            seen.add("magic_bolt")
        if event.kind == "unit.attacked":
            seen.add("unit.attacked:" + ("soldier" if event.data["attacker"].startswith("兵") else "enemy"))
        if event.kind == "unit.destroyed" and event.data["unit"].startswith("兵"):
            seen.add("unit.destroyed:soldier")
        if event.kind == "battle.ended":
            seen.add(f"outcome:{event.data['outcome']}")
    return seen


def test_fast_runs_replayed_through_the_engine_end_the_same() -> None:
    rng = random.Random(20261201)
    happened: Counter[str] = Counter()
    for number in range(BATTLES):
        state, request = random_battle(rng), random_request(rng)
        dice = RecordingPlannerDice(PlannerDice(request.seed))
        fast = FastBattle(state, request, dice)
        for _ in range(RUNS_EACH):
            dice.values.clear()
            before = list(fast.damage)
            fast.run()
            replayed = ScriptedDice(dice.values)
            played = play(state, request, replayed)
            assert replayed.remaining == 0, (number, state, request)
            assert fast.end_document() == export_state(played.state), (number, state, request)
            dealt = tuple(after - was for after, was in zip(fast.damage, before, strict=True))
            assert dealt == played.fort_damage, (number, state, request)
            happened.update(_happened(played.events))
    missing = MUST_HAPPEN - set(happened)
    assert not missing, missing


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_same_seed_gives_the_same_answer(seed: int) -> None:
    from engine.fort.planner import plan

    rng = random.Random(seed)
    state, request = random_battle(rng), random_request(rng)
    assert plan(state, request) == plan(state, request)
