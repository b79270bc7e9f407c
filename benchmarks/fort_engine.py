"""Fort engine benchmark: commands per second on a 100-unit battle, and a command's cost as history grows.

Run: ``python benchmarks/fort_engine.py [--runs 5]``. The engine keeps no history (events are returned
per command), so the cost of a command must not depend on how many came before it. Every figure is the
median of ``--runs`` runs (of each 1,000-command chunk, each command type, each history level).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from engine.dice import SeededDice
from engine.fort import (
    FORT,
    AddPC,
    AddUnit,
    AttackArea,
    AttackSingle,
    FireBallista,
    FireCannon,
    FortCommand,
    FortState,
    LoadBallista,
    LoadCannon,
    MoveUnit,
    NextTurn,
    RemoveTrap,
    SetTrap,
    SetUnitHP,
    StartBattle,
)
from engine.ruleset import RuleError

AREAS = ("A2", "B2", "A1", "B1")
ACROSS = {"A2": "B2", "B2": "A2", "A1": "B1", "B1": "A1"}
UNITS = 100
HP = 10**9


def setup(dice: SeededDice) -> FortState:
    state = FORT.apply(None, StartBattle(rounds=99, fort_hp=100_000, title="bench"), dice).state
    commands: list[FortCommand] = [AddPC(name=f"PC{i}", hp=10**6, move=30, invoker=f"u{i}") for i in range(4)]
    commands += [
        AddUnit(
            name=f"U{i:03d}",
            type=("normal", "ram", "flying", "normal")[i % 4],
            area=AREAS[i % 4],
            hp=HP,
            fort_damage=5,
            strike="2d+6",
            defense=2,
            move=10,
        )
        for i in range(UNITS - 4)
    ]
    commands += [
        AddUnit(name=f"S{i}", type="soldier", area="F0", hp=HP, fort_damage=0, strike="2d+3")
        for i in range(4)
    ]
    commands += [
        SetTrap(kind="mine", edge="A1-F0", uses=99),
        SetTrap(kind="barricade", edge="B1-F0", uses=99),
    ]
    for command in commands:
        state = FORT.apply(state, command, dice).state
    return state


def mix(n: int) -> list[FortCommand]:
    """A typical command mix: attacks (single, area with catch dice), cannon and ballista, GM moves and HP,
    traps. Turns are timed apart (a battle has only 99 rounds)."""
    out: list[FortCommand] = []
    for k in range(n):
        u = f"U{(k * 7) % (UNITS - 4):03d}"
        pc = f"PC{k % 4}"
        match k % 20:
            case 0 | 1 | 2 | 3 | 4 | 5:
                out.append(AttackSingle(unit=u, bodies=1 + k % 10, by=pc))
            case 6 | 7 | 8:
                out.append(AttackArea(unit=u, damage="2d+10", radius=4 + k % 3, kind="magic", by=pc))
            case 9:
                out.append(LoadCannon(cannon=1, check=21, by=pc))
            case 10:
                out.append(FireCannon(cannon=1, unit=u, by=pc))
            case 11 | 12:
                i = (k // 20) % (UNITS - 4)  # to the neighbour across the field, then home again
                home = AREAS[i % 4]
                out.append(MoveUnit(unit=f"U{i:03d}", to=ACROSS[home] if k % 20 == 11 else home, force=True))
            case 13 | 14:
                out.append(SetUnitHP(unit=u, set=HP))
            case 15:
                out.append(LoadBallista(by=pc))
            case 16:
                out.append(FireBallista(unit=u, by=pc))
            case 17:
                out.append(SetTrap(kind="mine", edge="A2-A1", uses=1 + k % 5))
            case 18:
                out.append(RemoveTrap(kind="mine", edge="A2-A1"))
            case _:
                out.append(AttackSingle(unit=u, bodies=2, melee=False, by=pc))
    return out


def run(state: FortState, commands: list[FortCommand], dice: SeededDice) -> tuple[FortState, int]:
    refused = 0
    for command in commands:
        try:
            state = FORT.apply(state, command, dice).state
        except RuleError:
            refused += 1
    return state, refused


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    runs = ap.parse_args(argv).runs
    dice = SeededDice(2025)
    state = setup(dice)
    commands = mix(20_000)
    run(state, commands[:2000], dice)  # warm the caches
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} (on a shared machine wall time includes")
    print("waiting for a CPU; the CPU time of this process is the engine's own cost)")
    # The 20,000 commands in 20 chunks of 1,000, each chunk timed ``runs`` times from the state it
    # starts from, the median per chunk.
    chunks = [commands[k : k + 1000] for k in range(0, len(commands), 1000)]
    starts, current, refused = [], state, 0
    for chunk in chunks:
        starts.append(current)
        current, refused_here = run(current, chunk, dice)
        refused += refused_here
    wall = cpu = 0.0
    for start_state, chunk in zip(starts, chunks, strict=True):
        times = [timed(lambda s=start_state, c=chunk: run(s, c, dice)) for _ in range(runs)]
        wall += statistics.median(w for w, _ in times)
        cpu += statistics.median(c for _, c in times)
    n = len(commands)
    print(f"battle: {UNITS} units, {n:,} commands ({refused} refused by the rules),", end=" ")
    print(f"median of {runs} per 1,000")
    print(f"throughput: {n / cpu:,.0f} commands per CPU second ({cpu * 1e6 / n:.1f} µs CPU per command)")
    print(f"            {n / wall:,.0f} commands per wall second ({wall * 1e6 / n:.1f} µs)")

    print(f"\nby command (µs of CPU, median of {runs} passes over the same 5,000 commands of the mix; area")
    print("effects roll a catch d6 and damage for every unit caught)")
    passes: list[dict[str, float]] = []
    for _ in range(runs):
        totals: dict[str, list[float]] = {}
        here = state
        for command in commands[:5000]:
            start = time.process_time()
            try:
                after = FORT.apply(here, command, dice).state
            except RuleError:
                after = here
            totals.setdefault(type(command).__name__, []).append(time.process_time() - start)
            here = after
        passes.append({name: sum(times) / len(times) for name, times in totals.items()})
    for name in passes[0]:
        print(f"  {name:<14} {statistics.median(p[name] for p in passes) * 1e6:>8.1f}")
    turn = [NextTurn(), NextTurn()]
    t = statistics.median(timed(lambda: run(state, turn * 50, dice))[1] for _ in range(runs))
    print(f"  {'NextTurn':<14} {t * 1e6 / 100:>8.1f}  (enemy turn start with units at F0, round summary)")

    print("\nper-command cost as history grows (the same 1,000-command sample after N earlier commands;")
    print(f"levels timed in turn, median of {runs})")
    sample = mix(1000)
    levels = (0, 1_000, 10_000)
    states: dict[int, FortState] = {}
    later, done = state, 0
    for history in levels:
        later, _ = run(later, mix(history - done), dice)
        states[history], done = later, history
    at: dict[int, list[tuple[float, float]]] = {h: [] for h in levels}
    for _ in range(runs):
        for history in levels:
            at[history].append(timed(lambda s=states[history]: run(s, sample, dice)))
    print(f"{'history':>8} | {'µs CPU/command':>14} | {'µs wall/command':>15}")
    for history in levels:
        w = statistics.median(x for x, _ in at[history])
        c = statistics.median(y for _, y in at[history])
        print(f"{history:>8,} | {c * 1e6 / len(sample):>14.1f} | {w * 1e6 / len(sample):>15.1f}")


if __name__ == "__main__":
    main()
