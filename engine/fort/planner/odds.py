"""``plan(state, request)``: many runs of the rest of a battle, and what they say (``OddsResult``).

What is kept does not grow with the number of runs: how many runs ended with each fort HP, in each
round of a fall, and the fort damage each unit dealt in all of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from math import sqrt
from typing import Any

from engine.fort.planner.fast import FastBattle
from engine.fort.planner.request import Attack, PlanRequest
from engine.fort.planner.rolls import PlannerDice
from engine.fort.state import FortState

PERCENTILES = (10, 50, 90)


@dataclass(frozen=True, slots=True)
class Threat:
    """A unit and the fort damage it dealt, summed over every run."""

    unit: str
    fort_damage: int


@dataclass(frozen=True, slots=True)
class OddsResult:
    """What the runs gave: how many held (防衛成功, F-END-2), the fort's HP at the end of each (0 for a
    fall), the round of each fall, and the units that dealt the fort damage (most first)."""

    runs: int
    held: int
    seed: int
    rounds: int
    round: int
    fort_max_hp: int
    #: (fort HP at the end, 0 when it fell; how many runs), by HP
    final_hp: tuple[tuple[int, int], ...]
    #: (round, how many runs fell in it), by round
    fall_rounds: tuple[tuple[int, int], ...]
    threats: tuple[Threat, ...]
    attacks: tuple[Attack, ...] = ()
    equipment: bool = False

    @property
    def hold(self) -> float:
        """The chance that the defence holds, as a fraction."""
        return self.held / self.runs

    @property
    def margin(self) -> float:
        """Three standard errors of ``hold`` (the estimate is within this of the truth, almost surely)."""
        return 3 * sqrt(self.hold * (1 - self.hold) / self.runs)

    @property
    def falls(self) -> int:
        return self.runs - self.held

    def hp_percentile(self, p: int) -> int:
        return percentile(self.final_hp, p)

    def fall_percentile(self, p: int) -> int | None:
        return percentile(self.fall_rounds, p) if self.fall_rounds else None

    def mean_damage(self, threat: Threat) -> float:
        return threat.fort_damage / self.runs

    def share(self, threat: Threat) -> float:
        total = sum(t.fort_damage for t in self.threats)
        return threat.fort_damage / total if total else 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"runs", "hold", "fort_hp": {"p10", "p50", "p90"}, "threats": [...]}`` and more keys."""
        falls = None
        if self.fall_rounds:
            falls = {f"p{p}": self.fall_percentile(p) for p in PERCENTILES}
        return {
            "runs": self.runs,
            "hold": self.hold,
            "hold_margin": round(self.margin, 6),
            "fort_hp": {f"p{p}": self.hp_percentile(p) for p in PERCENTILES},
            "fort_max_hp": self.fort_max_hp,
            "threats": [
                {
                    "unit": t.unit,
                    "fort_damage": round(self.mean_damage(t), 3),
                    "share": round(self.share(t), 6),
                }
                for t in self.threats
            ],
            "falls": {"runs": self.falls, "round": falls},
            "seed": self.seed,
        }


def percentile(counts: Iterable[tuple[int, int]], p: int) -> int:
    """The nearest-rank ``p``-th percentile of values given as (value, count), in value order: the
    smallest value with at least ``p`` % of the runs at or below it."""
    pairs = list(counts)
    total = sum(n for _, n in pairs)
    rank = max(1, -(-p * total // 100))
    seen = 0
    for value, n in pairs:
        seen += n
        if seen >= rank:
            return value
    raise ValueError("no values")


def plan(state: FortState, request: PlanRequest) -> OddsResult:
    """Plays the rest of ``state``'s battle ``request.runs`` times (``FastBattle``) from ``request.seed``."""
    battle = FastBattle(state, request, PlannerDice(request.seed))
    final: Counter[int] = Counter()
    fell: Counter[int] = Counter()
    run = battle.run
    for _ in range(request.runs):
        run()
        if battle.held:
            final[battle.fort] += 1
        else:
            final[0] += 1
            fell[battle.round] += 1
    ranked = sorted((-dealt, i) for i, dealt in enumerate(battle.damage) if dealt > 0)
    return OddsResult(
        runs=request.runs,
        held=request.runs - sum(fell.values()),
        seed=request.seed,
        rounds=state.rounds,
        round=state.round,
        fort_max_hp=state.fort_max_hp,
        final_hp=tuple(sorted(final.items())),
        fall_rounds=tuple(sorted(fell.items())),
        threats=tuple(Threat(state.units[i].name, -dealt) for dealt, i in ranked),
        attacks=request.attacks,
        equipment=request.equipment,
    )
