"""``plan(state, request)``: many runs of the rest of a battle, and what they say (``OddsResult``).

The runs are played in slices of ``SLICE_RUNS`` (``run_slice``), each from its own seed (the
request's and the slice's number), so that a service can interleave the slices of several plans and
still answer each as ``plan`` does; ``Tally.add`` sums slices in any order. What is kept does not grow
with the number of runs: how many runs ended with each fort HP, in each round of a fall, the fort
damage each unit dealt, and how often each commander stood at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

from engine.fort.planner.fast import FastBattle
from engine.fort.planner.omissions import Omission, not_played
from engine.fort.planner.request import Attack, Focus, PlanRequest
from engine.fort.planner.rolls import PlannerDice
from engine.fort.state import FortState

PERCENTILES = (10, 50, 90)
#: the runs of one slice: what a service runs of one plan before it turns to the next one
SLICE_RUNS = 1_000
#: a slice's seed is the request's shifted by this many bits, plus the slice's number
SLICE_BITS = 10


@dataclass(frozen=True, slots=True)
class Threat:
    """A unit and the fort damage it dealt, summed over every run."""

    unit: str
    fort_damage: int


@dataclass(frozen=True, slots=True)
class CommanderEnd:
    """A commander and the number of runs it stood at the end of (HP 1 or more)."""

    commander: str
    standing: int


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
    focus: Focus = Focus.THREATS
    #: F-UNIT-12, F-END-2: each commander and in how many runs it stood at the end
    commanders: tuple[CommanderEnd, ...] = ()
    #: the runs that held with a commander standing (the boss fight starts with its war-horn)
    held_standing: int = 0
    not_played: tuple[Omission, ...] = ()

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
            "commanders": [
                {"commander": c.commander, "standing": round(c.standing / self.runs, 6)}
                for c in self.commanders
            ],
            "held_with_commander": round(self.held_standing / self.runs, 6),
            "focus": self.focus.value,
            "not_played": [o.to_json() for o in self.not_played],
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


@dataclass(slots=True)
class Tally:
    """What some runs of one plan gave, summed (slices add up in any order)."""

    units: int
    commanders: int
    runs: int = 0
    final: Counter[int] = field(default_factory=Counter)
    fell: Counter[int] = field(default_factory=Counter)
    damage: list[int] = field(default_factory=list)
    standing: list[int] = field(default_factory=list)
    held_standing: int = 0

    def __post_init__(self) -> None:
        self.damage = self.damage or [0] * self.units
        self.standing = self.standing or [0] * self.commanders

    def add(self, other: Tally) -> None:
        self.runs += other.runs
        self.final.update(other.final)
        self.fell.update(other.fell)
        self.damage = [a + b for a, b in zip(self.damage, other.damage, strict=True)]
        self.standing = [a + b for a, b in zip(self.standing, other.standing, strict=True)]
        self.held_standing += other.held_standing


@dataclass(frozen=True, slots=True)
class Facts:
    """What an answer says of its battle besides the tally: its names, rounds, fort and omissions."""

    units: tuple[str, ...]
    commanders: tuple[str, ...]
    rounds: int
    round: int
    fort_max_hp: int
    not_played: tuple[Omission, ...]


def facts(state: FortState, request: PlanRequest) -> Facts:
    return Facts(
        units=tuple(u.name for u in state.units),
        commanders=tuple(c.name for c in state.commanders),
        rounds=state.rounds,
        round=state.round,
        fort_max_hp=state.fort_max_hp,
        not_played=not_played(state, request),
    )


def slice_runs(runs: int) -> tuple[int, ...]:
    """The runs of each slice of a plan of ``runs``: whole slices, then what is left."""
    whole, rest = divmod(runs, SLICE_RUNS)
    return (SLICE_RUNS,) * whole + ((rest,) if rest else ())


def run_slice(state: FortState, request: PlanRequest, k: int) -> Tally:
    """Slice ``k`` of the plan (``slice_runs``), from its own seed: ``FastBattle`` runs."""
    runs = slice_runs(request.runs)[k]
    battle = FastBattle(state, request, PlannerDice((request.seed << SLICE_BITS) + k))
    tally = Tally(len(state.units), len(state.commanders), runs=runs)
    final, fell, standing = tally.final, tally.fell, tally.standing
    run = battle.run
    for _ in range(runs):
        run()
        if battle.held:
            final[battle.fort] += 1
        else:
            final[0] += 1
            fell[battle.round] += 1
        up = False
        for c, hp in enumerate(battle.commander_hp):
            if hp > 0:
                standing[c] += 1
                up = True
        if up and battle.held:
            tally.held_standing += 1
    tally.damage = list(battle.damage)
    return tally


def answer(known: Facts, request: PlanRequest, tally: Tally) -> OddsResult:
    """The answer of a plan whose every slice is in ``tally``."""
    ranked = sorted((-dealt, i) for i, dealt in enumerate(tally.damage) if dealt > 0)
    return OddsResult(
        runs=tally.runs,
        held=tally.runs - sum(tally.fell.values()),
        seed=request.seed,
        rounds=known.rounds,
        round=known.round,
        fort_max_hp=known.fort_max_hp,
        final_hp=tuple(sorted(tally.final.items())),
        fall_rounds=tuple(sorted(tally.fell.items())),
        threats=tuple(Threat(known.units[i], -dealt) for dealt, i in ranked),
        attacks=request.attacks,
        equipment=request.equipment,
        focus=request.focus,
        commanders=tuple(CommanderEnd(n, s) for n, s in zip(known.commanders, tally.standing, strict=True)),
        held_standing=tally.held_standing,
        not_played=known.not_played,
    )


def plan(state: FortState, request: PlanRequest) -> OddsResult:
    """Plays the rest of ``state``'s battle ``request.runs`` times (``FastBattle``) from ``request.seed``:
    every slice in turn (``run_slice``), summed."""
    tally = Tally(len(state.units), len(state.commanders))
    for k in range(len(slice_runs(request.runs))):
        tally.add(run_slice(state, request, k))
    return answer(facts(state, request), request, tally)
