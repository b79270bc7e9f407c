"""Map picture benchmark: one map of a 100-unit battle (goal ≤ 30 ms) and its PNG size (goal ≤ 500 KB).

Run: ``python benchmarks/map_render.py [--runs N]``. Medians of N runs (15 by default), wall and CPU
time of this process, for:

- *redraw*: the same battle drawn again after a change: every cache warm (the live status message
  of a running battle, and ``/fort map``);
- *new battle*: a battle whose names were never drawn, by a process that has drawn Japanese before
  (glyphs kept, lines of text not);
- *cold*: the first map of a process (no glyph, line, tile or background kept);
- the parts of a redraw: layout (pure), drawing, PNG writing;
- the baseline, measured in the same run: the same picture written as a full-colour PNG with
  Pillow's defaults, which is what the fixed palette saves.

The machine is shared (2 CPUs, other engineers' test runs): wall time includes waiting for a CPU, so
the CPU time of this process is printed beside it, and the load average before the runs.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.render.picture import canvas
from bot.rulesets.fort.pictures import draw
from bot.rulesets.fort.pictures.layout import layout
from engine.dice import ScriptedDice
from engine.fort import FORT, AddCommander, AddPC, AddUnit, FortCommand, SetTrap, StartBattle

UNITS = 100
OUTER = ("A2", "A1", "B1", "B2")
EDGES = ("A2-A1", "A1-F0", "F0-B1", "B1-B2", "A1-B1", "A2-B2")
TYPES = ("normal", "ram", "flying", "normal", "soldier")


def battle(
    units: int = UNITS, pcs: int = 6, commanders: int = 3, traps: int = 12, cannons: int = 4
) -> dict[str, Any]:
    """A mid-battle: units over the four outer areas and F0, soldiers at F0's positions, some
    reinforcements to come, some units destroyed or hurt, weaknesses, traps on every edge."""
    commands: list[FortCommand] = [StartBattle(rounds=5, cannons=cannons, title="北の砦の防衛戦")]
    commands += [
        AddPC(name=f"冒険者{i}", position=("top", "inside", "outside")[i % 3], hp=40) for i in range(pcs)
    ]
    for i in range(units):
        kind = TYPES[i % len(TYPES)]
        commands.append(
            AddUnit(
                name=f"ゴブリン隊{i:03d}",
                type=kind,
                area="F0" if kind == "soldier" else OUTER[i % 4],
                hp=40,
                fort_damage=5,
                strike="2d+6",
                arrive_round=3 if i % 9 == 8 and kind != "soldier" else None,
            )
        )
    commands += [AddCommander(name=f"ゴブリンロード{i}", hp=90, area=OUTER[i % 4]) for i in range(commanders)]
    commands += [
        SetTrap(kind=("mine", "barricade")[i % 2], edge=EDGES[i % 6], uses=1 + i % 3) for i in range(traps)
    ]
    state = None
    for command in commands:
        state = FORT.apply(state, command, ScriptedDice([])).state
    doc = FORT.export(state)
    for i, unit in enumerate(doc["units"]):
        unit["hp"] = 40 - (i * 7) % 40
        unit["destroyed"] = i % 13 == 12
        if i % 3 == 0:
            unit["weakness"] = "炎属性ダメージ+3"
        if unit["type"] == "soldier":
            unit["position"] = ("top", "inside", "outside")[i % 3]
    doc["fort"]["hp"] = 214
    return doc


def forget_lines() -> None:
    canvas._mask.cache_clear()
    canvas.fit.cache_clear()


def forget_all() -> None:
    forget_lines()
    canvas._glyph.cache_clear()
    canvas._tile.cache_clear()
    canvas._line.cache_clear()
    draw._background.cache_clear()


def measure(
    fn: Callable[[], object], runs: int, before: Callable[[], None] | None = None
) -> tuple[float, float]:
    """Median (wall ms, CPU ms) of ``runs`` calls; ``before`` runs untimed before each."""
    walls, cpus = [], []
    for _ in range(runs):
        if before is not None:
            before()
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def full_colour_png(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    doc = battle()
    drawn = draw.map_png(doc, "ja")  # a first map: fonts loaded, caches warm
    on_map = sum(1 for u in doc["units"] if not u["destroyed"] and u["arrived"])
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} before the runs (shared)")
    people = f"{len(doc['pcs'])} PCs, {len(doc['commanders'])} commanders, {len(doc['traps'])} traps"
    print(f"battle: {len(doc['units'])} units ({on_map} on the map), {people}; medians of {runs} runs\n")

    def line(label: str, result: tuple[float, float], note: str = "") -> None:
        print(f"  {label:<34} {result[0]:>7.1f} ms wall {result[1]:>7.1f} ms CPU  {note}")

    print("one map, layout + drawing + PNG (goal ≤ 30 ms):")
    line("redraw (live status, /fort map)", measure(lambda: draw.map_png(doc, "ja"), runs))
    line("new battle (glyphs known)", measure(lambda: draw.map_png(doc, "ja"), runs, forget_lines))
    line("cold (first map of a process)", measure(lambda: draw.map_png(doc, "ja"), runs, forget_all))
    plan = layout(doc)
    painted = draw.draw(plan, "ja")
    print("the parts of a redraw:")
    line("layout (pure)", measure(lambda: layout(doc), runs))
    line("drawing", measure(lambda: draw.draw(plan, "ja"), runs))
    palette = measure(painted.png, runs)
    line("PNG, fixed palette", palette)
    baseline = measure(lambda: full_colour_png(painted.image), runs)
    line("baseline: PNG, full colour", baseline, f"({baseline[1] / max(palette[1], 1e-9):.1f}× the CPU)")
    print("\nPNG size (goal ≤ 500 KB):")
    full = len(full_colour_png(painted.image))
    print(f"  this battle: {len(drawn) / 1000:.0f} KB (full colour: {full / 1000:.0f} KB)")
    limits = battle(units=200, pcs=20, commanders=20, traps=40, cannons=10)
    print(f"  at the limits (200 units, 20 PCs, 20 commanders, 40 traps, 10 cannons): "
          f"{len(draw.map_png(limits, 'ja')) / 1000:.0f} KB")  # fmt: skip


if __name__ == "__main__":
    main()
