"""The odds planner (``/fort odds``, ``toride odds``): "will the fort hold?".

``plan(state, PlanRequest(...))`` plays the rest of a battle many times by the rules: the enemy by
the auto-advance with every die rolled, the PC side by the policy of ``policy`` (the damage the GM
gives per round, repair and cannons on request). The runs are fast (``fast.FastBattle``); the same
policy played through the engine itself (``reference.play``) is what they are checked against.
"""

from engine.fort.planner.odds import OddsResult, Threat, percentile, plan
from engine.fort.planner.request import (
    DEFAULT_RUNS,
    MAX_RUNS,
    MIN_RUNS,
    Attack,
    PlanRequest,
    parse_pc_damage,
)

__all__ = [
    "DEFAULT_RUNS",
    "MAX_RUNS",
    "MIN_RUNS",
    "Attack",
    "OddsResult",
    "PlanRequest",
    "Threat",
    "parse_pc_damage",
    "percentile",
    "plan",
]
