"""The odds planner (``/fort odds``, ``toride odds``): "will the fort hold?".

``plan(state, PlanRequest(...))`` plays the rest of a battle many times by the rules: the enemy by
the auto-advance with every die rolled and its units' attacks on soldiers, the PC side by the policy
of ``policy`` (the damage the GM gives per round, aimed by ``focus``; repair, cannons and the
ballista on request). The runs are fast (``fast.FastBattle``), in slices (``run_slice``, ``Tally``,
``answer``: what a service interleaves); the same policy played through the engine itself
(``reference.play``) is what they are checked against. ``not_played`` names what of the battle the
planner leaves out.
"""

from engine.fort.planner.odds import (
    SLICE_RUNS,
    CommanderEnd,
    Facts,
    OddsResult,
    Tally,
    Threat,
    answer,
    facts,
    percentile,
    plan,
    run_slice,
    slice_runs,
)
from engine.fort.planner.omissions import Omission, not_played
from engine.fort.planner.request import (
    DEFAULT_RUNS,
    MAX_RUNS,
    MIN_RUNS,
    Attack,
    Focus,
    PlanRequest,
    parse_focus,
    parse_pc_damage,
)

__all__ = [
    "DEFAULT_RUNS",
    "MAX_RUNS",
    "MIN_RUNS",
    "SLICE_RUNS",
    "Attack",
    "CommanderEnd",
    "Facts",
    "Focus",
    "OddsResult",
    "Omission",
    "PlanRequest",
    "Tally",
    "Threat",
    "answer",
    "facts",
    "not_played",
    "parse_focus",
    "parse_pc_damage",
    "percentile",
    "plan",
    "run_slice",
    "slice_runs",
]
