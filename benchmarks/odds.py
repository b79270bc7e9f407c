"""Odds planner benchmark: 10,000 runs of a 20-unit, 5-round battle, and memory as the runs grow.

Run: ``python benchmarks/odds.py``. Prints the median time (CPU of this process and wall) of
10,000 runs over several repetitions, against the baseline measured in the same run: the same
battle played by the same policy through the engine itself (``engine.fort.planner.reference``,
one ``FORT.apply`` per command). Then the peak memory of a fresh process planning 1k, 10k and 50k
runs. The goal (issue 17): 10,000 runs in at most 3 s on one core; memory flat in the runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from engine.dice import SeededDice
from engine.fort import FORT, AddPC, AddUnit, FortCommand, FortState, GMSet, SetTrap, StartBattle
from engine.fort.planner import PlanRequest, parse_pc_damage, plan
from engine.fort.planner.reference import play

RUNS = 10_000
REPEATS = 5
BASELINE_RUNS = 300
MEMORY_RUNS = (1_000, 10_000, 50_000)
PC_DAMAGE = "Alice=K20+12@10,Bob=2d+10,Carol=K30+8:magic,Dave=2d+6"


def battle() -> FortState:
    """20 enemy units (normal, ram, flying; four reinforcements), mines and barricades, two soldiers at
    the top, two cannons with shells, four PCs, 5 rounds, fort 300."""
    dice = SeededDice(0)
    state = FORT.apply(None, StartBattle(rounds=5, fort_hp=300, title="bench"), dice).state
    pcs = ("Alice", "Bob", "Carol", "Dave")
    commands: list[FortCommand] = [AddPC(name=n, position="top", invoker=n) for n in pcs]
    areas = ("A2", "B2", "A1", "B1")
    for i in range(20):
        kind = ("normal", "ram", "normal", "flying", "normal")[i % 5]
        commands.append(
            AddUnit(
                name=f"U{i:02d}",
                type=kind,
                area=areas[i % 4],
                hp=26 + 4 * (i % 5),
                fort_damage=7 + i % 4,
                strike="2d+6",
                defense=2,
                move=10 + 10 * (i % 2),
                arrive_round=2 + i % 3 if i >= 16 else None,
                weakness="炎属性ダメージ+3" if i % 7 == 0 else None,
            )
        )
    commands += [
        AddUnit(name="S1", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d+3"),
        AddUnit(name="S2", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d+3"),
        SetTrap(kind="mine", edge="A1-F0", uses=3),
        SetTrap(kind="mine", edge="A2-A1", uses=2),
        SetTrap(kind="barricade", edge="B1-F0", uses=2),
        SetTrap(kind="barricade", edge="B2-B1", uses=1),
        GMSet(target="cannon.1.shells", value="3"),
        GMSet(target="cannon.2.shells", value="2"),
    ]
    for command in commands:
        state = FORT.apply(state, command, dice).state
    return state


def request(runs: int, seed: int = 1) -> PlanRequest:
    return PlanRequest(runs=runs, attacks=parse_pc_damage(PC_DAMAGE), equipment=True, seed=seed)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def memory_child(runs: int) -> None:
    """In a fresh process: plan ``runs`` runs; print the peak of what planning allocated (tracemalloc,
    bytes) and the process's peak resident memory (kB)."""
    import resource
    import tracemalloc

    state = battle()
    tracemalloc.start()
    plan(state, request(runs))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def main() -> None:
    if sys.argv[1:2] == ["--memory"]:
        memory_child(int(sys.argv[2]))
        return
    state = battle()
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} (a shared machine: the CPU time of this")
    print("process is the planner's own cost; wall time includes waiting for a CPU)")
    result = plan(state, request(RUNS))
    print(f"battle: 20 enemy units, 2 soldiers, 5 rounds, pc_damage {PC_DAMAGE}, repair:true")
    print(f"        holds {result.hold:.1%}, fort HP p10/p50/p90 "
          f"{result.hp_percentile(10)}/{result.hp_percentile(50)}/{result.hp_percentile(90)}")  # fmt: skip

    # the baseline: the same policy through the engine, one FORT.apply per command
    dice = SeededDice(7)
    reference = [timed(lambda: play(state, request(RUNS), dice)) for _ in range(BASELINE_RUNS)]
    base_wall = statistics.median(w for w, _ in reference) * RUNS
    base_cpu = statistics.median(c for _, c in reference) * RUNS
    print(f"\nengine path (baseline, median of {BASELINE_RUNS} runs, scaled to {RUNS:,}): "
          f"{base_cpu:.1f} s CPU, {base_wall:.1f} s wall")  # fmt: skip

    times = [timed(lambda seed=seed: plan(state, request(RUNS, seed))) for seed in range(REPEATS)]
    wall = statistics.median(w for w, _ in times)
    cpu = statistics.median(c for _, c in times)
    print(f"planner (median of {REPEATS} × {RUNS:,} runs):              {cpu:.2f} s CPU, {wall:.2f} s wall")
    print(f"  {cpu * 1e6 / RUNS:.0f} µs CPU per run; {base_cpu / cpu:.0f}× the engine path; goal ≤ 3 s: "
          f"{'met' if cpu <= 3 else 'NOT met'}")  # fmt: skip

    print("\nmemory, each in a fresh process: the peak that planning allocated (tracemalloc) and the")
    print("process's peak resident size (ru_maxrss)")
    for runs in MEMORY_RUNS:
        out = subprocess.run(
            [sys.executable, __file__, "--memory", str(runs)], capture_output=True, text=True, check=True
        ).stdout.split()
        allocated, resident = int(out[0]) / 1024, int(out[1])
        print(f"  {runs:>7,} runs: {allocated:>8,.1f} KiB allocated at most, {resident:,} kB resident")


if __name__ == "__main__":
    main()
