"""``/fort odds`` fair to every table: plans run in slices handed out round-robin, so a small plan
asked while big ones of other channels run is answered first (the order of the slices, not a timing:
the big ones need a hundred slices each, the small one one); a channel's second plan is refused in
words; the answer is the one ``plan`` gives, whatever else ran between its slices."""

from __future__ import annotations

import asyncio

import pytest
from planner_helpers import battle

from bot.rulesets.fort.planner.runner import OddsRunner
from engine.errors import EngineError
from engine.fort import AddUnit, StartBattle
from engine.fort.export import export_state
from engine.fort.planner import PlanRequest, parse_pc_damage, plan

STATE = battle(
    StartBattle(rounds=2, fort_hp=40, title="北の砦"),
    AddUnit(name="破城槌", type="ram", area="A1", hp=15, fort_damage=0, strike="2d+10"),
    AddUnit(name="ゴブリン隊", type="normal", area="A2", hp=12, fort_damage=8),
)
DOCUMENT = export_state(STATE)


def request(runs: int, seed: int) -> PlanRequest:
    return PlanRequest(runs=runs, attacks=parse_pc_damage("2d+4"), seed=seed)


async def test_a_small_plan_is_not_queued_behind_big_ones() -> None:
    runner = OddsRunner(workers=1)
    big = [
        asyncio.create_task(runner.run(DOCUMENT, request(100_000, seed), ("g", channel)))
        for seed, channel in ((1, "east"), (2, "west"))
    ]
    small = asyncio.create_task(runner.run(DOCUMENT, request(1_000, 3), ("g", "north")))
    try:
        result = await small
        # one slice of the first plan was running, one of each plan came before the small one's
        assert not any(task.done() for task in big)
        done = [runner.progress(("g", channel)) for channel in ("east", "west")]
        assert all(d is not None and d <= 3_000 for d in done), done
        assert result == plan(STATE, request(1_000, 3))
        # the same channel again, while its plan runs: refused, saying how far it has got
        with pytest.raises(EngineError) as refused:
            await runner.run(DOCUMENT, request(1_000, 4), ("g", "east"))
        assert refused.value.key == "odds.busy"
        assert refused.value.values["runs"] == 100_000 and refused.value.values["done"] <= 100_000
    finally:
        for task in big:
            task.cancel()
        await asyncio.gather(*big, return_exceptions=True)
        await runner.close()
    assert runner.progress(("g", "east")) is None  # a plan given up is handed out no more


async def test_slices_of_two_plans_interleaved_answer_as_plan_does() -> None:
    """Two plans of 2,500 runs (slices of 1,000, 1,000 and 500) on two workers, interleaved: each
    answer is the one ``plan`` gives on its own."""
    runner = OddsRunner(workers=2)
    try:
        first, second = await asyncio.gather(
            runner.run(DOCUMENT, request(2_500, 8), ("g", "a")),
            runner.run(DOCUMENT, request(2_500, 9), ("g", "b")),
        )
    finally:
        await runner.close()
    assert first == plan(STATE, request(2_500, 8)) and second == plan(STATE, request(2_500, 9))
    assert first.runs == 2_500
