"""Battles for the planner tests, built with the engine's own commands."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.cli import main
from engine.dice import ScriptedDice
from engine.fort import FORT, FortCommand, FortState, StartBattle
from engine.fort.planner import Focus, OddsResult, PlanRequest, parse_pc_damage, plan


def battle(start: StartBattle, *commands: FortCommand) -> FortState:
    """A battle set up without a die (a command that rolls would fail here: set-ups roll nothing)."""
    state = FORT.apply(None, start, ScriptedDice([])).state
    for command in commands:
        state = FORT.apply(state, command, ScriptedDice([])).state
    return state


def estimate(
    state: FortState,
    *,
    runs: int = 20_000,
    pc_damage: str | None = None,
    repair: bool = False,
    seed: int = 17,
    focus: Focus = Focus.THREATS,
) -> OddsResult:
    return plan(
        state,
        PlanRequest(runs=runs, attacks=parse_pc_damage(pc_damage), equipment=repair, seed=seed, focus=focus),
    )


def within_three_sigma(result: OddsResult, exact: float) -> bool:
    """The estimate is within 3σ of the exact chance (σ of a fraction of ``runs`` draws)."""
    sigma = (exact * (1 - exact) / result.runs) ** 0.5
    return abs(result.hold - exact) <= 3 * sigma


def toride(*args: str, cwd: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``toride ARGS`` run in ``cwd`` (in this process): its exit status, standard output and error."""
    here = Path.cwd()
    os.chdir(cwd)
    try:
        code = main(list(args))
    finally:
        os.chdir(here)
    out, err = capsys.readouterr()
    return code, out, err
