"""Odds planner benchmark: 10,000 runs of a 20-unit, 5-round battle with a commander, the ballista and
soldiers, memory as the runs grow, and how long a small plan waits behind two big ones.

Run: ``python benchmarks/odds.py``. Prints the median time (CPU of this process and wall) of
10,000 runs over several repetitions, against the baseline measured in the same run: the same
battle played by the same policy through the engine itself (``engine.fort.planner.reference``,
one ``FORT.apply`` per command). Then the peak memory of a fresh process planning 1k, 10k and 50k
runs. Then the service's runner with one worker: a 1,000-run plan asked while two 100,000-run plans
of other channels run, its wait beside the same plan asked alone. The goals (issues 17, 26): 10,000
runs in at most 2 s of CPU; memory flat in the runs; the small plan answered long before the big.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from engine.dice import SeededDice
from engine.fort import (
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    FortCommand,
    FortState,
    GMSet,
    SetTrap,
    StartBattle,
)
from engine.fort.export import export_state
from engine.fort.planner import Focus, PlanRequest, parse_pc_damage, plan
from engine.fort.planner.reference import play

RUNS = 10_000
REPEATS = 5
BASELINE_RUNS = 300
MEMORY_RUNS = (1_000, 10_000, 50_000)
#: how many of each other command are timed with and without plans running
COMMANDS = 40
PC_DAMAGE = "Alice=K20+12@10,Bob=2d+10,Carol=K30+8:magic,Dave=2d+6"


def battle() -> FortState:
    """20 enemy units (normal, ram, flying; four reinforcements), mines and barricades, two soldiers at
    the top and one outside, two cannons with shells, the ballista loaded, a commander with a
    war-horn, four PCs, 5 rounds, fort 300."""
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
        AddUnit(name="S3", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d", position="outside"),
        AddCommander(name="隊長", hp=60, area="A2", horn="全員の打撃点+2"),
        GMSet(target="ballista.loaded", value="true"),
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
    return PlanRequest(
        runs=runs, attacks=parse_pc_damage(PC_DAMAGE), equipment=True, seed=seed, focus=Focus.COMMANDERS
    )


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
    print(f"battle: 20 enemy units, 3 soldiers, a commander, the ballista, 5 rounds, pc_damage {PC_DAMAGE},")
    print("        focus:commanders, repair:true")
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
    print(f"  {cpu * 1e6 / RUNS:.0f} µs CPU per run; {base_cpu / cpu:.0f}× the engine path; goal ≤ 2 s: "
          f"{'met' if cpu <= 2 else 'NOT met'}")  # fmt: skip

    print("\nmemory, each in a fresh process: the peak that planning allocated (tracemalloc) and the")
    print("process's peak resident size (ru_maxrss)")
    for runs in MEMORY_RUNS:
        out = subprocess.run(
            [sys.executable, __file__, "--memory", str(runs)], capture_output=True, text=True, check=True
        ).stdout.split()
        allocated, resident = int(out[0]) / 1024, int(out[1])
        print(f"  {runs:>7,} runs: {allocated:>8,.1f} KiB allocated at most, {resident:,} kB resident")
    asyncio.run(fairness(state))


async def fairness(state: FortState) -> None:
    """A 1,000-run plan asked while two 100,000-run plans of other channels run (one worker): how long
    it waited, beside the same plan alone; the big ones are then given up."""
    from bot.rulesets.fort.planner.runner import OddsRunner

    document = export_state(state)
    runner = OddsRunner(workers=1, time_limit=3600)
    try:
        started = time.perf_counter()
        await runner.run(document, request(1_000, 5), "alone")
        alone = time.perf_counter() - started
        big = [asyncio.create_task(runner.run(document, request(100_000, s), f"big{s}")) for s in (1, 2)]
        await asyncio.sleep(0.5)  # the big ones under way
        started = time.perf_counter()
        await runner.run(document, request(1_000, 5), "small")
        waited = time.perf_counter() - started
        done = [runner.progress(f"big{s}") for s in (1, 2)]
        for task in big:
            task.cancel()
        await asyncio.gather(*big, return_exceptions=True)
    finally:
        await runner.close()
    print("\nfair to every table (the service's runner, 1 worker, slices of 1,000 runs):")
    print(f"  a 1,000-run plan alone:                                   {alone:.2f} s wall")
    print(f"  the same asked while two 100,000-run plans of other channels run: {waited:.2f} s wall")
    print(f"  the big ones had done {done[0]:,} and {done[1]:,} runs of 100,000 each when it was answered")
    await commands_beside_plans()


async def commands_beside_plans() -> None:
    """The latency of other commands through the service (``/unit hp``, a write, and ``/fort status``)
    with no plan, and while two 100,000-run plans of other channels run: medians of ``COMMANDS``."""
    import tempfile

    from bot.rulesets.builtin import ensure_builtin
    from bot.service import Actor, BattleService, Invocation, Where
    from bot.storage import open_storage

    ensure_builtin()  # as every entry point of the bot
    gm = Actor("gm")
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(f"{folder}/battles.db")
        service = BattleService(storage, SeededDice(3))
        try:
            for channel in ("here", "east", "west"):
                where = Where("g", channel)
                await service.execute(where, gm, Invocation("fort start", {"rounds": 5, "title": channel}))
                unit = {"name": "U", "type": "normal", "area": "A2", "hp": 50, "fort_damage": 5}
                await service.execute(where, gm, Invocation("unit add", unit))

            async def medians() -> tuple[float, float]:
                here = Where("g", "here")
                times: tuple[list[float], list[float]] = ([], [])
                for _ in range(COMMANDS):
                    for kind, invocation in enumerate(
                        (Invocation("unit hp", {"unit": "U", "delta": 0}), Invocation("fort status", {}))
                    ):
                        started = time.perf_counter()
                        assert (await service.execute(here, gm, invocation)).ok
                        times[kind].append(time.perf_counter() - started)
                return statistics.median(times[0]) * 1e3, statistics.median(times[1]) * 1e3

            quiet = await medians()
            options = {"runs": 100_000, "pc_damage": "2d+4"}
            plans = [
                asyncio.create_task(
                    service.execute(Where("g", c), gm, Invocation("fort odds", dict(options)))
                )
                for c in ("east", "west")
            ]
            await asyncio.sleep(1.0)  # the plans under way
            busy = await medians()
            for task in plans:
                task.cancel()
            await asyncio.gather(*plans, return_exceptions=True)
        finally:
            await service.close()
            await storage.close()
    print(f"\nother commands through the service (SQLite), medians of {COMMANDS}:")
    print(f"  no plan running:               /unit hp {quiet[0]:.1f} ms, /fort status {quiet[1]:.1f} ms")
    print(f"  two 100,000-run plans running: /unit hp {busy[0]:.1f} ms, /fort status {busy[1]:.1f} ms")


if __name__ == "__main__":
    main()
